// The compile step: a robot description (robots/description.h) becomes the
// Robot the step runs, checked as a whole: the joints form one tree rooted at
// the base, every name resolves, every link's inertia is one a rigid body can
// have, every moving joint carries mass. Fixed joints merge their child into
// the parent (masses, centres and inertias combined). Every refusal is an
// Issue at the description's path (e.g. `model.links[3].inertia`).
#pragma once

#include <string>
#include <vector>

#include "robots/description.h"
#include "robots/robot.h"

namespace roverlab {

/// Sizes a description may have.
constexpr int kMaxRobotLinks = 1000;
constexpr int kMaxRobotJoints = 1000;

struct CompileOptions {
  std::string path = "model";  ///< the description's place in issue paths
  bool planar = false;         ///< force a planar base (x, z, pitch) on a free one
};

/// The Robot of a description. `warnings` (when given) gets what was
/// approximated: a collision shape other than an unrotated box meets the
/// terrain as its bounding box in the link frame; a joint's Coulomb friction
/// is not modelled.
Expected<Robot> compileRobot(const RobotDescription& description,
                             const CompileOptions& options = {},
                             std::vector<Issue>* warnings = nullptr);

/// The rotation of URDF's rpy (rad): R = Rz(yaw)·Ry(pitch)·Rx(roll), the
/// identity exactly for rpy = 0.
Mat3 rpyRotation(const Vec3& rpy);

}  // namespace roverlab
