// Scenario files of terrains/ for tests: read, override, parse, simulate.
#pragma once

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "scenario/scenario_files.h"
#include "sim/simulation.h"

namespace testing {

inline std::filesystem::path terrainsDir() {
  return std::filesystem::path(ROVERLAB_SOURCE_DIR) / "terrains";
}

/// The bytes of tests/data/`name` ("" when it cannot be read).
inline std::string dataFile(const std::string& name) {
  std::ifstream in(std::filesystem::path(ROVERLAB_SOURCE_DIR) / "tests" / "data" / name,
                   std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The files a scenario names, read from tests/data.
inline const roverlab::ScenarioFiles kDataFiles =
    [](const std::string& name, std::string& error) -> std::optional<std::string> {
  const std::string bytes = dataFile(name);
  if (bytes.empty()) {
    error = "no such file";
    return std::nullopt;
  }
  return bytes;
};

/// `s` n times over.
inline std::string repeat(const std::string& s, int n) {
  std::string out;
  out.reserve(s.size() * n);
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

inline std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The simulation of a scenario given as JSON text; fails the test on any issue.
inline roverlab::Simulation simulationFromText(const std::string& text) {
  const roverlab::Expected<roverlab::Scenario> scenario = roverlab::parseScenario(text);
  INFO(scenario.message());
  REQUIRE(scenario.ok());
  roverlab::Expected<roverlab::Simulation> sim = roverlab::makeSimulation(scenario.value());
  INFO(sim.message());
  REQUIRE(sim.ok());
  return std::move(sim).value();
}

/// The simulation of terrains/NAME with `PATH=VALUE` overrides; fails the test on any issue.
inline roverlab::Simulation simulationOf(const std::string& name,
                                         const std::vector<std::string>& overrides = {}) {
  const roverlab::Expected<std::string> text =
      roverlab::applyOverrides(readText(terrainsDir() / name), overrides);
  INFO(text.message());
  REQUIRE(text.ok());
  return simulationFromText(text.value());
}

/// Advances to simulated time t (s); fails the test if the simulation blows up.
inline void runUntil(roverlab::Simulation& sim, double t) {
  while (sim.state.bodies.time < t - 1e-9)
    if (!roverlab::advance(sim)) FAIL(sim.data.error);
  roverlab::updateKinematics(sim);
}

inline roverlab::Vec3 wheelCentre(const roverlab::Simulation& sim, int wheel) {
  return roverlab::worldPoint(sim.data.bodies, sim.model.robot.wheels[wheel].body,
                              roverlab::Vec3::Zero());
}

}  // namespace testing
