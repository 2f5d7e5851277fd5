// Robot presets: the papers' vehicles as ready multibody models with wheels,
// actuators, joint limits and springs. Every preset parameter has a name, a
// unit, a default and a valid range, and can be overridden from a scenario.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "dynamics/multibody.h"
#include "robots/description.h"
#include "robots/parts.h"

namespace roverlab {

/// One overridable preset parameter.
struct ParamSpec {
  std::string name;             ///< e.g. "wheel_radius"
  double value = 0.0;           ///< default
  double min = 0.0, max = 0.0;  ///< valid range (inclusive)
  std::string unit;             ///< e.g. "m", "kg", "N/m", "rad/s", "-"
  std::string description;
};

/// Initial pose of a robot's base: position of the base frame (m) and yaw,
/// pitch, roll (rad). Pitch is nose-up positive; planar robots use x, z and
/// pitch only.
struct Pose {
  Vec3 position = Vec3::Zero();
  double yaw = 0.0, pitch = 0.0, roll = 0.0;
};

/// Visual and collision shape of a body: a box in the body frame.
struct BodyBox {
  int body = -1;
  Vec3 centre = Vec3::Zero();  ///< (m), body frame
  Vec3 size = Vec3::Zero();    ///< (m)
};

/// A built robot: everything of a WorldModel except the terrain and the
/// simulation settings, plus how its controls map to actuators.
struct Robot {
  std::string name;  ///< the robot's name (its description's; a preset's is the preset's)
  Multibody bodies;
  std::vector<WheelModel> wheels;
  std::vector<Actuator> actuators;
  std::vector<JointLimit> limits;
  std::vector<JointSpring> springs;
  std::vector<JointFriction> frictions;  ///< Coulomb friction of the joints that have it
  std::vector<JointMimic> mimics;        ///< joints that follow others
  std::vector<BodyBox> boxes;            ///< shapes of the non-wheel bodies
  std::vector<int> leftDrive,
      rightDrive;  ///< actuator indices of driven wheels per side (y ≥ 0 is left)
  std::map<std::string, int> joints;  ///< named position actuators (e.g. "fold_front")
  std::vector<int> sections;          ///< bodies whose pitch is reported (base first)
  int base = 0;                       ///< the chassis body
  bool planar = false;                ///< base moves in x, z and pitch only
  double maxWheelSpeed = 1e300;       ///< wheel speed command limit (rad/s)
};

/// Names of all presets.
std::vector<std::string> presetNames();

/// One-line description of a preset; empty if unknown.
std::string presetDescription(const std::string& preset);

/// Parameters of a preset with defaults; empty if the name is unknown.
std::vector<ParamSpec> presetParams(const std::string& preset);

/// A preset's description with overrides (robots/description.h). Issues
/// name the parameter as `params.NAME` (unknown name, non-finite, out of
/// range) or `preset`.
Expected<RobotDescription> describePreset(const std::string& preset,
                                          const std::map<std::string, double>& overrides);

/// Builds a preset with overrides: its description compiled (robots/compile.h). `planar` forces the
/// planar base (x, z, pitch) on any preset. Issues name the parameter as `params.NAME` (unknown
/// name, non-finite, out of range) or `preset`.
Expected<Robot> buildRobot(const std::string& preset,
                           const std::map<std::string, double>& overrides, bool planar = false);

/// Writes the pose into the base joint coordinates of `state`.
void setBasePose(const Robot& robot, MultibodyState& state, const Pose& pose);

}  // namespace roverlab
