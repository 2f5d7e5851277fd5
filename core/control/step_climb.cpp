#include "control/step_climb.h"

#include <algorithm>
#include <cmath>

#include "common/elementary.h"

namespace roverlab {
namespace {

constexpr int kFront = 0, kMiddle = 1, kRear = 2;  // wheel groups and sections
constexpr int kRearEnd = 1;                        // fold and extension drives: 0 front, 1 rear

constexpr double kPi = 3.14159265358979323846;

bool both(const bool (&w)[2]) { return w[0] && w[1]; }
bool any(const bool (&w)[2]) { return w[0] || w[1]; }
double mean(const double (&w)[2]) { return 0.5 * (w[0] + w[1]); }

// Lowest point of the middle section's box below its frame origin (the middle
// axle) when the middle is pitched nose-up by `pitch` (m, positive below).
double boxDrop(const StepClimbRig& rig, double pitch) {
  double drop = -1e300;
  for (const Vec2& c : rig.middleCorners)
    drop = std::max(drop, -(c.x() * elementary::sin(pitch) + c.y() * elementary::cos(pitch)));
  return drop;
}

// Clearance (m, negative: overlap) between the middle section's box, with its
// axle at (x, z) along the heading and pitched by `pitch`, and the step: the
// quarter plane beyond the face and below the top, in the vertical plane of
// the heading. Separating-axis test over the two shapes' edge normals.
double middleClearance(const StepClimbRig& rig, double x, double z, double pitch, double faceX,
                       double top) {
  const double c = elementary::cos(pitch), sn = elementary::sin(pitch);
  Vec2 corners[4];
  for (int k = 0; k < 4; ++k) {
    const Vec2& b = rig.middleCorners[k];
    corners[k] = Vec2(x + b.x() * c - b.y() * sn, z + b.x() * sn + b.y() * c);
  }
  const Vec2 axes[4] = {Vec2(1, 0), Vec2(0, 1), Vec2(c, sn), Vec2(-sn, c)};
  double clearance = -1e300;
  for (const Vec2& axis : axes)
    for (const double sign : {1.0, -1.0}) {
      const Vec2 a = sign * axis;
      // the quarter plane reaches infinity along +x and −z
      if (a.x() > 1e-12 || a.y() < -1e-12) continue;
      double low = 1e300;
      for (const Vec2& p : corners) low = std::min(low, a.dot(p));
      clearance = std::max(clearance, low - a.dot(Vec2(faceX, top)));
    }
  return clearance;
}

// True while the middle's box stays boxMargin clear of the step (always
// before the face and the top are known).
bool boxClear(const StepClimbParams& p, const StepClimbRig& rig, const ClimbSensors& in,
              const StepClimbState& s) {
  if (s.faceX > 1e299 || s.topZ <= 0) return true;
  return middleClearance(rig, in.middleX, in.middleZ, in.pitch[kMiddle], s.faceX,
                         s.topZ - rig.wheelRadius) > p.boxMargin;
}

// True while the middle's box hangs lower than tailClearance above the top.
bool boxBelowTop(const StepClimbParams& p, const StepClimbRig& rig, const ClimbSensors& in,
                 const StepClimbState& s) {
  return in.middleZ - boxDrop(rig, in.pitch[kMiddle]) < s.topZ - rig.wheelRadius + p.tailClearance;
}

double approach(double from, double to, double step) {
  return from + std::clamp(to - from, -step, step);
}

// Desired targets of one phase before rate limiting.
struct Goal {
  double speed[3] = {};
  double fold[2] = {};
  double extend[2] = {};
};

void enter(StepClimbState& s, ClimbPhase phase, double time) {
  s.phase = phase;
  s.phaseStart = time;
  s.tipping = false;
}

// The phase transitions: what the wheels touch decides when a phase is over.
void transition(const StepClimbParams& p, const ClimbSensors& in, StepClimbState& s) {
  const double elapsed = in.time - s.phaseStart;
  switch (s.phase) {
    case ClimbPhase::Approach:
      for (int g = 0; g < 3; ++g)
        for (int k = 0; k < 2; ++k)
          if (in.wall[g][k]) s.faceX = std::min(s.faceX, in.faceAt[g][k]);
      if (in.contact[kMiddle][0] && in.contact[kMiddle][1] && !any(in.wall[kMiddle]))
        s.groundZ = mean(in.wheelZ[kMiddle]);
      if (any(in.wall[kFront]) || any(in.wall[kMiddle])) enter(s, ClimbPhase::LiftFront, in.time);
      break;
    case ClimbPhase::LiftFront:
      if (both(in.top[kFront]) && mean(in.wheelZ[kFront]) > s.groundZ + p.raisedHeight) {
        s.topZ = mean(in.wheelZ[kFront]);
        enter(s, ClimbPhase::ClimbMiddle, in.time);
      }
      break;
    case ClimbPhase::ClimbMiddle:
      // The front wheels first stand on the top at its edge; further on they give its height.
      if (both(in.top[kFront])) s.topZ = std::max(s.topZ, mean(in.wheelZ[kFront]));
      if (both(in.top[kMiddle]) && mean(in.wheelZ[kMiddle]) > s.topZ - p.raisedHeight)
        enter(s, ClimbPhase::LiftRear, in.time);
      break;
    case ClimbPhase::LiftRear:
      // The middle stands at the crest, as high as the rear can push it, and the rear
      // wheels press on the face (or, below a lower step, lie too flat to push more).
      if (mean(in.wheelZ[kMiddle]) > s.topZ - p.crestHeight &&
          (any(in.wall[kRear]) || in.pitch[kRear] < p.tipRearPitch))
        s.tipping = true;
      // Upright: a robot that went over backwards may also end with its wheels up there.
      if (both(in.top[kRear]) && mean(in.wheelZ[kRear]) > s.topZ - p.raisedHeight &&
          std::abs(in.roll) < 0.5 * kPi)
        enter(s, ClimbPhase::Done, in.time);
      break;
    case ClimbPhase::Recover:
      if (elapsed > p.recoverTime) enter(s, ClimbPhase::Approach, in.time);
      return;
    case ClimbPhase::Done:
      return;
  }
  // A phase that makes no progress: back off and start again, a limited number of times.
  if (in.time - s.phaseStart > p.phaseTimeout && s.phase != ClimbPhase::Done &&
      s.retries < p.maxRetries) {
    ++s.retries;
    enter(s, ClimbPhase::Recover, in.time);
  }
}

Goal goal(const StepClimbParams& p, const StepClimbRig& rig, const ClimbSensors& in,
          const StepClimbState& s) {
  Goal g;
  const double extended = rig.maxExtension;
  switch (s.phase) {
    case ClimbPhase::Approach:
      std::fill(g.speed, g.speed + 3, p.driveSpeed);
      g.extend[kFront] = g.extend[kRearEnd] = extended;
      break;
    case ClimbPhase::LiftFront: {
      // Feel for the edge: raise the front section while its wheels press on the
      // face; once they are free above it, lower it so that they reach over the top.
      const double folded = s.command.fold[kFront];
      const bool raised = mean(in.wheelZ[kFront]) > s.groundZ + p.raisedHeight;
      if (any(in.wall[kFront]) || (!any(in.contact[kFront]) && !raised))
        g.fold[kFront] = p.liftFold;
      else if (!any(in.contact[kFront]))
        g.fold[kFront] = 0.0;
      else
        g.fold[kFront] = folded;
      // With the front raised, the rear fold tips the middle nose-up to lift it further.
      g.fold[kRearEnd] = folded > 0.8 * p.liftFold && in.pitch[kMiddle] < p.maxLiftPitch
                             ? p.pitchUpFold
                             : s.command.fold[kRearEnd];
      g.extend[kFront] = g.extend[kRearEnd] = extended;
      g.speed[kFront] = p.pushSpeed;
      // The middle must not climb the face before the front is on top.
      const double follow = any(in.wall[kMiddle]) ? 0.0 : p.pushSpeed;
      g.speed[kMiddle] = g.speed[kRear] = follow;
      break;
    }
    case ClimbPhase::ClimbMiddle: {
      g.extend[kFront] = g.extend[kRearEnd] = extended;
      std::fill(g.speed, g.speed + 3, p.pushSpeed);
      if (mean(in.wheelZ[kMiddle]) < s.topZ - rig.wheelRadius) {
        // The front section leans down onto the top like a leg (pressFold below
        // level): the front fold drive pushes the middle up the face. The rear fold
        // holds the middle's pitch near climbPitch, where the front section can
        // still reach down. The middle waits whenever the front lifts off the top,
        // and past maxClimbPitch the rear stops pushing.
        g.fold[kFront] = -in.pitch[kMiddle] - p.pressFold;
        g.fold[kRearEnd] =
            s.command.fold[kRearEnd] + p.pitchGain * (p.climbPitch - in.pitch[kMiddle]);
        if (!any(in.contact[kFront])) g.speed[kMiddle] = g.speed[kRear] = 0.0;
        if (in.pitch[kMiddle] > p.maxClimbPitch) g.speed[kRear] = 0.0;
      } else {
        // Over the edge: the front section leans on the top a little less (its wheels
        // pull the middle over), the rear section follows as it hangs.
        g.fold[kFront] = -in.pitch[kMiddle] - p.overEdgeFold;
        g.fold[kRearEnd] = in.fold[kRearEnd];
        // The middle's box must not run into the step.
        if (!boxClear(p, rig, in, s)) g.speed[kFront] = g.speed[kMiddle] = 0.0;
      }
      break;
    }
    case ClimbPhase::LiftRear:
      g.fold[kFront] = -in.pitch[kMiddle];
      g.extend[kFront] = extended;
      g.extend[kRearEnd] = s.command.extend[kRearEnd];
      std::fill(g.speed, g.speed + 3, p.pushSpeed);
      // The mirror of lift-front: raise the rear section while its wheels press on
      // the face, straighten it once they are free, let it follow the ground otherwise.
      if (any(in.wall[kRear]))
        g.fold[kRearEnd] = p.liftFold;
      else if (!any(in.contact[kRear]))
        g.fold[kRearEnd] = 0.0;
      else
        g.fold[kRearEnd] = in.fold[kRearEnd];
      // While the middle's box hangs below the top, the middle's wheels are at the
      // edge and its box beside the face: the rear fold first holds the middle
      // upright (crestPitch), so that the rear section pushes it as high as it
      // can; then it tips the middle forward over its wheels (tipRate), which
      // presses the rear wheels into the face so that they climb it, while the
      // front section, at its fold limit, props the middle up over the edge.
      // The front and middle wheels roll on slowly, and only while the box
      // stays clear of the step.
      if (boxBelowTop(p, rig, in, s)) {
        const bool clear = boxClear(p, rig, in, s);
        g.speed[kFront] = g.speed[kMiddle] = clear ? p.edgeSpeed : 0.0;
        g.fold[kRearEnd] =
            s.tipping ? s.command.fold[kRearEnd] - p.tipRate * p.period
                      : s.command.fold[kRearEnd] + p.pitchGain * (p.crestPitch - in.pitch[kMiddle]);
      }
      break;
    case ClimbPhase::Done:
      break;
    case ClimbPhase::Recover:
      std::fill(g.speed, g.speed + 3, -p.pushSpeed);
      g.fold[kFront] = p.liftFold;
      break;
  }
  return g;
}

}  // namespace

const char* climbPhaseName(ClimbPhase phase) {
  switch (phase) {
    case ClimbPhase::Approach:
      return "approach";
    case ClimbPhase::LiftFront:
      return "lift-front";
    case ClimbPhase::ClimbMiddle:
      return "climb-middle";
    case ClimbPhase::LiftRear:
      return "lift-rear";
    case ClimbPhase::Done:
      return "done";
    case ClimbPhase::Recover:
      return "recover";
  }
  return "";
}

Expected<StepClimbRig> makeStepClimbRig(const Robot& robot) {
  const auto fail = [&](const std::string& why) {
    return Expected<StepClimbRig>::failure("control.controller",
                                           "step-climb drives an articulated6-like robot (three "
                                           "sections, drives fold_front, extend_front, fold_rear, "
                                           "extend_rear, two motored wheels per section); " +
                                               why);
  };
  StepClimbRig rig;
  const std::vector<Body>& bodies = robot.bodies.bodies;
  const char* ends[2] = {"front", "rear"};
  for (int e = 0; e < 2; ++e) {
    const auto fold = robot.joints.find(std::string("fold_") + ends[e]);
    const auto extend = robot.joints.find(std::string("extend_") + ends[e]);
    if (fold == robot.joints.end() || extend == robot.joints.end())
      return fail("a drive is missing");
    rig.foldActuator[e] = fold->second;
    rig.extendActuator[e] = extend->second;
    rig.foldBody[e] = robot.actuators[fold->second].body;
    rig.extendBody[e] = robot.actuators[extend->second].body;
    rig.sectionBody[e == 0 ? kFront : kRear] = robot.actuators[extend->second].body;
  }
  rig.sectionBody[kMiddle] = robot.base;
  for (int g = 0; g < 3; ++g) {
    int found = 0;
    for (const WheelModel& w : robot.wheels) {
      if (bodies[w.body].parent != rig.sectionBody[g] || found == 2) continue;
      rig.wheelBody[g][found] = w.body;
      rig.wheelActuator[g][found] = -1;
      for (size_t a = 0; a < robot.actuators.size(); ++a)
        if (robot.actuators[a].body == w.body) rig.wheelActuator[g][found] = static_cast<int>(a);
      if (rig.wheelActuator[g][found] < 0) return fail("a wheel has no motor");
      rig.wheelRadius = w.shape.radius;
      ++found;
    }
    if (found != 2) return fail("a section does not carry two wheels");
  }
  for (const JointLimit& l : robot.limits) {
    if (l.body == robot.actuators[rig.foldActuator[0]].body) rig.maxFold = l.upper;
    if (l.body == robot.actuators[rig.extendActuator[0]].body) rig.maxExtension = l.upper;
  }
  rig.maxWheelSpeed = robot.maxWheelSpeed;
  bool boxed = false;
  for (const BodyBox& b : robot.boxes) {
    if (b.body != robot.base) continue;
    for (int k = 0; k < 4; ++k)
      rig.middleCorners[k] = Vec2(b.centre.x() + (k & 1 ? 0.5 : -0.5) * b.size.x(),
                                  b.centre.z() + (k & 2 ? 0.5 : -0.5) * b.size.z());
    boxed = true;
  }
  if (!boxed) return fail("the middle section has no body box");
  return rig;
}

void updateStepClimb(const StepClimbParams& params, const StepClimbRig& rig,
                     const ClimbSensors& sensors, StepClimbState& state) {
  transition(params, sensors, state);
  const Goal g = goal(params, rig, sensors, state);
  ClimbCommand& c = state.command;
  const double foldStep = params.foldRate * params.period;
  const double extendStep = params.extendRate * params.period;
  for (int k = 0; k < 3; ++k)
    c.wheelSpeed[k] = std::clamp(g.speed[k], -rig.maxWheelSpeed, rig.maxWheelSpeed);
  for (int e = 0; e < 2; ++e) {
    c.fold[e] = approach(c.fold[e], std::clamp(g.fold[e], -rig.maxFold, rig.maxFold), foldStep);
    c.extend[e] = approach(c.extend[e], std::clamp(g.extend[e], 0.0, rig.maxExtension), extendStep);
  }
}

namespace {

// Position of the 1-DOF joint of `body` (rad or m).
double jointPosition(const Observation& obs, int body) {
  for (const JointObservation& j : obs.joints)
    if (j.body == body) return j.position;
  return 0.0;
}

}  // namespace

void runStepClimb(StepClimb& climb, const Observation& obs, Command& out) {
  const StepClimbRig& rig = climb.rig;
  ClimbSensors in;
  in.time = obs.time_s;
  const Mat3& base = obs.links[rig.sectionBody[kMiddle]].rotation;
  // The heading from the middle's lateral axis: its x axis points straight up when
  // the middle stands vertical at the step.
  Vec3 heading(base(1, 1), -base(0, 1), 0.0);
  heading.normalize();
  in.roll = elementary::atan2(base(2, 1), base(2, 2));
  const Vec3& middle = obs.links[rig.sectionBody[kMiddle]].position_m;
  in.middleX = middle.dot(heading);
  in.middleZ = middle.z();
  for (int g = 0; g < 3; ++g) {
    // In the section's vertical plane: past vertical reads more than 90°.
    const Vec3 x = obs.links[rig.sectionBody[g]].rotation.col(0);
    in.pitch[g] = elementary::atan2(x.z(), x.dot(heading));
    for (int k = 0; k < 2; ++k) {
      const int body = rig.wheelBody[g][k];
      in.wheelZ[g][k] = obs.links[body].position_m.z();
      for (const WheelObservation& wheel : obs.wheels) {
        if (wheel.body != body) continue;
        for (const TouchObservation& c : wheel.touches) {
          in.contact[g][k] = true;
          if (c.normal.dot(heading) < -climb.params.wallNormal) {
            const double at = c.point_m.dot(heading);
            in.faceAt[g][k] = in.wall[g][k] ? std::min(in.faceAt[g][k], at) : at;
            in.wall[g][k] = true;
          }
          if (c.normal.z() > climb.params.topNormal) in.top[g][k] = true;
        }
      }
    }
  }
  for (int e = 0; e < 2; ++e) {
    in.fold[e] = jointPosition(obs, rig.foldBody[e]);
    in.extend[e] = jointPosition(obs, rig.extendBody[e]);
  }
  if (in.time == 0.0) {
    // Start from the robot's current configuration, not from a jump of the drives.
    for (int e = 0; e < 2; ++e) {
      climb.state.command.fold[e] = in.fold[e];
      climb.state.command.extend[e] = in.extend[e];
    }
    climb.state.groundZ = mean(in.wheelZ[kMiddle]);
  }
  updateStepClimb(climb.params, rig, in, climb.state);
  const ClimbCommand& c = climb.state.command;
  for (int g = 0; g < 3; ++g)
    for (int k = 0; k < 2; ++k) out.actuators[rig.wheelActuator[g][k]] = c.wheelSpeed[g];
  for (int e = 0; e < 2; ++e) {
    out.actuators[rig.foldActuator[e]] = c.fold[e];
    out.actuators[rig.extendActuator[e]] = c.extend[e];
  }
}

namespace {

class StepClimbController final : public Controller {
 public:
  explicit StepClimbController(StepClimbRig rig) { climb_.rig = rig; }
  double period() const override { return climb_.params.period; }
  void update(const Observation& obs, Command& out) override { runStepClimb(climb_, obs, out); }
  int phase() const override { return static_cast<int>(climb_.state.phase); }
  std::unique_ptr<Controller> clone() const override {
    return std::make_unique<StepClimbController>(*this);
  }

 private:
  StepClimb climb_;
};

Expected<std::unique_ptr<Controller>> makeStepClimb(const Robot& robot) {
  Expected<StepClimbRig> rig = makeStepClimbRig(robot);
  if (!rig) return rig.issues();
  return std::unique_ptr<Controller>(std::make_unique<StepClimbController>(rig.value()));
}

}  // namespace

ControllerKind stepClimbKind() {
  ControllerKind k;
  k.name = "step-climb";
  k.description =
      "climbs a step with the articulated6 robot: lift the front, push the middle up the face, "
      "lift the rear ([GKS2025], Fig. 9-11)";
  k.phaseColumn = "climb_phase";
  for (int p = 0; p <= static_cast<int>(ClimbPhase::Recover); ++p)
    k.phases.push_back(climbPhaseName(static_cast<ClimbPhase>(p)));
  k.make = makeStepClimb;
  return k;
}

}  // namespace roverlab
