#include "sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace roverlab {
namespace {

// Corners and edge midpoints of each body box: the chassis contact probes.
std::vector<BodyProbes> boxProbes(const Robot& robot) {
  std::vector<BodyProbes> out;
  for (const BodyBox& b : robot.boxes) {
    BodyProbes p;
    p.body = b.body;
    for (int i = -1; i <= 1; ++i)
      for (int j = -1; j <= 1; ++j)
        for (int k = -1; k <= 1; ++k)
          if (std::abs(i) + std::abs(j) + std::abs(k) >= 2)  // corners and edge midpoints
            p.points.push_back(b.centre + 0.5 * Vec3(i * b.size.x(), j * b.size.y(), k * b.size.z()));
    out.push_back(p);
  }
  return out;
}

// Largest wheel deflection and the deepest wheel centre (negative distance = inside).
struct WheelDepth {
  double deflection = 0;
  double distance = 1e300;
  int wheel = -1, piece = -1;
  bool anyContact = false;
};

WheelDepth wheelDepth(const WorldModel& model, const WorldState& state) {
  WorldData data = makeWorldData(model);
  forwardKinematics(model.bodies, state.bodies, data.bodies);
  WheelDepth d;
  std::vector<WheelContact> contacts;
  for (size_t w = 0; w < model.wheels.size(); ++w) {
    const WheelModel& wheel = model.wheels[w];
    const Vec3 centre = worldPoint(data.bodies, wheel.body, Vec3::Zero());
    const Vec3 axle = worldRotation(data.bodies, wheel.body) * model.bodies.bodies[wheel.body].axis;
    wheelContacts(model.terrain, wheel.shape, centre, axle, contacts);
    for (const WheelContact& c : contacts) {
      d.anyContact = true;
      if (c.deflection > d.deflection) d.deflection = c.deflection;
      if (c.distance < d.distance) d.distance = c.distance, d.wheel = static_cast<int>(w), d.piece = c.piece;
    }
  }
  return d;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

void applyScript(Simulation& sim) {
  const double t = sim.state.bodies.time + 1e-12;
  while (sim.nextScript < sim.control.script.size() && sim.control.script[sim.nextScript].time <= t) {
    const ScriptEntry& e = sim.control.script[sim.nextScript++];
    setWheelSpeeds(sim, e.leftSpeed.value_or(sim.leftSpeed), e.rightSpeed.value_or(sim.rightSpeed));
    for (const auto& [name, target] : e.joints) setJointTarget(sim, name, target);
  }
}

}  // namespace

Expected<Simulation> makeSimulation(const Scenario& scenario) {
  Expected<Robot> built = buildRobot(scenario.robot.preset, scenario.robot.params, scenario.simulation.planar);
  if (!built) return prefixed("robot", built.issues());
  Simulation sim;
  sim.robot = std::move(built).value();
  const Robot& robot = sim.robot;
  WorldModel& m = sim.model;
  m.bodies = robot.bodies;
  m.terrain = scenario.terrain;
  m.wheels = robot.wheels;
  m.actuators = robot.actuators;
  m.limits = robot.limits;
  m.springs = robot.springs;
  m.probes = boxProbes(robot);
  m.chassis.enabled = scenario.simulation.chassisContact;
  m.slip = scenario.simulation.slip;
  m.integrator = scenario.simulation.integrator;
  m.dt = scenario.simulation.dt;
  if (m.slip == SlipDefinition::Absolute)
    for (WheelModel& w : m.wheels) w.tire.slipSpeedFloor = 0.0;  // S = |V_tK| needs no floor
  sim.duration = scenario.simulation.duration;
  sim.control = scenario.control;
  sim.state = initialState(m);
  sim.data = makeWorldData(m);

  // The explicit step resolves a tire spring only when dt·ω stays well below
  // 2 (the stability limit of semi-implicit Euler), ω = √(c_t / m) with m the
  // robot's mass shared among its wheels; beyond ω·dt = 0.5 the contact
  // gains energy and launches the robot.
  double mass = 0;
  for (const Body& b : m.bodies.bodies) mass += b.mass;
  for (const WheelModel& w : m.wheels) {
    const double omega = std::sqrt(w.tire.stiffness * m.wheels.size() / mass);
    if (omega * m.dt > 0.5)
      return Expected<Simulation>::failure(
          "simulation.dt", "too large for the tire stiffness: " + fmt(m.dt) + " s with " + fmt(w.tire.stiffness) +
                               " N/m on " + fmt(mass / m.wheels.size()) + " kg per wheel; use dt ≤ " +
                               fmt(0.5 / omega) + " s");
  }

  Pose pose = scenario.robot.pose;
  const std::string where = "robot.pose.position";
  if (scenario.robot.placeOnGround) {
    // Lower the robot from above the terrain in steps of half the smallest
    // wheel radius until a wheel touches, then bisect to the first touch.
    double radius = 1e300;
    for (const WheelModel& w : m.wheels) radius = std::min(radius, w.shape.radius);
    const double top = m.terrain.box.max.z() + 10.0, bottom = m.terrain.box.min.z() - 10.0;
    auto touches = [&](double z) {
      pose.position.z() = z;
      setBasePose(robot, sim.state.bodies, pose);
      return wheelDepth(m, sim.state).anyContact;
    };
    if (touches(top))
      return Expected<Simulation>::failure(where, "the robot touches the terrain even 10 m above its top");
    double hi = top, lo = top;
    while (!touches(lo)) {
      hi = lo;
      lo -= 0.5 * radius;
      if (lo < bottom)
        return Expected<Simulation>::failure(where, "there is no terrain under the robot's wheels at (" +
                                                        fmt(pose.position.x()) + ", " + fmt(pose.position.y()) + ")");
    }
    for (int i = 0; i < 60 && hi - lo > 1e-9; ++i) {
      const double mid = 0.5 * (lo + hi);
      (touches(mid) ? lo : hi) = mid;
    }
    pose.position.z() = hi;
  }
  setBasePose(robot, sim.state.bodies, pose);
  const WheelDepth depth = wheelDepth(m, sim.state);
  if (depth.wheel >= 0) {
    const WheelModel& w = m.wheels[depth.wheel];
    const std::string name = m.bodies.bodies[w.body].name;
    if (depth.distance < 0)
      return Expected<Simulation>::failure(
          where, "wheel '" + name + "' starts with its centre inside terrain piece " + std::to_string(depth.piece) +
                     " (" + fmt(-depth.distance) + " m deep); raise the robot or give [x, y] to place it on the ground");
    if (depth.deflection > 0.25 * w.shape.radius)
      return Expected<Simulation>::failure(
          where, "wheel '" + name + "' starts pressed " + fmt(depth.deflection) + " m into terrain piece " +
                     std::to_string(depth.piece) + " (more than a quarter of its radius); raise the robot");
  }

  setWheelSpeeds(sim, scenario.control.leftSpeed, scenario.control.rightSpeed);
  for (const auto& [name, target] : scenario.control.joints) setJointTarget(sim, name, target);
  if (scenario.control.controller == "step-climb") {
    Expected<StepClimbRig> rig = makeStepClimbRig(robot);
    if (!rig) return rig.issues();
    sim.climb = StepClimb{};
    sim.climb->rig = rig.value();
  }
  return sim;
}

void setWheelSpeeds(Simulation& sim, double left, double right) {
  sim.leftSpeed = left;
  sim.rightSpeed = right;
  const double limit = sim.robot.maxWheelSpeed;
  for (int a : sim.robot.leftDrive) sim.state.targets[a] = std::clamp(left, -limit, limit);
  for (int a : sim.robot.rightDrive) sim.state.targets[a] = std::clamp(right, -limit, limit);
}

bool setJointTarget(Simulation& sim, const std::string& name, double target) {
  auto it = sim.robot.joints.find(name);
  if (it == sim.robot.joints.end()) return false;
  sim.state.targets[it->second] = target;
  return true;
}

bool setControllerOn(Simulation& sim, bool on) {
  if (!sim.climb) return false;
  if (on && !sim.controllerOn) sim.climb->nextControl = sim.state.bodies.time;  // no backlog of periods
  sim.controllerOn = on;
  return true;
}

bool advance(Simulation& sim) {
  if (!sim.data.error.empty()) return false;
  applyScript(sim);
  if (sim.climb && sim.controllerOn && sim.state.bodies.time + 1e-12 >= sim.climb->nextControl) {
    updateKinematics(sim);
    runStepClimb(*sim.climb, sim.model, sim.state, sim.data);
    sim.climb->nextControl += sim.climb->params.period;
  }
  if (!step(sim.model, sim.state, sim.data)) return false;
  ++sim.steps;
  return true;
}

void updateKinematics(Simulation& sim) { forwardKinematics(sim.model.bodies, sim.state.bodies, sim.data.bodies); }

double bodyPitch(const Simulation& sim, int body) {
  const Vec3 x = worldRotation(sim.data.bodies, body).col(0);
  return std::atan2(x.z(), std::hypot(x.x(), x.y()));
}

double bodyRoll(const Simulation& sim, int body) {
  const Mat3 r = worldRotation(sim.data.bodies, body);
  const Vec3 y = r.col(1), z = r.col(2);
  return std::atan2(y.z(), z.z());
}

}  // namespace roverlab
