#include "bindings/rocker_api.h"

#include <Eigen/Geometry>

#include "common/size_optimized.h"
#include "kinematics/rocker_positioning.h"
#include "scenario/scenario.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

val rockerPoseToJs(const RockerPose& pose) {
  val out = val::object();
  out.set("s", pose.s);
  out.set("stance", pose.stance);
  out.set("reason", pose.reason);
  out.set("iterations", pose.iterations);
  if (!pose.stance) return out;
  const Eigen::Quaterniond q(pose.rotation);
  val quaternion = val::array();
  for (const double c : {q.x(), q.y(), q.z(), q.w()}) quaternion.call<void>("push", c);
  out.set("position", vec3ToJs(pose.position));
  out.set("quaternion", quaternion);  // [x, y, z, w], body to world
  out.set("yaw", pose.yaw);
  out.set("pitch", pose.pitch);
  out.set("roll", pose.roll);
  out.set("tilt", pose.tilt);
  val pivots = val::array(), angles = val::array(), gaps = val::array();
  for (int k = 0; k < 4; ++k) {
    pivots.call<void>("push", vec3ToJs(pose.pivots[k]));
    angles.call<void>("push", pose.rockerAngles[k]);
    gaps.call<void>("push", pose.pivotGaps[k]);
  }
  out.set("pivots", pivots);
  out.set("rockerAngles", angles);
  out.set("pivotGaps", gaps);
  val wheels = val::array();
  for (const RockerWheel& w : pose.wheels) {
    val wheel = val::object();
    wheel.set("centre", vec3ToJs(w.centre));
    wheel.set("contact", w.contact ? vec3ToJs(w.contactPoint) : val::null());
    wheel.set("clearance", w.clearance);
    wheels.call<void>("push", wheel);
  }
  out.set("wheels", wheels);
  val lines = val::object(), tracks = val::object();
  lines.set("left", pointsToJs(pose.centreLines[0]));
  lines.set("right", pointsToJs(pose.centreLines[1]));
  tracks.set("left", pointsToJs(pose.tracks[0]));
  tracks.set("right", pointsToJs(pose.tracks[1]));
  out.set("centreLines", lines);
  out.set("tracks", tracks);
  return out;
}

}  // namespace

val rockerPlaybackJs(val json, double step) {
  const Expected<std::string> text = jsonText(json);
  if (!text) return issuesResult(text.issues());
  const Expected<Scenario> scenario = parseScenario(text.value());
  if (!scenario) return issuesResult(scenario.issues());
  const Expected<RockerModel> model = makeRockerModel(scenario.value());
  if (!model) return issuesResult(model.issues());
  const Expected<std::vector<RockerPose>> poses = rockerPlayback(model.value(), step);
  if (!poses) return issuesResult(poses.issues());
  const RockerGeometry& g = model.value().geometry;
  val geometry = val::object();
  geometry.set("wheelRadius", g.wheelRadius);
  geometry.set("wheelWidth", g.wheelWidth);
  geometry.set("rockerArm", g.rockerArm);
  geometry.set("pivotHeight", g.pivotHeight);
  geometry.set("pivotSpacing", g.pivotSpacing);
  geometry.set("trackWidth", g.trackWidth);
  geometry.set("pivotLateral", g.pivotLateral);
  geometry.set("bodySize", vec3ToJs(g.bodySize));
  geometry.set("bodyCentre", vec3ToJs(g.bodyCentre));
  val list = val::array();
  for (const RockerPose& pose : poses.value()) list.call<void>("push", rockerPoseToJs(pose));
  val out = val::object();
  out.set("ok", true);
  out.set("length", track1Length(model.value()));
  out.set("geometry", geometry);
  out.set("poses", list);
  return out;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
