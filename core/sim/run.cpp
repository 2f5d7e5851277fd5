#include "sim/run.h"

#include <algorithm>
#include <cmath>

namespace roverlab {

long long stepsIn(double seconds, double dt) { return std::max(0LL, std::llround(seconds / dt)); }

long long runSteps(Simulation& sim, long long steps, long long every,
                   const std::function<bool(Simulation&)>& sample) {
  every = std::max(1LL, every);
  long long taken = 0;
  while (taken < steps && !programDue(sim) && advance(sim)) {
    ++taken;
    if (sim.steps % every == 0) {
      updateKinematics(sim);
      if (!sample(sim)) break;
    }
  }
  return taken;
}

}  // namespace roverlab
