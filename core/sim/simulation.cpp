#include "sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/elementary.h"
#include "common/size_optimized.h"
#include "robots/compile.h"
#include "sim/step_stability.h"
#include "world/stages.h"

namespace roverlab {
namespace {

// A step above this multiple of the default runs but earns a warning.
constexpr double kWarnDtFactor = 5.0;
// The energy check's slack: the energy of raising the whole robot this high (m).
constexpr double kSlackHeight = 1.0;
// The energy balance is compared every this much simulated time (s): the
// energy costs about 3 % of a step; the drives' work is summed every step.
constexpr double kEnergyCheckPeriod = 0.001;

// What placing a robot at the start needs (makeSimulation), compiled for size: it runs
// once per run (core/common/size_optimized.h).
ROVERLAB_SIZE_OPTIMIZED_BEGIN

// Largest wheel deflection and the deepest wheel centre (negative distance = inside).
struct WheelDepth {
  double deflection = 0;
  double distance = 1e300;
  int wheel = -1, piece = -1;
  bool anyContact = false;
};

WheelDepth wheelDepth(const WorldModel& model, const WorldState& state) {
  // Only poses are needed: the kinematics' data, not a whole WorldData (whose
  // buffers and body-contact features cost a pass over the terrain).
  MultibodyData kinematics = makeData(model.robot.bodies);
  forwardKinematics(model.robot.bodies, state.bodies, kinematics);
  WheelDepth d;
  std::vector<WheelContact> contacts;
  WheelContactScratch scratch;
  for (size_t w = 0; w < model.robot.wheels.size(); ++w) {
    const WheelModel& wheel = model.robot.wheels[w];
    const Vec3 centre = worldPoint(kinematics, wheel.body, Vec3::Zero());
    const Vec3 axle =
        worldRotation(kinematics, wheel.body) * model.robot.bodies.bodies[wheel.body].axis;
    wheelTouches(*model.terrain, wheel.shape, centre, axle, scratch, contacts);
    for (const WheelContact& c : contacts) {
      d.anyContact = true;
      if (c.deflection > d.deflection) d.deflection = c.deflection;
      if (c.distance < d.distance)
        d.distance = c.distance, d.wheel = static_cast<int>(w), d.piece = c.piece;
    }
  }
  return d;
}

// The deepest start of a body box in the terrain: at most 8·g/ω², eight
// times the depth at which a box carries its own weight (0.25 mm at ω = 200
// rad/s), beyond which its contact would throw it out at more than 8 g.
struct BodyDepth {
  double depth = 0;
  int box = -1, piece = -1;
};

BodyDepth bodyDepth(const WorldModel& model, const WorldState& state, WorldData& data) {
  BodyDepth d;
  if (!model.bodyContact.enabled || model.boxes.empty()) return d;
  forwardKinematics(model.robot.bodies, state.bodies, data.bodies);
  bodyContactStage(model, data);
  for (size_t b = 0; b < model.boxes.size(); ++b)
    for (const BodyContact& c : data.boxes[b].contacts)
      if (c.depth > d.depth) d.depth = c.depth, d.box = static_cast<int>(b), d.piece = c.piece;
  return d;
}

// Issues for the coefficients the step cannot resolve (sim/step_stability.h).
// A step above the default is the user's choice: one issue at simulation.dt
// with the largest step that works, naming each coefficient that limits it.
// At the default step or below the parameter is at fault: one issue per
// parameter, with the largest value that works (coefficients the preset
// fixes go to simulation.dt). Each with the tightest bound among the wheels
// or joints it sets.
std::vector<Issue> stabilityIssues(const Robot& robot, const MultibodyState& state, double dt) {
  const bool largeStep = dt > SimulationSpec{}.dt;
  struct Failure {
    std::string key;
    StepLimit limit;
  };
  // The tightest per parameter (per coefficient when fixed), in model order.
  std::vector<Failure> failures;
  for (const StepLimit& l : stepLimits(robot, state)) {
    if (l.maxDt() >= dt) continue;
    const std::string key = l.param.empty() ? l.what.substr(0, l.what.find(" of ")) : l.param;
    auto it = std::find_if(failures.begin(), failures.end(),
                           [&](const Failure& f) { return f.key == key; });
    if (it == failures.end())
      failures.push_back({key, l});
    else if (l.maxDt() < it->limit.maxDt())
      it->limit = l;
  }
  auto describe = [](const StepLimit& l) {
    const char* unit =
        l.damping ? (l.angular ? " N·m·s/rad" : " N·s/m") : (l.angular ? " N·m/rad" : " N/m");
    return "the " + l.what + " (" + format(l.coefficient, 3) + unit + " on an effective " +
           (l.angular ? "inertia of " + format(l.mass, 3) + " kg·m²"
                      : "mass of " + format(l.mass, 3) + " kg") +
           ") needs dt ≤ " + format(l.maxDt(), 3) + " s";
  };
  std::vector<Issue> issues;
  std::string atDt;
  double maxDt = dt;
  for (const Failure& f : failures) {
    const StepLimit& l = f.limit;
    if (largeStep || l.param.empty()) {
      atDt += (atDt.empty() ? "" : "; ") + describe(l);
      maxDt = std::min(maxDt, l.maxDt());
      continue;
    }
    const std::string unit =
        l.damping ? (l.angular ? " N·m·s/rad" : " N·s/m") : (l.angular ? " N·m/rad" : " N/m");
    issues.push_back({"robot." + l.param, "too large for the step of " + format(dt, 3) +
                                              " s: " + describe(l) + "; at this step use at most " +
                                              format(l.maxCoefficient(dt) / l.scale, 3) + unit});
  }
  if (!atDt.empty())
    issues.insert(issues.begin(), {"simulation.dt", "too large: use dt ≤ " + format(maxDt, 3) +
                                                        " s (" + atDt + ")"});
  return issues;
}

ROVERLAB_SIZE_OPTIMIZED_END

// Gravity acceleration (m/s², > 0) of a model.
double gravityOf(const WorldModel& m) { return m.robot.bodies.gravity.norm(); }

// Energy stored in the joint springs and limits at the start (J): it may turn
// into motion without any drive doing work.
double storedEnergy(const WorldModel& m, const MultibodyState& s) {
  double e = 0;
  for (const JointSpring& sp : m.robot.springs) {
    const double x = s.q[m.robot.bodies.bodies[sp.body].qIndex] - sp.rest;
    e += 0.5 * sp.stiffness * x * x + 0.25 * sp.cubic * x * x * x * x;
  }
  for (const JointLimit& l : m.robot.limits) {
    const double q = s.q[m.robot.bodies.bodies[l.body].qIndex];
    const double over = std::max({0.0, q - l.upper, l.lower - q});
    e += 0.5 * l.stiffness * over * over;
  }
  return e;
}

// Stops the run when the robot gained energy no source can supply: E − E0
// beyond the drives' work bound plus the slack. Names the fastest body.
bool checkEnergy(Simulation& sim) {
  const WorldModel& m = sim.model;
  const MultibodyState& s = sim.state.bodies;
  for (const Actuator& a : m.robot.actuators)
    sim.energy.driveWork += a.limit * std::abs(s.v[m.robot.bodies.bodies[a.body].vIndex]) * m.dt;
  if (sim.steps % sim.energy.period != 0) return true;
  // data.bodies holds the kinematics of the last force evaluation (the start of the step).
  const double gain = mechanicalEnergy(m.robot.bodies, sim.data.bodies) - sim.energy.initial;
  if (gain <= sim.energy.driveWork + sim.energy.slack) return true;
  int fastest = 0;
  double speed = -1;
  for (size_t b = 0; b < m.robot.bodies.bodies.size(); ++b) {
    const double v =
        worldPointVelocity(sim.data.bodies, static_cast<int>(b), m.robot.bodies.bodies[b].com)
            .norm();
    if (v > speed) speed = v, fastest = static_cast<int>(b);
  }
  char buf[320];
  std::snprintf(
      buf, sizeof buf,
      "simulation blew up at t = %.4f s: the robot gained %.3g J, more than its drives can have "
      "supplied (%.3g J) plus %.3g J; body '%s' moves at %.3g m/s",
      s.time, gain, sim.energy.driveWork, sim.energy.slack,
      m.robot.bodies.bodies[fastest].name.c_str(), speed);
  sim.data.error = buf;
  sim.outcome = RunOutcome::BlewUp;
  return false;
}

// Stops the run when every wheel centre is more than its radius below the
// lowest point of the terrain (and, with body contact, every body box below
// it): nothing of the robot can touch the terrain again.
bool checkOnTerrain(Simulation& sim) {
  const WorldModel& m = sim.model;
  const MultibodyData& d = sim.data.bodies;
  for (const WheelModel& w : m.robot.wheels)
    if (worldPoint(d, w.body, Vec3::Zero()).z() >= sim.floor - w.shape.radius) return true;
  if (m.bodyContact.enabled)
    for (const ContactBox& b : m.boxes) {
      const OrientedBox box =
          worldBox(b, worldPoint(d, b.body, Vec3::Zero()), worldRotation(d, b.body));
      if (box.centre.z() + box.axes.row(2).cwiseAbs().dot(box.half) >= sim.floor) return true;
    }
  char buf[200];
  std::snprintf(
      buf, sizeof buf,
      "left the terrain at t = %.4f s: every wheel is more than its radius below the terrain's "
      "lowest point (z = %.3g m)",
      sim.state.bodies.time, sim.floor);
  sim.data.error = buf;
  sim.outcome = RunOutcome::LeftTerrain;
  return false;
}

void applyScript(Simulation& sim) {
  const double t = sim.state.bodies.time + 1e-12;
  while (sim.nextScript < sim.control.script.size() &&
         sim.control.script[sim.nextScript].time <= t) {
    const ScriptEntry& e = sim.control.script[sim.nextScript++];
    setWheelSpeeds(sim, e.leftSpeed.value_or(sim.leftSpeed), e.rightSpeed.value_or(sim.rightSpeed));
    for (const auto& [name, target] : e.joints) setJointTarget(sim, name, target);
  }
}

}  // namespace

const char* outcomeName(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::Ok:
      return "ok";
    case RunOutcome::BlewUp:
      return "blew_up";
    case RunOutcome::LeftTerrain:
      return "left_terrain";
  }
  return "ok";
}

ROVERLAB_SIZE_OPTIMIZED_BEGIN

Expected<Simulation> makeSimulation(const Scenario& scenario) {
  // parseScenario compiled the robot and built the terrain, once.
  if (!scenario.robot.compiled || !scenario.terrain)
    return Expected<Simulation>::failure("robot", "the scenario was not read by parseScenario");
  Simulation sim;
  sim.warnings = scenario.robot.warnings;  // full paths already
  WorldModel& m = sim.model;
  m.robot = *scenario.robot.compiled;
  const Robot& robot = m.robot;
  m.terrain = scenario.terrain;
  m.bodyContact.enabled = scenario.simulation.chassisContact;
  for (const BodyBox& b : robot.boxes)
    m.boxes.push_back(makeContactBox(b.body, b.centre, b.size, robot.bodies.bodies[b.body].mass,
                                     m.bodyContact, scenario.simulation.dt));
  m.slip = scenario.simulation.slip;
  m.integrator = scenario.simulation.integrator;
  m.dt = scenario.simulation.dt;
  if (m.slip == SlipDefinition::Absolute)
    for (WheelModel& w : m.robot.wheels) w.tire.slipSpeedFloor = 0.0;  // S = |V_tK| needs no floor
  sim.duration = scenario.simulation.duration;
  sim.control = scenario.control;
  sim.state = initialState(m);
  sim.data = makeWorldData(m);

  Pose pose = scenario.robot.pose;
  const std::string where = "robot.pose.position";
  setBasePose(robot, sim.state.bodies, pose);  // effective masses depend on the orientation only
  setFrictionBands(m.robot, sim.state.bodies, m.dt);
  const std::vector<Issue> unstable = stabilityIssues(robot, sim.state.bodies, m.dt);
  if (!unstable.empty()) return unstable;
  const double defaultDt = SimulationSpec{}.dt;
  if (m.dt > kWarnDtFactor * defaultDt)
    sim.warnings.push_back(
        {"simulation.dt",
         format(m.dt, 3) + " s is " + format(m.dt / defaultDt, 3) + "× the default step of " +
             format(defaultDt, 3) +
             " s: stable for this robot, but contacts and drives are resolved more coarsely than "
             "the presets were tuned for; compare with the default step before trusting the "
             "results"});
  if (scenario.robot.placeOnGround) {
    // Lower the robot from above the terrain in steps of half the smallest
    // wheel radius until a wheel touches, then bisect to the first touch.
    double radius = 1e300;
    for (const WheelModel& w : m.robot.wheels) radius = std::min(radius, w.shape.radius);
    const double top = m.terrain->box.max.z() + 10.0, bottom = m.terrain->box.min.z() - 10.0;
    auto touches = [&](double z) {
      pose.position.z() = z;
      setBasePose(robot, sim.state.bodies, pose);
      return wheelDepth(m, sim.state).anyContact;
    };
    if (touches(top))
      return Expected<Simulation>::failure(where,
                                           "the robot touches the terrain even 10 m above its top");
    double hi = top, lo = top;
    while (!touches(lo)) {
      hi = lo;
      lo -= 0.5 * radius;
      if (lo < bottom)
        return Expected<Simulation>::failure(
            where, "there is no terrain under the robot's wheels at (" +
                       format(pose.position.x(), 3) + ", " + format(pose.position.y(), 3) + ")");
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
    const WheelModel& w = m.robot.wheels[depth.wheel];
    const std::string name = m.robot.bodies.bodies[w.body].name;
    if (depth.distance < 0)
      return Expected<Simulation>::failure(
          where, "wheel '" + name + "' starts with its centre inside terrain piece " +
                     std::to_string(depth.piece) + " (" + format(-depth.distance, 3) +
                     " m deep); raise the robot or give [x, y] to place it on the ground");
    if (depth.deflection > 0.25 * w.shape.radius)
      return Expected<Simulation>::failure(
          where, "wheel '" + name + "' starts pressed " + format(depth.deflection, 3) +
                     " m into terrain piece " + std::to_string(depth.piece) +
                     " (more than a quarter of its radius); raise the robot");
  }

  const BodyDepth inside = bodyDepth(m, sim.state, sim.data);
  const double allowed = 8 * gravityOf(m) / (m.bodyContact.frequency * m.bodyContact.frequency);
  if (inside.depth > allowed) {
    const ContactBox& box = m.boxes[inside.box];
    return Expected<Simulation>::failure(
        where, "body '" + m.robot.bodies.bodies[box.body].name + "' starts " +
                   format(inside.depth, 3) + " m inside terrain piece " +
                   std::to_string(inside.piece) + " (more than " + format(allowed, 3) +
                   " m, where its contact would throw it out at over 8 g); move or raise the "
                   "robot");
  }

  setWheelSpeeds(sim, scenario.control.leftSpeed, scenario.control.rightSpeed);
  for (const auto& [name, target] : scenario.control.joints) setJointTarget(sim, name, target);

  // The run checks: the energy balance and the terrain's lowest point.
  sim.floor = m.terrain->box.min.z();
  forwardKinematics(m.robot.bodies, sim.state.bodies, sim.data.bodies);
  sim.energy.initial = mechanicalEnergy(m.robot.bodies, sim.data.bodies);
  sim.energy.period = std::max(1L, std::lround(kEnergyCheckPeriod / m.dt));
  double mass = 0;
  for (const Body& b : m.robot.bodies.bodies) mass += b.mass;
  // Tires pressed in at the start (a pose with z): at most the deepest, on every wheel.
  double pressed = 0;
  for (const WheelModel& w : m.robot.wheels)
    pressed += 0.5 * w.tire.stiffness * depth.deflection * depth.deflection;
  sim.energy.slack =
      mass * gravityOf(m) * kSlackHeight + storedEnergy(m, sim.state.bodies) + pressed;
  // The control updates' buffers, sized now: a step allocates nothing.
  observe(sim.model, sim.state, sim.data, sim.observation);
  sim.command.clear(sim.model.robot.actuators.size());
  sim.controllerKind = findControllerKind(scenario.control.controller);
  if (sim.controllerKind) {
    Expected<std::unique_ptr<Controller>> made = sim.controllerKind->make(robot);
    if (!made) return made.issues();
    sim.controller = std::move(made).value();
  }
  return sim;
}

Expected<Simulation> makeUnattendedSimulation(const Scenario& scenario) {
  const std::string& language = scenario.control.program.language;
  for (const ProgramLanguage& l : programLanguages())
    if (l.name == language)
      return Expected<Simulation>::failure("control.program", "this run has nobody to run the " +
                                                                  language + " program: " + l.host +
                                                                  " runs it (docs/controllers.md)");
  return makeSimulation(scenario);
}

ROVERLAB_SIZE_OPTIMIZED_END

bool setWheelSpeeds(Simulation& sim, double left, double right) {
  if (!std::isfinite(left) || !std::isfinite(right)) return false;
  sim.leftSpeed = left;
  sim.rightSpeed = right;
  const double limit = sim.model.robot.maxWheelSpeed;
  for (int a : sim.model.robot.leftDrive) sim.state.targets[a] = std::clamp(left, -limit, limit);
  for (int a : sim.model.robot.rightDrive) sim.state.targets[a] = std::clamp(right, -limit, limit);
  return true;
}

bool setJointTarget(Simulation& sim, const std::string& name, double target) {
  auto it = sim.model.robot.joints.find(name);
  if (it == sim.model.robot.joints.end() || !std::isfinite(target)) return false;
  sim.state.targets[it->second] = target;
  return true;
}

bool setControllerOn(Simulation& sim, bool on) {
  if (!sim.controller) return false;
  if (on && !sim.controllerOn) sim.nextControl = sim.state.bodies.time;  // no backlog of periods
  sim.controllerOn = on;
  return true;
}

bool advance(Simulation& sim) {
  if (!sim.data.error.empty()) return false;
  applyScript(sim);
  if (sim.controller && sim.controllerOn && sim.state.bodies.time + 1e-12 >= sim.nextControl) {
    observeNow(sim);
    sim.command.clear(sim.model.robot.actuators.size());
    sim.controller->update(sim.observation, sim.command);
    applyCommand(sim, sim.command);
    sim.nextControl += sim.controller->period();
  }
  if (!step(sim.model, sim.state, sim.data)) {
    sim.outcome = RunOutcome::BlewUp;
    return false;
  }
  ++sim.steps;
  return checkEnergy(sim) && checkOnTerrain(sim);
}

int applyCommand(Simulation& sim, const Command& c) {
  int changed = 0;
  const Robot& robot = sim.model.robot;
  const double speedLimit = robot.maxWheelSpeed;
  // A speed beyond the limit is clamped (and counted); a non-finite one dropped.
  auto speed = [&](double v, double previous) {
    if (std::isnan(v)) return previous;
    if (!std::isfinite(v)) return ++changed, previous;
    if (std::abs(v) > speedLimit) ++changed;
    return std::clamp(v, -speedLimit, speedLimit);
  };
  double left = sim.leftSpeed, right = sim.rightSpeed;
  if (!std::isnan(c.wheel_speed_rad_s)) left = right = speed(c.wheel_speed_rad_s, left);
  left = speed(c.left_speed_rad_s, left);
  right = speed(c.right_speed_rad_s, right);
  if (left != sim.leftSpeed || right != sim.rightSpeed) setWheelSpeeds(sim, left, right);
  for (size_t a = 0; a < c.actuators.size() && a < robot.actuators.size(); ++a) {
    const double v = c.actuators[a];
    if (std::isnan(v)) continue;
    if (!std::isfinite(v)) {
      ++changed;
      continue;
    }
    const Actuator& act = robot.actuators[a];
    double lo = -1e300, hi = 1e300;
    switch (act.mode) {
      case ActuatorMode::Speed: {
        const bool drive =
            std::find(robot.leftDrive.begin(), robot.leftDrive.end(), a) != robot.leftDrive.end() ||
            std::find(robot.rightDrive.begin(), robot.rightDrive.end(), a) !=
                robot.rightDrive.end();
        if (drive) lo = -speedLimit, hi = speedLimit;
        break;
      }
      case ActuatorMode::Position:
        for (const JointLimit& l : robot.limits)
          if (l.body == act.body) lo = l.lower, hi = l.upper;
        break;
      case ActuatorMode::Torque:
        lo = -act.limit, hi = act.limit;
        break;
    }
    if (v < lo || v > hi) ++changed;
    sim.state.targets[a] = std::clamp(v, lo, hi);
  }
  return changed;
}

bool attachProgram(Simulation& sim, double period) {
  if (sim.controller || !(period >= sim.model.dt && period <= std::max(sim.duration, sim.model.dt)))
    return false;
  sim.programPeriod = period;
  sim.nextControl = sim.state.bodies.time;
  return true;
}

bool programDue(const Simulation& sim) {
  return sim.programPeriod > 0 && sim.data.error.empty() &&
         sim.state.bodies.time + 1e-12 >= sim.nextControl;
}

const Observation& observeNow(Simulation& sim) {
  updateKinematics(sim);
  observe(sim.model, sim.state, sim.data, sim.observation);
  return sim.observation;
}

int commandProgram(Simulation& sim, const Command& command) {
  const int changed = applyCommand(sim, command);
  if (sim.programPeriod > 0) sim.nextControl += sim.programPeriod;
  return changed;
}

void updateKinematics(Simulation& sim) {
  forwardKinematics(sim.model.robot.bodies, sim.state.bodies, sim.data.bodies);
}

Tilt bodyTilt(const Simulation& sim, int body) {
  return tiltOf(
      worldRotationWithSpin(sim.model.robot.bodies, sim.state.bodies, sim.data.bodies, body));
}

double bodyPitch(const Simulation& sim, int body) { return bodyTilt(sim, body).pitch; }

double bodyRoll(const Simulation& sim, int body) { return bodyTilt(sim, body).roll; }

}  // namespace roverlab
