#include "sim/checkpoint.h"

#include <cmath>

#include "sim/run.h"

namespace roverlab {

Checkpoint checkpointOf(const Simulation& sim) {
  return {static_cast<const RunState&>(sim), static_cast<const StepResults&>(sim.data)};
}

void restore(Simulation& sim, const Checkpoint& c) {
  static_cast<RunState&>(sim) = c.run;
  static_cast<StepResults&>(sim.data) = c.results;
  updateKinematics(sim);
}

void Checkpoints::offer(const Simulation& sim) {
  const double t = sim.state.bodies.time;
  // Half a step of slack: times are sums of dt and not exact multiples of the interval.
  if (!list_.empty() && t < list_.back().time() + interval_ - 0.5 * sim.model.dt) return;
  if (list_.size() >= capacity_) {
    // Thin out: keep every other one (the first stays), twice the interval from now on.
    size_t kept = 0;
    for (size_t i = 0; i < list_.size(); i += 2) list_[kept++] = std::move(list_[i]);
    list_.resize(kept);
    interval_ *= 2.0;
    if (t < list_.back().time() + interval_ - 0.5 * sim.model.dt) return;
  }
  list_.push_back(checkpointOf(sim));
}

bool Checkpoints::seek(Simulation& sim, double t) {
  const double dt = sim.model.dt;
  if (!std::isfinite(t) || list_.empty() || t > sim.state.bodies.time + 0.5 * dt ||
      t < list_.front().time() - 0.5 * dt)
    return false;
  size_t i = list_.size();
  while (i > 0 && list_[i - 1].time() > t + 0.5 * dt) --i;
  const Checkpoint& from = list_[i - 1];
  restore(sim, from);
  list_.resize(i);
  // Step up to t, sampling nothing: the caller has the telemetry up to here.
  const long long steps = stepsIn(t - from.time(), dt);
  for (long long k = 0; k < steps && advance(sim); ++k) offer(sim);
  updateKinematics(sim);
  return true;
}

}  // namespace roverlab
