#include "robots/robot.h"

#include <cmath>

#include "common/elementary.h"
#include "common/size_optimized.h"
#include "robots/compile.h"
#include "robots/preset_kit.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

const std::vector<const PresetDef*>& registry() {
  static const std::vector<const PresetDef*> all = {&articulated6Preset(), &rocker8Preset(),
                                                    &planarVehiclePreset(), &wheelWalkerPreset(),
                                                    &wheelRigPreset()};
  return all;
}

const PresetDef* findPreset(const std::string& name) {
  for (const PresetDef* d : registry())
    if (d->name == name) return d;
  return nullptr;
}

}  // namespace

std::vector<std::string> presetNames() {
  std::vector<std::string> names;
  for (const PresetDef* d : registry()) names.push_back(d->name);
  return names;
}

std::string presetDescription(const std::string& preset) {
  const PresetDef* d = findPreset(preset);
  return d ? d->description : std::string();
}

std::vector<ParamSpec> presetParams(const std::string& preset) {
  const PresetDef* d = findPreset(preset);
  return d ? d->params : std::vector<ParamSpec>{};
}

Mat3 boxInertia(double m, const Vec3& s) {
  return (m / 12.0 *
          Vec3(s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(),
               s.x() * s.x() + s.y() * s.y()))
      .asDiagonal();
}

std::vector<ParamSpec> wheelParams(double radius, double width, double mass, double inertia,
                                   double stiffness, double damping, double motorGain,
                                   double torqueLimit, double maxSpeed) {
  return {
      {"wheel_radius", radius, 0.02, 2.0, "m", "free wheel radius r"},
      {"wheel_width", width, 0.01, 1.0, "m", "tread width"},
      {"wheel_mass", mass, 0.1, 200.0, "kg", "mass of one wheel"},
      // Ranges narrowed to what some allowed step resolves with the other
      // parameters at their defaults (sim/step_stability.h): the speed
      // controller needs gain·dt / inertia ≤ 1 with dt ≥ 1e-6 s.
      {"wheel_inertia", inertia, 1e-3, 50.0, "kg·m²", "wheel inertia about its axle"},
      {"tire_stiffness", stiffness, 1e3, 1e8, "N/m", "radial tire stiffness c_t ([GKS2025] eq. 6)"},
      {"tire_damping", damping, 0.0, 1e6, "N·s/m", "radial tire damping b_t ([GKS2025] eq. 6)"},
      {"tread_stiffness", 2.0e5, 1e3, 1e8, "N/m",
       "tangential tread stiffness σ0 (contact/tread.h)"},
      {"tread_damping", 2.0e3, 0.0, 1e6, "N·s/m", "tangential tread damping σ1"},
      {"motor_gain", motorGain, 0.0, 1e4, "N·m·s/rad", "wheel speed controller gain"},
      {"motor_integral_gain", 10 * motorGain, 0.0, 1e6, "N·m/rad",
       "integral gain of the speed controller: a wheel commanded to 0 holds like a brake"},
      {"motor_torque_limit", torqueLimit, 0.0, 1e5, "N·m", "wheel motor torque limit"},
      {"max_wheel_speed", maxSpeed, 0.0, 1e3, "rad/s", "largest wheel speed command"},
  };
}

void addWheel(RobotDescription& robot, const ParamValues& p, const std::string& parent,
              const std::string& name, const Vec3& position, bool driven) {
  LinkDescription link;
  link.name = name;
  link.mass = p("wheel_mass");
  const double r = p("wheel_radius"), w = p("wheel_width");
  const double ix = link.mass * (3 * r * r + w * w) / 12.0;  // solid disc about a diameter
  // The disc's own inertia; wheel_inertia (the wheel with its drive train)
  // replaces it about the axle.
  link.inertia = Vec3(ix, 0.5 * link.mass * r * r, ix).asDiagonal();
  robot.links.push_back(link);
  JointDescription joint;
  joint.name = name;
  joint.kind = JointKind::Continuous;
  joint.parent = parent;
  joint.child = name;
  joint.origin.xyz = position;
  joint.axis = Vec3::UnitY();
  robot.joints.push_back(joint);
  WheelDescription wheel;
  wheel.joint = name;
  wheel.radius = r;
  wheel.width = w;
  wheel.spinInertia = p("wheel_inertia");
  wheel.tire.stiffness = p("tire_stiffness");
  wheel.tire.damping = p("tire_damping");
  wheel.tread.stiffness = p("tread_stiffness");
  wheel.tread.damping = p("tread_damping");
  wheel.tireParams = {ParamValues::path("tire_stiffness"), ParamValues::path("tire_damping")};
  wheel.treadParams = {ParamValues::path("tread_stiffness"), ParamValues::path("tread_damping")};
  robot.wheels.push_back(wheel);
  if (driven) {
    ActuatorDescription a;
    a.name = name;
    a.joint = name;
    a.mode = ActuatorMode::Speed;
    a.gain = p("motor_gain");
    a.integralGain = p("motor_integral_gain");
    a.limit = p("motor_torque_limit");
    // A PI speed controller: its gain damps the spin, its integral gain is a spring.
    a.params = {ParamValues::path("motor_integral_gain"), ParamValues::path("motor_gain")};
    robot.actuators.push_back(a);
    (position.y() >= 0 ? robot.controls.left : robot.controls.right).push_back(name);
  }
}

JointDescription& addLink(RobotDescription& robot, const std::string& name,
                          const std::string& parent, JointKind joint, const Vec3& axis,
                          const Vec3& position, double mass, const Vec3& box,
                          const Vec3& boxCentre) {
  LinkDescription link;
  link.name = name;
  link.mass = mass;
  link.com = boxCentre;
  link.inertia = boxInertia(mass, box);
  if (box.minCoeff() > 0) {
    CollisionShape shape;
    shape.kind = ShapeKind::Box;
    shape.origin.xyz = boxCentre;
    shape.size = box;
    link.collisions.push_back(shape);
  }
  robot.links.push_back(link);
  JointDescription j;
  j.name = name;
  j.kind = joint;
  j.parent = parent;
  j.child = name;
  j.origin.xyz = position;
  j.axis = axis;
  robot.joints.push_back(j);
  return robot.joints.back();
}

void addServo(RobotDescription& robot, const ParamValues& p, const std::string& name,
              const std::string& joint, const std::string& gain, const std::string& damping,
              const std::string& limit, double lower, double upper) {
  ActuatorDescription a;
  a.name = name;
  a.joint = joint;
  a.mode = ActuatorMode::Position;
  a.gain = p(gain);
  a.damping = p(damping);
  a.limit = p(limit);
  a.params = {ParamValues::path(gain), ParamValues::path(damping)};
  robot.actuators.push_back(a);
  robot.controls.joints.push_back(name);
  for (JointDescription& j : robot.joints)
    if (j.name == joint) {
      LimitDescription l;
      l.lower = lower;
      l.upper = upper;
      l.stiffness = 50 * a.gain;
      l.damping =
          2 * a.damping;  // more would exceed the explicit step's damping limit on light links
      l.params = a.params;
      j.limit = l;
    }
}

Expected<RobotDescription> describePreset(const std::string& preset,
                                          const std::map<std::string, double>& overrides) {
  const PresetDef* def = findPreset(preset);
  if (!def) {
    std::string known;
    for (const std::string& n : presetNames()) known += (known.empty() ? "" : ", ") + n;
    return Expected<RobotDescription>::failure(
        "preset", "unknown preset '" + preset + "' (known: " + known + ")");
  }
  std::vector<Issue> issues;
  std::map<std::string, double> values;
  for (const ParamSpec& s : def->params) values[s.name] = s.value;
  for (const auto& [name, value] : overrides) {
    auto it = values.find(name);
    const std::string path = ParamValues::path(name);
    if (it == values.end()) {
      issues.push_back({path, "unknown parameter of preset '" + preset + "'"});
      continue;
    }
    const ParamSpec* spec = nullptr;
    for (const ParamSpec& s : def->params)
      if (s.name == name) spec = &s;
    if (!std::isfinite(value)) {
      issues.push_back({path, "must be a finite number"});
    } else if (value < spec->min || value > spec->max) {
      issues.push_back({path, "must be in [" + format(spec->min) + ", " + format(spec->max) + "] " +
                                  spec->unit + ", got " + format(value)});
    } else {
      it->second = value;
    }
  }
  if (!issues.empty()) return issues;
  const ParamValues p(values);

  RobotDescription robot;
  robot.name = preset;
  robot.base = "base";
  robot.baseKind = !def->planarByDefault ? BaseKind::Free
                   : def->pitchLocked    ? BaseKind::Carriage
                                         : BaseKind::Planar;
  const Vec3 box = def->baseBox(p), centre = def->baseBoxCentre(p);
  const double mass = p(def->baseMass);
  LinkDescription base;
  base.name = "base";
  base.mass = mass;
  base.com = centre;
  base.inertia = boxInertia(mass, box);
  CollisionShape shape;
  shape.origin.xyz = centre;
  shape.size = box;
  base.collisions.push_back(shape);
  robot.links.push_back(base);
  def->build(p, robot);
  robot.controls.maxWheelSpeed = p("max_wheel_speed");
  return robot;
}

Expected<Robot> buildRobot(const std::string& preset,
                           const std::map<std::string, double>& overrides, bool planar) {
  Expected<RobotDescription> d = describePreset(preset, overrides);
  if (!d) return d.issues();
  CompileOptions options;
  options.path = "";
  options.planar = planar;
  return compileRobot(d.value(), options);
}

void setBasePose(const Robot& robot, MultibodyState& state, const Pose& pose) {
  const std::vector<Body>& bodies = robot.bodies.bodies;
  if (robot.planar) {
    state.q[bodies[0].qIndex] = pose.position.x();
    state.q[bodies[1].qIndex] = pose.position.z();
    if (bodies[robot.base].joint == JointType::Revolute)
      state.q[bodies[robot.base].qIndex] = -pose.pitch;
    return;
  }
  const Body& b = bodies[robot.base];
  const Eigen::Quaterniond q = elementary::quaternion(Vec3::UnitZ(), pose.yaw) *
                               elementary::quaternion(Vec3::UnitY(), -pose.pitch) *
                               elementary::quaternion(Vec3::UnitX(), pose.roll);
  state.q.segment<3>(b.qIndex) = pose.position;
  state.q[b.qIndex + 3] = q.w();
  state.q[b.qIndex + 4] = q.x();
  state.q[b.qIndex + 5] = q.y();
  state.q[b.qIndex + 6] = q.z();
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
