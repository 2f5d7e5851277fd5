// A URDF robot (ROS's Unified Robot Description Format, XML) read into a
// robot description (robots/description.h), its STL collision meshes read
// beside it through ScenarioFiles (scenario/stl_reader.h). The reader
// translates: it checks what the file says on its own (well-formed XML
// within the limits below, numbers, names, one tree of links, readable
// meshes) and leaves the physics (masses, inertias, ranges) to the compile
// step (robots/compile.h). XML is parsed by RapidXML (Debian
// librapidxml-dev, header-only), which expands only XML's predefined entities
// and character references; a document type declaration (where other
// entities would be declared) is refused before it runs.
//
// What is read:
// - <robot name> → name.
// - <link name>: <inertial> (<origin xyz rpy>, <mass value>, <inertia ixx ixy
//   ixz iyy iyz izz>) → mass, com = the origin's xyz, inertia = R·I·Rᵀ with R
//   of the origin's rpy (a link without <inertial> has mass 0 and inertia 0);
//   every <collision> (<origin>, <geometry> box size | cylinder radius length
//   | sphere radius | mesh filename scale) → a collision shape, a mesh as a
//   Hull of the vertices of the STL's convex hull (scaled); the colour of the
//   first <visual> with a <material> that has (or names a top-level
//   <material> that has) <color rgba> → "#rrggbb".
// - <joint name type> (fixed, revolute, continuous, prismatic): <origin>,
//   <parent link>, <child link>, <axis xyz> (default 1 0 0), <limit lower
//   upper effort velocity> (required for revolute and prismatic joints;
//   lower and upper default to 0), <dynamics damping friction>, <mimic joint
//   multiplier offset>. A floating joint is read only from an empty root link
//   (the world) to the base: both are left out and the base moves freely; a
//   planar joint likewise when its axis is ±y (a planar base: x, z, pitch).
// - <transmission> with one <joint name> and at most one <actuator name>
//   (ROS 1: <type>…SimpleTransmission</type>, <hardwareInterface>,
//   <mechanicalReduction>; ROS 2: <plugin>, <mechanical_reduction>), and
//   <ros2_control><joint name><command_interface name> for joints no
//   transmission names: the joint's drive, named after the actuator (else
//   the joint), gear ratio = the mechanical reduction, mode from the
//   interface (velocity → Speed, position → Position, effort → Torque).
//
// What is made of it:
// - base = the root link (the one link that is no joint's child), kept as it
//   is (a massless base_footprint too: compile merges fixed joints).
// - A wheel for every continuous joint whose child link has a cylinder
//   collision with its axis parallel to the joint axis (within 1e-3 rad):
//   the largest such cylinder's radius, and its length as the width. Without
//   one, a wheel fitted to the child's mesh collisions: width = their extent
//   along the axis, radius = the largest distance from the line along the
//   axis through the centre of their extent (a warning gives the numbers).
//   Neither: a warning, and no wheel.
// - Tire and tread sized to the robot (the description's defaults suit a
//   100 kg rover): with m = the robot's mass over its wheel count (kg) and W =
//   m·g, the tire stiffness c_t = W / (0.02 r) (a 2 % static deflection),
//   its damping b_t = √(c_t·m) (half-critical on that mass), within the
//   ranges of robot-format.md; the tread the same (σ0 = c_t, σ1 = b_t).
// - A joint's range stop (revolute and prismatic limits): stiffness J·ω²,
//   damping 2·J·ω with ω = 100 rad/s, J the inertia of the child's subtree
//   about the axis (its mass for a prismatic joint) but at least 0.01.
// - Every wheel gets a speed actuator (its transmission's, or one named after
//   the joint): gain = 50 s⁻¹ × (J + m r²), J = the wheel link's moment of
//   inertia about the axle but at least 0.01 kg·m², m r² the wheel's share of
//   the robot's mass (the mass over the wheels) at its radius, so the speed
//   loop's time constant on the ground is about 20 ms (ζ ≈ 1.1 with the
//   integral); integral gain = 10 s⁻¹ × gain; limit = the
//   joint's effort (100 N·m when not given) divided by the gear ratio (the
//   actuator's limit is at the motor). Wheels with y ≥ 0 in the base frame
//   (joint origins composed from the root, at the wheel's centre) are
//   controls.left, the others controls.right; controls.maxWheelSpeed = the
//   smallest positive velocity limit of a wheel joint, else 10 rad/s.
// - A joint that is not a wheel and has a drive gets an actuator of its
//   drive's mode (a revolute or prismatic joint whose interface is not
//   recognised: Position; continuous: Speed). Position: gain = J·ω², damping
//   = 2·J·ω with ω = 50 rad/s (critically damped, time constant 20 ms), J =
//   the inertia of the child's subtree about the joint axis (kg·m²; for a
//   prismatic joint its mass, kg), at least 0.01; listed in controls.joints
//   so a scenario's joint targets command it by the actuator's name. Speed:
//   gains as a wheel's from the subtree's J. Torque: only the limit. A
//   revolute or prismatic joint without a transmission stays passive (URDF
//   requires an effort limit on every such joint, so the limit says nothing
//   about a motor); a warning lists them.
//
// Nothing is dropped silently: an element or attribute the reader does not
// use (<gazebo>, a <visual>'s geometry, <safety_controller>, an unknown
// attribute, …) is a warning naming it with its lines, one warning per kind
// (at most 10 lines listed, then how many more).
//
// Refused, each with its line: text over kMaxUrdfBytes, a NUL byte, bytes
// that are not UTF-8, a <!DOCTYPE>/<!ENTITY> declaration, nesting deeper than
// kMaxUrdfDepth, more than kMaxUrdfNodes elements and attributes, XML that
// is not well-formed, no <robot>, xacro markup, names given twice, a joint
// naming a missing link, a link with two parents, a loop of joints, more
// than one root, numbers that do not parse or are not finite, a negative
// mass or size, a mesh that is missing, unreadable, not STL, or named by an
// absolute path, a URL other than package:// or file://, or a ".." above the
// URDF's folder; and what the JSON form of a description would refuse
// (scenario/robot_reader.h): more than kMaxRobotParts (1000) links or
// joints or collisions of one link, names longer than kMaxRobotNameChars,
// more than kMaxRobotHullPoints hull points in all; also more than 10 000
// collisions in all. Physical checks (inertias, ranges) are the compile
// step's. No exception leaves the reader.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/types.h"
#include "dynamics/spatial.h"  // Mat3, which robots/description.h holds
#include "robots/description.h"
#include "scenario/scenario_files.h"

namespace roverlab {

/// Largest URDF text read (bytes): 50 MiB.
constexpr std::size_t kMaxUrdfBytes = std::size_t{50} << 20;
/// Deepest nesting of elements (URDF needs 5; Gazebo plugins a few more).
constexpr int kMaxUrdfDepth = 256;
/// Most elements and attributes in one document (the parsed document then
/// stays under about 50 MB).
constexpr std::size_t kMaxUrdfNodes = 500000;
/// Most bytes of mesh files read for one robot (each file read once, its
/// hull computed once whatever its scales).
constexpr std::size_t kMaxUrdfMeshBytes = std::size_t{128} << 20;

struct UrdfRobot {
  RobotDescription description;
  /// What was not used, fitted or chosen: {path, "line N: …"}.
  std::vector<Issue> warnings;
};

/// Reads URDF text. `files` reads the mesh files it names, relative to the
/// URDF's folder (e.g. "meshes/wheel.stl"); `path` names the URDF in every
/// issue, whose message begins with the line it concerns.
Expected<UrdfRobot> readUrdf(const std::string& text, const ScenarioFiles& files,
                             const std::string& path = "robot.urdf");

}  // namespace roverlab
