// `articulated6`: the 6-wheel three-section robot of [GKS2025] (Table 1, Fig. 8).
//
// Geometry where the paper is silent (documented in docs/robots.md):
// the middle section is the base, its frame at the middle axle centre. Front
// and rear sections hang on fold axes (transverse, at ±wheelbase/4 along x and
// fold_axis_height above the axle line: Fig. 8's 0.135 m); each section is a
// fold link plus an extension slide along the section, carrying one wheel
// pair. Sections straight and retracted: axles at x = −wheelbase/2, 0,
// +wheelbase/2, all at the same height. Masses: middle 42 kg, each end 5 kg
// (fold link) + 25 kg (extension), six 4 kg wheels: 126 kg in all.
#include <cmath>

#include "common/size_optimized.h"
#include "robots/preset_kit.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

std::vector<ParamSpec> params() {
  std::vector<ParamSpec> ps = {
      {"body_mass", 42.0, 0.1, 1e4, "kg", "middle section mass (without wheels)"},
      {"fold_link_mass", 5.0, 0.1, 1e3, "kg", "mass of each fold link"},
      {"section_mass", 25.0, 0.1, 1e3, "kg",
       "mass of each end section's extension body (without wheels)"},
      {"wheelbase", 0.86, 0.3, 3.0, "m", "front to rear axle, sections straight and retracted"},
      {"track_width", 0.6, 0.2, 3.0, "m", "lateral distance between left and right wheel centres"},
      {"fold_axis_height", 0.135, 0.0, 0.5, "m",
       "height of the fold axes above the axle line (Fig. 8)"},
      {"max_fold", M_PI / 2, 0.0, M_PI / 2, "rad", "fold range ±max_fold"},
      {"max_extension", 0.18, 0.0, 0.5, "m",
       "extension range 0..max_extension of each end section"},
      {"fold_gain", 5000.0, 0.0, 1e6, "N·m/rad", "fold servo stiffness"},
      {"fold_damping", 300.0, 0.0, 1e5, "N·m·s/rad", "fold servo damping"},
      {"fold_torque_limit", 800.0, 0.0, 1e5, "N·m", "fold drive torque limit"},
      {"extension_gain", 2.0e4, 0.0, 1e7, "N/m", "extension servo stiffness"},
      {"extension_damping", 1000.0, 0.0, 1e6, "N·s/m", "extension servo damping"},
      {"extension_force_limit", 2000.0, 0.0, 1e6, "N", "extension drive force limit"},
  };
  for (ParamSpec& s : wheelParams(0.19, 0.12, 4.0, 0.072, 1.0e5, 1.0e3, 100.0, 60.0, 5.0))
    ps.push_back(s);
  return ps;
}

void build(const ParamValues& p, RobotDescription& robot) {
  const double half = p("wheelbase") / 2, quarter = p("wheelbase") / 4, h = p("fold_axis_height");
  const double y = p("track_width") / 2;
  addWheel(robot, p, "base", "wheel_middle_left", Vec3(0, y, 0), true);
  addWheel(robot, p, "base", "wheel_middle_right", Vec3(0, -y, 0), true);
  for (const double side : {1.0, -1.0}) {
    const std::string end = side > 0 ? "front" : "rear";
    // Positive fold raises the section's wheels: about −y at the front, +y at the rear.
    const std::string fold = "fold_" + end, section = "section_" + end;
    addLink(robot, fold, "base", JointKind::Revolute, Vec3(0, -side, 0), Vec3(side * quarter, 0, h),
            p("fold_link_mass"), Vec3(0.1, 0.4, 0.1), Vec3::Zero());
    addLink(robot, section, fold, JointKind::Prismatic, Vec3(side, 0, 0), Vec3::Zero(),
            p("section_mass"), Vec3(0.3, 0.4, 0.15), Vec3(side * 0.1, 0, -h / 2));
    addServo(robot, p, fold, fold, "fold_gain", "fold_damping", "fold_torque_limit", -p("max_fold"),
             p("max_fold"));
    addServo(robot, p, "extend_" + end, section, "extension_gain", "extension_damping",
             "extension_force_limit", 0.0, p("max_extension"));
    addWheel(robot, p, section, "wheel_" + end + "_left", Vec3(side * (half - quarter), y, -h),
             true);
    addWheel(robot, p, section, "wheel_" + end + "_right", Vec3(side * (half - quarter), -y, -h),
             true);
    robot.sections.push_back(section);
  }
}

}  // namespace

const PresetDef& articulated6Preset() {
  static const PresetDef def = {
      "articulated6",
      "[GKS2025]'s 6-wheel three-section robot (126 kg, r = 0.19 m) with fold and extension drives",
      params(),
      false,
      false,
      build,
      "body_mass",
      [](const ParamValues&) -> Vec3 { return Vec3(0.5, 0.4, 0.2); },
      [](const ParamValues&) -> Vec3 { return Vec3(0, 0, 0.05); },
  };
  return def;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
