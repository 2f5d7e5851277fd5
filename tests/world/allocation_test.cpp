// The step allocates nothing: every buffer it needs lives in WorldData and is
// sized when the run is made (makeWorldData). A counting replacement of the
// global operator new sees every heap allocation of this test binary; from
// the first step on there is none, for both integrators, over every scenario
// in terrains/ (contacts appearing and vanishing, body contact, the
// step-climb controller), and for a robot with a mimic joint.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <new>

#include "support/imported_robots.h"
#include "support/scenario_files.h"

namespace {
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

using namespace roverlab;

TEST_CASE("steps make no heap allocation, with either integrator", "[world][allocation]") {
  for (const auto& entry : std::filesystem::directory_iterator(testing::terrainsDir())) {
    const std::string name = entry.path().filename().string();
    for (const char* integrator : {"semi-implicit", "rk4"}) {
      Simulation sim =
          testing::simulationOf(name, {std::string("simulation.integrator=") + integrator});
      // From the first step: makeWorldData sized every buffer (contacts,
      // queries, RK4 stages, the body-contact features of every piece).
      // 3 s covers contacts appearing and vanishing, body contact and the
      // controller's phases.
      const long before = allocations.load();
      long taken = 0;
      while (sim.state.bodies.time < 3.0 && advance(sim)) ++taken;
      const long added = allocations.load() - before;
      INFO(name << " with " << integrator << ": " << added << " allocations in " << taken
                << " steps");
      CHECK(taken > 0);
      CHECK(added == 0);
    }
  }
}

TEST_CASE("a step with mimic constraints allocates nothing", "[world][allocation][mimic]") {
  Simulation sim = testing::leoOverBump();
  REQUIRE(!sim.model.robot.mimics.empty());
  const long before = allocations.load();
  long taken = 0;
  while (sim.state.bodies.time < 1.0 && advance(sim)) ++taken;
  CHECK(taken > 0);
  CHECK(allocations.load() - before == 0);
}
