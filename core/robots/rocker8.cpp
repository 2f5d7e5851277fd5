// `rocker8`: the 8-wheel rover of [KJ2025] (like Lunokhod): a box body with two
// free rockers (balancers) per side, each carrying two wheels; wheel planes
// parallel to the body sides, no steering (skid steering by side speeds).
// Numbering as in the paper: wheels 1-4 left (1 in front), 5-8 right;
// rockers 1-2 left, 3-4 right. The base frame is at the height of the rocker
// pivots, midway between them.
#include <algorithm>

#include "common/size_optimized.h"
#include "robots/preset_kit.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

std::vector<ParamSpec> params() {
  std::vector<ParamSpec> ps = {
      {"body_mass", 600.0, 1.0, 1e5, "kg", "body mass"},
      {"body_length", 1.6, 0.2, 10.0, "m", "body box length"},
      {"body_width", 1.0, 0.2, 10.0, "m", "body box width"},
      {"body_height", 0.4, 0.05, 5.0, "m", "body box height"},
      {"rocker_mass", 15.0, 0.1, 1e3, "kg", "mass of each rocker"},
      {"rocker_arm", 0.35, 0.05, 3.0, "m", "half the distance between a rocker's two axles"},
      {"pivot_height", 0.2, 0.0, 2.0, "m", "H_p: pivot above the axle line of its two wheels"},
      {"pivot_spacing", 1.1, 0.2, 10.0, "m",
       "distance between the front and rear pivots of a side"},
      {"track_width", 1.4, 0.3, 10.0, "m", "lateral distance between left and right wheel centres"},
      {"rocker_range", 0.7, 0.05, 1.5, "rad", "rocker swing ±rocker_range before its bump stop"},
      {"rocker_damping", 50.0, 0.0, 1e5, "N·m·s/rad", "rocker pivot damping (0: free)"},
  };
  for (ParamSpec& s : wheelParams(0.25, 0.2, 10.0, 0.3, 2.0e5, 2.0e3, 300.0, 150.0, 4.0))
    ps.push_back(s);
  return ps;
}

void build(const ParamValues& p, RobotDescription& robot) {
  const double y = p("track_width") / 2, arm = p("rocker_arm"), hp = p("pivot_height");
  const double px = p("pivot_spacing") / 2;
  const double pivotY = std::min(y - 0.5 * p("wheel_width") - 0.02, p("body_width") / 2 + 0.05);
  int wheel = 1, rocker = 1;
  for (const double side : {1.0, -1.0}) {
    for (const double x : {px, -px}) {
      const std::string name = "rocker_" + std::to_string(rocker++);
      JointDescription& j = addLink(robot, name, "base", JointKind::Revolute, Vec3::UnitY(),
                                    Vec3(x, side * pivotY, 0), p("rocker_mass"),
                                    Vec3(2 * arm, 0.06, 0.08), Vec3(0, 0, -hp / 2));
      LimitDescription stop;  // fixed bump stop
      stop.lower = -p("rocker_range"), stop.upper = p("rocker_range");
      j.limit = stop;
      j.damping = p("rocker_damping");
      j.params = {"", ParamValues::path("rocker_damping")};
      for (const double dx : {arm, -arm})
        addWheel(robot, p, name, "wheel_" + std::to_string(wheel++),
                 Vec3(dx, side * (y - pivotY), -hp), true);
    }
  }
}

}  // namespace

const PresetDef& rocker8Preset() {
  static const PresetDef def = {
      "rocker8",
      "[KJ2025]'s 8-wheel rover: box body, two free rockers per side with two wheels each, skid "
      "steering",
      params(),
      false,
      false,
      build,
      "body_mass",
      [](const ParamValues& p) -> Vec3 {
        return Vec3(p("body_length"), p("body_width"), p("body_height"));
      },
      [](const ParamValues& p) -> Vec3 { return Vec3(0, 0, 0.5 * p("body_height") - 0.1); },
  };
  return def;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
