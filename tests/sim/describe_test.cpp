// The describers shared by the command-line tool and the WebAssembly module
// (sim/describe.h): presets with their defaults as "value", a model whose
// parts agree with the frame layout, and a run summary with its keys.
#include "sim/describe.h"

#include <catch2/catch.hpp>

#include "sim/frame.h"
#include "sim/run.h"
#include "support/scenario_files.h"

using namespace roverlab;
using json = nlohmann::json;

TEST_CASE("describePresets: every preset, each parameter's default as value", "[describe]") {
  const json presets = describePresets();
  REQUIRE(presets.size() == presetNames().size());
  for (const json& p : presets) {
    const std::vector<ParamSpec> specs = presetParams(p["preset"].get<std::string>());
    REQUIRE(p["params"].size() == specs.size());
    CHECK(p["description"] == presetDescription(p["preset"].get<std::string>()));
    for (size_t i = 0; i < specs.size(); ++i) {
      const json& q = p["params"][i];
      CHECK(q == json{{"name", specs[i].name},
                      {"value", specs[i].value},
                      {"min", specs[i].min},
                      {"max", specs[i].max},
                      {"unit", specs[i].unit},
                      {"description", specs[i].description}});
    }
  }
}

TEST_CASE("describeModel: bodies, wheels, columns and the frame layout agree", "[describe]") {
  const std::string text = testing::readText(testing::terrainsDir() / "climb-articulated6.json");
  const Expected<Scenario> scenario = parseScenario(text);
  REQUIRE(scenario.ok());
  const Simulation sim = testing::simulationFromText(text);
  const json m = describeModel(sim, scenario.value());
  const FrameLayout layout = frameLayout(sim);
  CHECK(m["bodies"].size() == sim.model.robot.bodies.bodies.size());
  CHECK(m["layout"]["bodies"] == layout.bodies);
  CHECK(m["layout"]["size"] == layout.size);
  CHECK(m["layout"]["size"].get<int>() - m["layout"]["row"].get<int>() == m["columns"].size());
  CHECK(m["wheels"].size() == sim.model.robot.wheels.size());
  size_t boxes = 0;
  for (const json& b : m["bodies"]) boxes += b["boxes"].size();
  CHECK(boxes == sim.model.robot.boxes.size());
  CHECK(m["preset"] == "articulated6");
  CHECK(m["controller"] == "step-climb");
  CHECK(m["phases"].size() > 1);
  CHECK(m["name"] == scenario.value().name);
  CHECK(m["warnings"] == json::array());
  CHECK_FALSE(m.contains("terrain"));  // meshes are the front end's
}

TEST_CASE("describeRun: the summary's keys", "[describe]") {
  Simulation sim = testing::simulationOf("flat-wheel-rig.json");
  RunStats stats;
  runSteps(sim, 100, 25, [&](Simulation& s) {
    stats.sample(s);
    return true;
  });
  updateKinematics(sim);
  stats.sample(sim);
  const json s = describeRun(sim, stats, 0.5);
  for (const char* key : {"ok", "outcome", "robot", "time_s", "base", "wheels", "max_abs_pitch_rad",
                          "flipped", "flipped_at_s", "warnings", "body_contacts", "contact_law",
                          "steps", "wall_s", "steps_per_s", "real_time_factor"})
    CHECK(s.contains(key));
  CHECK(s["ok"] == true);
  CHECK(s["outcome"] == "ok");
  CHECK_FALSE(s.contains("error"));
  CHECK_FALSE(s.contains("phase"));  // no controller
  CHECK(s["steps"] == 100);
  CHECK(s["wall_s"] == 0.5);
  CHECK(s["steps_per_s"] == 200);
  CHECK(s["flipped_at_s"].is_null());
}
