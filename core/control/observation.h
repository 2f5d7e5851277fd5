// What a controller sees at each update, and what it commands: one vocabulary
// for the built-in controllers (control/step_climb.h) and for programs that
// users write in JavaScript or Python (docs/controllers.md). Names carry their
// units, as the telemetry columns do.
//
// An Observation is filled in place (observe): after its first update a run
// allocates nothing for it. A Command addresses actuators by index; names are
// looked up once (actuatorIndex).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "world/world.h"

namespace roverlab {

/// One wheel contact: where, which way, how hard.
struct TouchObservation {
  Vec3 point_m = Vec3::Zero();  ///< the nearest point of the touched surface (m), world frame
  Vec3 normal = Vec3::Zero();   ///< unit normal of the surface, out of the terrain
  double normal_N = 0.0;        ///< normal force on the wheel (N)
  double tangential_N = 0.0;    ///< tangential (friction) force on the wheel (N)
  double slip = 0.0;            ///< slip of this contact: s (-) or S (m/s), per simulation.slip
};

struct WheelObservation {
  int body = -1;                 ///< the wheel's body
  Vec3 centre_m = Vec3::Zero();  ///< wheel centre, world frame (m)
  double spin_rad_s = 0.0;       ///< spin joint speed (rad/s)
  double normal_N = 0.0;         ///< sum of the contacts' normal forces (N)
  double tangential_N = 0.0;     ///< sum of their tangential forces (N)
  double slip = 0.0;             ///< the largest slip among its contacts (0 without contact)
  /// The ground under the centre (terrain/terrain.h, groundUnder): the highest
  /// terrain surface on the vertical through it, not above it (m); NaN over nothing.
  double ground_z_m = 0.0;
  std::vector<TouchObservation> touches;  ///< one per contact (size: the contact count)
};

/// A 1-DOF joint (wheels' spin joints excluded): revolute in rad, rad/s, N·m;
/// prismatic in m, m/s, N.
struct JointObservation {
  int body = -1;
  bool prismatic = false;
  double position = 0.0;  ///< rad or m
  double velocity = 0.0;  ///< rad/s or m/s
  double effort = 0.0;    ///< the actuator's and springs' torque (N·m) or force (N) last step
};

/// A body's pose in the world.
struct LinkObservation {
  int body = -1;
  Vec3 position_m = Vec3::Zero();              ///< frame origin (m)
  Mat3 rotation = Mat3::Identity();            ///< body → world coordinates
  Vec3 velocity_m_s = Vec3::Zero();            ///< of the frame origin (m/s), world frame
  Vec3 angular_velocity_rad_s = Vec3::Zero();  ///< world frame (rad/s)
};

/// A body box's contacts with the terrain.
struct BoxObservation {
  int contacts = 0;
  double normal_N = 0.0;      ///< sum of the normal forces (N)
  double tangential_N = 0.0;  ///< sum of the tangential forces (N)
};

struct Observation {
  double time_s = 0.0;
  std::vector<LinkObservation>
      links;  ///< every body, in the model's order; the base's at robot.base
  std::vector<JointObservation> joints;  ///< every 1-DOF joint but the wheels' spin
  std::vector<WheelObservation> wheels;  ///< in the robot's wheel order
  std::vector<BoxObservation> boxes;     ///< in the model's box order
  std::vector<int> near;                 ///< scratch of the ground probe
};

/// Whether observe() lists the joint of `body`: a 1-DOF joint, not a wheel's spin.
bool isObservedJoint(const Robot& robot, int body);

/// Fills `out` from a world whose kinematics and contacts are current (the
/// last step's results), reusing its buffers.
void observe(const WorldModel& model, const WorldState& state, const WorldData& data,
             Observation& out);

/// Marks a command value left unset.
constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();

/// What a controller commands at an update. Unset values (kUnset) keep the
/// previous command.
struct Command {
  double wheel_speed_rad_s = kUnset;                             ///< every driven wheel
  double left_speed_rad_s = kUnset, right_speed_rad_s = kUnset;  ///< per side (y ≥ 0 is left)
  /// Per actuator, in its mode's unit: speed (rad/s or m/s), position (rad or
  /// m) or torque (N·m or N). Sized to the robot's actuators by clear().
  std::vector<double> actuators;

  void clear(size_t actuatorCount) {
    wheel_speed_rad_s = left_speed_rad_s = right_speed_rad_s = kUnset;
    actuators.assign(actuatorCount, kUnset);
  }
};

/// Index of the actuator named `name`; -1 when there is none.
int actuatorIndex(const Robot& robot, const std::string& name);

}  // namespace roverlab
