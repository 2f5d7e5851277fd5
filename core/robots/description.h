// A robot as data: its links, joints, wheels, actuators and controls, every
// number with its unit. The scenario reads one from JSON (`robot.model`,
// `robot.file`: scenario/robot_reader.h) or from URDF
// (scenario/urdf_reader.h); the presets are generators of descriptions
// (describePreset, robots/robot.h); compile (robots/compile.h) turns one into
// the Robot the step runs. The JSON form is
// specified field by field in docs/robot-format.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/types.h"
#include "contact/tire_model.h"
#include "contact/tread.h"
#include "dynamics/spatial.h"
#include "robots/parts.h"

namespace roverlab {

/// How the base link moves against the world.
enum class BaseKind : unsigned char {
  Free,      ///< "free": 6 DOF
  Planar,    ///< "planar": x, z and pitch (a side view)
  Carriage,  ///< "carriage": x and z only (planar, no pitch)
};

/// A frame placed in its parent frame: translation xyz (m), then the
/// rotation of URDF's rpy (rad): roll about x, pitch about y, yaw about z,
/// all about the parent's fixed axes (R = Rz(yaw)·Ry(pitch)·Rx(roll)).
struct Origin {
  Vec3 xyz = Vec3::Zero();
  Vec3 rpy = Vec3::Zero();
};

enum class ShapeKind : unsigned char { Box, Cylinder, Sphere, Hull };

/// A collision shape of a link, in its own frame placed at `origin` in the
/// link frame.
struct CollisionShape {
  ShapeKind kind = ShapeKind::Box;
  Origin origin;
  Vec3 size = Vec3::Zero();  ///< Box: edge lengths along x, y, z (m)
  double radius = 0.0;       ///< Cylinder (about z), Sphere (m)
  double length = 0.0;       ///< Cylinder: along z (m)
  std::vector<Vec3> points;  ///< Hull: the points whose convex hull is the shape (m)
};

struct LinkDescription {
  std::string name;
  double mass = 0.0;            ///< (kg); 0 only for a link that carries nothing
  Vec3 com = Vec3::Zero();      ///< centre of mass in the link frame (m)
  Mat3 inertia = Mat3::Zero();  ///< about the centre of mass, link-frame axes (kg·m²)
  std::vector<CollisionShape> collisions;
  std::string colour;  ///< "#rrggbb", or empty for the app's default
  int line = 0;        ///< the line of its <link> in a URDF (0: not from a URDF)
};

enum class JointKind : unsigned char {
  Fixed,       ///< "fixed": the child is welded to the parent (compile merges the links)
  Revolute,    ///< "revolute": about axis, rad, with limits
  Continuous,  ///< "continuous": about axis, rad, no limits
  Prismatic,   ///< "prismatic": along axis, m, with limits
};

/// A joint range kept by a stiff spring-damper outside [lower, upper]
/// (JointLimit): rad for revolute joints, m for prismatic ones.
struct LimitDescription {
  double lower = 0.0, upper = 0.0;
  double stiffness = 1e5;    ///< beyond the range: N·m/rad (N/m)
  double damping = 1e3;      ///< beyond the range: N·m·s/rad (N·s/m)
  CoefficientParams params;  ///< not in the JSON: the preset parameters behind both
};

/// A passive spring on the joint: τ = −(k e + k3 e³) with e = q − rest.
struct SpringDescription {
  double stiffness = 0.0;  ///< k: N·m/rad (N/m)
  double rest = 0.0;       ///< rad (m)
  double cubic = 0.0;      ///< k3: N·m/rad³ (N/m³)
};

/// q = multiplier · q_joint + offset (URDF <mimic>).
struct MimicDescription {
  std::string joint;
  double multiplier = 1.0;  ///< (-)
  double offset = 0.0;      ///< rad (m)
};

struct JointDescription {
  std::string name;
  JointKind kind = JointKind::Fixed;
  std::string parent, child;  ///< link names
  Origin origin;  ///< the joint frame (= the child's link frame at q = 0) in the parent's
  Vec3 axis = Vec3::UnitX();  ///< in the joint frame (any length > 0; compile normalises it)
  std::optional<LimitDescription> limit;  ///< revolute and prismatic joints
  double effort = 0.0;                    ///< URDF <limit effort>: N·m (N); 0: not given
  double velocity = 0.0;                  ///< URDF <limit velocity>: rad/s (m/s); 0: not given
  double damping = 0.0;                   ///< viscous: N·m·s/rad (N·s/m)
  double friction = 0.0;                  ///< Coulomb: N·m (N)
  SpringDescription spring;
  std::optional<MimicDescription> mimic;
  CoefficientParams params;  ///< not in the JSON: the preset parameters behind spring and damping
  int line = 0;              ///< the line of its <joint> in a URDF (0: not from a URDF)
};

/// A wheel: the child link of `joint` (revolute or continuous, about the
/// axle) spinning in contact with the terrain by the tire model.
struct WheelDescription {
  std::string joint;
  double radius = 0.0;  ///< free radius r (m)
  double width = 0.0;   ///< tread width (m)
  /// The inertia about the axle of the wheel with its drive train (the
  /// motor's rotor reflected through the gear, N²·I_rotor), kg·m²: when > 0
  /// it replaces the wheel link's own about the axle; 0: the link's own.
  double spinInertia = 0.0;
  TireParams tire;    ///< stiffness c_t (N/m), damping b_t (N·s/m), rolling_radius_ratio (-)
  TreadParams tread;  ///< stiffness σ0 (N/m), damping σ1 (N·s/m), ...
  CoefficientParams tireParams,
      treadParams;  ///< not in the JSON: the preset parameters behind them
};

/// A drive on one joint (Actuator): gains at the joint; its torque limit at
/// the motor, multiplied by gear_ratio at the joint.
struct ActuatorDescription {
  std::string name;
  std::string joint;
  ActuatorMode mode = ActuatorMode::Speed;
  double gain = 0.0;          ///< Speed: N·m·s/rad (N·s/m); Position: N·m/rad (N/m)
  double integralGain = 0.0;  ///< Speed: N·m/rad (N/m)
  double damping = 0.0;       ///< Position: N·m·s/rad (N·s/m)
  double limit = 0.0;         ///< motor torque (N·m) or force (N) limit
  double gearRatio = 1.0;     ///< joint torque / motor torque (-)
  CoefficientParams
      params;  ///< not in the JSON: the preset parameters behind gain and integral gain
};

/// What the scenario's commands drive.
struct ControlsDescription {
  std::vector<std::string> left, right;  ///< speed actuators of left_speed / right_speed
  std::vector<std::string> joints;       ///< position actuators named by joint targets
  double maxWheelSpeed = 1e300;          ///< largest wheel speed command (rad/s)
};

struct RobotDescription {
  std::string name;  ///< the robot's name (a preset's name for a preset)
  std::string base;  ///< the base link (the tree's root)
  BaseKind baseKind = BaseKind::Free;
  std::vector<LinkDescription> links;
  std::vector<JointDescription> joints;  ///< a tree over the links, rooted at the base
  std::vector<WheelDescription> wheels;
  std::vector<ActuatorDescription> actuators;
  ControlsDescription controls;
  std::vector<std::string> sections;  ///< links whose pitch is reported, after the base
};

}  // namespace roverlab
