#include "sim/checkpoint.h"

#include <cmath>

#include "sim/run.h"

namespace roverlab {

Checkpoint checkpointOf(const Simulation& sim) {
  Checkpoint c;
  c.state = sim.state;
  c.nextScript = sim.nextScript;
  c.leftSpeed = sim.leftSpeed;
  c.rightSpeed = sim.rightSpeed;
  c.steps = sim.steps;
  c.controller = sim.controller ? sim.controller->clone() : nullptr;
  c.nextControl = sim.nextControl;
  c.controllerOn = sim.controllerOn;
  c.outcome = sim.outcome;
  c.energy = sim.energy;
  c.law = sim.data.law;
  c.error = sim.data.error;
  c.wheels = sim.data.wheels;
  c.boxes = sim.data.boxes;
  return c;
}

void restore(Simulation& sim, const Checkpoint& c) {
  sim.state = c.state;
  sim.nextScript = c.nextScript;
  sim.leftSpeed = c.leftSpeed;
  sim.rightSpeed = c.rightSpeed;
  sim.steps = c.steps;
  sim.controller = c.controller ? c.controller->clone() : nullptr;
  sim.nextControl = c.nextControl;
  sim.controllerOn = c.controllerOn;
  sim.outcome = c.outcome;
  sim.energy = c.energy;
  sim.data.law = c.law;
  sim.data.error = c.error;
  sim.data.wheels = c.wheels;
  sim.data.boxes = c.boxes;
  updateKinematics(sim);
}

void Checkpoints::offer(const Simulation& sim) {
  const double t = sim.state.bodies.time;
  // Half a step of slack: times are sums of dt and not exact multiples of the interval.
  if (!list_.empty() && t < list_.back().state.bodies.time + interval_ - 0.5 * sim.model.dt) return;
  if (list_.size() >= capacity_) {
    // Thin out: keep every other one (the first stays), twice the interval from now on.
    size_t kept = 0;
    for (size_t i = 0; i < list_.size(); i += 2) list_[kept++] = std::move(list_[i]);
    list_.resize(kept);
    interval_ *= 2.0;
    if (t < list_.back().state.bodies.time + interval_ - 0.5 * sim.model.dt) return;
  }
  list_.push_back(checkpointOf(sim));
}

bool Checkpoints::seek(Simulation& sim, double t) {
  const double dt = sim.model.dt;
  if (!std::isfinite(t) || list_.empty() || t > sim.state.bodies.time + 0.5 * dt ||
      t < list_.front().state.bodies.time - 0.5 * dt)
    return false;
  size_t i = list_.size();
  while (i > 0 && list_[i - 1].state.bodies.time > t + 0.5 * dt) --i;
  const Checkpoint& from = list_[i - 1];
  restore(sim, from);
  list_.resize(i);
  // Step up to t, sampling nothing: the caller has the telemetry up to here.
  const long long steps = stepsIn(t - from.state.bodies.time, dt);
  for (long long k = 0; k < steps && advance(sim); ++k) offer(sim);
  updateKinematics(sim);
  return true;
}

}  // namespace roverlab
