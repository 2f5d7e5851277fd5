// Stage 5 of the step: joint forces of actuators, limits, Coulomb friction
// and passive springs on 1-DOF joints (world/stages.h; robots/parts.h gives each law).
#include <algorithm>
#include <cmath>

#include "world/stages.h"

namespace roverlab {

void jointForceStage(const WorldModel& model, const WorldState& state, WorldData& data) {
  const Robot& robot = model.robot;
  const std::vector<Body>& bodies = robot.bodies.bodies;
  Eigen::VectorXd& tau = data.bodies.tau;
  std::vector<double>& integrals = data.integrals;
  tau.setZero();
  const Eigen::VectorXd& q = state.bodies.q;
  const Eigen::VectorXd& v = state.bodies.v;
  // The speed controllers' integrals for the end of the step (conditional
  // integration: not while the torque saturates and the error would drive
  // it further).
  copyInto(state.integrals, integrals);
  for (size_t a = 0; a < robot.actuators.size(); ++a) {
    const Actuator& act = robot.actuators[a];
    const Body& b = bodies[act.body];
    const double target = state.targets[a];
    const double t = act.demand(target, q[b.qIndex], v[b.vIndex], state.integrals[a]);
    if (act.mode == ActuatorMode::Speed && act.integralGain > 0) {
      const double e = target - v[b.vIndex];
      const bool saturated = std::abs(t) >= act.limit && t * e > 0;
      if (!saturated) integrals[a] += e * model.dt;
    }
    tau[b.vIndex] += std::clamp(t, -act.limit, act.limit);
  }
  for (const JointLimit& lim : robot.limits) {
    const Body& b = bodies[lim.body];
    const double x = q[b.qIndex], xd = v[b.vIndex];
    // A non-holding spring-damper, like the tire's normal force: it damps in
    // both directions (no bounce, no chatter against a servo pushing into the
    // limit) but never pulls the joint back into the limit.
    if (x > lim.upper)
      tau[b.vIndex] -= std::max(0.0, lim.stiffness * (x - lim.upper) + lim.damping * xd);
    if (x < lim.lower)
      tau[b.vIndex] += std::max(0.0, lim.stiffness * (lim.lower - x) - lim.damping * xd);
  }
  for (const JointFriction& f : robot.frictions) {
    const int i = bodies[f.body].vIndex;
    tau[i] -= f.force * std::clamp(v[i] / f.slipSpeed, -1.0, 1.0);
  }
  for (const JointSpring& s : robot.springs) {
    const Body& b = bodies[s.body];
    const double e = q[b.qIndex] - s.rest;
    tau[b.vIndex] -= (s.stiffness + s.cubic * e * e) * e + s.damping * v[b.vIndex];
  }
}

}  // namespace roverlab
