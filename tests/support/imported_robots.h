// Imported robots for tests: real URDF robots from tests/data/robots made
// into runnable simulations.
#pragma once

#include <nlohmann/json.hpp>

#include "robots/compile.h"
#include "scenario/robot_reader.h"
#include "scenario/urdf_reader.h"
#include "support/scenario_files.h"

namespace testing {

// The Leo Rover from its URDF (tests/data/robots/leo_rover) as the reader
// sizes it (tires and rocker stops for its 5.5 kg), at the default step, on
// a 0.2 m-thick floor with a 3 cm bump under its left wheels, driving at
// 4 rad/s.
inline roverlab::Simulation leoOverBump() {
  using namespace roverlab;
  const Expected<UrdfRobot> leo =
      readUrdf(testing::dataFile("robots/leo_rover/leo_rover.urdf"),
               [](const std::string& name, std::string& error) -> std::optional<std::string> {
                 const std::string bytes = testing::dataFile("robots/leo_rover/" + name);
                 if (bytes.empty()) error = "no such file";
                 return bytes.empty() ? std::nullopt : std::optional<std::string>(bytes);
               });
  INFO(leo.message());
  REQUIRE(leo.ok());
  nlohmann::json doc = nlohmann::json::parse(R"({"format": "roverlab-scenario", "version": 1,
    "terrain": {"boxes": [{"centre": [0, 0, -0.1], "size": [20, 4, 0.2]},
                          {"centre": [0.5, 0.25, 0.015], "size": [0.3, 0.3, 0.03]}]},
    "robot": {"pose": {"position": [0, 0]}},
    "control": {"wheel_speed": 4}})");
  doc["robot"]["model"] = writeRobotDescription(leo.value().description);
  Expected<Scenario> scenario = parseScenario(doc.dump());
  INFO(scenario.message());
  REQUIRE(scenario.ok());
  Expected<Simulation> sim = makeSimulation(scenario.value());
  INFO(sim.message());
  REQUIRE(sim.ok());
  return std::move(sim).value();
}

}  // namespace testing
