#include "scenario/mesh_reader.h"

#include <algorithm>
#include <cmath>

#include "common/elementary.h"
#include "common/size_optimized.h"
#include "scenario/obj_text.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

// The OBJ text of an entry, from "obj" or "file"; false with an issue.
bool objText(Reader& r, const json& m, const std::string& p, const ScenarioFiles& files,
             std::string& text, std::string& sourcePath) {
  const int sources = m.contains("obj") + m.contains("file");
  if (sources == 0) {
    r.add(p, "needs its surface: \"obj\" (OBJ text) or \"file\" (an OBJ file beside the scenario)");
    return false;
  }
  if (sources > 1) {  // each one named
    for (const char* key : {"obj", "file"})
      r.add(Reader::at(p, key), "is one of two sources of the surface; give \"obj\" or \"file\"");
    return false;
  }
  const std::string key = m.contains("obj") ? "obj" : "file";
  sourcePath = Reader::at(p, key);
  if (!m[key].is_string()) {
    r.add(sourcePath, "must be a string, got " + typeName(m[key]));
    return false;
  }
  if (key == "obj") {
    text = m[key].get<std::string>();
    return true;
  }
  if (!files) {
    r.add(sourcePath,
          "names a file, which only the command-line tool reads; embed the mesh as \"obj\" "
          "(its text) instead");
    return false;
  }
  std::string error;
  std::optional<std::string> bytes = files(m[key].get<std::string>(), error);
  if (!bytes) {
    r.add(sourcePath, "cannot read '" + clipped(m[key].get<std::string>()) + "': " + error);
    return false;
  }
  text = std::move(*bytes);
  return true;
}

// Reads one entry; returns the triangles it added to the builder.
long readMesh(Reader& r, const json& m, const std::string& p, TerrainBuilder& builder,
              double terrainBase, long budget,
              const std::function<int(const json&, const std::string&)>& materialOf,
              const ScenarioFiles& files) {
  if (!r.object(m, p, {"obj", "file", "scale", "offset", "yaw", "up", "material", "color", "base"}))
    return 0;
  const size_t before = r.issues.size();
  Vec3 scale = Vec3::Ones();
  const std::string scalePath = Reader::at(p, "scale");
  NumberSpec scaleSpec;
  scaleSpec.min = 1e-6;
  scaleSpec.max = 1e6;
  scaleSpec.unit = "m per file unit";
  scaleSpec.fallback = 1;
  if (m.contains("scale") && m["scale"].is_array()) {
    if (m["scale"].size() != 3) {
      r.add(scalePath, "must be a number or [sx, sy, sz] (m per file unit)");
    } else {
      for (int k = 0; k < 3; ++k)
        scale[k] = r.numberValue(m["scale"][k], Reader::at(scalePath, k), scaleSpec);
    }
  } else if (m.contains("scale")) {
    scale.setConstant(r.numberValue(m["scale"], scalePath, scaleSpec));
  }
  Vec3 offset = Vec3::Zero();
  if (m.contains("offset")) {
    const std::optional<Vec3> o = r.vec3(m["offset"], Reader::at(p, "offset"), 2);
    if (o) offset = *o;
  }
  NumberSpec yawSpec;
  yawSpec.min = -1e3;
  yawSpec.max = 1e3;
  yawSpec.unit = "rad";
  const double yaw = r.number(m, p, "yaw", yawSpec);
  const bool yUp = r.string(m, p, "up", "z", {"z", "y"}) == "y";
  const int material = materialOf(m, p);
  const std::uint32_t color = colour(r, m, p, 0x8a8a80);
  std::string text, sourcePath;
  if (!objText(r, m, p, files, text, sourcePath) || r.issues.size() != before) return 0;
  Expected<ObjMesh> obj = parseObj(text, budget);
  if (!obj) {
    for (const Issue& i : obj.issues()) r.add(sourcePath, i.message);
    return 0;
  }
  std::vector<Vec3> vertices = std::move(obj.value().vertices);
  const double c = elementary::cos(yaw), s = elementary::sin(yaw);
  double low = INFINITY;
  for (Vec3& v : vertices) {
    // A y-up file's (x, y, z) is the ground plane's (x, −z) and height y.
    if (yUp) v = Vec3(v.x(), -v.z(), v.y());
    v = v.cwiseProduct(scale);
    v = Vec3(c * v.x() - s * v.y(), s * v.x() + c * v.y(), v.z()) + offset;
    low = std::min(low, v.z());
  }
  const double base = r.number(m, p, "base", surfaceBaseSpec(std::min(terrainBase, low - 1.0)));
  if (r.issues.size() != before) return 0;
  const long triangles = static_cast<long>(obj.value().triangles.size());
  Expected<TriMesh> mesh =
      makeTriMesh(std::move(vertices), std::move(obj.value().triangles), base, material, color);
  if (!mesh) {
    for (const Issue& i : mesh.issues())
      r.add(i.path == "base" ? Reader::at(p, "base") : sourcePath, i.message);
    return 0;
  }
  builder.addMesh(std::move(mesh).value());
  return triangles;
}

}  // namespace

void readMeshes(Reader& r, const json& list, TerrainBuilder& builder, double base,
                const std::function<int(const json&, const std::string&)>& materialOf,
                const ScenarioFiles& files) {
  const std::string path = "terrain.meshes";
  long triangles = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string p = Reader::at(path, i);
    if (triangles >= kMaxMeshTriangles) {
      r.add(p, "the terrain's meshes would have more than " + std::to_string(kMaxMeshTriangles) +
                   " triangles in all, the limit (docs/scenario-format.md, \"Limits\")");
      return;
    }
    triangles +=
        readMesh(r, list[i], p, builder, base, kMaxMeshTriangles - triangles, materialOf, files);
  }
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
