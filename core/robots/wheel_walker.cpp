// `wheel-walker`: a wheel-walking machine in the x–z plane ([SP2017]'s stair
// scenario): a body on four legs, each swung by a position servo about a
// transverse hip axis and ending in a driven wheel. Lifting one leg at a time
// while the other three carry the body (its centre of mass stays between
// them) steps a wheel onto the next stair; driving the wheels moves the body.
#include "common/size_optimized.h"
#include "robots/preset_kit.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

std::vector<ParamSpec> params() {
  std::vector<ParamSpec> ps = {
      {"body_mass", 80.0, 1.0, 1e5, "kg", "body mass"},
      {"body_length", 1.4, 0.2, 10.0, "m", "body box length"},
      {"body_height", 0.2, 0.05, 5.0, "m", "body box height"},
      {"hip_spacing", 0.4, 0.1, 5.0, "m", "distance between adjacent hips along the body"},
      {"leg_length", 0.35, 0.05, 3.0, "m", "hip to wheel axle"},
      {"leg_mass", 3.0, 0.1, 1e3, "kg", "mass of each leg"},
      {"leg_range", 2.0, 0.1, 3.1, "rad", "legs swing ±leg_range"},
      {"leg_gain", 1500.0, 0.0, 1e6, "N·m/rad", "leg servo stiffness"},
      {"leg_damping", 150.0, 0.0, 1e5, "N·m·s/rad", "leg servo damping"},
      {"leg_torque_limit", 250.0, 0.0, 1e5, "N·m", "leg servo torque limit"},
  };
  for (ParamSpec& s : wheelParams(0.15, 0.1, 3.0, 0.034, 1.0e5, 1.0e3, 60.0, 60.0, 6.0))
    ps.push_back(s);
  return ps;
}

void build(const ParamValues& p, RobotDescription& robot) {
  const double spacing = p("hip_spacing"), length = p("leg_length");
  const char* names[] = {"1", "2", "3", "4"};  // front to rear
  for (int i = 0; i < 4; ++i) {
    // Positive swing moves the wheel forward and up (rotation about −y).
    const std::string leg = std::string("leg_") + names[i];
    addLink(robot, leg, "base", JointKind::Revolute, -Vec3::UnitY(),
            Vec3((1.5 - i) * spacing, 0, 0), p("leg_mass"), Vec3(0.05, 0.05, length),
            Vec3(0, 0, -length / 2));
    addServo(robot, p, leg, leg, "leg_gain", "leg_damping", "leg_torque_limit", -p("leg_range"),
             p("leg_range"));
    addWheel(robot, p, leg, std::string("wheel_") + names[i], Vec3(0, 0, -length), true);
  }
}

}  // namespace

const PresetDef& wheelWalkerPreset() {
  static const PresetDef def = {
      "wheel-walker",
      "[SP2017]'s wheel-walking machine in the x–z plane: four legs with servo hips and driven "
      "wheels",
      params(),
      true,
      false,
      build,
      "body_mass",
      [](const ParamValues& p) -> Vec3 { return Vec3(p("body_length"), 0.4, p("body_height")); },
      [](const ParamValues&) -> Vec3 { return Vec3::Zero(); },
  };
  return def;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
