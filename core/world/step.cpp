// The step (world/world.h): one force evaluation per stage of
// world/stages.h, the integration, then the blow-up check.
#include <cmath>
#include <cstdio>

#include "world/stages.h"

namespace roverlab {
namespace {

// Speeds beyond this (m/s or rad/s) mean the integration has blown up.
constexpr double kExplodedSpeed = 1e4;

std::string blowUpMessage(const WorldModel& model, const WorldState& state) {
  // The common case in one pass over q and v; the body is looked up only on failure.
  if (state.bodies.q.allFinite() && state.bodies.v.allFinite() &&
      (state.bodies.v.size() == 0 || state.bodies.v.cwiseAbs().maxCoeff() <= kExplodedSpeed))
    return {};
  for (const Body& b : model.robot.bodies.bodies) {
    const int nq = jointCoords(b.joint), nv = jointDofs(b.joint);
    const bool finite = state.bodies.q.segment(b.qIndex, nq).allFinite() &&
                        state.bodies.v.segment(b.vIndex, nv).allFinite();
    const bool exploded =
        finite && nv > 0 &&
        state.bodies.v.segment(b.vIndex, nv).cwiseAbs().maxCoeff() > kExplodedSpeed;
    if (!finite || exploded) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "simulation blew up at t = %.4f s: body '%s' %s",
                    state.bodies.time, b.name.c_str(),
                    finite ? "exceeds 1e4 m/s or rad/s" : "has a non-finite state");
      return buf;
    }
  }
  return {};
}

}  // namespace

WorldState initialState(const WorldModel& model) {
  WorldState s;
  s.bodies = neutralState(model.robot.bodies);
  s.targets.assign(model.robot.actuators.size(), 0.0);
  s.integrals.assign(model.robot.actuators.size(), 0.0);
  s.tread.resize(model.robot.wheels.size());
  return s;
}

WorldData makeWorldData(const WorldModel& model) {
  WorldData d;
  d.bodies = makeData(model.robot.bodies);
  d.wheels.resize(model.robot.wheels.size());
  d.boxes.resize(model.boxes.size());
  d.bodyScratch.near.resize(model.boxes.size());
  return d;
}

void evaluate(const WorldModel& model, const WorldState& state, WorldData& data) {
  forwardKinematics(model.robot.bodies, state.bodies, data.bodies);  // 1. kinematics
  wheelContactStage(model, data);                                    // 2. wheel contacts
  tireForceStage(model, state, data);                                // 3. tire forces
  bodyContactStage(model, data);                                     // 4. body contacts
  jointForceStage(model, state, data);                               // 5. joint forces
  abaFromKinematics(model.robot.bodies, data.bodies);                // 6. articulated-body dynamics
}

bool step(const WorldModel& model, WorldState& state, WorldData& data) {
  if (!data.error.empty()) return false;
  MultibodyState& previous = data.previous;
  previous = state.bodies;        // reuses the buffers of the last step
  integrate(model, state, data);  // 7. integrate (evaluating 1–6 once, or four times for RK4)
  data.error = blowUpMessage(model, state);
  if (!data.error.empty()) {
    state.bodies = previous;
    return false;
  }
  for (size_t w = 0; w < model.robot.wheels.size(); ++w) state.tread[w] = data.wheels[w].tread;
  state.integrals = data.integrals;
  return true;
}

}  // namespace roverlab
