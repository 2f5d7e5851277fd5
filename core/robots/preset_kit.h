// What preset files share: the preset record, parameter lookup and the
// building blocks (links, wheels, servos) every preset's description is
// assembled from.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "robots/description.h"
#include "robots/robot.h"

namespace roverlab {

/// Parameter values of one build (defaults merged with overrides).
class ParamValues {
 public:
  explicit ParamValues(std::map<std::string, double> values) : values_(std::move(values)) {}
  double operator()(const std::string& name) const { return values_.at(name); }
  /// The parameter's place in issue paths below `robot`: "params.NAME".
  static std::string path(const std::string& name) { return name.empty() ? "" : "params." + name; }

 private:
  std::map<std::string, double> values_;
};

struct PresetDef {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  bool planarByDefault = false;
  bool pitchLocked = false;  ///< planar base without the pitch joint (a carriage in x and z)
  /// Adds the robot's links on top of the link "base" (already described).
  void (*build)(const ParamValues& p, RobotDescription& robot) = nullptr;
  /// Base body: mass (kg), box size (m) and box centre in the base frame (m).
  const char* baseMass = "body_mass";
  Vec3 (*baseBox)(const ParamValues& p) = nullptr;
  Vec3 (*baseBoxCentre)(const ParamValues& p) = nullptr;
};

const PresetDef& wheelRigPreset();
const PresetDef& articulated6Preset();
const PresetDef& rocker8Preset();
const PresetDef& planarVehiclePreset();
const PresetDef& wheelWalkerPreset();

/// Rotational inertia of a solid box of mass m (kg) and size s (m) about its centre.
Mat3 boxInertia(double m, const Vec3& s);

/// Common wheel parameters (radius, width, mass, inertia, tire, motor).
std::vector<ParamSpec> wheelParams(double radius, double width, double mass, double inertia,
                                   double stiffness, double damping, double motorGain,
                                   double torqueLimit, double maxSpeed);

/// Adds a wheel link on `parent` on a continuous joint of the same name,
/// its axle along y at `position` (parent frame, m), using the wheel_* /
/// tire_* / motor_* parameters. When `driven`, a speed actuator of that name
/// drives it and joins the left (y ≥ 0) or right controls.
void addWheel(RobotDescription& robot, const ParamValues& p, const std::string& parent,
              const std::string& name, const Vec3& position, bool driven);

/// Adds a link with a box shape (when every edge of `box` is > 0, at
/// `boxCentre`, also its centre of mass) on a 1-DOF joint of the same name
/// at `position` in the parent frame; returns the joint (valid until the
/// next joint is added).
JointDescription& addLink(RobotDescription& robot, const std::string& name,
                          const std::string& parent, JointKind joint, const Vec3& axis,
                          const Vec3& position, double mass, const Vec3& box,
                          const Vec3& boxCentre);

/// Adds a position servo `name` on `joint` (listed in the controls' joints)
/// with the joint's range kept by a limit; its gain, damping and torque
/// limit are the parameters named.
void addServo(RobotDescription& robot, const ParamValues& p, const std::string& name,
              const std::string& joint, const std::string& gain, const std::string& damping,
              const std::string& limit, double lower, double upper);

}  // namespace roverlab
