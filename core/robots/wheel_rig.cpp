// `wheel-rig`: one driven wheel under a carriage that is free in x and z (no
// pitch), loaded by the carriage's weight: the classic single-wheel step rig.
#include "common/size_optimized.h"
#include "robots/preset_kit.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

std::vector<ParamSpec> params() {
  std::vector<ParamSpec> ps = {
      {"body_mass", 50.0, 0.1, 1e4, "kg",
       "carriage mass: the vertical load is (body_mass + wheel_mass)·g"},
  };
  for (ParamSpec& s : wheelParams(0.19, 0.12, 5.0, 0.09, 2.0e5, 2.0e3, 100.0, 200.0, 20.0))
    ps.push_back(s);
  return ps;
}

void build(const ParamValues& p, RobotDescription& robot) {
  addWheel(robot, p, "base", "wheel", Vec3::Zero(), true);
}

}  // namespace

const PresetDef& wheelRigPreset() {
  static const PresetDef def = {
      "wheel-rig",
      "one speed-controlled wheel under a carriage free in x and z: the single-wheel step test rig",
      params(),
      /*planarByDefault=*/true,
      /*pitchLocked=*/true,
      build,
      "body_mass",
      [](const ParamValues&) -> Vec3 { return Vec3(0.3, 0.1, 0.1); },
      [](const ParamValues&) -> Vec3 { return Vec3::Zero(); },
  };
  return def;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
