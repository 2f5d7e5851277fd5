// URDF robots read into descriptions: the three public robots of
// tests/data/robots (README.md there gives their counts), the defaults the
// reader chooses, the warnings for what it does not use, and hostile input
// refused with its line, quickly and without exceptions.
#include "scenario/urdf_reader.h"

#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <regex>

#include "scenario/stl_reader.h"
#include "support/scenario_files.h"

using namespace roverlab;
using testing::dataFile;

namespace {

// The files beside tests/data/robots/NAME/, by the names a URDF gives them.
ScenarioFiles robotFiles(const std::string& robot,
                         const std::map<std::string, std::string>& extra = {}) {
  return [robot, extra](const std::string& name, std::string& error) -> std::optional<std::string> {
    const auto it = extra.find(name);
    if (it != extra.end()) return it->second;
    const std::string bytes = dataFile("robots/" + robot + "/" + name);
    if (bytes.empty()) {
      error = "no such file";
      return std::nullopt;
    }
    return bytes;
  };
}

// Files from a map only.
ScenarioFiles mapFiles(const std::map<std::string, std::string>& files) {
  return [files](const std::string& name, std::string& error) -> std::optional<std::string> {
    const auto it = files.find(name);
    if (it == files.end()) {
      error = "no such file";
      return std::nullopt;
    }
    return it->second;
  };
}

UrdfRobot readRobot(const std::string& robot,
                    const std::map<std::string, std::string>& extra = {}) {
  const Expected<UrdfRobot> r = readUrdf(dataFile("robots/" + robot + "/" + robot + ".urdf"),
                                         robotFiles(robot, extra), robot + ".urdf");
  INFO(r.message());
  REQUIRE(r.ok());
  return r.value();
}

const LinkDescription& link(const RobotDescription& d, const std::string& name) {
  for (const LinkDescription& l : d.links)
    if (l.name == name) return l;
  FAIL("no link " << name);
  return d.links.front();
}
const JointDescription& joint(const RobotDescription& d, const std::string& name) {
  for (const JointDescription& j : d.joints)
    if (j.name == name) return j;
  FAIL("no joint " << name);
  return d.joints.front();
}
const ActuatorDescription& actuator(const RobotDescription& d, const std::string& name) {
  for (const ActuatorDescription& a : d.actuators)
    if (a.name == name) return a;
  FAIL("no actuator " << name);
  return d.actuators.front();
}
int count(const RobotDescription& d, JointKind kind) {
  int n = 0;
  for (const JointDescription& j : d.joints) n += j.kind == kind;
  return n;
}
double totalMass(const RobotDescription& d) {
  double m = 0;
  for (const LinkDescription& l : d.links) m += l.mass;
  return m;
}
bool hasWarning(const UrdfRobot& r, const std::string& message) {
  for (const Issue& w : r.warnings)
    if (w.message == message) return true;
  return false;
}
bool hasWarningPart(const UrdfRobot& r, const std::string& part) {
  for (const Issue& w : r.warnings)
    if (w.message.find(part) != std::string::npos) return true;
  return false;
}

// A box STL (12 triangles) from lo to hi, binary.
std::string boxStl(const Vec3& lo, const Vec3& hi) {
  std::string out(80, ' ');
  const auto u32 = [&](std::uint32_t v) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
  };
  const auto f32 = [&](double d) {
    const float f = static_cast<float>(d);
    std::uint32_t v;
    std::memcpy(&v, &f, 4);
    u32(v);
  };
  const auto corner = [&](int i) {
    return Vec3(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(), i & 4 ? hi.z() : lo.z());
  };
  const int faces[12][3] = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                            {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
  u32(12);
  for (const auto& f : faces) {
    for (int k = 0; k < 3; ++k) f32(0);
    for (int c : f)
      for (int k = 0; k < 3; ++k) f32(corner(c)[k]);
    out += std::string(2, '\0');
  }
  return out;
}

// A robot of one base link and `body` (URDF elements).
std::string urdf(const std::string& body) {
  return "<?xml version=\"1.0\"?>\n<robot name=\"test\">\n  <link name=\"base\"/>\n" + body +
         "</robot>\n";
}

// The issues of reading `text`; fails the test if it reads.
std::vector<Issue> refusal(const std::string& text, const ScenarioFiles& files = {}) {
  const Expected<UrdfRobot> r = readUrdf(text, files);
  REQUIRE_FALSE(r.ok());
  return r.issues();
}
std::string firstMessage(const std::string& text, const ScenarioFiles& files = {}) {
  const std::vector<Issue> issues = refusal(text, files);
  CHECK(issues.front().path == "robot.urdf");
  return issues.front().message;
}
UrdfRobot accepted(const std::string& text, const ScenarioFiles& files = {}) {
  const Expected<UrdfRobot> r = readUrdf(text, files);
  INFO(r.message());
  REQUIRE(r.ok());
  return r.value();
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("Leo Rover: links, joints, the rockers' mimic, wheels from cylinders", "[urdf]") {
  const UrdfRobot r = readRobot("leo_rover");
  const RobotDescription& d = r.description;
  CHECK(d.name == "leo_sim");
  CHECK(d.base == "base_footprint");
  CHECK(d.baseKind == BaseKind::Free);
  CHECK(d.links.size() == 12);
  CHECK(d.joints.size() == 11);
  CHECK(count(d, JointKind::Fixed) == 5);
  CHECK(count(d, JointKind::Revolute) == 2);
  CHECK(count(d, JointKind::Continuous) == 4);
  CHECK(totalMass(d) == Approx(5.495471));

  const LinkDescription& base = link(d, "base_link");
  CHECK(base.line == 6);
  CHECK(base.mass == 1.584994);
  CHECK(base.com == Vec3(-0.019662, 0.011643, -0.031802));
  CHECK(base.inertia(0, 1) == 0.001177);
  CHECK(base.inertia(1, 0) == 0.001177);
  REQUIRE(base.collisions.size() == 1);
  CHECK(base.collisions[0].kind == ShapeKind::Hull);
  // The chassis outline's hull: vertices of the STL itself.
  const Expected<StlMesh> chassis =
      readStl(dataFile("robots/leo_rover/meshes/Chassis_outline.stl"));
  REQUIRE(chassis.ok());
  CHECK(base.collisions[0].points == hullVertices(chassis.value().vertices).points);
  CHECK(link(d, "base_footprint").mass == 0);
  CHECK(link(d, "wheel_FL_link").collisions.size() == 3);

  const JointDescription& left = joint(d, "rocker_L_joint");
  CHECK(left.line == 160);
  CHECK(left.kind == JointKind::Revolute);
  CHECK(left.origin.rpy.z() == Approx(M_PI));
  CHECK(left.axis == Vec3(0, 1, 0));
  REQUIRE(left.limit);
  CHECK(left.limit->lower == -0.24);
  CHECK(left.limit->upper == 0.24);
  CHECK(left.effort == 100);
  CHECK(left.velocity == 100);
  CHECK(left.friction == 1.0);
  CHECK(left.damping == 0.1);
  CHECK_FALSE(left.mimic);
  const JointDescription& right = joint(d, "rocker_R_joint");
  REQUIRE(right.mimic);
  CHECK(right.mimic->joint == "rocker_L_joint");
  CHECK(right.mimic->multiplier == 1.0);
  CHECK(right.mimic->offset == 0.0);

  // Wheels: the larger of two coaxial cylinders (radius 0.0625, length 0.04).
  REQUIRE(d.wheels.size() == 4);
  for (const WheelDescription& w : d.wheels) {
    CHECK(w.radius == 0.0625);
    CHECK(w.width == 0.04);
  }
  CHECK(d.wheels[0].joint == "wheel_FL_joint");
  // The tyre sits 44.85 mm along the axle from the wheel link's origin: the
  // link's frame moves there (the joint's origin by as much along the axle,
  // the link's shapes and centre of mass back), so the wheel turns about the
  // tyre's centre and nothing moves in the world.
  const JointDescription& fl_joint = joint(d, "wheel_FL_joint");
  CHECK(fl_joint.origin.xyz.x() == Approx(-0.15256));
  CHECK(fl_joint.origin.xyz.y() == Approx(-0.08214 + 0.04485));
  CHECK(fl_joint.origin.xyz.z() == Approx(-0.08802));
  const LinkDescription& fl_link = link(d, "wheel_FL_link");
  for (const CollisionShape& s : fl_link.collisions)
    if (s.kind == ShapeKind::Cylinder && s.radius == 0.0625)
      CHECK(s.origin.xyz.norm() == Approx(0).margin(1e-12));
  CHECK(d.controls.left == std::vector<std::string>{"wheel_FL_motor", "wheel_RL_motor"});
  CHECK(d.controls.right == std::vector<std::string>{"wheel_FR_motor", "wheel_RR_motor"});
  CHECK(d.controls.maxWheelSpeed == 6.0);
  CHECK(d.controls.joints.empty());
  // Transmissions: velocity interfaces on the wheels, effort on the rockers.
  REQUIRE(d.actuators.size() == 6);
  const ActuatorDescription& fl = actuator(d, "wheel_FL_motor");
  CHECK(fl.joint == "wheel_FL_joint");
  CHECK(fl.mode == ActuatorMode::Speed);
  // The wheel's 0.00047 kg·m² is below the floor; its share of the robot at
  // its radius, m r² = (5.495 kg / 4)·0.0625², is added.
  CHECK(fl.gain == Approx(50 * (0.01 + totalMass(d) / 4 * 0.0625 * 0.0625)));
  CHECK(fl.integralGain == Approx(10 * fl.gain));
  CHECK(fl.limit == 2.0);
  CHECK(fl.gearRatio == 1.0);
  const ActuatorDescription& rocker = actuator(d, "rocker_L_virtual_motor");
  CHECK(rocker.mode == ActuatorMode::Torque);
  CHECK(rocker.limit == 100);

  CHECK(hasWarning(r,
                   "line 177: joint 'wheel_FL_joint': link 'wheel_FL_link' has 2 cylinders "
                   "about the axle; the wheel is the one of largest radius (radius 0.0625 m, "
                   "width 0.04 m)"));
  CHECK(hasWarningPart(r,
                       "line 177: joint 'wheel_FL_joint': the wheel's centre is 0.04485 m "
                       "along the axle from link 'wheel_FL_link''s origin; the link's frame is "
                       "moved there"));
  CHECK(hasWarning(r,
                   "lines 230, 237, 245, 252, 260, 268, 276, 284, 293, 338 and 2 more: "
                   "<gazebo> not used"));
  CHECK(r.warnings.size() == 9);
}

TEST_CASE("Leo Rover without its wheel cylinders: wheels fitted from the wheel mesh", "[urdf]") {
  std::string text = dataFile("robots/leo_rover/leo_rover.urdf");
  text = std::regex_replace(
      text,
      std::regex(
          R"re(<collision>\s*<origin[^>]*/>\s*<geometry>\s*<cylinder radius="0\.0(57|625)"[^>]*/>\s*</geometry>\s*</collision>)re"),
      "");
  const Expected<UrdfRobot> read = readUrdf(text, robotFiles("leo_rover"));
  INFO(read.message());
  REQUIRE(read.ok());
  const UrdfRobot& r = read.value();
  CHECK(link(r.description, "wheel_FL_link").collisions.size() == 1);
  // The expected size from the STL: along y (the axle) and about it.
  const Expected<StlMesh> wheel = readStl(dataFile("robots/leo_rover/meshes/Wheel_outline.stl"));
  REQUIRE(wheel.ok());
  Aabb box;
  for (const Vec3& v : wheel.value().vertices) box.grow(v);
  const Vec3 mid = (box.min + box.max) / 2;
  double radius = 0;
  for (const Vec3& v : wheel.value().vertices)
    radius = std::max(radius, std::hypot(v.x() - mid.x(), v.z() - mid.z()));
  REQUIRE(r.description.wheels.size() == 4);
  for (const WheelDescription& w : r.description.wheels) {
    CHECK(w.radius == Approx(radius).epsilon(1e-12));
    CHECK(w.width == Approx(box.max.y() - box.min.y()).epsilon(1e-12));
  }
  CHECK(r.description.wheels[0].width == Approx(0.07).epsilon(1e-6));
  const std::size_t at = text.find("<joint name=\"wheel_FL_joint\"");
  const long line = 1 + std::count(text.begin(), text.begin() + at, '\n');
  CHECK(hasWarningPart(r, "line " + std::to_string(line) +
                              ": joint 'wheel_FL_joint': the wheel's size was fitted from its "
                              "mesh 'meshes/Wheel_outline.stl' (60 hull points): radius " +
                              format(radius, 4) + " m, width 0.07 m"));
  CHECK(r.description.controls.left.size() == 2);
  CHECK(r.description.controls.right.size() == 2);
}

TEST_CASE("Husky: four wheels from the URDF's cylinders, boxes, a mesh plate", "[urdf]") {
  const UrdfRobot r = readRobot("husky");
  const RobotDescription& d = r.description;
  CHECK(d.name == "husky");
  CHECK(d.base == "base_link");
  CHECK(d.links.size() == 15);
  CHECK(d.joints.size() == 14);
  CHECK(count(d, JointKind::Fixed) == 10);
  CHECK(count(d, JointKind::Continuous) == 4);
  CHECK(totalMass(d) == Approx(56.582));

  const LinkDescription& base = link(d, "base_link");
  REQUIRE(base.collisions.size() == 2);
  CHECK(base.collisions[0].kind == ShapeKind::Box);
  CHECK(base.collisions[0].size == Vec3(0.9874, 0.5709, 0.12375));
  CHECK(base.collisions[0].origin.xyz == Vec3(0, 0, 0.061875));
  const LinkDescription& inertial = link(d, "inertial_link");
  CHECK(inertial.mass == 46.034);
  CHECK(inertial.com == Vec3(-0.00065, -0.085, 0.062));
  CHECK(inertial.inertia(0, 2) == -0.1197);
  const LinkDescription& plate = link(d, "top_plate_link");
  REQUIRE(plate.collisions.size() == 1);
  CHECK(plate.collisions[0].kind == ShapeKind::Hull);
  CHECK(plate.collisions[0].points.size() == 16);
  CHECK(joint(d, "base_footprint_joint").origin.xyz == Vec3(0, 0, -0.13228));

  REQUIRE(d.wheels.size() == 4);
  const std::array<std::string, 4> wheels = {"front_left_wheel", "front_right_wheel",
                                             "rear_left_wheel", "rear_right_wheel"};
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(d.wheels[k].joint == wheels[k]);
    CHECK(d.wheels[k].radius == 0.1651);
    CHECK(d.wheels[k].width == 0.1143);
  }
  CHECK(d.controls.left ==
        std::vector<std::string>{"front_left_wheel_motor", "rear_left_wheel_motor"});
  CHECK(d.controls.right ==
        std::vector<std::string>{"front_right_wheel_motor", "rear_right_wheel_motor"});
  CHECK(d.controls.maxWheelSpeed == 10.0);  // no velocity limit: the default
  const ActuatorDescription& a = actuator(d, "front_left_wheel_motor");
  CHECK(a.mode == ActuatorMode::Speed);
  // iyy of the wheel, about its axle, and its share of the robot at its radius.
  const double load = totalMass(d) / 4 * 0.1651 * 0.1651;
  CHECK(a.gain == Approx(50 * (0.04411 + load)));
  CHECK(a.integralGain == Approx(500 * (0.04411 + load)));
  CHECK(a.limit == 100);  // no effort given: the default

  CHECK(hasWarning(r, "lines 73, 108, 143, 178, 297, 298, 304, 318: <gazebo> not used"));
  CHECK(hasWarning(r, "lines 84, 119, 154, 189: <joint><axis> attribute rpy not used"));
  CHECK(r.warnings.size() == 2);
}

TEST_CASE("Open Source Rover: its three missing meshes are errors naming them", "[urdf]") {
  const Expected<UrdfRobot> r =
      readUrdf(dataFile("robots/osr/osr.urdf"), robotFiles("osr"), "osr.urdf");
  REQUIRE_FALSE(r.ok());
  const std::vector<std::string> expected = {
      "line 159: link 'base_link': cannot read mesh 'meshes/body.stl': no such file",
      "line 367: link 'rocker_bogie_link_L_1': cannot read mesh "
      "'meshes/rockerbogie_middle_1.stl': no such file",
      "line 394: link 'rocker_bogie_link_L_2': cannot read mesh "
      "'meshes/rockerbogie_front_1.stl': no such file",
      "line 421: link 'rocker_bogie_link_R_1': cannot read mesh "
      "'meshes/rockerbogie_middle_1.stl': no such file",
      "line 448: link 'rocker_bogie_link_R_2': cannot read mesh "
      "'meshes/rockerbogie_front_1.stl': no such file"};
  REQUIRE(r.issues().size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    CHECK(r.issues()[k].path == "osr.urdf");
    CHECK(r.issues()[k].message == expected[k]);
  }
}

TEST_CASE("Open Source Rover with placeholder meshes: 6 wheels from meshes, 4 steering servos",
          "[urdf]") {
  // The three missing meshes (README.md) as 10 cm boxes: everything else is
  // the robot's own.
  const std::string placeholder = boxStl(Vec3::Constant(-0.05), Vec3::Constant(0.05));
  const UrdfRobot r = readRobot("osr", {{"meshes/body.stl", placeholder},
                                        {"meshes/rockerbogie_middle_1.stl", placeholder},
                                        {"meshes/rockerbogie_front_1.stl", placeholder}});
  const RobotDescription& d = r.description;
  CHECK(d.name == "rover");
  CHECK(d.base == "base_footprint");
  CHECK(d.links.size() == 26);
  CHECK(d.joints.size() == 25);
  CHECK(count(d, JointKind::Fixed) == 13);
  CHECK(count(d, JointKind::Revolute) == 6);
  CHECK(count(d, JointKind::Continuous) == 6);
  CHECK(totalMass(d) == Approx(42.0));
  CHECK(link(d, "base_link").colour == "#8b4513");              // brown 0.5451 0.2706 0.0745
  CHECK(link(d, "front_wheel_link_left").colour == "#1a1a1a");  // black 0.1 0.1 0.1
  CHECK(link(d, "base_footprint").colour.empty());

  // Wheels: fitted from wheel.stl (±0.0818 m across its axle).
  REQUIRE(d.wheels.size() == 6);
  for (const WheelDescription& w : d.wheels) {
    CHECK(w.radius == Approx(0.0818).margin(2e-4));
    CHECK(w.width == Approx(0.101).margin(1e-3));
  }
  CHECK(d.controls.left == std::vector<std::string>{"front_wheel_joint_left_motor",
                                                    "middle_wheel_joint_left_motor",
                                                    "rear_wheel_joint_left_motor"});
  CHECK(d.controls.right == std::vector<std::string>{"front_wheel_joint_right_motor",
                                                     "middle_wheel_joint_right_motor",
                                                     "rear_wheel_joint_right_motor"});
  CHECK(d.controls.maxWheelSpeed == 10.0);
  // Steering: position transmissions, commanded by name.
  CHECK(d.controls.joints ==
        std::vector<std::string>{"front_wheel_joint_L_motor", "rear_wheel_joint_L_motor",
                                 "front_wheel_joint_R_motor", "rear_wheel_joint_R_motor"});
  const ActuatorDescription& steer = actuator(d, "front_wheel_joint_L_motor");
  CHECK(steer.joint == "front_wheel_joint_L");
  CHECK(steer.mode == ActuatorMode::Position);
  CHECK(steer.gain == Approx(0.01 * 2500));  // the steered subtree is below the 0.01 kg·m² floor
  CHECK(steer.damping == Approx(0.01 * 100));
  CHECK(steer.limit == 100000);
  CHECK(d.actuators.size() == 10);

  CHECK(hasWarning(r,
                   "line 410: joints without a transmission are passive (no actuator): "
                   "'rocker_bogie_joint_L_2' (line 410), 'rocker_bogie_joint_R_2' (line 464)"));
  CHECK(hasWarning(r, "lines 668, 703, 738, 773, 808, 843: <joint><velocity> not used"));
  CHECK(hasWarning(r, "lines 641, 676, 711, 746, 781, 816: <link><collision><surface> not used"));
  CHECK(hasWarning(r, "lines 387, 441: <joint><limit> not used"));  // on fixed joints
  CHECK(hasWarningPart(r,
                       "line 663: joint 'front_wheel_joint_left': the wheel's size was fitted "
                       "from its mesh 'meshes/wheel.stl' (3731 hull points): radius 0.08179 m"));
  CHECK(hasWarning(r, "line 20: <ros2_control><hardware> not used"));
}

TEST_CASE("URDF details: inertia rotated into the link, colours, meshes beside the file",
          "[urdf]") {
  // Inertia given in a frame turned 90° about z: ixx and iyy swap.
  const UrdfRobot turned = accepted(urdf(R"(
  <link name="arm">
    <inertial>
      <origin xyz="0.1 0 0" rpy="0 0 1.5707963267948966"/>
      <mass value="2"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/>
    </inertial>
    <visual><material name="red"><color rgba="1 0 0 1"/></material></visual>
  </link>
  <joint name="j" type="revolute">
    <parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/>
    <limit effort="5" velocity="1"/>
  </joint>)"));
  const LinkDescription& arm = turned.description.links[1];
  CHECK(arm.com == Vec3(0.1, 0, 0));
  CHECK(arm.inertia(0, 0) == Approx(2));
  CHECK(arm.inertia(1, 1) == Approx(1));
  CHECK(arm.inertia(2, 2) == Approx(3));
  CHECK(arm.inertia(0, 1) == Approx(0).margin(1e-15));
  CHECK(arm.colour == "#ff0000");
  const JointDescription& j = turned.description.joints[0];
  REQUIRE(j.limit);
  CHECK(j.limit->lower == 0);  // URDF's default
  CHECK(j.limit->upper == 0);
  CHECK(turned.description.actuators.empty());  // no transmission: passive

  // Meshes: relative, package:// (beside the URDF, else PKG/path), file://,
  // ASCII STL, scaled.
  const std::string ascii =
      "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
      "endloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 0 0 1\nvertex 0 1 "
      "0\nendloop\nendfacet\nendsolid t\n";
  const ScenarioFiles files =
      mapFiles({{"meshes/t.stl", ascii}, {"pkg/meshes/u.stl", ascii}, {"v.stl", ascii}});
  const UrdfRobot meshes = accepted(urdf(R"(
  <link name="m">
    <collision><geometry><mesh filename="meshes/t.stl" scale="2 3 4"/></geometry></collision>
    <collision><geometry><mesh filename="package://pkg/meshes/u.stl"/></geometry></collision>
    <collision><geometry><mesh filename="file://./meshes/../v.stl"/></geometry></collision>
  </link>
  <joint name="f" type="fixed"><parent link="base"/><child link="m"/></joint>)"),
                                    files);
  const LinkDescription& m = meshes.description.links[1];
  REQUIRE(m.collisions.size() == 3);
  CHECK(m.collisions[0].points.size() == 4);
  CHECK(std::find(m.collisions[0].points.begin(), m.collisions[0].points.end(), Vec3(0, 0, 4)) !=
        m.collisions[0].points.end());
  CHECK(m.collisions[1].points.size() == 4);
  CHECK(m.collisions[2].points.size() == 4);
}

TEST_CASE("URDF drives: transmissions, gear ratios, ros2_control, speed defaults", "[urdf]") {
  const UrdfRobot r = accepted(urdf(R"(
  <link name="wheel">
    <inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.1"/></inertial>
    <collision><origin rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.3" length="0.1"/></geometry></collision>
  </link>
  <link name="right_wheel">
    <collision><origin rpy="-1.5707963267948966 0 0"/><geometry><cylinder radius="0.3" length="0.1"/></geometry></collision>
  </link>
  <link name="steer"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="wl" type="continuous">
    <origin xyz="0 0.5 0"/><parent link="base"/><child link="wheel"/><axis xyz="0 1 0"/>
    <limit effort="40" velocity="12"/>
  </joint>
  <joint name="wr" type="continuous">
    <origin xyz="0 -0.5 0"/><parent link="base"/><child link="right_wheel"/><axis xyz="0 -1 0"/>
  </joint>
  <joint name="s" type="revolute">
    <origin xyz="1 0 0"/><parent link="base"/><child link="steer"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="30" velocity="2"/>
  </joint>
  <transmission name="t">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="wl"><hardwareInterface>hardware_interface/VelocityJointInterface</hardwareInterface></joint>
    <actuator name="motor_l"><mechanicalReduction>4</mechanicalReduction></actuator>
  </transmission>
  <ros2_control name="sys" type="system">
    <joint name="s"><command_interface name="position"/></joint>
  </ros2_control>)"));
  const RobotDescription& d = r.description;
  REQUIRE(d.wheels.size() == 2);
  const ActuatorDescription& l = actuator(d, "motor_l");
  CHECK(l.gearRatio == 4);
  CHECK(l.limit == 10);                   // 40 N·m at the joint, 10 at the motor
  const double share = totalMass(d) / 2;  // per wheel
  CHECK(l.gain == Approx(50 * (0.2 + share * 0.3 * 0.3)));
  const ActuatorDescription& rw = actuator(d, "wr");  // no transmission: named after the joint
  CHECK(rw.mode == ActuatorMode::Speed);
  // No inertia: the 0.01 kg·m² floor, and the load.
  CHECK(rw.gain == Approx(50 * (0.01 + share * 0.3 * 0.3)));
  CHECK(rw.limit == 100);
  CHECK(d.controls.left == std::vector<std::string>{"motor_l"});
  CHECK(d.controls.right == std::vector<std::string>{"wr"});
  CHECK(d.controls.maxWheelSpeed == 12);
  const ActuatorDescription& s = actuator(d, "s");
  CHECK(s.mode == ActuatorMode::Position);
  CHECK(s.gain == Approx(2500 * 1.0));
  CHECK(s.damping == Approx(100 * 1.0));
  CHECK(s.limit == 30);
  CHECK(d.controls.joints == std::vector<std::string>{"s"});
  // The right wheel's axle points right in the base frame: said.
  CHECK(hasWarningPart(r, "joint 'wr': the wheel's axle points right"));
  CHECK(hasWarningPart(r, "its axis is reversed so that a positive speed drives forwards"));
  CHECK(joint(d, "wr").axis == Vec3(0, 1, 0));
  CHECK_FALSE(hasWarningPart(r, "joint 'wl': the wheel's axle points right"));
}

TEST_CASE("URDF floating and planar joints: only from an empty root", "[urdf]") {
  const UrdfRobot free = accepted(R"(<robot name="r">
  <link name="world"/>
  <link name="body"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="float" type="floating"><parent link="world"/><child link="body"/></joint>
</robot>)");
  CHECK(free.description.base == "body");
  CHECK(free.description.baseKind == BaseKind::Free);
  CHECK(free.description.links.size() == 1);
  CHECK(free.description.joints.empty());
  CHECK(hasWarning(free,
                   "line 4: joint 'float' is floating from the empty link 'world': the base "
                   "'body' moves freely; the link and the joint are left out of the "
                   "description"));
  const UrdfRobot planar = accepted(R"(<robot name="r">
  <link name="world"/>
  <link name="body"/>
  <joint name="p" type="planar"><parent link="world"/><child link="body"/><axis xyz="0 1 0"/></joint>
</robot>)");
  CHECK(planar.description.baseKind == BaseKind::Planar);
  // A robot welded to the world (ROS's fixed base) is read with 'world' as
  // its free base, and says so.
  const UrdfRobot welded = accepted(R"(<robot name="r">
  <link name="world"/>
  <link name="body"/>
  <joint name="weld" type="fixed"><parent link="world"/><child link="body"/></joint>
</robot>)");
  CHECK(welded.description.base == "world");
  CHECK(hasWarning(welded,
                   "line 4: the fixed joint 'weld' from link 'world' welds the robot to "
                   "the world in ROS; here 'world' is the base, which moves freely"));
  CHECK(firstMessage(urdf(R"(
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="base"/><child link="a"/></joint>
  <joint name="float" type="floating"><parent link="a"/><child link="b"/></joint>)")) ==
        "line 7: joint 'float' is floating; a floating joint is read only from an empty root link "
        "(the world) to the base");
}

TEST_CASE("URDF markup not used is warned, grouped by kind with its lines", "[urdf]") {
  std::string links;
  for (int k = 0; k < 15; ++k)
    links += "  <link name=\"l" + std::to_string(k) + "\" colour=\"red\"/>\n  <joint name=\"j" +
             std::to_string(k) + "\" type=\"fixed\"><parent link=\"base\"/><child link=\"l" +
             std::to_string(k) + "\"/><calibration rising=\"0\"/></joint>\n";
  const UrdfRobot r = accepted(urdf(links + "  <gazebo/>\n  text\n"));
  CHECK(hasWarning(r,
                   "lines 4, 6, 8, 10, 12, 14, 16, 18, 20, 22 and 5 more: <link> attribute "
                   "colour not used"));
  CHECK(hasWarning(r,
                   "lines 5, 7, 9, 11, 13, 15, 17, 19, 21, 23 and 5 more: <joint><calibration> "
                   "not used"));
  CHECK(hasWarning(r, "line 34: <gazebo> not used"));
  CHECK(hasWarning(r, "line 35: text in <robot> not used"));
  CHECK(r.warnings.size() == 4);
}

TEST_CASE("URDF refusals: the tree", "[urdf]") {
  const std::string child =
      R"(<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>)";
  // A joint naming a missing link.
  CHECK(firstMessage(urdf(R"(  <link name="a"/>
  <joint name="j" type="fixed"><parent link="base"/><child link="ghost"/></joint>
)")) == "line 5: joint 'j': its child link 'ghost' is not a link of the robot");
  // Names given twice.
  CHECK(firstMessage(urdf("  <link name=\"base\"/>\n")) ==
        "line 4: a second link named 'base' (the first is on line 3)");
  CHECK(firstMessage(urdf(R"(  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="base"/><child link="a"/></joint>
  <joint name="j" type="fixed"><parent link="base"/><child link="b"/></joint>
)")) == "line 6: a second joint named 'j' (the first is on line 5)");
  // Two parents.
  CHECK(firstMessage(urdf(R"(  <link name="a"/><link name="b"/>
  <joint name="j1" type="fixed"><parent link="base"/><child link="a"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>
)")) == "line 6: joint 'j2': link 'a' has two parents: joint 'j1' (line 5) makes it a child of "
        "'base', this joint of 'b' (a robot is a tree)");
  // A loop beside the root, and one with no root at all.
  CHECK(firstMessage(urdf(R"(  <link name="a"/><link name="b"/>
  <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint>
)")) == "line 5: joints 'ab', 'ba' form a loop; a robot is a tree (URDF has no closed chains)");
  CHECK(firstMessage(R"(<robot name="r"><link name="a"/><link name="b"/>
  <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint></robot>)")
            .find("form a loop") != std::string::npos);
  // More than one root.
  CHECK(firstMessage(urdf("  <link name=\"other\">" + child + "</link>\n")) ==
        "line 4: more than one root link (a link that is no joint's child): 'base' (line 3), "
        "'other' (line 4); a robot is one tree of links joined by joints");
  CHECK(firstMessage(urdf(R"(  <link name="a"/>
  <joint name="j" type="fixed"><parent link="base"/><child link="base"/></joint>
)")) == "line 5: joint 'j': joins link 'base' to itself");
}

TEST_CASE("URDF refusals: numbers, names, meshes", "[urdf]") {
  const auto inertial = [](const std::string& mass) {
    return urdf("  <link name=\"a\"><inertial><mass value=\"" + mass +
                "\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" "
                "izz=\"1\"/></inertial></link>\n  <joint name=\"j\" type=\"fixed\"><parent "
                "link=\"base\"/><child link=\"a\"/></joint>\n");
  };
  CHECK(firstMessage(inertial("abc")) ==
        "line 4: link 'a': <mass> value=\"abc\": 'abc' is not a number");
  CHECK(firstMessage(inertial("nan")) ==
        "line 4: link 'a': <mass> value=\"nan\": 'nan' is not a finite number");
  CHECK(firstMessage(inertial("1e999")) ==
        "line 4: link 'a': <mass> value=\"1e999\": '1e999' is not a finite number");
  CHECK(firstMessage(inertial("-1")) ==
        "line 4: link 'a': the mass must not be negative, got -1 kg");
  CHECK(firstMessage(inertial("1 2")) ==
        "line 4: link 'a': <mass> value=\"1 2\" needs 1 number, got more");
  CHECK(
      firstMessage(urdf(
          R"(  <link name="a"><collision><origin xyz="0 0"/><geometry><sphere radius="1"/></geometry></collision></link>
  <joint name="j" type="fixed"><parent link="base"/><child link="a"/></joint>
)")) == "line 4: link 'a': <origin> xyz=\"0 0\" needs 3 numbers, got 2");
  CHECK(firstMessage(urdf(R"(  <link name="a"/>
  <joint name="j" type="revolute"><parent link="base"/><child link="a"/></joint>
)")) == "line 5: joint 'j': a revolute joint needs a <limit> (URDF requires one)");
  CHECK(firstMessage(urdf(R"(  <link name="a"/>
  <joint name="j" type="spherical"><parent link="base"/><child link="a"/></joint>
)"))
            .find("line 5: joint 'j': type 'spherical' is not a URDF joint type") == 0);
  CHECK(firstMessage(urdf("  <link/>\n")) == "line 4: <link> needs a name");

  // Mesh files: every way of naming one outside the URDF's folder, a format
  // that is not STL, a missing file.
  const auto withMesh = [](const std::string& filename) {
    return urdf("  <link name=\"m\">\n    <collision><geometry><mesh filename=\"" + filename +
                "\"/></geometry></collision>\n  </link>\n  <joint name=\"j\" "
                "type=\"fixed\"><parent link=\"base\"/><child link=\"m\"/></joint>\n");
  };
  const ScenarioFiles files = mapFiles({{"meshes/a.stl", boxStl(Vec3::Zero(), Vec3::Ones())}});
  CHECK(firstMessage(withMesh("../secret.stl"), files) ==
        "line 5: link 'm': mesh '../secret.stl' goes above the URDF's folder ('..'); mesh files "
        "must be in it or below it");
  CHECK(firstMessage(withMesh("meshes/../../a.stl"), files).find("goes above the URDF's folder") !=
        std::string::npos);
  CHECK(firstMessage(withMesh("package://p/../../a.stl"), files).find("goes above") !=
        std::string::npos);
  CHECK(firstMessage(withMesh("/etc/passwd.stl"), files) ==
        "line 5: link 'm': mesh '/etc/passwd.stl' is an absolute path; name the file relative to "
        "the URDF (e.g. meshes/wheel.stl) or as package://PACKAGE/PATH");
  CHECK(firstMessage(withMesh("file:///etc/a.stl"), files).find("is an absolute path") !=
        std::string::npos);
  CHECK(firstMessage(withMesh("http://example.com/a.stl"), files) ==
        "line 5: link 'm': mesh 'http://example.com/a.stl' is a URL of scheme 'http'; only "
        "package:// and file:// name mesh files, beside the URDF");
  CHECK(firstMessage(withMesh("meshes/a.dae"), files) ==
        "line 5: link 'm': mesh 'meshes/a.dae' is a COLLADA mesh; only STL meshes are read: "
        "convert it to STL");
  CHECK(firstMessage(withMesh("meshes/a.obj"), files).find("Wavefront OBJ") != std::string::npos);
  CHECK(firstMessage(withMesh("meshes/missing.stl"), files) ==
        "line 5: link 'm': cannot read mesh 'meshes/missing.stl': no such file");
  CHECK(firstMessage(withMesh("package://pkg/missing.stl"), files) ==
        "line 5: link 'm': cannot read mesh 'package://pkg/missing.stl' (tried 'missing.stl': no "
        "such file; 'pkg/missing.stl': no such file)");
  CHECK(accepted(withMesh("meshes/A.STL"),
                 mapFiles({{"meshes/A.STL", boxStl(Vec3::Zero(), Vec3::Ones())}}))
            .description.links[1]
            .collisions[0]
            .points.size() == 8);
  // A truncated binary STL: the STL reader's message after the file's.
  const std::string cut = boxStl(Vec3::Zero(), Vec3::Ones()).substr(0, 600);
  CHECK(firstMessage(withMesh("meshes/a.stl"), mapFiles({{"meshes/a.stl", cut}})) ==
        "line 5: link 'm': mesh 'meshes/a.stl': truncated: its header counts 12 triangles, 84 + "
        "50·12 = 684 bytes, but the file has 600 bytes");
  // No files callback at all.
  CHECK(firstMessage(withMesh("meshes/a.stl"))
            .rfind("line 5: link 'm': cannot read mesh 'meshes/a.stl': no files can be read", 0) ==
        0);
}

TEST_CASE("URDF refusals: hostile documents, each quickly and with its line", "[urdf]") {
  const auto quick = [](const std::string& text) {
    const auto t0 = std::chrono::steady_clock::now();
    const Expected<UrdfRobot> r = readUrdf(text, {});
    const double ms = msSince(t0);
    INFO("took " << ms << " ms");
    CHECK(ms < 1000);
    REQUIRE_FALSE(r.ok());
    return r.issues().front().message;
  };
  // Malformed XML: RapidXML's message with the line.
  CHECK(quick("<robot name=\"r\">\n  <link name=\"a\">\n</robot>\n") ==
        "line 3: not well-formed XML: invalid closing tag name");
  CHECK(quick("<robot name=\"r\">\n  <link name=\"a\"\n") ==
        "line 3: not well-formed XML: expected >");
  // Entities: a document type declaration is refused before parsing.
  const std::string laughs = R"(<?xml version="1.0"?>
<!DOCTYPE robot [
  <!ENTITY a "aaaaaaaaaa">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
]>
<robot name="&c;"><link name="a"/></robot>
)";
  CHECK(quick(laughs) ==
        "line 2: the document has a <!DOCTYPE> declaration: document type declarations and "
        "entities are refused (URDF uses neither)");
  // Beyond the size limit: refused by its length alone.
  CHECK(quick(std::string(kMaxUrdfBytes + 1, ' ')) ==
        "the file is 52428801 bytes; the limit is 52428800 bytes (50 MiB)");
  // 10 000 links.
  std::string many = "<robot name=\"r\">\n";
  for (int k = 0; k < 10000; ++k) many += "<link name=\"l" + std::to_string(k) + "\"/>\n";
  CHECK(quick(many + "</robot>\n") ==
        "the robot has 10000 links and 0 joints; the limit is 1000 of each");
  // Nesting without end, elements without number.
  CHECK(quick("<robot name=\"r\">" + testing::repeat("<a>", 100000) +
              testing::repeat("</a>", 100000) + "</robot>") ==
        "line 1: elements are nested more than 256 levels deep, the limit");
  CHECK(quick("<robot name=\"r\">" + testing::repeat("<a b=\"1\"/>", 300000) + "</robot>") ==
        "line 1: the document has more than 500000 elements and attributes, the limit");
  // Not XML text, not a URDF, xacro.
  CHECK(quick(std::string("<robot>\n\0</robot>", 17)) ==
        "line 2: a NUL byte (byte 8): not XML text");
  CHECK(quick("<robot name=\"\xFF\"/>") == "line 1: not UTF-8 (byte 13); save the file as UTF-8");
  CHECK(quick("") == "no <robot> element: not a URDF");
  CHECK(quick("<sdf version=\"1.6\"/>") ==
        "line 1: the top-level element is <sdf>, not <robot>: not a URDF");
  CHECK(quick("<robot name=\"r\"><xacro:macro name=\"m\"/></robot>")
            .find("line 1: <xacro:macro> is xacro markup, not URDF") == 0);
  CHECK(quick("<robot name=\"r\"><link name=\"a\" name=\"b\"/></robot>") ==
        "line 1: <link> has the attribute name twice");
  CHECK(quick("<robot><link name=\"a\"/></robot>") == "line 1: <robot> needs a name");
}
