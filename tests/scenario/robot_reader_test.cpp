// The robot description's JSON form (scenario/robot_reader.h): writing then
// reading gives the same description bit for bit, absent fields take the
// struct's defaults, every refusal names its path, and the reader reads
// exactly the fields, enums and defaults docs/robot.schema.json names.
#include "scenario/robot_reader.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "robots/robot.h"
#include "scenario/json_input.h"

using namespace roverlab;
using json = nlohmann::json;

namespace {

// ------------------------------------------------------------------ comparing

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

/// The fields in which two descriptions differ, as paths ("links[1].com[2]"),
/// every double compared bit for bit (so -0.0 differs from 0.0).
class Differences {
 public:
  std::vector<std::string> list;

  void number(const std::string& p, double a, double b) {
    if (bits(a) != bits(b)) {
      std::ostringstream s;
      s.precision(17);
      s << p << ": " << a << " vs " << b;
      list.push_back(s.str());
    }
  }
  void vec(const std::string& p, const Vec3& a, const Vec3& b) {
    for (int i = 0; i < 3; ++i) number(p + "[" + std::to_string(i) + "]", a[i], b[i]);
  }
  void text(const std::string& p, const std::string& a, const std::string& b) {
    if (a != b) list.push_back(p + ": '" + a + "' vs '" + b + "'");
  }
  void texts(const std::string& p, const std::vector<std::string>& a,
             const std::vector<std::string>& b) {
    if (a != b) list.push_back(p + ": lists differ");
  }
  void same(const std::string& p, bool equal) {
    if (!equal) list.push_back(p);
  }
  template <class T, class F>
  void each(const std::string& p, const std::vector<T>& a, const std::vector<T>& b, F compare) {
    if (a.size() != b.size()) return list.push_back(p + ": sizes differ");
    for (size_t i = 0; i < a.size(); ++i) compare(p + "[" + std::to_string(i) + "]", a[i], b[i]);
  }

  void origin(const std::string& p, const Origin& a, const Origin& b) {
    vec(p + ".xyz", a.xyz, b.xyz);
    vec(p + ".rpy", a.rpy, b.rpy);
  }

  void description(const RobotDescription& a, const RobotDescription& b) {
    text("name", a.name, b.name);
    text("base", a.base, b.base);
    same("base.kind", a.baseKind == b.baseKind);
    each("links", a.links, b.links, [&](const std::string& p, const auto& x, const auto& y) {
      text(p + ".name", x.name, y.name);
      number(p + ".mass", x.mass, y.mass);
      vec(p + ".com", x.com, y.com);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
          number(p + ".inertia(" + std::to_string(r) + "," + std::to_string(c) + ")",
                 x.inertia(r, c), y.inertia(r, c));
      each(p + ".collisions", x.collisions, y.collisions,
           [&](const std::string& q, const auto& s, const auto& t) {
             same(q + ".type", s.kind == t.kind);
             origin(q + ".origin", s.origin, t.origin);
             vec(q + ".size", s.size, t.size);
             number(q + ".radius", s.radius, t.radius);
             number(q + ".length", s.length, t.length);
             each(q + ".points", s.points, t.points,
                  [&](const std::string& r, const Vec3& u, const Vec3& v) { vec(r, u, v); });
           });
      text(p + ".colour", x.colour, y.colour);
      same(p + ".line", x.line == y.line);
    });
    each("joints", a.joints, b.joints, [&](const std::string& p, const auto& x, const auto& y) {
      text(p + ".name", x.name, y.name);
      same(p + ".type", x.kind == y.kind);
      text(p + ".parent", x.parent, y.parent);
      text(p + ".child", x.child, y.child);
      origin(p + ".origin", x.origin, y.origin);
      vec(p + ".axis", x.axis, y.axis);
      same(p + ".limit", x.limit.has_value() == y.limit.has_value());
      if (x.limit && y.limit) {
        number(p + ".limit.lower", x.limit->lower, y.limit->lower);
        number(p + ".limit.upper", x.limit->upper, y.limit->upper);
        number(p + ".limit.stiffness", x.limit->stiffness, y.limit->stiffness);
        number(p + ".limit.damping", x.limit->damping, y.limit->damping);
        text(p + ".limit.params", x.limit->params.stiffness + x.limit->params.damping,
             y.limit->params.stiffness + y.limit->params.damping);
      }
      number(p + ".effort", x.effort, y.effort);
      number(p + ".velocity", x.velocity, y.velocity);
      number(p + ".damping", x.damping, y.damping);
      number(p + ".friction", x.friction, y.friction);
      number(p + ".spring.stiffness", x.spring.stiffness, y.spring.stiffness);
      number(p + ".spring.rest", x.spring.rest, y.spring.rest);
      number(p + ".spring.cubic", x.spring.cubic, y.spring.cubic);
      same(p + ".mimic", x.mimic.has_value() == y.mimic.has_value());
      if (x.mimic && y.mimic) {
        text(p + ".mimic.joint", x.mimic->joint, y.mimic->joint);
        number(p + ".mimic.multiplier", x.mimic->multiplier, y.mimic->multiplier);
        number(p + ".mimic.offset", x.mimic->offset, y.mimic->offset);
      }
      text(p + ".params", x.params.stiffness + x.params.damping,
           y.params.stiffness + y.params.damping);
      same(p + ".line", x.line == y.line);
    });
    each("wheels", a.wheels, b.wheels, [&](const std::string& p, const auto& x, const auto& y) {
      text(p + ".joint", x.joint, y.joint);
      number(p + ".radius", x.radius, y.radius);
      number(p + ".width", x.width, y.width);
      number(p + ".spin_inertia", x.spinInertia, y.spinInertia);
      number(p + ".tire.stiffness", x.tire.stiffness, y.tire.stiffness);
      number(p + ".tire.damping", x.tire.damping, y.tire.damping);
      number(p + ".tire.rolling_radius_ratio", x.tire.rollingRadiusRatio,
             y.tire.rollingRadiusRatio);
      number(p + ".tire.slip_speed_floor", x.tire.slipSpeedFloor, y.tire.slipSpeedFloor);
      number(p + ".tread.stiffness", x.tread.stiffness, y.tread.stiffness);
      number(p + ".tread.damping", x.tread.damping, y.tread.damping);
      number(p + ".tread.stiction_speed", x.tread.stictionSpeed, y.tread.stictionSpeed);
      number(p + ".tread.rolling_breakaway", x.tread.rollingBreakaway, y.tread.rollingBreakaway);
      number(p + ".tread.rolling_damping_time", x.tread.rollingDampingTime,
             y.tread.rollingDampingTime);
    });
    each("actuators", a.actuators, b.actuators,
         [&](const std::string& p, const auto& x, const auto& y) {
           text(p + ".name", x.name, y.name);
           text(p + ".joint", x.joint, y.joint);
           same(p + ".mode", x.mode == y.mode);
           number(p + ".gain", x.gain, y.gain);
           number(p + ".integral_gain", x.integralGain, y.integralGain);
           number(p + ".damping", x.damping, y.damping);
           number(p + ".limit", x.limit, y.limit);
           number(p + ".gear_ratio", x.gearRatio, y.gearRatio);
           text(p + ".params", x.params.stiffness + x.params.damping,
                y.params.stiffness + y.params.damping);
         });
    texts("controls.left", a.controls.left, b.controls.left);
    texts("controls.right", a.controls.right, b.controls.right);
    texts("controls.joints", a.controls.joints, b.controls.joints);
    number("controls.max_wheel_speed", a.controls.maxWheelSpeed, b.controls.maxWheelSpeed);
    texts("sections", a.sections, b.sections);
  }
};

std::vector<std::string> differences(const RobotDescription& a, const RobotDescription& b) {
  Differences d;
  d.description(a, b);
  return d.list;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

std::string issuesText(const std::vector<Issue>& issues) {
  std::string out;
  for (const Issue& i : issues) out += i.path + ": " + i.message + "\n";
  return out;
}

/// The description read back from `j` (a test failure when it is refused).
RobotDescription readBack(const json& j) {
  const Expected<RobotDescription> d = readRobotDescription(j, "robot.model");
  INFO(issuesText(d.issues()));
  REQUIRE(d.ok());
  return d.value();
}

/// Text → document → description, as a scenario file is read.
RobotDescription readText(const std::string& text) {
  const Expected<json> doc = readJson(text);
  INFO(issuesText(doc.issues()));
  REQUIRE(doc.ok());
  return readBack(doc.value());
}

// ------------------------------------------------------------------ descriptions

Mat3 symmetric(double xx, double yy, double zz, double xy, double xz, double yz) {
  Mat3 m;
  m << xx, xy, xz, xy, yy, yz, xz, yz, zz;
  return m;
}

CollisionShape box(const Vec3& size, const Origin& origin = {}) {
  CollisionShape s;
  s.kind = ShapeKind::Box;
  s.size = size;
  s.origin = origin;
  return s;
}

/// A description that uses every field of the format with values other than
/// the defaults.
RobotDescription everyField() {
  RobotDescription d;
  d.name = "every field ü";
  d.base = "base";
  d.baseKind = BaseKind::Planar;

  LinkDescription base;
  base.name = "base";
  base.mass = 600;
  base.com = Vec3(0.01, -0.02, 0.1);
  base.inertia = symmetric(58, 136, 178, 0.5, -0.25, 0.125);
  base.collisions.push_back(box(Vec3(1.6, 1, 0.4), {Vec3(0, 0, 0.1), Vec3(0.1, -0.2, 0.3)}));
  CollisionShape cylinder;
  cylinder.kind = ShapeKind::Cylinder;
  cylinder.radius = 0.1;
  cylinder.length = 0.05;
  cylinder.origin.rpy = Vec3(M_PI / 2, 0, 0);
  base.collisions.push_back(cylinder);
  CollisionShape sphere;
  sphere.kind = ShapeKind::Sphere;
  sphere.radius = 0.2;
  sphere.origin.xyz = Vec3(0.5, 0, 0);
  base.collisions.push_back(sphere);
  CollisionShape hull;
  hull.kind = ShapeKind::Hull;
  hull.points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(0.3, 0.3, 0.3)};
  base.collisions.push_back(hull);
  base.colour = "#80a0C0";
  d.links.push_back(base);

  const char* names[] = {"rocker", "slider", "wheel", "cap"};
  for (const char* n : names) {
    LinkDescription l;
    l.name = n;
    l.mass = 10;
    l.inertia = symmetric(0.1, 0.2, 0.3, 0, 0, 0);
    d.links.push_back(l);
  }

  JointDescription rocker;
  rocker.name = "rocker";
  rocker.kind = JointKind::Revolute;
  rocker.parent = "base";
  rocker.child = "rocker";
  rocker.origin = {Vec3(0.55, 0.45, 0), Vec3(0, 0, 0.2)};
  rocker.axis = Vec3(0, 2, 0);
  rocker.limit = LimitDescription{-0.7, 0.7, 2e5, 3e3, {}};
  rocker.effort = 800;
  rocker.velocity = 3;
  rocker.damping = 50;
  rocker.friction = 2;
  rocker.spring = {100, 0.1, 1000};
  d.joints.push_back(rocker);

  JointDescription slider = rocker;
  slider.name = "slider";
  slider.kind = JointKind::Prismatic;
  slider.parent = "rocker";
  slider.child = "slider";
  slider.limit = LimitDescription{0, 0.18, 1e5, 1e3, {}};
  slider.mimic = MimicDescription{"rocker", -1, 0.05};
  d.joints.push_back(slider);

  JointDescription axle;
  axle.name = "axle";
  axle.kind = JointKind::Continuous;
  axle.parent = "slider";
  axle.child = "wheel";
  axle.axis = Vec3(0, 1, 0);
  d.joints.push_back(axle);

  JointDescription cap;
  cap.name = "cap";
  cap.kind = JointKind::Fixed;
  cap.parent = "base";
  cap.child = "cap";
  cap.origin.xyz = Vec3(0, 0, 0.3);
  d.joints.push_back(cap);

  WheelDescription wheel;
  wheel.joint = "axle";
  wheel.radius = 0.25;
  wheel.width = 0.2;
  wheel.spinInertia = 0.35;
  wheel.tire = {3e5, 2.5e3, 0.95, 0.002};
  wheel.tread = {3e5, 2.5e3, 0.002, 0.003, 0.03};
  d.wheels.push_back(wheel);

  ActuatorDescription motor;
  motor.name = "axle";
  motor.joint = "axle";
  motor.mode = ActuatorMode::Speed;
  motor.gain = 300;
  motor.integralGain = 3000;
  motor.limit = 150;
  motor.gearRatio = 50;
  d.actuators.push_back(motor);
  ActuatorDescription servo;
  servo.name = "fold";
  servo.joint = "rocker";
  servo.mode = ActuatorMode::Position;
  servo.gain = 5000;
  servo.damping = 300;
  servo.limit = 800;
  d.actuators.push_back(servo);
  ActuatorDescription push;
  push.name = "push";
  push.joint = "slider";
  push.mode = ActuatorMode::Torque;
  push.limit = 2000;
  d.actuators.push_back(push);

  d.controls.left = {"axle"};
  d.controls.right = {};
  d.controls.joints = {"fold"};
  d.controls.maxWheelSpeed = 4;
  d.sections = {"rocker", "slider"};
  return d;
}

/// Random doubles for a field in [lo, hi] (or (lo, hi]): every mantissa bit
/// random, exponents over the whole range, and now and then a value that
/// printing tends to get wrong (0.1, 1/3, 1e-300, -0.0, the smallest
/// subnormal, the largest value below 1).
class RandomDoubles {
 public:
  explicit RandomDoubles(std::uint64_t seed) : rng_(seed) {}

  double operator()(double lo, double hi, bool openLo = false) {
    const auto fits = [&](double x) { return (openLo ? x > lo : x >= lo) && x <= hi; };
    static const double kSpecial[] = {0.1,
                                      1.0 / 3,
                                      1e-300,
                                      -0.0,
                                      0.0,
                                      4.9406564584124654e-324,
                                      0.99999999999999989,
                                      2.2250738585072014e-308,
                                      1e5 / 3};
    if (rng_() % 4 == 0) {
      const double x = kSpecial[rng_() % std::size(kSpecial)];
      if (fits(x)) return x;
    }
    const int top = static_cast<int>(std::floor(std::log2(std::max(std::abs(lo), std::abs(hi)))));
    for (;;) {
      const double mantissa = 1.0 + std::ldexp(static_cast<double>(rng_() >> 12), -52);
      const int exponent = top - static_cast<int>(rng_() % 1100);
      double x = std::ldexp(mantissa, exponent);
      if (rng_() % 2) x = -x;
      if (fits(x)) return x;
    }
  }
  Vec3 vec(double lo, double hi) { return Vec3((*this)(lo, hi), (*this)(lo, hi), (*this)(lo, hi)); }
  std::uint64_t next() { return rng_(); }

 private:
  std::mt19937_64 rng_;
};

/// everyField() with every number replaced by a random one in its range.
RobotDescription randomDescription(RandomDoubles& r) {
  RobotDescription d = everyField();
  d.controls.maxWheelSpeed = r.next() % 3 == 0 ? 1e300 : r(0, 1e300);
  for (LinkDescription& l : d.links) {
    l.mass = r(0, 1e6);
    l.com = r.vec(-100, 100);
    l.inertia = symmetric(r(-1e10, 1e10), r(-1e10, 1e10), r(-1e10, 1e10), r(-1e10, 1e10),
                          r(-1e10, 1e10), r(-1e10, 1e10));
    for (CollisionShape& s : l.collisions) {
      s.origin = {r.vec(-100, 100), r.vec(-100, 100)};
      if (s.kind == ShapeKind::Box)
        s.size = Vec3(r(0, 100, true), r(0, 100, true), r(0, 100, true));
      if (s.kind == ShapeKind::Cylinder) s.length = r(0, 100, true);
      if (s.kind == ShapeKind::Cylinder || s.kind == ShapeKind::Sphere) s.radius = r(0, 100, true);
      for (Vec3& p : s.points) p = r.vec(-100, 100);
    }
  }
  for (JointDescription& j : d.joints) {
    j.origin = {r.vec(-100, 100), r.vec(-100, 100)};
    j.axis = r.vec(-1e6, 1e6);
    j.axis[r.next() % 3] = r(1, 1e6);  // a length of at least 1
    if (j.limit) {
      double a = r(-1e3, 1e3), b = r(-1e3, 1e3);
      if (a > b) std::swap(a, b);
      *j.limit = {a, b, r(0, 1e12), r(0, 1e12), {}};
    }
    j.effort = r(0, 1e12);
    j.velocity = r(0, 1e6);
    j.damping = r(0, 1e12);
    j.friction = r(0, 1e12);
    j.spring = {r(0, 1e12), r(-1e3, 1e3), r(0, 1e12)};
    if (j.mimic) *j.mimic = {j.mimic->joint, r(-1e3, 1e3), r(-1e3, 1e3)};
  }
  for (WheelDescription& w : d.wheels) {
    w.radius = r(0, 10, true);
    w.width = r(0, 5, true);
    w.spinInertia = r(0, 1e6);
    w.tire = {r(1e3, 1e8), r(0, 1e6), r(0, 1, true), r(0, 10, true)};
    w.tread = {r(1e3, 1e8), r(0, 1e6), r(0, 10, true), r(0, 1, true), r(0, 10)};
  }
  for (ActuatorDescription& a : d.actuators) {
    a.gain = r(0, 1e12);
    a.integralGain = r(0, 1e12);
    a.damping = r(0, 1e12);
    a.limit = r(0, 1e12);
    a.gearRatio = r(0, 1e4, true);
  }
  return d;
}

/// `d` without what the JSON form leaves out (`line`, `params`).
RobotDescription jsonPart(RobotDescription d) {
  for (LinkDescription& l : d.links) l.line = 0;
  for (JointDescription& j : d.joints) {
    j.line = 0;
    j.params = {};
    if (j.limit) j.limit->params = {};
  }
  for (ActuatorDescription& a : d.actuators) a.params = {};
  return d;
}

/// A small valid description in its JSON form.
json validDocument() {
  return json::parse(R"({"name": "rig", "base": {"link": "base"},
    "links": [{"name": "base", "mass": 50, "inertia": {"ixx": 1, "iyy": 1, "izz": 1},
               "collisions": [{"type": "box", "size": [1, 0.5, 0.2]}]},
              {"name": "wheel", "mass": 5, "inertia": {"ixx": 0.1, "iyy": 0.2, "izz": 0.1}}],
    "joints": [{"name": "axle", "type": "continuous", "parent": "base", "child": "wheel",
                "axis": [0, 1, 0]}],
    "wheels": [{"joint": "axle", "radius": 0.3, "width": 0.1}],
    "actuators": [{"name": "axle", "joint": "axle", "mode": "speed", "gain": 100, "limit": 50}],
    "controls": {"left": ["axle"]}})");
}

json hullPoints(int n) {
  json points = json::array();
  for (int k = 0; k < n; ++k)
    points.push_back({std::cos(k * 2.4) * (k % 7) / 7, std::sin(k * 2.4) * (k % 7) / 7, k / 1e4});
  return points;
}

// ------------------------------------------------------------------ the schema

json schemaDocument() {
  std::ifstream in(std::filesystem::path(ROVERLAB_SOURCE_DIR) / "docs" / "robot.schema.json");
  REQUIRE(in.good());
  return json::parse(in);
}

/// One object of a document with the schema record that describes it.
struct Place {
  std::string path;          ///< as in issues, below "robot.model"
  json::json_pointer where;  ///< in the document
  const json* node;          ///< the record (a schema object with properties)
};

class SchemaWalk {
 public:
  explicit SchemaWalk(const json& schema) : schema_(schema) {}

  const json& resolve(const json& node) const {
    const json* n = &node;
    while (n->contains("$ref")) {
      const std::string ref = (*n)["$ref"].get<std::string>();
      n = &schema_.at(json::json_pointer(ref.substr(1)));
    }
    return *n;
  }

  /// The record for `value` among a oneOf's alternatives: the one whose
  /// `type` constant is the value's type.
  const json& record(const json& node, const json& value) const {
    const json& n = resolve(node);
    if (!n.contains("oneOf")) return n;
    for (const json& option : n["oneOf"]) {
      const json& o = resolve(option);
      if (o["properties"]["type"]["const"] == value["type"]) return o;
    }
    FAIL("no alternative of the schema for " << value.dump());
    return n;
  }

  void places(const json& node, const json& value, const std::string& path,
              const json::json_pointer& where, std::vector<Place>& out) const {
    if (value.is_array()) {
      const json& n = resolve(node);
      for (size_t i = 0; i < value.size(); ++i)
        places(n["items"], value[i], path + "[" + std::to_string(i) + "]", where / i, out);
    } else if (value.is_object()) {
      const json& n = record(node, value);
      REQUIRE(n.contains("properties"));
      out.push_back({path, where, &n});
      for (const auto& [key, v] : value.items()) {
        INFO(path << "." << key);
        REQUIRE(n["properties"].contains(key));
        places(n["properties"][key], v, path + "." + key, where / key, out);
      }
    }
  }

 private:
  const json& schema_;
};

std::vector<std::string> keysOf(const json& object) {
  std::vector<std::string> out;
  for (const auto& [key, v] : object.items()) out.push_back(key);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t end = list.find(", ", start);
    out.push_back(list.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 2;
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Issue> issuesOf(const json& doc) {
  const Expected<RobotDescription> d = readRobotDescription(doc, "robot.model");
  return d.ok() ? std::vector<Issue>{} : d.issues();
}

const Issue* issueAt(const std::vector<Issue>& issues, const std::string& path) {
  for (const Issue& i : issues)
    if (i.path == path) return &i;
  return nullptr;
}

}  // namespace

// ------------------------------------------------------------------ round trip

TEST_CASE("a description with every field reads back as written, bit for bit", "[robot-json]") {
  const RobotDescription d = everyField();
  const json written = writeRobotDescription(d);
  CHECK(joined(differences(readBack(written), d)) == "");
  // Through text, as a file is read.
  for (const int indent : {-1, 2})
    CHECK(joined(differences(readText(dumpJson(written, indent)), d)) == "");
  // Writing what was read gives the same document.
  CHECK(writeRobotDescription(readBack(written)) == written);
}

TEST_CASE("random doubles in every field read back bit for bit", "[robot-json]") {
  RandomDoubles random(20250611);
  for (int k = 0; k < 300; ++k) {
    const RobotDescription d = randomDescription(random);
    const json written = writeRobotDescription(d);
    INFO("description " << k);
    REQUIRE(joined(differences(readBack(written), d)) == "");
    REQUIRE(joined(differences(readText(dumpJson(written)), d)) == "");
  }
  // The values printing tends to get wrong, one by one.
  for (const double v : {0.1, 1.0 / 3, 1e-300, -0.0, 4.9406564584124654e-324, 0.30000000000000004,
                         2.2250738585072009e-308, 99.999999999999986}) {
    RobotDescription d = everyField();
    d.links[0].com = Vec3(v, -v, v);
    d.joints[0].origin.rpy = Vec3(v, v, -v);
    const RobotDescription back = readText(dumpJson(writeRobotDescription(d)));
    INFO(v);
    CHECK(bits(back.links[0].com.x()) == bits(v));
    CHECK(bits(back.links[0].com.y()) == bits(-v));
    CHECK(bits(back.joints[0].origin.rpy.z()) == bits(-v));
  }
}

TEST_CASE("every preset's description reads back bit for bit, its parameters at either end",
          "[robot-json]") {
  for (const std::string& preset : presetNames())
    for (int setting = 0; setting < 3; ++setting) {
      std::map<std::string, double> params;  // defaults, then all at their minimum, maximum
      if (setting > 0)
        for (const ParamSpec& p : presetParams(preset))
          params[p.name] = setting == 1 ? p.min : p.max;
      const Expected<RobotDescription> d = describePreset(preset, params);
      INFO(preset << " " << setting << "\n" << issuesText(d.issues()));
      REQUIRE(d.ok());
      CHECK(joined(differences(readBack(writeRobotDescription(d.value())), jsonPart(d.value()))) ==
            "");
    }
}

TEST_CASE("the writer writes every field but an absent limit or mimic and an empty colour",
          "[robot-json]") {
  RobotDescription d = everyField();
  d.links[1].line = 12;
  d.joints[2].line = 40;
  d.joints[0].params = {"fold_gain", "fold_damping"};
  d.joints[0].limit->params = {"limit_stiffness", "limit_damping"};
  d.actuators[0].params = {"motor_integral_gain", "motor_gain"};
  const json w = writeRobotDescription(d);
  using K = std::vector<std::string>;
  CHECK(keysOf(w) ==
        K{"actuators", "base", "controls", "joints", "links", "name", "sections", "wheels"});
  CHECK(keysOf(w["base"]) == K{"kind", "link"});
  CHECK(keysOf(w["links"][0]) == K{"collisions", "colour", "com", "inertia", "mass", "name"});
  CHECK(keysOf(w["links"][1]) == K{"collisions", "com", "inertia", "mass", "name"});
  CHECK(keysOf(w["links"][0]["inertia"]) == K{"ixx", "ixy", "ixz", "iyy", "iyz", "izz"});
  CHECK(keysOf(w["links"][0]["collisions"][0]) == K{"origin", "size", "type"});
  CHECK(keysOf(w["links"][0]["collisions"][1]) == K{"length", "origin", "radius", "type"});
  CHECK(keysOf(w["links"][0]["collisions"][2]) == K{"origin", "radius", "type"});
  CHECK(keysOf(w["links"][0]["collisions"][3]) == K{"origin", "points", "type"});
  const K joint = {"axis", "child",  "damping", "effort", "friction", "limit",   "mimic",
                   "name", "origin", "parent",  "spring", "type",     "velocity"};
  CHECK(keysOf(w["joints"][1]) == joint);
  K plain = joint;
  plain.erase(std::find(plain.begin(), plain.end(), "limit"));
  plain.erase(std::find(plain.begin(), plain.end(), "mimic"));
  CHECK(keysOf(w["joints"][2]) == plain);
  CHECK(keysOf(w["joints"][0]["limit"]) == K{"damping", "lower", "stiffness", "upper"});
  CHECK(keysOf(w["wheels"][0]["tire"]) ==
        K{"damping", "rolling_radius_ratio", "slip_speed_floor", "stiffness"});
  CHECK(keysOf(w["actuators"][0]) ==
        K{"damping", "gain", "gear_ratio", "integral_gain", "joint", "limit", "mode", "name"});
  CHECK(keysOf(w["controls"]) == K{"joints", "left", "max_wheel_speed", "right"});
  CHECK(w["base"]["kind"] == "planar");
  CHECK(w["joints"][0]["type"] == "revolute");
  CHECK(w["actuators"][2]["mode"] == "torque");
  CHECK(w["links"][0]["inertia"]["ixz"] == -0.25);
  // line and params are not part of the JSON: they read back empty.
  const RobotDescription back = readBack(w);
  CHECK(back.links[1].line == 0);
  CHECK(back.joints[2].line == 0);
  CHECK(back.joints[0].params.stiffness.empty());
  CHECK(back.joints[0].limit->params.damping.empty());
  CHECK(back.actuators[0].params.damping.empty());
}

TEST_CASE("absent optional fields take the struct's defaults", "[robot-json]") {
  const json doc = json::parse(R"({"name": "rig", "base": {"link": "base"},
    "links": [{"name": "base", "mass": 50, "inertia": {"ixx": 1, "iyy": 2, "izz": 3}},
              {"name": "wheel", "mass": 5, "inertia": {"ixx": 0.1, "iyy": 0.2, "izz": 0.1}}],
    "joints": [{"name": "axle", "type": "continuous", "parent": "base", "child": "wheel"},
               {"name": "a", "type": "revolute", "parent": "base", "child": "wheel",
                "limit": {"lower": -1, "upper": 1}, "spring": {}, "mimic": {"joint": "axle"},
                "origin": {}}],
    "wheels": [{"joint": "axle", "radius": 0.3, "width": 0.1, "tire": {}, "tread": {}}],
    "actuators": [{"name": "axle", "joint": "axle", "mode": "speed", "gain": 100, "limit": 50},
                  {"name": "t", "joint": "a", "mode": "torque", "limit": 5}],
    "controls": {}})");
  RobotDescription expected;
  expected.name = "rig";
  expected.base = "base";
  LinkDescription base;
  base.name = "base";
  base.mass = 50;
  base.inertia = symmetric(1, 2, 3, 0, 0, 0);
  LinkDescription wheelLink;
  wheelLink.name = "wheel";
  wheelLink.mass = 5;
  wheelLink.inertia = symmetric(0.1, 0.2, 0.1, 0, 0, 0);
  expected.links = {base, wheelLink};
  JointDescription axle;
  axle.name = "axle";
  axle.kind = JointKind::Continuous;
  axle.parent = "base";
  axle.child = "wheel";
  JointDescription a = axle;
  a.name = "a";
  a.kind = JointKind::Revolute;
  a.limit = LimitDescription{};
  a.limit->lower = -1;
  a.limit->upper = 1;
  a.mimic = MimicDescription{};
  a.mimic->joint = "axle";
  expected.joints = {axle, a};
  WheelDescription wheel;
  wheel.joint = "axle";
  wheel.radius = 0.3;
  wheel.width = 0.1;
  expected.wheels = {wheel};
  ActuatorDescription motor;
  motor.name = "axle";
  motor.joint = "axle";
  motor.mode = ActuatorMode::Speed;
  motor.gain = 100;
  motor.limit = 50;
  ActuatorDescription torque;
  torque.name = "t";
  torque.joint = "a";
  torque.mode = ActuatorMode::Torque;
  torque.limit = 5;
  expected.actuators = {motor, torque};
  CHECK(joined(differences(readBack(doc), expected)) == "");
  // The documented defaults, spelled out.
  const RobotDescription d = readBack(doc);
  CHECK(d.baseKind == BaseKind::Free);
  CHECK(d.joints[0].axis == Vec3(1, 0, 0));
  CHECK(d.joints[1].limit->stiffness == 1e5);
  CHECK(d.joints[1].limit->damping == 1e3);
  CHECK(d.joints[1].mimic->multiplier == 1);
  CHECK(d.wheels[0].tire.stiffness == 2e5);
  CHECK(d.wheels[0].tire.rollingRadiusRatio == 0.97);
  CHECK(d.wheels[0].tread.rollingDampingTime == 0.02);
  CHECK(d.actuators[0].gearRatio == 1);
  CHECK(d.controls.maxWheelSpeed == 1e300);
  CHECK(d.links[0].colour.empty());
  CHECK(d.sections.empty());
  // Without wheels, actuators, controls and sections at all.
  json bare = doc;
  for (const char* key : {"wheels", "actuators", "controls"}) bare.erase(key);
  bare["joints"] = json::array();
  const RobotDescription b = readBack(bare);
  CHECK(b.wheels.empty());
  CHECK(b.actuators.empty());
  CHECK(b.joints.empty());
}

// ------------------------------------------------------------------ refusals

TEST_CASE("each refusal names its path", "[robot-json]") {
  struct Case {
    const char* what;
    std::function<void(json&)> change;
    std::string path;     ///< below robot.model
    std::string message;  ///< the whole message, or its start when it ends with "…"
  };
  const std::string nan = "NaN";
  const std::vector<Case> cases = {
      {"a mass as a string", [](json& d) { d["links"][0]["mass"] = "12"; }, ".links[0].mass",
       "must be a number (kg), got a string"},
      {"NaN as a string", [&](json& d) { d["links"][1]["mass"] = nan; }, ".links[1].mass",
       "must be a number (kg), got a string"},
      {"a NaN value",
       [](json& d) {
         d["links"][0]["com"] = {0, std::nan(""), 0};
       },
       ".links[0].com[1]", "must be a finite number"},
      {"an infinite value",
       [](json& d) { d["joints"][0]["damping"] = std::numeric_limits<double>::infinity(); },
       ".joints[0].damping", "must be a finite number"},
      {"a negative mass", [](json& d) { d["links"][0]["mass"] = -1; }, ".links[0].mass",
       "must be in [0, 1e6] kg, got -1"},
      {"a mass as a boolean", [](json& d) { d["links"][0]["mass"] = true; }, ".links[0].mass",
       "must be a number (kg), got a boolean"},
      {"1001 links",
       [](json& d) {
         for (int k = 0; k < 999; ++k) d["links"].push_back(d["links"][1]);
       },
       ".links", "has 1001 links; the limit is 1000"},
      {"1001 joints",
       [](json& d) {
         for (int k = 0; k < 1000; ++k) d["joints"].push_back(d["joints"][0]);
       },
       ".joints", "has 1001 joints; the limit is 1000"},
      {"an unknown field", [](json& d) { d["links"][0]["color"] = "#808080"; }, ".links[0].color",
       "unknown field (expected one of: collisions, colour, com, inertia, mass, name)"},
      {"the struct's line field", [](json& d) { d["joints"][0]["line"] = 3; }, ".joints[0].line",
       "unknown field (expected one of: axis, child, damping, effort, friction, limit, mimic, "
       "name, origin, parent, spring, type, velocity)"},
      {"a field of another shape type",
       [](json& d) { d["links"][0]["collisions"][0]["radius"] = 1; },
       ".links[0].collisions[0].radius", "unknown field (expected one of: origin, size, type)"},
      {"an unknown field at the top", [](json& d) { d["preset"] = "rocker8"; }, ".preset",
       "unknown field (expected one of: actuators, base, controls, joints, links, name, "
       "sections, wheels)"},
      {"duplicate link names", [](json& d) { d["links"][1]["name"] = "base"; }, ".links[1].name",
       "duplicate link name 'base' (links[0] has it too)"},
      {"duplicate joint names", [](json& d) { d["joints"].push_back(d["joints"][0]); },
       ".joints[1].name", "duplicate joint name 'axle' (joints[0] has it too)"},
      {"duplicate actuator names", [](json& d) { d["actuators"].push_back(d["actuators"][0]); },
       ".actuators[1].name", "duplicate actuator name 'axle' (actuators[0] has it too)"},
      {"a colour that is not hex", [](json& d) { d["links"][0]["colour"] = "#80808g"; },
       ".links[0].colour", "must be a colour \"#rrggbb\", got '#80808g'"},
      {"a colour by name", [](json& d) { d["links"][0]["colour"] = "grey"; }, ".links[0].colour",
       "must be a colour \"#rrggbb\", got 'grey'"},
      {"a joint type", [](json& d) { d["joints"][0]["type"] = "ball"; }, ".joints[0].type",
       "must be one of: fixed, revolute, continuous, prismatic (got 'ball')"},
      {"an actuator mode", [](json& d) { d["actuators"][0]["mode"] = "velocity"; },
       ".actuators[0].mode", "must be one of: speed, position, torque (got 'velocity')"},
      {"a base kind", [](json& d) { d["base"]["kind"] = "floating"; }, ".base.kind",
       "must be one of: free, planar, carriage (got 'floating')"},
      {"a shape type", [](json& d) { d["links"][0]["collisions"][0]["type"] = "mesh"; },
       ".links[0].collisions[0].type", "must be one of: box, cylinder, sphere, hull (got 'mesh')"},
      {"a huge hull",
       [](json& d) {
         d["links"][0]["collisions"][0] = {{"type", "hull"}, {"points", hullPoints(10001)}};
       },
       ".links[0].collisions[0].points", "has 10001 points; a hull has at most 10000"},
      {"too many hull points in all",
       [](json& d) {
         const json hull = {{"type", "hull"}, {"points", hullPoints(10000)}};
         for (int k = 0; k < 11; ++k) d["links"][1]["collisions"].push_back(hull);
       },
       ".links[1].collisions[10].points",
       "the description's hulls would have more than 100000 points in all, the limit"},
      {"a hull of 3 points",
       [](json& d) {
         d["links"][0]["collisions"][0] = {{"type", "hull"}, {"points", hullPoints(3)}};
       },
       ".links[0].collisions[0].points", "must hold at least 4 points [x, y, z] (m), got 3"},
      {"no name", [](json& d) { d.erase("name"); }, ".name", "is required: the robot's name"},
      {"no base link", [](json& d) { d["base"].erase("link"); }, ".base.link",
       "is required: the base link's name"},
      {"no inertia", [](json& d) { d["links"][1].erase("inertia"); }, ".links[1].inertia",
       "is required: {ixx, iyy, izz, ixy, ixz, iyz} (kg·m²) about the centre of mass"},
      {"no ixx", [](json& d) { d["links"][1]["inertia"].erase("ixx"); }, ".links[1].inertia.ixx",
       "is required (a number in [-1e10, 1e10] kg·m²)"},
      {"no joints", [](json& d) { d.erase("joints"); }, ".joints",
       "is required: an array of joints (may be empty)"},
      {"no links", [](json& d) { d["links"] = json::array(); }, ".links",
       "must hold at least one link"},
      {"links as an object", [](json& d) { d["links"] = json::object(); }, ".links",
       "must be an array, got an object"},
      {"a joint without a child", [](json& d) { d["joints"][0].erase("child"); },
       ".joints[0].child", "is required: the child link's name"},
      {"an empty name", [](json& d) { d["joints"][0]["parent"] = ""; }, ".joints[0].parent",
       "must not be empty"},
      {"a name of 201 characters",
       [](json& d) {
         std::string name;
         for (int k = 0; k < 201; ++k) name += "é";
         d["links"][1]["name"] = name;
       },
       ".links[1].name", "is 201 characters long; a name has at most 200"},
      {"a zero axis",
       [](json& d) {
         d["joints"][0]["axis"] = {0, -0.0, 0};
       },
       ".joints[0].axis", "must be a direction: a vector of length ≥ 1e-6, got (0, -0, 0)"},
      {"an axis of two numbers",
       [](json& d) {
         d["joints"][0]["axis"] = {0, 1};
       },
       ".joints[0].axis", "must be [x, y, z] (-), got an array of 2"},
      {"a limit upside down",
       [](json& d) {
         d["joints"][0]["type"] = "prismatic";
         d["joints"][0]["limit"] = {{"lower", 0.5}, {"upper", -0.5}};
       },
       ".joints[0].limit.upper", "must not be below lower (0.5 m), got -0.5"},
      {"a limit without upper",
       [](json& d) {
         d["joints"][0]["limit"] = {{"lower", 0.5}};
       },
       ".joints[0].limit.upper", "is required (a number in [-1000, 1000] rad)"},
      {"a negative spring",
       [](json& d) {
         d["joints"][0]["spring"] = {{"stiffness", -1}};
       },
       ".joints[0].spring.stiffness", "must be in [0, 1e12] N·m/rad, got -1"},
      {"a com too far",
       [](json& d) {
         d["links"][0]["com"] = {0, 0, 101};
       },
       ".links[0].com[2]", "must be in [-100, 100] m, got 101"},
      {"a com of two numbers",
       [](json& d) {
         d["links"][0]["com"] = {0, 0};
       },
       ".links[0].com", "must be [x, y, z] (m), got an array of 2"},
      {"an origin as an array",
       [](json& d) {
         d["joints"][0]["origin"] = {0, 0, 0};
       },
       ".joints[0].origin", "must be an object, got an array"},
      {"a huge rpy",
       [](json& d) {
         d["joints"][0]["origin"] = {{"rpy", {0, 0, 1e3}}};
       },
       ".joints[0].origin.rpy[2]", "must be in [-100, 100] rad, got 1000"},
      {"a zero box edge", [](json& d) { d["links"][0]["collisions"][0]["size"][2] = 0; },
       ".links[0].collisions[0].size[2]", "must be in (0, 100] m, got 0"},
      {"a zero wheel radius", [](json& d) { d["wheels"][0]["radius"] = 0; }, ".wheels[0].radius",
       "must be in (0, 10] m, got 0"},
      {"a wide wheel", [](json& d) { d["wheels"][0]["width"] = 6; }, ".wheels[0].width",
       "must be in (0, 5] m, got 6"},
      {"a soft tire",
       [](json& d) {
         d["wheels"][0]["tire"] = {{"stiffness", 10}};
       },
       ".wheels[0].tire.stiffness", "must be in [1000, 1e8] N/m, got 10"},
      {"a zero stiction speed",
       [](json& d) {
         d["wheels"][0]["tread"] = {{"stiction_speed", 0}};
       },
       ".wheels[0].tread.stiction_speed", "must be in (0, 10] m/s, got 0"},
      {"a zero gear ratio", [](json& d) { d["actuators"][0]["gear_ratio"] = 0; },
       ".actuators[0].gear_ratio", "must be in (0, 10000] -, got 0"},
      {"a speed drive without gain", [](json& d) { d["actuators"][0].erase("gain"); },
       ".actuators[0].gain", "is required (a number in [0, 1e12] N·m·s/rad (N·s/m))"},
      {"a negative maximum wheel speed", [](json& d) { d["controls"]["max_wheel_speed"] = -1; },
       ".controls.max_wheel_speed", "must be ≥ 0 rad/s, got -1"},
      {"a number for a name in a list", [](json& d) { d["controls"]["left"] = {3}; },
       ".controls.left[0]", "must be a name (a string), got a number"},
      {"sections as a string", [](json& d) { d["sections"] = "base"; }, ".sections",
       "must be an array, got a string"},
      {"1001 sections",
       [](json& d) {
         d["sections"] = json::array();
         for (int k = 0; k < 1001; ++k) d["sections"].push_back("base");
       },
       ".sections", "has 1001 names; the limit is 1000"},
      {"not an object",
       [](json& d) {
         d = json::array({1, 2});
       },
       "", "must be an object, got an array"},
  };
  REQUIRE(issuesOf(validDocument()).empty());
  for (const Case& c : cases) {
    json doc = validDocument();
    c.change(doc);
    const std::vector<Issue> issues = issuesOf(doc);
    INFO(c.what << "\n" << issuesText(issues));
    const Issue* issue = issueAt(issues, "robot.model" + c.path);
    REQUIRE(issue != nullptr);
    CHECK(issue->message == c.message);
  }
  // Without a prefix the paths start at the description's fields.
  json doc = validDocument();
  doc["links"][0]["mass"] = -1;
  const Expected<RobotDescription> bare = readRobotDescription(doc, "");
  REQUIRE_FALSE(bare.ok());
  CHECK(bare.issues()[0].path == "links[0].mass");
}

TEST_CASE("every problem of a document is reported, not just the first", "[robot-json]") {
  json doc = validDocument();
  doc["links"][0]["mass"] = -1;
  doc["joints"][0]["type"] = "ball";
  doc["wheels"][0]["radius"] = "big";
  doc["actuators"][0]["typo"] = 1;
  doc["controls"]["max_wheel_speed"] = -2;
  const std::vector<Issue> issues = issuesOf(doc);
  INFO(issuesText(issues));
  CHECK(issues.size() == 5);
  for (const char* path :
       {"robot.model.links[0].mass", "robot.model.joints[0].type", "robot.model.wheels[0].radius",
        "robot.model.actuators[0].typo", "robot.model.controls.max_wheel_speed"})
    CHECK(issueAt(issues, path) != nullptr);
  // A thousand bad links: the answer holds 100 issues and a count of the rest.
  json many = validDocument();
  for (int k = 0; k < 998; ++k) {
    many["links"].push_back(many["links"][1]);
    many["links"].back()["name"] = "link_" + std::to_string(k);
  }
  for (json& l : many["links"]) l["mass"] = -1;
  const std::vector<Issue> capped = issuesOf(many);
  REQUIRE(capped.size() == 101);
  CHECK(capped.back().message == "and 900 more issues");
}

TEST_CASE("names of up to 200 characters, any script, are read", "[robot-json]") {
  json doc = validDocument();
  std::string name;
  for (int k = 0; k < 200; ++k) name += "é";
  doc["links"][1]["name"] = name;
  doc["joints"][0]["child"] = name;
  CHECK(readBack(doc).links[1].name == name);
}

TEST_CASE("a description of 1000 links reads well under a second", "[robot-json]") {
  RobotDescription d;
  d.name = "chain";
  d.base = "link_0";
  for (int k = 0; k < kMaxRobotParts; ++k) {
    LinkDescription l;
    l.name = "link_" + std::to_string(k);
    l.mass = 1 + k % 7;
    l.com = Vec3(0.1, 0.01 * k, 0.2);
    l.inertia = symmetric(0.1, 0.2, 0.3, 0.01, 0, 0);
    l.collisions.push_back(box(Vec3(0.2, 0.1, 0.1)));
    l.colour = "#808080";
    d.links.push_back(l);
    if (k == 0) continue;
    JointDescription j;
    j.name = "joint_" + std::to_string(k);
    j.kind = JointKind::Revolute;
    j.parent = d.links[k - 1].name;
    j.child = l.name;
    j.origin.xyz = Vec3(0.2, 0, 0);
    j.axis = Vec3(0, 1, 0);
    j.limit = LimitDescription{-1, 1, 1e5, 1e3, {}};
    d.joints.push_back(j);
  }
  const std::string text = dumpJson(writeRobotDescription(d));
  const auto start = std::chrono::steady_clock::now();
  const RobotDescription back = readText(text);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(back.links.size() == 1000);
  CHECK(joined(differences(back, d)) == "");
  INFO(text.size() << " bytes read in " << seconds << " s");
  CHECK(seconds < 1.0);  // read within a second, as every robot input must be
}

// ------------------------------------------------------------------ the schema

TEST_CASE("the example of docs/robot-format.md is read", "[robot-json]") {
  std::ifstream in(std::filesystem::path(ROVERLAB_SOURCE_DIR) / "docs" / "robot-format.md");
  REQUIRE(in.good());
  std::stringstream page;
  page << in.rdbuf();
  const std::string text = page.str();
  const size_t section = text.find("\n## Example\n");
  REQUIRE(section != std::string::npos);
  const size_t start = text.find("```json\n", section);
  REQUIRE(start != std::string::npos);
  const size_t end = text.find("\n```", start + 8);
  const RobotDescription d = readText(text.substr(start + 8, end - (start + 8)));
  CHECK(d.links.size() == 3);
  CHECK(d.wheels.size() == 2);
  CHECK(d.wheels[1].tire.stiffness == 1.5e5);
  CHECK(d.controls.maxWheelSpeed == 5);
}

TEST_CASE("the reader reads exactly the fields docs/robot.schema.json names", "[robot-json]") {
  const json schema = schemaDocument();
  const SchemaWalk walk(schema);
  const json doc = writeRobotDescription(everyField());
  std::vector<Place> places;
  walk.places(schema, doc, "robot.model", json::json_pointer(), places);
  // Every record of the schema appears in the document.
  std::set<const json*> seen;
  for (const Place& p : places) seen.insert(p.node);
  std::set<std::string> missing;
  const json& defs = schema["$defs"];
  for (auto it = defs.begin(); it != defs.end(); ++it)
    if (it->contains("properties") && !seen.count(&*it)) missing.insert(it.key());
  CHECK(missing.empty());
  for (const Place& p : places) {
    const json& properties = (*p.node)["properties"];
    INFO(p.path);
    CHECK((*p.node)["additionalProperties"] == false);
    // An extra key is refused, listing the fields the reader reads there.
    json bad = doc;
    bad[p.where]["zz_unknown"] = 1;
    const std::vector<Issue> issues = issuesOf(bad);
    const Issue* unknown = issueAt(issues, p.path + ".zz_unknown");
    REQUIRE(unknown != nullptr);
    const std::string prefix = "unknown field (expected one of: ";
    REQUIRE(unknown->message.rfind(prefix, 0) == 0);
    CHECK(split(unknown->message.substr(
              prefix.size(), unknown->message.size() - prefix.size() - 1)) == keysOf(properties));
    for (const auto& [key, property] : properties.items()) {
      INFO(key);
      // Every field is read: a wrong value is refused at its path.
      json wrong = doc;
      wrong[p.where][key] = {{"zz", "x"}};
      bool refused = false;
      for (const Issue& i : issuesOf(wrong)) {
        const std::string at = p.path + "." + key;
        refused = refused || i.path.rfind(at, 0) == 0;
      }
      CHECK(refused);
      // Every enum lists the reader's values.
      const json& resolved = walk.resolve(property);
      if (resolved.contains("enum")) {
        json other = doc;
        other[p.where][key] = "zz_bad";
        const std::vector<Issue> issues = issuesOf(other);
        const Issue* issue = issueAt(issues, p.path + "." + key);
        REQUIRE(issue != nullptr);
        const std::string m = issue->message;
        REQUIRE(m.rfind("must be one of: ", 0) == 0);
        std::vector<std::string> values;
        for (const json& v : resolved["enum"]) values.push_back(v.get<std::string>());
        std::sort(values.begin(), values.end());
        CHECK(split(m.substr(16, m.find(" (got") - 16)) == values);
      }
      // Every default is the struct's: without the field, the written value is it.
      if (property.contains("default") && doc[p.where].contains(key)) {
        json without = doc;
        without[p.where].erase(key);
        bool required = false;
        if (p.node->contains("then"))
          for (const json& k : (*p.node)["then"]["required"]) required = required || k == key;
        const Expected<RobotDescription> d = readRobotDescription(without, "robot.model");
        if (!d.ok() && required) continue;  // gain of a speed or position drive
        INFO(issuesText(d.issues()));
        REQUIRE(d.ok());
        CHECK(writeRobotDescription(d.value())[p.where][key] == property["default"]);
      }
    }
  }
  // The shape types are the alternatives' constants.
  std::vector<std::string> types;
  for (const json& option : schema["$defs"]["collision"]["oneOf"])
    types.push_back(walk.resolve(option)["properties"]["type"]["const"].get<std::string>());
  json other = doc;
  other["links"][0]["collisions"][0]["type"] = "zz_bad";
  const std::vector<Issue> issues = issuesOf(other);
  const Issue* issue = issueAt(issues, "robot.model.links[0].collisions[0].type");
  REQUIRE(issue != nullptr);
  CHECK(issue->message == "must be one of: " + [&] {
    std::string s;
    for (const std::string& t : types) s += (s.empty() ? "" : ", ") + t;
    return s;
  }() + " (got 'zz_bad')");
}
