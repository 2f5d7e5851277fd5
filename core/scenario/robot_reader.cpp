#include "scenario/robot_reader.h"

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "common/size_optimized.h"
#include "scenario/field_reader.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

// ------------------------------------------------------------------ ranges

/// What a number field may hold: [min, max], or (min, max] when openMin.
struct Range {
  double min = -INFINITY;
  double max = INFINITY;
  std::string unit = "-";
  bool openMin = false;
};

Range closed(double min, double max, std::string unit) {
  return {min, max, std::move(unit), false};
}
Range open(double min, double max, std::string unit) { return {min, max, std::move(unit), true}; }

/// Largest stiffness, damping, gain, effort, friction or torque limit.
constexpr double kCoefficientMax = 1e12;
/// Largest length, radius or box edge of a collision shape (m).
constexpr double kShapeMax = 100.0;
/// Largest |coordinate| of a frame origin, a centre of mass or a hull point (m).
constexpr double kPositionMax = 100.0;
/// Largest |angle| of an rpy rotation (rad).
constexpr double kAngleMax = 100.0;
/// Largest |component| of an inertia (kg·m²): the largest mass (1e6 kg) at the
/// largest extent (100 m).
constexpr double kInertiaMax = 1e10;
/// Largest |joint value| of a limit, a spring's rest or a mimic offset (rad or m),
/// and |multiplier| of a mimic (-).
constexpr double kJointValueMax = 1e3;
/// Largest |component| of a joint axis (-); its length must be at least kAxisMin.
constexpr double kAxisMax = 1e6;
constexpr double kAxisMin = 1e-6;

Range coefficient(const std::string& unit) { return closed(0.0, kCoefficientMax, unit); }

// A number for a message: 6 significant digits, exponents without '+' and
// leading zeros ("1e6", "1e-3").
std::string shown(double v) {
  std::string s = format(v);
  const size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string exponent = s.substr(e + 1);
  const bool negative = !exponent.empty() && exponent[0] == '-';
  size_t k = (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+')) ? 1 : 0;
  while (k + 1 < exponent.size() && exponent[k] == '0') ++k;
  return s.substr(0, e) + "e" + (negative ? "-" : "") + exponent.substr(k);
}

std::string rangeText(const Range& r) {
  if (std::isinf(r.max)) return (r.openMin ? "> " : "≥ ") + shown(r.min) + " " + r.unit;
  return "in " + std::string(r.openMin ? "(" : "[") + shown(r.min) + ", " + shown(r.max) + "] " +
         r.unit;
}

// ------------------------------------------------------------------ names of values

template <class E>
using Names = std::vector<std::pair<const char*, E>>;

const Names<BaseKind> kBaseKinds = {
    {"free", BaseKind::Free}, {"planar", BaseKind::Planar}, {"carriage", BaseKind::Carriage}};
const Names<ShapeKind> kShapeKinds = {{"box", ShapeKind::Box},
                                      {"cylinder", ShapeKind::Cylinder},
                                      {"sphere", ShapeKind::Sphere},
                                      {"hull", ShapeKind::Hull}};
const Names<JointKind> kJointKinds = {{"fixed", JointKind::Fixed},
                                      {"revolute", JointKind::Revolute},
                                      {"continuous", JointKind::Continuous},
                                      {"prismatic", JointKind::Prismatic}};
const Names<ActuatorMode> kModes = {{"speed", ActuatorMode::Speed},
                                    {"position", ActuatorMode::Position},
                                    {"torque", ActuatorMode::Torque}};

template <class E>
const char* nameOf(const Names<E>& names, E value) {
  for (const auto& [name, v] : names)
    if (v == value) return name;
  return names.front().first;
}

template <class E>
std::vector<std::string> allNames(const Names<E>& names) {
  std::vector<std::string> out;
  for (const auto& [name, v] : names) out.push_back(name);
  return out;
}

/// Units of a joint's values: rotational, or translational for a prismatic joint.
struct JointUnits {
  const char *value, *stiffness, *damping, *force, *speed, *cubic;
};

JointUnits unitsOf(JointKind kind) {
  if (kind == JointKind::Prismatic) return {"m", "N/m", "N·s/m", "N", "m/s", "N/m³"};
  return {"rad", "N·m/rad", "N·m·s/rad", "N·m", "rad/s", "N·m/rad³"};
}

// ------------------------------------------------------------------ reading

// Unicode code points of UTF-8 text (the document reader has checked it).
size_t characters(const std::string& s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

class DescriptionReader {
 public:
  Reader r;

  // The number v at p as `range` allows it; `fallback` when it does not.
  double numberValue(const json& v, const std::string& p, const Range& range, double fallback) {
    if (!v.is_number()) {
      r.add(p, "must be a number (" + range.unit + "), got " + typeName(v));
      return fallback;
    }
    const double x = v.get<double>();
    if (!std::isfinite(x)) {
      r.add(p, "must be a finite number");
      return fallback;
    }
    if (x < range.min || (range.openMin && x <= range.min) || x > range.max) {
      r.add(p, "must be " + rangeText(range) + ", got " + shown(x));
      return fallback;
    }
    return x;
  }

  // obj[key]: `fallback` when absent.
  double number(const json& obj, const std::string& path, const char* key, const Range& range,
                double fallback) {
    const auto it = obj.find(key);
    if (it == obj.end()) return fallback;
    return numberValue(*it, Reader::at(path, key), range, fallback);
  }

  // obj[key]: an issue when absent.
  double required(const json& obj, const std::string& path, const char* key, const Range& range) {
    const auto it = obj.find(key);
    if (it == obj.end()) {
      r.add(Reader::at(path, key), "is required (a number " + rangeText(range) + ")");
      return 0.0;
    }
    return numberValue(*it, Reader::at(path, key), range, 0.0);
  }

  Vec3 vec3Value(const json& v, const std::string& p, const Range& range, const Vec3& fallback) {
    if (!v.is_array() || v.size() != 3) {
      r.add(p, "must be [x, y, z] (" + range.unit + "), got " +
                   (v.is_array() ? "an array of " + std::to_string(v.size()) : typeName(v)));
      return fallback;
    }
    Vec3 out;
    for (size_t i = 0; i < 3; ++i) out[i] = numberValue(v[i], Reader::at(p, i), range, fallback[i]);
    return out;
  }

  Vec3 vec3(const json& obj, const std::string& path, const char* key, const Range& range,
            const Vec3& fallback) {
    const auto it = obj.find(key);
    if (it == obj.end()) return fallback;
    return vec3Value(*it, Reader::at(path, key), range, fallback);
  }

  std::string nameValue(const json& v, const std::string& p) {
    if (!v.is_string()) {
      r.add(p, "must be a name (a string), got " + typeName(v));
      return "";
    }
    std::string s = v.get<std::string>();
    if (s.empty()) {
      r.add(p, "must not be empty");
    } else if (const size_t n = characters(s); n > static_cast<size_t>(kMaxRobotNameChars)) {
      r.add(p, "is " + std::to_string(n) + " characters long; a name has at most " +
                   std::to_string(kMaxRobotNameChars));
    }
    return s;
  }

  // obj[key], a name; `what` says what it names when it is missing.
  std::string name(const json& obj, const std::string& path, const char* key, const char* what) {
    const auto it = obj.find(key);
    if (it == obj.end()) {
      r.add(Reader::at(path, key), std::string("is required: ") + what);
      return "";
    }
    return nameValue(*it, Reader::at(path, key));
  }

  // obj[key], a list of names (absent: empty).
  std::vector<std::string> names(const json& obj, const std::string& path, const char* key) {
    std::vector<std::string> out;
    const json* list = array(obj, path, key, "names");
    if (!list) return out;
    for (size_t i = 0; i < list->size(); ++i)
      out.push_back(nameValue((*list)[i], Reader::at(Reader::at(path, key), i)));
    return out;
  }

  // obj[key], one of `names`; `fallback` when absent (an issue if `needed`).
  template <class E>
  E choice(const json& obj, const std::string& path, const char* key, const Names<E>& names,
           E fallback, bool needed) {
    const std::vector<std::string> allowed = allNames(names);
    if (!obj.contains(key)) {
      if (needed) r.add(Reader::at(path, key), "is required (one of: " + join(allowed) + ")");
      return fallback;
    }
    const std::string s = r.string(obj, path, key, "", allowed);
    for (const auto& [n, v] : names)
      if (s == n) return v;
    return fallback;
  }

  // obj[key] when it is an array of at most kMaxRobotParts entries (of
  // `what`), else null (with an issue when it is present).
  const json* array(const json& obj, const std::string& path, const char* key, const char* what) {
    const json* list = r.array(obj, path, key);
    if (list && list->size() > static_cast<size_t>(kMaxRobotParts)) {
      r.add(Reader::at(path, key), "has " + std::to_string(list->size()) + " " + what +
                                       "; the limit is " + std::to_string(kMaxRobotParts));
      return nullptr;
    }
    return list;
  }

  // obj[key], an object with the `known` fields, or null (an issue when it
  // is present but not such an object).
  const json* object(const json& obj, const std::string& path, const char* key,
                     const std::set<std::string>& known) {
    const auto it = obj.find(key);
    if (it == obj.end()) return nullptr;
    return r.object(*it, Reader::at(path, key), known) ? &*it : nullptr;
  }

  Origin origin(const json& obj, const std::string& path) {
    Origin o;
    const json* oj = object(obj, path, "origin", {"xyz", "rpy"});
    if (!oj) return o;
    const std::string p = Reader::at(path, "origin");
    o.xyz = vec3(*oj, p, "xyz", closed(-kPositionMax, kPositionMax, "m"), o.xyz);
    o.rpy = vec3(*oj, p, "rpy", closed(-kAngleMax, kAngleMax, "rad"), o.rpy);
    return o;
  }

  CollisionShape shape(const json& s, const std::string& p) {
    CollisionShape c;
    static const std::map<ShapeKind, std::set<std::string>> kFields = {
        {ShapeKind::Box, {"type", "origin", "size"}},
        {ShapeKind::Cylinder, {"type", "origin", "radius", "length"}},
        {ShapeKind::Sphere, {"type", "origin", "radius"}},
        {ShapeKind::Hull, {"type", "origin", "points"}},
    };
    // The type first: it decides the fields (all of them when it is unknown).
    std::optional<ShapeKind> kind;
    if (s.is_object()) {
      const size_t before = r.issues.size();
      c.kind = choice(s, p, "type", kShapeKinds, ShapeKind::Box, true);
      if (r.issues.size() == before) kind = c.kind;
    }
    std::set<std::string> known;
    for (const auto& [k, fields] : kFields)
      if (!kind || k == *kind) known.insert(fields.begin(), fields.end());
    if (!r.object(s, p, known)) return c;
    c.origin = origin(s, p);
    if (!kind) return c;
    const Range length = open(0.0, kShapeMax, "m");
    switch (*kind) {
      case ShapeKind::Box:
        if (!s.contains("size"))
          r.add(Reader::at(p, "size"), "is required: the edge lengths [x, y, z] (m)");
        else
          c.size = vec3Value(s["size"], Reader::at(p, "size"), length, c.size);
        break;
      case ShapeKind::Cylinder:
        c.radius = required(s, p, "radius", length);
        c.length = required(s, p, "length", length);
        break;
      case ShapeKind::Sphere:
        c.radius = required(s, p, "radius", length);
        break;
      case ShapeKind::Hull:
        c.points = hull(s, p);
        break;
    }
    return c;
  }

  std::vector<Vec3> hull(const json& s, const std::string& p) {
    std::vector<Vec3> out;
    const std::string pp = Reader::at(p, "points");
    if (!s.contains("points")) {
      r.add(pp, "is required: at least 4 points [x, y, z] (m)");
      return out;
    }
    const json* points = r.array(s, p, "points");
    if (!points) return out;
    const size_t n = points->size();
    const bool fits = hullPoints_ + n <= static_cast<size_t>(kMaxRobotHullPoints);
    hullPoints_ += n;
    if (n > static_cast<size_t>(kMaxRobotHullPointsPerShape)) {
      r.add(pp, "has " + std::to_string(n) + " points; a hull has at most " +
                    std::to_string(kMaxRobotHullPointsPerShape));
      return out;
    }
    if (!fits) {
      if (!hullsFull_)
        r.add(pp, "the description's hulls would have more than " +
                      std::to_string(kMaxRobotHullPoints) + " points in all, the limit");
      hullsFull_ = true;
      return out;
    }
    if (n < 4) {
      r.add(pp, "must hold at least 4 points [x, y, z] (m), got " + std::to_string(n));
      return out;
    }
    const Range coordinate = closed(-kPositionMax, kPositionMax, "m");
    out.reserve(n);
    for (size_t k = 0; k < n; ++k)
      out.push_back(vec3Value((*points)[k], Reader::at(pp, k), coordinate, Vec3::Zero()));
    return out;
  }

  LinkDescription link(const json& l, const std::string& p) {
    LinkDescription link;
    if (!r.object(l, p, {"name", "mass", "com", "inertia", "collisions", "colour"})) return link;
    link.name = name(l, p, "name", "the link's name");
    link.mass = required(l, p, "mass", closed(0.0, 1e6, "kg"));
    link.com = vec3(l, p, "com", closed(-kPositionMax, kPositionMax, "m"), link.com);
    if (!l.contains("inertia"))
      r.add(Reader::at(p, "inertia"),
            "is required: {ixx, iyy, izz, ixy, ixz, iyz} (kg·m²) about the centre of mass");
    if (const json* in = object(l, p, "inertia", {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"})) {
      const std::string ip = Reader::at(p, "inertia");
      const Range component = closed(-kInertiaMax, kInertiaMax, "kg·m²");
      Mat3& I = link.inertia;
      I(0, 0) = required(*in, ip, "ixx", component);
      I(1, 1) = required(*in, ip, "iyy", component);
      I(2, 2) = required(*in, ip, "izz", component);
      I(0, 1) = I(1, 0) = number(*in, ip, "ixy", component, 0.0);
      I(0, 2) = I(2, 0) = number(*in, ip, "ixz", component, 0.0);
      I(1, 2) = I(2, 1) = number(*in, ip, "iyz", component, 0.0);
    }
    if (const json* shapes = array(l, p, "collisions", "shapes"))
      for (size_t i = 0; i < shapes->size(); ++i)
        link.collisions.push_back(shape((*shapes)[i], Reader::at(Reader::at(p, "collisions"), i)));
    if (l.contains("colour")) {
      const std::string cp = Reader::at(p, "colour");
      if (!l["colour"].is_string()) {
        r.add(cp, "must be a colour \"#rrggbb\", got " + typeName(l["colour"]));
      } else {
        link.colour = l["colour"].get<std::string>();
        const std::string& c = link.colour;
        if (c.size() != 7 || c[0] != '#' ||
            c.find_first_not_of("0123456789abcdefABCDEF", 1) != std::string::npos)
          r.add(cp, "must be a colour \"#rrggbb\", got '" + clipped(c) + "'");
      }
    }
    return link;
  }

  JointDescription joint(const json& jj, const std::string& p) {
    JointDescription j;
    if (!r.object(jj, p,
                  {"name", "type", "parent", "child", "origin", "axis", "limit", "effort",
                   "velocity", "damping", "friction", "spring", "mimic"}))
      return j;
    j.name = name(jj, p, "name", "the joint's name");
    j.kind = choice(jj, p, "type", kJointKinds, JointKind::Fixed, true);
    j.parent = name(jj, p, "parent", "the parent link's name");
    j.child = name(jj, p, "child", "the child link's name");
    j.origin = origin(jj, p);
    const JointUnits u = unitsOf(j.kind);
    if (jj.contains("axis")) {
      const std::string ap = Reader::at(p, "axis");
      const size_t before = r.issues.size();
      j.axis = vec3Value(jj["axis"], ap, closed(-kAxisMax, kAxisMax, "-"), j.axis);
      if (r.issues.size() == before && !(j.axis.stableNorm() >= kAxisMin))
        r.add(ap, "must be a direction: a vector of length ≥ " + shown(kAxisMin) + ", got " +
                      format(j.axis));
    }
    const Range value = closed(-kJointValueMax, kJointValueMax, u.value);
    if (const json* lj = object(jj, p, "limit", {"lower", "upper", "stiffness", "damping"})) {
      const std::string lp = Reader::at(p, "limit");
      LimitDescription limit;
      const size_t before = r.issues.size();
      limit.lower = required(*lj, lp, "lower", value);
      limit.upper = required(*lj, lp, "upper", value);
      if (r.issues.size() == before && limit.lower > limit.upper)
        r.add(Reader::at(lp, "upper"), "must not be below lower (" + shown(limit.lower) + " " +
                                           u.value + "), got " + shown(limit.upper));
      limit.stiffness = number(*lj, lp, "stiffness", coefficient(u.stiffness), limit.stiffness);
      limit.damping = number(*lj, lp, "damping", coefficient(u.damping), limit.damping);
      j.limit = limit;
    }
    j.effort = number(jj, p, "effort", coefficient(u.force), j.effort);
    j.velocity = number(jj, p, "velocity", closed(0.0, 1e6, u.speed), j.velocity);
    j.damping = number(jj, p, "damping", coefficient(u.damping), j.damping);
    j.friction = number(jj, p, "friction", coefficient(u.force), j.friction);
    if (const json* sj = object(jj, p, "spring", {"stiffness", "rest", "cubic"})) {
      const std::string sp = Reader::at(p, "spring");
      j.spring.stiffness = number(*sj, sp, "stiffness", coefficient(u.stiffness), 0.0);
      j.spring.rest = number(*sj, sp, "rest", value, 0.0);
      j.spring.cubic = number(*sj, sp, "cubic", coefficient(u.cubic), 0.0);
    }
    if (const json* mj = object(jj, p, "mimic", {"joint", "multiplier", "offset"})) {
      const std::string mp = Reader::at(p, "mimic");
      MimicDescription mimic;
      mimic.joint = name(*mj, mp, "joint", "the name of the joint followed");
      mimic.multiplier = number(*mj, mp, "multiplier", closed(-kJointValueMax, kJointValueMax, "-"),
                                mimic.multiplier);
      mimic.offset = number(*mj, mp, "offset", value, mimic.offset);
      j.mimic = mimic;
    }
    return j;
  }

  WheelDescription wheel(const json& wj, const std::string& p) {
    WheelDescription w;
    if (!r.object(wj, p, {"joint", "radius", "width", "spin_inertia", "tire", "tread"})) return w;
    w.joint = name(wj, p, "joint", "the name of the wheel's joint");
    w.radius = required(wj, p, "radius", open(0.0, 10.0, "m"));
    w.width = required(wj, p, "width", open(0.0, 5.0, "m"));
    w.spinInertia = number(wj, p, "spin_inertia", closed(0.0, 1e6, "kg·m²"), w.spinInertia);
    // Stiffness and damping as the presets' tire_* and tread_* parameters.
    if (const json* tj = object(
            wj, p, "tire", {"stiffness", "damping", "rolling_radius_ratio", "slip_speed_floor"})) {
      const std::string tp = Reader::at(p, "tire");
      TireParams& t = w.tire;
      t.stiffness = number(*tj, tp, "stiffness", closed(1e3, 1e8, "N/m"), t.stiffness);
      t.damping = number(*tj, tp, "damping", closed(0.0, 1e6, "N·s/m"), t.damping);
      t.rollingRadiusRatio =
          number(*tj, tp, "rolling_radius_ratio", open(0.0, 1.0, "-"), t.rollingRadiusRatio);
      t.slipSpeedFloor =
          number(*tj, tp, "slip_speed_floor", open(0.0, 10.0, "m/s"), t.slipSpeedFloor);
    }
    if (const json* tj = object(wj, p, "tread",
                                {"stiffness", "damping", "stiction_speed", "rolling_breakaway",
                                 "rolling_damping_time"})) {
      const std::string tp = Reader::at(p, "tread");
      TreadParams& t = w.tread;
      t.stiffness = number(*tj, tp, "stiffness", closed(1e3, 1e8, "N/m"), t.stiffness);
      t.damping = number(*tj, tp, "damping", closed(0.0, 1e6, "N·s/m"), t.damping);
      t.stictionSpeed = number(*tj, tp, "stiction_speed", open(0.0, 10.0, "m/s"), t.stictionSpeed);
      t.rollingBreakaway =
          number(*tj, tp, "rolling_breakaway", open(0.0, 1.0, "rad"), t.rollingBreakaway);
      t.rollingDampingTime =
          number(*tj, tp, "rolling_damping_time", closed(0.0, 10.0, "s"), t.rollingDampingTime);
    }
    return w;
  }

  ActuatorDescription actuator(const json& aj, const std::string& p) {
    ActuatorDescription a;
    if (!r.object(
            aj, p,
            {"name", "joint", "mode", "gain", "integral_gain", "damping", "limit", "gear_ratio"}))
      return a;
    a.name = name(aj, p, "name", "the actuator's name");
    a.joint = name(aj, p, "joint", "the name of the joint it drives");
    a.mode = choice(aj, p, "mode", kModes, ActuatorMode::Speed, true);
    const Range gain = coefficient(a.mode == ActuatorMode::Position
                                       ? "N·m/rad (N/m)"
                                       : "N·m·s/rad (N·s/m)");  // a torque drive has none
    if (a.mode == ActuatorMode::Torque || !aj.contains("mode"))
      a.gain = number(aj, p, "gain", gain, a.gain);
    else
      a.gain = required(aj, p, "gain", gain);
    a.integralGain = number(aj, p, "integral_gain", coefficient("N·m/rad (N/m)"), a.integralGain);
    a.damping = number(aj, p, "damping", coefficient("N·m·s/rad (N·s/m)"), a.damping);
    a.limit = required(aj, p, "limit", coefficient("N·m (N)"));
    a.gearRatio = number(aj, p, "gear_ratio", open(0.0, 1e4, "-"), a.gearRatio);
    return a;
  }

  // An issue at each entry whose `name` field repeats an earlier entry's.
  template <class T>
  void unique(const std::vector<T>& items, const std::string& path, const char* key,
              const char* what, const std::string& (*nameOfItem)(const T&)) {
    std::map<std::string, size_t> first;
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string& n = nameOfItem(items[i]);
      if (n.empty()) continue;
      const auto [it, added] = first.emplace(n, i);
      if (!added)
        r.add(Reader::at(Reader::at(path, i), "name"),
              std::string("duplicate ") + what + " name '" + clipped(n) + "' (" + key + "[" +
                  std::to_string(it->second) + "] has it too)");
    }
  }

  RobotDescription description(const json& j, const std::string& path) {
    RobotDescription d;
    if (!r.object(
            j, path,
            {"name", "base", "links", "joints", "wheels", "actuators", "controls", "sections"}))
      return d;
    d.name = name(j, path, "name", "the robot's name");
    if (!j.contains("base"))
      r.add(Reader::at(path, "base"), "is required: {\"link\": the base link's name, \"kind\"}");
    if (const json* bj = object(j, path, "base", {"link", "kind"})) {
      const std::string bp = Reader::at(path, "base");
      d.base = name(*bj, bp, "link", "the base link's name");
      d.baseKind = choice(*bj, bp, "kind", kBaseKinds, d.baseKind, false);
    }
    for (const char* key : {"links", "joints"})
      if (!j.contains(key))
        r.add(Reader::at(path, key), std::string("is required: an array of ") + key +
                                         (key[0] == 'l' ? " (at least one)" : " (may be empty)"));
    const std::string lp = Reader::at(path, "links");
    if (const json* links = array(j, path, "links", "links")) {
      if (links->empty()) r.add(lp, "must hold at least one link");
      for (size_t i = 0; i < links->size(); ++i)
        d.links.push_back(link((*links)[i], Reader::at(lp, i)));
      unique<LinkDescription>(
          d.links, lp, "links", "link",
          [](const LinkDescription& l) -> const std::string& { return l.name; });
    }
    const std::string jp = Reader::at(path, "joints");
    if (const json* joints = array(j, path, "joints", "joints")) {
      for (size_t i = 0; i < joints->size(); ++i)
        d.joints.push_back(joint((*joints)[i], Reader::at(jp, i)));
      unique<JointDescription>(
          d.joints, jp, "joints", "joint",
          [](const JointDescription& x) -> const std::string& { return x.name; });
    }
    if (const json* wheels = array(j, path, "wheels", "wheels"))
      for (size_t i = 0; i < wheels->size(); ++i)
        d.wheels.push_back(wheel((*wheels)[i], Reader::at(Reader::at(path, "wheels"), i)));
    const std::string ap = Reader::at(path, "actuators");
    if (const json* actuators = array(j, path, "actuators", "actuators")) {
      for (size_t i = 0; i < actuators->size(); ++i)
        d.actuators.push_back(actuator((*actuators)[i], Reader::at(ap, i)));
      unique<ActuatorDescription>(
          d.actuators, ap, "actuators", "actuator",
          [](const ActuatorDescription& a) -> const std::string& { return a.name; });
    }
    if (const json* cj =
            object(j, path, "controls", {"left", "right", "joints", "max_wheel_speed"})) {
      const std::string cp = Reader::at(path, "controls");
      ControlsDescription& c = d.controls;
      c.left = names(*cj, cp, "left");
      c.right = names(*cj, cp, "right");
      c.joints = names(*cj, cp, "joints");
      c.maxWheelSpeed =
          number(*cj, cp, "max_wheel_speed", closed(0.0, INFINITY, "rad/s"), c.maxWheelSpeed);
    }
    d.sections = names(j, path, "sections");
    return d;
  }

 private:
  size_t hullPoints_ = 0;   // hull points met so far
  bool hullsFull_ = false;  // the total is past the limit (reported once)
};

// ------------------------------------------------------------------ writing

json vec3(const Vec3& v) { return json::array({v.x(), v.y(), v.z()}); }

json origin(const Origin& o) {
  json out = json::object();
  out["xyz"] = vec3(o.xyz);
  out["rpy"] = vec3(o.rpy);
  return out;
}

json shape(const CollisionShape& c) {
  json out = json::object();
  out["type"] = nameOf(kShapeKinds, c.kind);
  out["origin"] = origin(c.origin);
  switch (c.kind) {
    case ShapeKind::Box:
      out["size"] = vec3(c.size);
      break;
    case ShapeKind::Cylinder:
      out["radius"] = c.radius;
      out["length"] = c.length;
      break;
    case ShapeKind::Sphere:
      out["radius"] = c.radius;
      break;
    case ShapeKind::Hull:
      out["points"] = json::array();
      for (const Vec3& p : c.points) out["points"].push_back(vec3(p));
      break;
  }
  return out;
}

json link(const LinkDescription& l) {
  json out = json::object();
  out["name"] = l.name;
  out["mass"] = l.mass;
  out["com"] = vec3(l.com);
  const Mat3& I = l.inertia;
  out["inertia"] = {{"ixx", I(0, 0)}, {"iyy", I(1, 1)}, {"izz", I(2, 2)},
                    {"ixy", I(0, 1)}, {"ixz", I(0, 2)}, {"iyz", I(1, 2)}};
  out["collisions"] = json::array();
  for (const CollisionShape& c : l.collisions) out["collisions"].push_back(shape(c));
  if (!l.colour.empty()) out["colour"] = l.colour;
  return out;
}

json joint(const JointDescription& j) {
  json out = json::object();
  out["name"] = j.name;
  out["type"] = nameOf(kJointKinds, j.kind);
  out["parent"] = j.parent;
  out["child"] = j.child;
  out["origin"] = origin(j.origin);
  out["axis"] = vec3(j.axis);
  if (j.limit)
    out["limit"] = {{"lower", j.limit->lower},
                    {"upper", j.limit->upper},
                    {"stiffness", j.limit->stiffness},
                    {"damping", j.limit->damping}};
  out["effort"] = j.effort;
  out["velocity"] = j.velocity;
  out["damping"] = j.damping;
  out["friction"] = j.friction;
  out["spring"] = {
      {"stiffness", j.spring.stiffness}, {"rest", j.spring.rest}, {"cubic", j.spring.cubic}};
  if (j.mimic)
    out["mimic"] = {{"joint", j.mimic->joint},
                    {"multiplier", j.mimic->multiplier},
                    {"offset", j.mimic->offset}};
  return out;
}

json wheel(const WheelDescription& w) {
  json out = json::object();
  out["joint"] = w.joint;
  out["radius"] = w.radius;
  out["width"] = w.width;
  out["spin_inertia"] = w.spinInertia;
  out["tire"] = {{"stiffness", w.tire.stiffness},
                 {"damping", w.tire.damping},
                 {"rolling_radius_ratio", w.tire.rollingRadiusRatio},
                 {"slip_speed_floor", w.tire.slipSpeedFloor}};
  out["tread"] = {{"stiffness", w.tread.stiffness},
                  {"damping", w.tread.damping},
                  {"stiction_speed", w.tread.stictionSpeed},
                  {"rolling_breakaway", w.tread.rollingBreakaway},
                  {"rolling_damping_time", w.tread.rollingDampingTime}};
  return out;
}

json actuator(const ActuatorDescription& a) {
  json out = json::object();
  out["name"] = a.name;
  out["joint"] = a.joint;
  out["mode"] = nameOf(kModes, a.mode);
  out["gain"] = a.gain;
  out["integral_gain"] = a.integralGain;
  out["damping"] = a.damping;
  out["limit"] = a.limit;
  out["gear_ratio"] = a.gearRatio;
  return out;
}

}  // namespace

Expected<RobotDescription> readRobotDescription(const json& j, const std::string& path) {
  DescriptionReader reader;
  RobotDescription d = reader.description(j, path);
  if (!reader.r.issues.empty()) return capped(std::move(reader.r.issues));
  return d;
}

json writeRobotDescription(const RobotDescription& d) {
  json out = json::object();
  out["name"] = d.name;
  out["base"] = {{"link", d.base}, {"kind", nameOf(kBaseKinds, d.baseKind)}};
  out["links"] = json::array();
  for (const LinkDescription& l : d.links) out["links"].push_back(link(l));
  out["joints"] = json::array();
  for (const JointDescription& j : d.joints) out["joints"].push_back(joint(j));
  out["wheels"] = json::array();
  for (const WheelDescription& w : d.wheels) out["wheels"].push_back(wheel(w));
  out["actuators"] = json::array();
  for (const ActuatorDescription& a : d.actuators) out["actuators"].push_back(actuator(a));
  out["controls"] = {{"left", d.controls.left},
                     {"right", d.controls.right},
                     {"joints", d.controls.joints},
                     {"max_wheel_speed", d.controls.maxWheelSpeed}};
  out["sections"] = d.sections;
  return out;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
