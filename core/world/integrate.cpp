// Stage 7 of the step: integration over model.dt (world/stages.h).
#include "world/stages.h"

namespace roverlab {
namespace {

// Classical RK4 on (q, v): four evaluations; the wheel and box results and
// the controller integrals kept are those of the first (the start of the step).
void stepRk4(const WorldModel& model, WorldState& state, WorldData& data) {
  const double dt = model.dt;
  const Multibody& bodies = model.robot.bodies;
  Rk4Scratch& k = data.rk4;  // every assignment below reuses its buffer
  WorldState& stage = data.stage;
  k.q0 = state.bodies.q;
  k.v0 = state.bodies.v;
  stage = state;
  evaluate(model, state, data);
  k.first = data.wheels;
  k.firstBoxes = data.boxes;
  k.integrals = data.integrals;
  k.a1 = data.bodies.acceleration;
  auto at = [&](const Eigen::VectorXd& v, double h, const Eigen::VectorXd& dv) {
    stage.bodies.q = k.q0;
    integratePositions(bodies, stage.bodies.q, v, h);
    stage.bodies.v = k.v0 + h * dv;
    stage.bodies.time = state.bodies.time + h;
    evaluate(model, stage, data);
  };
  at(k.v0, dt / 2, k.a1);
  k.v2 = stage.bodies.v;
  k.a2 = data.bodies.acceleration;
  at(k.v2, dt / 2, k.a2);
  k.v3 = stage.bodies.v;
  k.a3 = data.bodies.acceleration;
  at(k.v3, dt, k.a3);
  k.v4 = stage.bodies.v;
  k.a4 = data.bodies.acceleration;
  state.bodies.v = k.v0 + dt / 6 * (k.a1 + 2 * k.a2 + 2 * k.a3 + k.a4);
  k.mean = (k.v0 + 2 * k.v2 + 2 * k.v3 + k.v4) / 6;
  integratePositions(bodies, state.bodies.q, k.mean, dt);
  state.bodies.time += dt;
  data.wheels = k.first;
  data.boxes = k.firstBoxes;
  data.integrals = k.integrals;
}

}  // namespace

void integrate(const WorldModel& model, WorldState& state, WorldData& data) {
  if (model.integrator == Integrator::RungeKutta4) {
    stepRk4(model, state, data);
  } else {
    evaluate(model, state, data);
    integrateSemiImplicit(model.robot.bodies, state.bodies, data.bodies, model.dt);
  }
}

}  // namespace roverlab
