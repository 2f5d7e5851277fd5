// What preset files share: the preset record, parameter lookup and the
// building blocks (bases, wheels, servos) every robot is assembled from.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "robots/robot.h"

namespace roverlab {

/// Parameter values of one build (defaults merged with overrides).
class ParamValues {
 public:
  explicit ParamValues(std::map<std::string, double> values) : values_(std::move(values)) {}
  double operator()(const std::string& name) const { return values_.at(name); }

 private:
  std::map<std::string, double> values_;
};

struct PresetDef {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  bool planarByDefault = false;
  bool pitchLocked = false;  ///< planar base without the pitch joint (a carriage in x and z)
  /// Adds the robot's bodies on top of `robot.base` (already created).
  void (*build)(const ParamValues& p, Robot& robot) = nullptr;
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

/// Adds a wheel on `parent` with its axle along y at `position` (parent frame,
/// m), using the wheel_* / tire_* / motor_* parameters. When `driven`, a speed
/// actuator drives it and joins the left (y ≥ 0) or right drive group.
int addWheel(Robot& robot, const ParamValues& p, int parent, const std::string& name,
             const Vec3& position, bool driven);

/// Adds a 1-DOF joint body with a box shape; returns its index.
int addLink(Robot& robot, const std::string& name, int parent, JointType joint, const Vec3& axis,
            const Vec3& position, double mass, const Vec3& box, const Vec3& boxCentre);

/// Adds a position servo (named in robot.joints) with a joint range kept by a
/// limit; its gain, damping and torque limit are the parameters named.
void addServo(Robot& robot, const ParamValues& p, const std::string& name, int body,
              const std::string& gain, const std::string& damping, const std::string& limit,
              double lower, double upper);

}  // namespace roverlab
