#include "bindings/editor_api.h"

#include <cstdint>

#include "common/size_optimized.h"
#include "scenario/scenario.h"
#include "terrain/builders.h"
#include "terrain/track1.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

val quadToJs(const Quad& q, std::uint32_t color) {
  val corners = val::array();
  for (const Vec3& c : q.corners) corners.call<void>("push", vec3ToJs(c));
  val out = val::object();
  out.set("corners", corners);  // a, b, b', a'
  out.set("sideAB", vec3ToJs(q.sideAB));
  out.set("sideAM", vec3ToJs(q.sideAM));
  out.set("normal", vec3ToJs(q.normal));
  out.set("offset", q.offset);  // plane: normal · x = offset
  out.set("color", color);
  return out;
}

val track1NodeToJs(const Track1Node& n) {
  val out = val::object();
  out.set("point", vec3ToJs(n.point));
  out.set("linePoint", vec3ToJs(n.linePoint));
  out.set("lineDir", vec3ToJs(n.lineDir));
  out.set("edgeLength", n.edgeLength);
  out.set("normal", vec3ToJs(n.normal));
  return out;
}

}  // namespace

val inspectTerrainJs(val json) {
  const Expected<std::string> text = jsonText(json);
  TerrainInspection inspection;
  if (text)
    inspection = inspectTerrain(text.value());
  else
    inspection.issues = text.issues();
  val out = val::object();
  out.set("ok", inspection.issues.empty());
  out.set("issues", issuesToJs(inspection.issues));
  val quads = val::object();
  for (int side = 0; side < 2; ++side) {
    const auto& row = side == 0 ? inspection.leftSegments : inspection.rightSegments;
    val list = val::array();
    for (size_t i = 0; i < row.size(); ++i)
      list.call<void>("push", row[i] ? quadToJs(*row[i], quadColor(side, i)) : val::null());
    quads.set(side == 0 ? "left" : "right", list);
  }
  out.set("quads", quads);
  val track1 = val::array();
  for (const Track1Node& n : inspection.track1) track1.call<void>("push", track1NodeToJs(n));
  out.set("track1", track1);
  out.set("terrain", inspection.terrain ? terrainToJs(*inspection.terrain) : val::null());
  return out;
}

val moveTrack1NodeJs(val json, int index, int axis, double value) {
  const Expected<std::string> text = jsonText(json);
  if (!text) return issuesResult(text.issues());
  const TerrainInspection inspection = inspectTerrain(text.value());
  if (!inspection.issues.empty()) return issuesResult(inspection.issues);
  if (index < 0 || index >= static_cast<int>(inspection.track1.size()))
    return issuesResult({{"track1.nodes", "has no node " + std::to_string(index) + " (it has " +
                                              std::to_string(inspection.track1.size()) + ")"}});
  const std::string path = "track1.nodes[" + std::to_string(index) + "]";
  const Expected<Track1Node> moved = moveTrack1Node(inspection.track1[index], axis, value);
  if (!moved) return issuesResult(prefixed(path, moved.issues()));
  val out = val::object();
  out.set("ok", true);
  out.set("point", vec3ToJs(moved.value().point));
  return out;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
