// Checkpoints of a running simulation: everything that changes while it runs
// (the world state, the commands, the script's and the controller's progress,
// the run checks), so a run can go back to an earlier time and go on from
// there. The app's timeline uses them to resume, or branch, from a scrubbed
// time (docs/architecture.md, "Going back in time").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/simulation.h"

namespace roverlab {

/// A copy of a Simulation's changing parts; the model stays shared.
struct Checkpoint {
  RunState run;
  StepResults
      results;  ///< the last step's contacts (the controller reads them before the next one)
  double time() const { return run.state.bodies.time; }
};

/// The simulation as it stands now.
Checkpoint checkpointOf(const Simulation& sim);
/// Puts the simulation back to a checkpoint taken of it (or of one built from the same scenario).
void restore(Simulation& sim, const Checkpoint& checkpoint);

/// Checkpoints every `interval` seconds of simulated time, at most `capacity`
/// of them: when full, every other one is dropped and the interval doubles,
/// so any length of run is covered with bounded memory (a few kB each).
class Checkpoints {
 public:
  explicit Checkpoints(double interval = 0.1, size_t capacity = 2048)
      : interval_(interval), capacity_(capacity) {}

  void clear() { list_.clear(); }
  /// Takes a checkpoint if `interval` has passed since the last one (or there is none).
  void offer(const Simulation& sim);
  /// Goes back to time t (s): the last checkpoint at or before t, then steps
  /// up to t; the checkpoints after t are dropped (the run goes on from t, a
  /// new branch). False, and nothing changed, when t is after the run's time,
  /// before the first checkpoint, or not a finite number.
  bool seek(Simulation& sim, double t);
  size_t size() const { return list_.size(); }
  double interval() const { return interval_; }

 private:
  double interval_;
  size_t capacity_;
  std::vector<Checkpoint> list_;
};

}  // namespace roverlab
