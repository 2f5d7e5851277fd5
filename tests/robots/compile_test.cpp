// The compile step (robots/compile.h): hostile descriptions refused at their
// path with a message that says what is wrong, quickly; fixed joints merged
// into one rigid body by the parallel axis theorem; frames composed through
// fixed chains; URDF's rpy convention; wheels' spin inertia; and every
// preset's description compiling to the robot buildRobot gives, with the
// numbers docs/robots.md states.
#include "robots/compile.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <utility>

using namespace roverlab;

namespace {

Mat3 diag(double x, double y, double z) { return Vec3(x, y, z).asDiagonal(); }

LinkDescription link(const std::string& name, double mass, const Mat3& inertia) {
  LinkDescription l;
  l.name = name;
  l.mass = mass;
  l.inertia = inertia;
  return l;
}

JointDescription joint(const std::string& name, JointKind kind, const std::string& parent,
                       const std::string& child, const Vec3& xyz = Vec3::Zero(),
                       const Vec3& axis = Vec3::UnitY()) {
  JointDescription j;
  j.name = name;
  j.kind = kind;
  j.parent = parent;
  j.child = child;
  j.origin.xyz = xyz;
  j.axis = axis;
  return j;
}

ActuatorDescription speedDrive(const std::string& name, const std::string& joint) {
  ActuatorDescription a;
  a.name = name;
  a.joint = joint;
  a.mode = ActuatorMode::Speed;
  a.gain = 20;
  a.integralGain = 200;
  a.limit = 40;
  return a;
}

// A valid robot: a 40 kg body with a box, two driven wheels on continuous
// joints, and a mast on a revolute joint with a position servo.
// links: 0 body, 1 wheel_left, 2 wheel_right, 3 mast; joints: 0 wheel_left,
// 1 wheel_right, 2 mast; actuators: 0 left, 1 right, 2 mast.
RobotDescription cart() {
  RobotDescription d;
  d.name = "cart";
  d.base = "body";
  LinkDescription body = link("body", 40, diag(0.9, 2.1, 2.6));
  body.com = Vec3(0, 0, 0.05);
  CollisionShape box;
  box.kind = ShapeKind::Box;
  box.size = Vec3(0.8, 0.5, 0.2);
  box.origin.xyz = Vec3(0, 0, 0.05);
  body.collisions.push_back(box);
  d.links = {body, link("wheel_left", 4, diag(0.04, 0.07, 0.04)),
             link("wheel_right", 4, diag(0.04, 0.07, 0.04)),
             link("mast", 1, diag(0.01, 0.01, 0.005))};
  d.joints = {joint("wheel_left", JointKind::Continuous, "body", "wheel_left", Vec3(0, 0.3, 0)),
              joint("wheel_right", JointKind::Continuous, "body", "wheel_right", Vec3(0, -0.3, 0)),
              joint("mast", JointKind::Revolute, "body", "mast", Vec3(0, 0, 0.2), Vec3::UnitZ())};
  d.joints[2].limit = LimitDescription{-1, 1};
  for (const char* w : {"wheel_left", "wheel_right"}) {
    WheelDescription wheel;
    wheel.joint = w;
    wheel.radius = 0.19;
    wheel.width = 0.1;
    d.wheels.push_back(wheel);
  }
  ActuatorDescription servo;
  servo.name = "mast";
  servo.joint = "mast";
  servo.mode = ActuatorMode::Position;
  servo.gain = 10;
  servo.damping = 1;
  servo.limit = 5;
  d.actuators = {speedDrive("left", "wheel_left"), speedDrive("right", "wheel_right"), servo};
  d.controls.left = {"left"};
  d.controls.right = {"right"};
  d.controls.joints = {"mast"};
  d.controls.maxWheelSpeed = 5;
  d.sections = {"mast"};
  return d;
}

double secondsToCompile(const RobotDescription& d, Expected<Robot>& out) {
  const auto start = std::chrono::steady_clock::now();
  out = compileRobot(d);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Requires `d` refused with an issue at `path` (below the default "model")
// whose message holds every one of `words`, in well under a second.
void requireRefused(const RobotDescription& d, const std::string& path,
                    std::initializer_list<std::string> words) {
  Expected<Robot> r = std::vector<Issue>{};
  const double seconds = secondsToCompile(d, r);
  INFO("expected " << path << "; got:\n" << r.message());
  REQUIRE_FALSE(r.ok());
  CHECK(seconds < 1.0);  // hostile robots are refused within a second
  const Issue* issue = nullptr;
  for (const Issue& i : r.issues())
    if (i.path == path) issue = &i;
  REQUIRE(issue != nullptr);
  for (const std::string& w : words) {
    INFO(w);
    CHECK(issue->message.find(w) != std::string::npos);
  }
}

// A chain of n links (n − 1 revolute joints), listed children first so that
// placing the tree needs its slowest order.
RobotDescription chain(int n) {
  RobotDescription d;
  d.name = "chain";
  d.base = "l0";
  for (int i = 0; i < n; ++i) d.links.push_back(link("l" + std::to_string(i), 1, diag(1, 1, 1)));
  for (int i = n - 1; i >= 1; --i)
    d.joints.push_back(joint("j" + std::to_string(i), JointKind::Revolute,
                             "l" + std::to_string(i - 1), "l" + std::to_string(i),
                             Vec3(0.1, 0, 0)));
  return d;
}

// URDF's rpy matrix written out element by element (REP 103, ROS's
// tf::Matrix3x3::setRPY): R = Rz(yaw)·Ry(pitch)·Rx(roll).
Mat3 urdfRpy(double r, double p, double y) {
  const double cr = std::cos(r), sr = std::sin(r), cp = std::cos(p), sp = std::sin(p),
               cy = std::cos(y), sy = std::sin(y);
  Mat3 m;
  m << cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,  //
      sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,   //
      -sp, cp * sr, cp * cr;
  return m;
}

// The inertia of a point mass m at d about the origin (the parallel axis term).
Mat3 shifted(double m, const Vec3& d) {
  return m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
}

double relativeError(const Mat3& got, const Mat3& want) {
  return (got - want).norm() / want.norm();
}

const Body& bodyNamed(const Robot& r, const std::string& name) {
  for (const Body& b : r.bodies.bodies)
    if (b.name == name) return b;
  FAIL("no body " << name);
  return r.bodies.bodies.front();
}

double totalMass(const Robot& r) {
  double m = 0;
  for (const Body& b : r.bodies.bodies) m += b.mass;
  return m;
}

// Body frame origins at q = 0 (base at the world origin), from the tree
// transforms alone: p_child = p_parent + R_parent·tree.pos, R_child =
// R_parent·tree.rotᵀ.
std::vector<Vec3> restPositions(const Multibody& m) {
  std::vector<Vec3> p(m.bodies.size(), Vec3::Zero());
  std::vector<Mat3> r(m.bodies.size(), Mat3::Identity());
  for (size_t i = 0; i < m.bodies.size(); ++i) {
    const Body& b = m.bodies[i];
    if (b.parent < 0) continue;
    p[i] = p[b.parent] + r[b.parent] * b.tree.pos;
    r[i] = r[b.parent] * b.tree.rot.transpose();
  }
  return p;
}

bool sameParams(const CoefficientParams& a, const CoefficientParams& b) {
  return a.stiffness == b.stiffness && a.damping == b.damping;
}

// Every field of two robots, numbers bit for bit.
void requireIdentical(const Robot& a, const Robot& b) {
  CHECK(a.name == b.name);
  CHECK(a.base == b.base);
  CHECK(a.planar == b.planar);
  CHECK(a.maxWheelSpeed == b.maxWheelSpeed);
  CHECK(a.leftDrive == b.leftDrive);
  CHECK(a.rightDrive == b.rightDrive);
  CHECK(a.joints == b.joints);
  CHECK(a.sections == b.sections);
  CHECK(a.bodies.nq == b.bodies.nq);
  CHECK(a.bodies.nv == b.bodies.nv);
  CHECK(a.bodies.gravity == b.bodies.gravity);
  REQUIRE(a.bodies.bodies.size() == b.bodies.bodies.size());
  for (size_t i = 0; i < a.bodies.bodies.size(); ++i) {
    const Body &x = a.bodies.bodies[i], &y = b.bodies.bodies[i];
    INFO("body " << i << " " << x.name);
    CHECK(x.name == y.name);
    CHECK(x.parent == y.parent);
    CHECK(x.joint == y.joint);
    CHECK(x.axis == y.axis);
    CHECK(x.tree.rot == y.tree.rot);
    CHECK(x.tree.pos == y.tree.pos);
    CHECK(x.mass == y.mass);
    CHECK(x.com == y.com);
    CHECK(x.inertia == y.inertia);
    CHECK(x.qIndex == y.qIndex);
    CHECK(x.vIndex == y.vIndex);
  }
  REQUIRE(a.wheels.size() == b.wheels.size());
  for (size_t i = 0; i < a.wheels.size(); ++i) {
    const WheelModel &x = a.wheels[i], &y = b.wheels[i];
    INFO("wheel " << i);
    CHECK(x.body == y.body);
    CHECK(x.shape.radius == y.shape.radius);
    CHECK(x.shape.width == y.shape.width);
    CHECK(x.tire.stiffness == y.tire.stiffness);
    CHECK(x.tire.damping == y.tire.damping);
    CHECK(x.tire.rollingRadiusRatio == y.tire.rollingRadiusRatio);
    CHECK(x.tire.slipSpeedFloor == y.tire.slipSpeedFloor);
    CHECK(x.tread.stiffness == y.tread.stiffness);
    CHECK(x.tread.damping == y.tread.damping);
    CHECK(x.tread.stictionSpeed == y.tread.stictionSpeed);
    CHECK(x.tread.rollingBreakaway == y.tread.rollingBreakaway);
    CHECK(x.tread.rollingDampingTime == y.tread.rollingDampingTime);
    CHECK(sameParams(x.tireParams, y.tireParams));
    CHECK(sameParams(x.treadParams, y.treadParams));
  }
  REQUIRE(a.actuators.size() == b.actuators.size());
  for (size_t i = 0; i < a.actuators.size(); ++i) {
    const Actuator &x = a.actuators[i], &y = b.actuators[i];
    INFO("actuator " << i << " " << x.name);
    CHECK(x.name == y.name);
    CHECK(x.body == y.body);
    CHECK(x.mode == y.mode);
    CHECK(x.gain == y.gain);
    CHECK(x.integralGain == y.integralGain);
    CHECK(x.damping == y.damping);
    CHECK(x.limit == y.limit);
    CHECK(sameParams(x.params, y.params));
  }
  REQUIRE(a.limits.size() == b.limits.size());
  for (size_t i = 0; i < a.limits.size(); ++i) {
    const JointLimit &x = a.limits[i], &y = b.limits[i];
    INFO("limit " << i);
    CHECK(x.body == y.body);
    CHECK(x.lower == y.lower);
    CHECK(x.upper == y.upper);
    CHECK(x.stiffness == y.stiffness);
    CHECK(x.damping == y.damping);
    CHECK(sameParams(x.params, y.params));
  }
  REQUIRE(a.springs.size() == b.springs.size());
  for (size_t i = 0; i < a.springs.size(); ++i) {
    const JointSpring &x = a.springs[i], &y = b.springs[i];
    INFO("spring " << i);
    CHECK(x.body == y.body);
    CHECK(x.stiffness == y.stiffness);
    CHECK(x.damping == y.damping);
    CHECK(x.rest == y.rest);
    CHECK(x.cubic == y.cubic);
    CHECK(sameParams(x.params, y.params));
  }
  REQUIRE(a.frictions.size() == b.frictions.size());
  for (size_t i = 0; i < a.frictions.size(); ++i) {
    INFO("friction " << i);
    CHECK(a.frictions[i].body == b.frictions[i].body);
    CHECK(a.frictions[i].force == b.frictions[i].force);
    CHECK(a.frictions[i].slipSpeed == b.frictions[i].slipSpeed);
  }
  REQUIRE(a.mimics.size() == b.mimics.size());
  for (size_t i = 0; i < a.mimics.size(); ++i) {
    INFO("mimic " << i);
    CHECK(a.mimics[i].body == b.mimics[i].body);
    CHECK(a.mimics[i].leader == b.mimics[i].leader);
    CHECK(a.mimics[i].multiplier == b.mimics[i].multiplier);
    CHECK(a.mimics[i].offset == b.mimics[i].offset);
  }
  REQUIRE(a.boxes.size() == b.boxes.size());
  for (size_t i = 0; i < a.boxes.size(); ++i) {
    INFO("box " << i);
    CHECK(a.boxes[i].body == b.boxes[i].body);
    CHECK(a.boxes[i].centre == b.boxes[i].centre);
    CHECK(a.boxes[i].size == b.boxes[i].size);
  }
}

}  // namespace

TEST_CASE("a valid description compiles to its bodies, wheels and drives", "[compile]") {
  const Expected<Robot> r = compileRobot(cart());
  INFO(r.message());
  REQUIRE(r.ok());
  const Robot& robot = r.value();
  REQUIRE(robot.bodies.bodies.size() == 4);
  CHECK(robot.bodies.bodies[0].joint == JointType::Free);
  CHECK(robot.wheels.size() == 2);
  CHECK(robot.actuators.size() == 3);
  CHECK(robot.leftDrive == std::vector<int>{0});
  CHECK(robot.rightDrive == std::vector<int>{1});
  CHECK(robot.joints.at("mast") == 2);
  CHECK(robot.sections == std::vector<int>{0, 3});
  CHECK(robot.limits.size() == 1);
  CHECK(robot.maxWheelSpeed == 5);
  CHECK(totalMass(robot) == 49);
}

TEST_CASE("hostile descriptions are refused at their path, each in well under a second",
          "[compile]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  SECTION("mass: zero with an inertia, negative, NaN") {
    RobotDescription d = cart();
    d.links[1].mass = 0;
    requireRefused(d, "model.links[1].inertia", {"'wheel_left'", "without mass has no inertia"});
    d.links[1].mass = -1;
    requireRefused(d, "model.links[1].mass", {"'wheel_left'", "mass must be finite", "-1"});
    d.links[1].mass = nan;
    requireRefused(d, "model.links[1].mass", {"'wheel_left'", "mass must be finite"});
  }
  SECTION("inertia: not symmetric, not positive definite, breaking the triangle inequality") {
    RobotDescription d = cart();
    d.links[0].inertia(0, 1) = 0.1;  // (1, 0) stays 0
    requireRefused(d, "model.links[0].inertia", {"'body'", "symmetric"});
    d.links[0].inertia = diag(1, 1, 0);
    requireRefused(d, "model.links[0].inertia", {"'body'", "not positive definite"});
    d.links[0].inertia = diag(1, -1, 1);
    requireRefused(d, "model.links[0].inertia", {"'body'", "not positive definite"});
    d.links[0].inertia = diag(1, 1, 3);  // 1 + 1 < 3: no mass distribution has it
    requireRefused(d, "model.links[0].inertia", {"'body'", "triangle inequality"});
    d.links[0].inertia = Mat3::Constant(nan);
    requireRefused(d, "model.links[0].inertia", {"'body'", "finite"});
  }
  SECTION("a massless link with an inertia") {
    RobotDescription d = cart();
    d.links[3].mass = 0;  // the mast keeps diag(0.01, 0.01, 0.005)
    requireRefused(d, "model.links[3].inertia", {"'mast'", "without mass has no inertia"});
  }
  SECTION("a joint naming a missing parent or child") {
    RobotDescription d = cart();
    d.joints[2].parent = "chassis";
    requireRefused(d, "model.joints[2].parent", {"'mast'", "no link named 'chassis'"});
    d = cart();
    d.joints[2].child = "antenna";
    requireRefused(d, "model.joints[2].child", {"'mast'", "no link named 'antenna'"});
  }
  SECTION("a link hanging on two joints") {
    RobotDescription d = cart();
    d.joints.push_back(joint("second", JointKind::Revolute, "mast", "wheel_left"));
    requireRefused(d, "model.joints[3].child",
                   {"'second'", "'wheel_left' already hangs on joint 'wheel_left'"});
  }
  SECTION("the base as a child") {
    RobotDescription d = cart();
    d.joints.push_back(joint("up", JointKind::Fixed, "mast", "body"));
    requireRefused(d, "model.joints[3].child", {"'up'", "base link 'body'"});
  }
  SECTION("a loop of joints, named") {
    RobotDescription d = cart();
    for (const char* n : {"a", "b", "c"}) d.links.push_back(link(n, 1, diag(1, 1, 1)));
    d.joints.push_back(joint("ab", JointKind::Revolute, "a", "b"));
    d.joints.push_back(joint("bc", JointKind::Revolute, "b", "c"));
    d.joints.push_back(joint("ca", JointKind::Revolute, "c", "a"));
    requireRefused(d, "model.joints", {"loop", "'a'", "'b'", "'c'"});
    // A joint from a link to itself is the shortest loop.
    d = cart();
    d.links.push_back(link("a", 1, diag(1, 1, 1)));
    d.joints.push_back(joint("aa", JointKind::Revolute, "a", "a"));
    requireRefused(d, "model.joints", {"loop", "'a' → 'a'"});
  }
  SECTION("a second root") {
    RobotDescription d = cart();
    d.links.push_back(link("lonely", 1, diag(1, 1, 1)));
    requireRefused(d, "model.links[4]", {"'lonely'", "not connected to the base 'body'"});
    // Its own subtree does not connect it either: the message names its root.
    d.links.push_back(link("leaf", 1, diag(1, 1, 1)));
    d.joints.push_back(joint("leaf", JointKind::Revolute, "lonely", "leaf"));
    requireRefused(d, "model.links[4]", {"'lonely'", "not connected"});
  }
  SECTION("more links than the limit: 1001 and 10 000") {
    for (const int n : {kMaxRobotLinks + 1, 10000}) {
      INFO(n);
      RobotDescription d = chain(n);
      requireRefused(d, "model.links", {"at most 1000 links", "got " + std::to_string(n)});
      d.links.resize(2);
      d.joints.push_back(d.joints.back());  // n joints
      requireRefused(d, "model.joints", {"at most 1000 joints", "got " + std::to_string(n)});
    }
  }
  SECTION("a zero axis; a range with lower above upper") {
    RobotDescription d = cart();
    d.joints[2].axis = Vec3::Zero();
    requireRefused(d, "model.joints[2].axis", {"'mast'", "not zero"});
    d.joints[2].axis = Vec3(nan, 0, 1);
    requireRefused(d, "model.joints[2].axis", {"'mast'", "finite"});
    d = cart();
    d.joints[2].limit = LimitDescription{1, -1};
    requireRefused(d, "model.joints[2].limit", {"'mast'", "lower (1) above upper (-1)"});
  }
  SECTION("a moving joint carrying no mass") {
    RobotDescription d = cart();
    d.links[3].mass = 0;
    d.links[3].inertia = Mat3::Zero();
    requireRefused(d, "model.joints[2]", {"joint 'mast'", "moves nothing with mass"});
  }
  SECTION("a joint whose motion its child's coaxial joint takes, moving no mass") {
    // A massless link between two joints about the same line: the mass below
    // turns on the second joint, so the first moves nothing and its
    // articulated inertia about its axis is 0 (the step would divide by it).
    RobotDescription d = cart();
    d.links[3].mass = 0;
    d.links[3].inertia = Mat3::Zero();
    d.links.push_back(link("mast_top", 1, diag(0.01, 0.01, 0.005)));
    d.joints.push_back(
        joint("mast_top", JointKind::Continuous, "mast", "mast_top", Vec3::Zero(), Vec3::UnitZ()));
    requireRefused(d, "model.joints[2]", {"joint 'mast'"});
  }
  SECTION("a non-finite origin is refused as such, not as an axis") {
    RobotDescription d = cart();
    d.joints[2].origin.xyz.x() = nan;
    requireRefused(d, "model.joints[2].origin", {"'mast'", "finite"});
    const Expected<Robot> r = compileRobot(d);
    for (const Issue& i : r.issues()) {
      INFO(i.path << ": " << i.message);
      CHECK(i.path != "model.joints[2].axis");
    }
  }
  SECTION("wheels: on a fixed or prismatic joint, naming a missing joint, two on one joint") {
    RobotDescription d = cart();
    d.joints[0].kind = JointKind::Fixed;
    d.actuators.erase(d.actuators.begin());
    d.controls.left.clear();
    requireRefused(d, "model.wheels[0].joint", {"'wheel_left' is fixed"});
    d.joints[0].kind = JointKind::Prismatic;
    d.joints[0].limit = LimitDescription{0, 0.1};
    requireRefused(d, "model.wheels[0].joint", {"'wheel_left' is prismatic"});
    d = cart();
    d.wheels[1].joint = "wheel_rear";
    requireRefused(d, "model.wheels[1].joint", {"no joint named 'wheel_rear'"});
    d = cart();
    d.wheels[1].joint = "wheel_left";
    requireRefused(d, "model.wheels[1].joint", {"a second wheel on joint 'wheel_left'"});
  }
  SECTION("actuators: on a missing or fixed joint; gear ratio 0") {
    RobotDescription d = cart();
    d.actuators[2].joint = "boom";
    requireRefused(d, "model.actuators[2].joint", {"no joint named 'boom'"});
    d = cart();
    d.joints[2].kind = JointKind::Fixed;
    d.joints[2].limit.reset();
    requireRefused(d, "model.actuators[2].joint", {"'mast' is fixed", "nothing to drive"});
    d = cart();
    d.actuators[0].gearRatio = 0;
    requireRefused(d, "model.actuators[0].gear_ratio", {"> 0", "got 0"});
  }
  SECTION("controls: a missing actuator, a position drive in left; sections: a missing link") {
    RobotDescription d = cart();
    d.controls.right = {"right", "right_rear"};
    requireRefused(d, "model.controls.right[1]", {"no actuator named 'right_rear'"});
    d = cart();
    d.controls.left = {"left", "mast"};
    requireRefused(d, "model.controls.left[1]", {"'mast' is not a speed drive"});
    d = cart();
    d.controls.joints = {"left"};
    requireRefused(d, "model.controls.joints[0]", {"'left' is not a position drive"});
    d = cart();
    d.sections = {"mast", "boom"};
    requireRefused(d, "model.sections[1]", {"no link named 'boom'"});
  }
  SECTION("mimics: a fixed follower, a missing or fixed leader, itself, a follower's follower") {
    RobotDescription d = cart();
    d.links.push_back(link("flag", 0.1, diag(1e-3, 1e-3, 1e-3)));
    d.joints.push_back(joint("flag", JointKind::Fixed, "mast", "flag"));
    RobotDescription f = d;
    f.joints[3].mimic = MimicDescription{"wheel_left", 1.0, 0.0};
    requireRefused(f, "model.joints[3].mimic", {"'flag'", "fixed joint cannot follow"});
    f = d;
    f.joints[1].mimic = MimicDescription{"wheel_centre", 1.0, 0.0};
    requireRefused(f, "model.joints[1].mimic.joint", {"'wheel_right'", "no joint named"});
    f.joints[1].mimic->joint = "wheel_right";
    requireRefused(f, "model.joints[1].mimic.joint", {"'wheel_right'", "cannot follow itself"});
    f.joints[1].mimic->joint = "flag";
    requireRefused(f, "model.joints[1].mimic.joint", {"'wheel_right'", "'flag', which is fixed"});
    f.joints[1].mimic->joint = "wheel_left";
    f.joints[2].mimic = MimicDescription{"wheel_right", 1.0, 0.0};
    requireRefused(f, "model.joints[2].mimic.joint", {"'mast'", "follows another joint itself"});
    f.joints[2].mimic.reset();
    f.joints[1].mimic->multiplier = nan;
    requireRefused(f, "model.joints[1].mimic", {"'wheel_right'", "finite"});
    // Following a moving joint that follows none compiles: the follower's
    // body, its leader's, the multiplier and the offset.
    f.joints[1].mimic = MimicDescription{"wheel_left", -2.0, 0.25};
    const Expected<Robot> r = compileRobot(f);
    INFO(r.message());
    REQUIRE(r.ok());
    REQUIRE(r.value().mimics.size() == 1);
    const JointMimic& m = r.value().mimics[0];
    CHECK(r.value().bodies.bodies[m.body].name == "wheel_right");
    CHECK(r.value().bodies.bodies[m.leader].name == "wheel_left");
    CHECK(m.multiplier == -2.0);
    CHECK(m.offset == 0.25);
  }
  SECTION("issue paths follow the description's place") {
    RobotDescription d = cart();
    d.links[1].mass = -1;
    CompileOptions options;
    options.path = "robot.model";
    const Expected<Robot> r = compileRobot(d, options);
    REQUIRE_FALSE(r.ok());
    CHECK(r.issues()[0].path == "robot.model.links[1].mass");
  }
}

TEST_CASE("a chain of 1000 links compiles quickly in any order; its loop is refused quickly",
          "[compile]") {
  RobotDescription d = chain(kMaxRobotLinks);
  Expected<Robot> r = std::vector<Issue>{};
  double seconds = secondsToCompile(d, r);
  INFO(r.message());
  REQUIRE(r.ok());
  CHECK(seconds < 1.0);  // hostile robots are refused within a second
  CHECK(r.value().bodies.bodies.size() == 1000);
  CHECK(r.value().bodies.bodies.back().name == "l999");
  // Closing it through the base makes the base a child.
  d.joints.push_back(joint("close", JointKind::Revolute, "l999", "l0"));
  requireRefused(d, "model.joints[999].child", {"'close'", "base link 'l0'"});
  // A loop of 999 links off the base: l1's parent is l999 instead of l0.
  d = chain(kMaxRobotLinks);
  d.joints.back() = joint("j1", JointKind::Revolute, "l999", "l1");
  seconds = secondsToCompile(d, r);
  REQUIRE_FALSE(r.ok());
  CHECK(seconds < 1.0);  // hostile robots are refused within a second
  CHECK(r.issues()[0].path == "model.joints");
  CHECK(r.issues()[0].message.find("loop") != std::string::npos);
}

TEST_CASE("rpyRotation is URDF's R = Rz(yaw)·Ry(pitch)·Rx(roll)", "[compile]") {
  CHECK(rpyRotation(Vec3::Zero()) == Mat3::Identity());  // exactly
  Mat3 rollQuarter;                                      // Rx(π/2): y → z, z → −y
  rollQuarter << 1, 0, 0, 0, 0, -1, 0, 1, 0;
  CHECK((rpyRotation(Vec3(M_PI / 2, 0, 0)) - rollQuarter).norm() < 1e-15);
  // Yaw π/2 takes x to y; pitch π/2 takes x to −z (right-handed about y).
  CHECK((rpyRotation(Vec3(0, 0, M_PI / 2)) * Vec3::UnitX() - Vec3::UnitY()).norm() < 1e-15);
  CHECK((rpyRotation(Vec3(0, M_PI / 2, 0)) * Vec3::UnitX() + Vec3::UnitZ()).norm() < 1e-15);
  // Roll and pitch π/2: Ry(π/2)·Rx(π/2) = [[0, 1, 0], [0, 0, −1], [−1, 0, 0]] (the other
  // order, Rx·Ry, would be [[0, 0, 1], [1, 0, 0], [0, 1, 0]]).
  Mat3 rollPitch;
  rollPitch << 0, 1, 0, 0, 0, -1, -1, 0, 0;
  CHECK((rpyRotation(Vec3(M_PI / 2, M_PI / 2, 0)) - rollPitch).norm() < 1e-15);
  for (const Vec3& rpy : {Vec3(0.3, -0.4, 1.1), Vec3(-2.5, 1.2, 3.0), Vec3(1e-9, 0, 0)}) {
    INFO(rpy.transpose());
    CHECK((rpyRotation(rpy) - urdfRpy(rpy.x(), rpy.y(), rpy.z())).norm() < 1e-15);
  }
}

TEST_CASE("a fixed joint merges two links into one rigid body by the parallel axis theorem",
          "[compile]") {
  // Link a (the base) and link b welded to it at xyz, rotated by rpy; each with
  // an off-centre mass and a full inertia tensor.
  const Vec3 xyz(0.3, -0.2, 0.1), rpy(0.3, -0.4, 1.1);
  const double ma = 3, mb = 2;
  const Vec3 ca(0.1, -0.05, 0.02), cb(0.05, 0.02, -0.03);
  Mat3 ia, ib;
  ia << 0.5, 0.01, -0.02, 0.01, 0.7, 0.03, -0.02, 0.03, 0.9;
  ib << 0.2, -0.01, 0.005, -0.01, 0.3, 0.02, 0.005, 0.02, 0.25;
  RobotDescription d;
  d.name = "welded";
  d.base = "a";
  d.links = {link("a", ma, ia), link("b", mb, ib)};
  d.links[0].com = ca;
  d.links[1].com = cb;
  CollisionShape box;  // on b, 0.1 m along b's x
  box.kind = ShapeKind::Box;
  box.size = Vec3(0.4, 0.2, 0.1);
  box.origin.xyz = Vec3(0.1, 0, 0);
  d.links[1].collisions.push_back(box);
  CollisionShape plain = box;  // on a, unrotated: kept exactly
  plain.origin.xyz = Vec3(0, 0, 0.3);
  d.links[0].collisions.push_back(plain);
  d.joints = {joint("weld", JointKind::Fixed, "a", "b", xyz)};
  d.joints[0].origin.rpy = rpy;
  std::vector<Issue> warnings;
  const Expected<Robot> r = compileRobot(d, {}, &warnings);
  INFO(r.message());
  REQUIRE(r.ok());
  REQUIRE(r.value().bodies.bodies.size() == 1);
  const Body& body = r.value().bodies.bodies[0];

  const Mat3 rot = urdfRpy(rpy.x(), rpy.y(), rpy.z());
  const Vec3 cbInA = rot * cb + xyz;
  const double m = ma + mb;
  const Vec3 c = (ma * ca + mb * cbInA) / m;
  const Mat3 inertia =
      ia + shifted(ma, ca - c) + rot * ib * rot.transpose() + shifted(mb, cbInA - c);
  CHECK(body.mass == m);
  CHECK((body.com - c).norm() <= 1e-12 * c.norm());
  CHECK(relativeError(body.inertia, inertia) <= 1e-12);
  // The same inertia about a's origin, summed link by link, checks the
  // reference itself: I_O = Σ (I_c + m (|c|² E − c cᵀ)) = I + m (|c|² E − c cᵀ).
  const Mat3 aboutOrigin = ia + shifted(ma, ca) + rot * ib * rot.transpose() + shifted(mb, cbInA);
  CHECK(relativeError(body.inertia + shifted(m, body.com), aboutOrigin) <= 1e-12);

  // The boxes: a's as given; b's as its bounding box in a's frame, centre
  // R·(0.1, 0, 0) + xyz and extent Σ_j |R_ij| s_j along each axis i.
  REQUIRE(r.value().boxes.size() == 2);
  const BodyBox& kept = r.value().boxes[0];
  CHECK(kept.centre == Vec3(0, 0, 0.3));
  CHECK(kept.size == box.size);
  const BodyBox& moved = r.value().boxes[1];
  CHECK(moved.body == 0);
  CHECK((moved.centre - (rot * box.origin.xyz + xyz)).norm() < 1e-12);
  CHECK((moved.size - rot.cwiseAbs() * box.size).norm() < 1e-12);
  // b's box is approximated by its bounding box, and the warning says so.
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].path == "model.links");
  CHECK(warnings[0].message.find("'b'") != std::string::npos);

  SECTION("a quarter turn in yaw swaps the box's length and width") {
    d.joints[0].origin.xyz = Vec3(0.5, 0, 0.2);
    d.joints[0].origin.rpy = Vec3(0, 0, M_PI / 2);
    const Expected<Robot> q = compileRobot(d);
    REQUIRE(q.ok());
    CHECK((q.value().boxes[1].centre - Vec3(0.5, 0.1, 0.2)).norm() < 1e-12);
    CHECK((q.value().boxes[1].size - Vec3(0.2, 0.4, 0.1)).norm() < 1e-12);
  }
}

TEST_CASE("a wheel below a chain of fixed joints hangs at the composed joint origin", "[compile]") {
  // base -fixed-> bracket -fixed-> hub -continuous-> wheel
  const Vec3 x1(0.2, 0.3, -0.1), r1(0.1, 0.2, -0.3), x2(0.05, -0.02, -0.15), r2(-0.4, 0.0, 0.7),
      x3(0, 0.08, 0), r3(0.0, 0.3, 0.0);
  RobotDescription d;
  d.name = "leg";
  d.base = "base";
  d.links = {link("base", 10, diag(1, 1, 1)), link("bracket", 1, diag(0.01, 0.01, 0.01)),
             link("hub", 0.5, diag(0.002, 0.002, 0.002)), link("wheel", 2, diag(0.02, 0.03, 0.02))};
  d.joints = {joint("j1", JointKind::Fixed, "base", "bracket", x1),
              joint("j2", JointKind::Fixed, "bracket", "hub", x2),
              joint("axle", JointKind::Continuous, "hub", "wheel", x3)};
  d.joints[0].origin.rpy = r1;
  d.joints[1].origin.rpy = r2;
  d.joints[2].origin.rpy = r3;
  WheelDescription w;
  w.joint = "axle";
  w.radius = 0.15;
  w.width = 0.05;
  d.wheels = {w};
  const Expected<Robot> r = compileRobot(d);
  INFO(r.message());
  REQUIRE(r.ok());
  const Robot& robot = r.value();
  REQUIRE(robot.bodies.bodies.size() == 2);  // base (with bracket and hub), wheel
  const Mat3 R1 = urdfRpy(r1.x(), r1.y(), r1.z()), R2 = urdfRpy(r2.x(), r2.y(), r2.z()),
             R3 = urdfRpy(r3.x(), r3.y(), r3.z());
  const Mat3 frame = R1 * R2 * R3;  // wheel joint frame → base frame
  const Vec3 origin = R1 * (R2 * x3 + x2) + x1;
  const Body& wheel = robot.bodies.bodies[1];
  CHECK(wheel.parent == 0);
  CHECK(wheel.axis == Vec3::UnitY());  // in the joint frame, as given
  // Transform.rot is the coordinate rotation parent → joint frame: frameᵀ.
  CHECK((wheel.tree.rot - frame.transpose()).norm() < 1e-14);
  CHECK((wheel.tree.pos - origin).norm() < 1e-14);
  CHECK(robot.wheels.size() == 1);
  CHECK(robot.wheels[0].body == 1);
  CHECK(bodyNamed(robot, "base").mass == 11.5);

  // The multibody's own kinematics place it there too, and turn it about
  // the axle: at q = θ the wheel's rotation is frame·Ry(θ). The wheel is a
  // rotor: the kinematics keep its hub frame, `frame`, and its spin apart.
  MultibodyState state = neutralState(robot.bodies);
  const double theta = 0.7;
  state.q[wheel.qIndex] = theta;
  MultibodyData data = makeData(robot.bodies);
  forwardKinematics(robot.bodies, state, data);
  CHECK((worldPoint(data, 1, Vec3::Zero()) - origin).norm() < 1e-14);
  const Mat3 spun = frame * Eigen::AngleAxisd(theta, Vec3::UnitY()).toRotationMatrix();
  REQUIRE(robot.bodies.rotor[1]);
  CHECK((worldRotation(data, 1) - frame).norm() < 1e-14);
  CHECK((worldRotationWithSpin(robot.bodies, state, data, 1) - spun).norm() < 1e-14);

  // A box on a link fixed to the wheel (a cap on its axle, the wheel's
  // symmetry kept) turns with it: the wheel is then no rotor, and its kept
  // frame is its own.
  d.links.push_back(link("cap", 0.1, diag(0.001, 0.002, 0.001)));
  d.links.back().collisions.push_back(CollisionShape{});
  d.links.back().collisions.back().size = Vec3(0.05, 0.05, 0.05);
  d.joints.push_back(joint("cap", JointKind::Fixed, "wheel", "cap", Vec3(0, 0.03, 0)));
  const Expected<Robot> boxed = compileRobot(d);
  INFO(boxed.message());
  REQUIRE(boxed.ok());
  REQUIRE(boxed.value().boxes.size() == 1);
  CHECK(!boxed.value().bodies.rotor[1]);
  MultibodyData boxedData = makeData(boxed.value().bodies);
  forwardKinematics(boxed.value().bodies, state, boxedData);
  CHECK((worldRotation(boxedData, 1) - spun).norm() < 1e-14);
}

TEST_CASE("a wheel's spin inertia replaces its link's inertia about the axle", "[compile]") {
  RobotDescription d = cart();
  Mat3 own;
  own << 0.04, 0.001, -0.002, 0.001, 0.07, 0.003, -0.002, 0.003, 0.05;
  d.links[1].inertia = own;
  d.links[2].inertia = own;
  SECTION("axle along y (either way): that diagonal element exactly, the rest untouched") {
    d.wheels[0].spinInertia = 0.31;
    d.joints[1].axis = Vec3(0, -2, 0);  // normalised to −y
    d.wheels[1].spinInertia = 0.45;
    const Expected<Robot> r = compileRobot(d);
    INFO(r.message());
    REQUIRE(r.ok());
    for (const auto& [body, spin] : {std::pair<int, double>{1, 0.31}, {2, 0.45}}) {
      Mat3 want = own;
      want(1, 1) = spin;
      CHECK(r.value().bodies.bodies[body].inertia == want);
    }
    // Without spin_inertia the link's own inertia stays as it is.
    CHECK(compileRobot(cart()).value().bodies.bodies[1].inertia == diag(0.04, 0.07, 0.04));
  }
  SECTION("a tilted axle: aᵀ I a is the spin inertia, the inertia across it unchanged") {
    const Vec3 given(1, 2, 2);  // length 3
    d.joints[0].axis = given;
    d.wheels[0].spinInertia = 0.31;
    const Expected<Robot> r = compileRobot(d);
    INFO(r.message());
    REQUIRE(r.ok());
    const Body& b = r.value().bodies.bodies[1];
    const Vec3 a = given / 3;
    CHECK((b.axis - a).norm() < 1e-15);
    CHECK(std::abs(a.dot(b.inertia * a) - 0.31) <= 1e-12 * 0.31);
    CHECK((b.inertia - b.inertia.transpose()).norm() <= 1e-15);
    // Across the axle: any u ⟂ a sees the link's own inertia.
    const Vec3 u = a.cross(Vec3::UnitX()).normalized(), v = a.cross(u);
    for (const Vec3& p : {u, v}) CHECK(std::abs(p.dot(b.inertia * p) - p.dot(own * p)) < 1e-15);
    CHECK(std::abs(u.dot(b.inertia * v) - u.dot(own * v)) < 1e-15);
  }
}

TEST_CASE("every preset's description compiles to the robot buildRobot builds", "[compile]") {
  for (const std::string& name : presetNames()) {
    INFO(name);
    const Expected<RobotDescription> d = describePreset(name, {});
    REQUIRE(d.ok());
    // buildRobot names parameters below the scenario's robot, as presets do: path "".
    CompileOptions options;
    options.path = "";
    const Expected<Robot> compiled = compileRobot(d.value(), options);
    const Expected<Robot> built = buildRobot(name, {});
    INFO(compiled.message());
    REQUIRE(compiled.ok());
    REQUIRE(built.ok());
    requireIdentical(compiled.value(), built.value());
  }
}

TEST_CASE("the presets compile to the numbers docs/robots.md gives", "[compile]") {
  CompileOptions options;
  options.path = "";
  SECTION("rocker8: 8 wheels of r = 0.25 m on 4 rockers, 740 kg") {
    const Robot r = compileRobot(describePreset("rocker8", {}).value(), options).value();
    CHECK(totalMass(r) == 600 + 4 * 15 + 8 * 10);
    REQUIRE(r.wheels.size() == 8);
    const std::vector<Vec3> at = restPositions(r.bodies);
    // Wheels 1-4 left, front first: rockers at x = ±0.55, wheels ±0.35 from
    // them, 0.2 m below the pivots, track 1.4 m.
    const double xs[] = {0.9, 0.2, -0.2, -0.9};
    for (int w = 0; w < 8; ++w) {
      INFO("wheel " << w + 1);
      const WheelModel& wheel = r.wheels[w];
      CHECK(wheel.shape.radius == 0.25);
      CHECK(wheel.shape.width == 0.2);
      const Body& b = r.bodies.bodies[wheel.body];
      CHECK(b.mass == 10);
      CHECK(b.inertia(1, 1) == 0.3);  // wheel_inertia, about the axle
      CHECK(b.axis == Vec3::UnitY());
      CHECK(r.bodies.bodies[b.parent].name.rfind("rocker_", 0) == 0);
      CHECK((at[wheel.body] - Vec3(xs[w % 4], w < 4 ? 0.7 : -0.7, -0.2)).norm() < 1e-15);
    }
    int rockers = 0;
    for (const Body& b : r.bodies.bodies)
      if (b.name.rfind("rocker_", 0) == 0) {
        ++rockers;
        CHECK(b.mass == 15);
        CHECK(b.joint == JointType::Revolute);
      }
    CHECK(rockers == 4);
    REQUIRE(r.limits.size() == 4);
    for (const JointLimit& l : r.limits) CHECK((l.lower == -0.7 && l.upper == 0.7));
    CHECK(r.springs.size() == 4);  // the rockers' damping
    for (const JointSpring& s : r.springs) CHECK(s.damping == 50);
    CHECK(r.leftDrive.size() == 4);
    CHECK(r.rightDrive.size() == 4);
    REQUIRE_FALSE(r.boxes.empty());
    CHECK(r.boxes[0].body == r.base);
    CHECK(r.boxes[0].size == Vec3(1.6, 1.0, 0.4));
  }
  SECTION("articulated6: 126 kg, axles at x = −0.43, 0, 0.43 m, track 0.6 m") {
    const Robot r = compileRobot(describePreset("articulated6", {}).value(), options).value();
    CHECK(totalMass(r) == 126);
    REQUIRE(r.wheels.size() == 6);
    const std::vector<Vec3> at = restPositions(r.bodies);
    std::vector<double> xs;
    for (const WheelModel& w : r.wheels) {
      const Body& b = r.bodies.bodies[w.body];
      CHECK(w.shape.radius == 0.19);
      CHECK(b.mass == 4);
      CHECK(b.inertia(1, 1) == 0.072);
      CHECK(std::abs(std::abs(at[w.body].y()) - 0.3) < 1e-15);
      CHECK(std::abs(at[w.body].z()) < 1e-15);
      xs.push_back(at[w.body].x());
    }
    std::sort(xs.begin(), xs.end());
    const double want[] = {-0.43, -0.43, 0, 0, 0.43, 0.43};
    for (int i = 0; i < 6; ++i) CHECK(std::abs(xs[i] - want[i]) < 1e-15);
    CHECK(r.maxWheelSpeed == 5);
    CHECK(r.joints.size() == 4);
    CHECK(r.sections.size() == 3);
  }
}
