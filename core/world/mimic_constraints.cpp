// Mimic constraints after the articulated-body algorithm (world/stages.h):
// the joints that follow others (robots/parts.h JointMimic) held exactly by
// constraint forces, as a rocker differential's gears hold its rockers.
//
// For K mimics the constraint rows J_k (+1 at the follower, −multiplier at
// the leader) give e = J q − offset. With the unconstrained accelerations
// a₀ of the step and the responses R = M⁻¹ Jᵀ (one abaResponse per mimic),
// the forces λ solve (J R) λ = −J a₀ − 2/T ė − 1/T² e, so the constrained
// accelerations a₀ + R λ keep J a = 0 and pull any drift of e and ė back,
// critically damped in T = kMimicSteps · dt (the rounding of the integrator
// leaves e at the level of 1e-15 rad otherwise). The forces are ideal: they
// do no work on motions the constraint allows.
#include "world/stages.h"

namespace roverlab {
namespace {

// T of the drift correction, in steps: slow against the step (the explicit
// integrator stays far inside its limit, 2/T · dt = 0.2) and fast against
// the motion (10 ms at the default step is 4e-3 s).
constexpr double kMimicSteps = 10.0;

}  // namespace

void mimicStage(const WorldModel& model, const WorldState& state, WorldData& data) {
  const std::vector<JointMimic>& mimics = model.robot.mimics;
  if (mimics.empty()) return;
  const std::vector<Body>& bodies = model.robot.bodies.bodies;
  MimicScratch& m = data.mimic;
  const Eigen::VectorXd& q = state.bodies.q;
  const Eigen::VectorXd& v = state.bodies.v;
  Eigen::VectorXd& a = data.bodies.acceleration;
  Eigen::VectorXd& tau = data.bodies.tau;
  const double t = kMimicSteps * model.dt;
  const Eigen::Index k = static_cast<Eigen::Index>(mimics.size());
  // J x for row c: x_follower − multiplier · x_leader.
  const auto row = [&](Eigen::Index c, const auto& x) {
    return x[bodies[mimics[c].body].vIndex] -
           mimics[c].multiplier * x[bodies[mimics[c].leader].vIndex];
  };
  for (Eigen::Index c = 0; c < k; ++c) {
    const Body& f = bodies[mimics[c].body];
    const Body& l = bodies[mimics[c].leader];
    m.unit.setZero();
    m.unit[f.vIndex] = 1.0;
    m.unit[l.vIndex] -= mimics[c].multiplier;
    abaResponse(model.robot.bodies, data.bodies, m.unit, m.response.col(c));
    const double e = q[f.qIndex] - mimics[c].multiplier * q[l.qIndex] - mimics[c].offset;
    m.rhs[c] = -row(c, a) - 2 / t * row(c, v) - e / (t * t);
  }
  for (Eigen::Index c = 0; c < k; ++c)
    for (Eigen::Index r = 0; r < k; ++r) m.coupling(r, c) = row(r, m.response.col(c));
  m.solver.compute(m.coupling);
  m.lambda = m.solver.solve(m.rhs);
  a.noalias() += m.response * m.lambda;
  for (Eigen::Index c = 0; c < k; ++c) {
    tau[bodies[mimics[c].body].vIndex] += m.lambda[c];
    tau[bodies[mimics[c].leader].vIndex] -= mimics[c].multiplier * m.lambda[c];
  }
}

}  // namespace roverlab
