// Studies: the format's refusals at their paths, the grid, a row equal to the
// run it names, refused combinations as rows, and the threshold search
// against the single wheel's climbable step.
#include "study/study.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "control/observation.h"
#include "scenario/folder_files.h"
#include "scenario/scenario.h"
#include "sim/run.h"
#include "support/scenario_files.h"
#include "world/state_hash.h"

using namespace roverlab;
using nlohmann::json;

namespace {

json wheelStepStudy() { return json::parse(testing::dataFile("studies/cli_wheel_step.json")); }

std::vector<Issue> refusals(const json& study) {
  Expected<Study> s = parseStudy(study.dump(), {});
  REQUIRE_FALSE(s.ok());
  return s.issues();
}

bool refusedAt(const json& study, const std::string& path) {
  for (const Issue& i : refusals(study))
    if (i.path == path) return true;
  return false;
}

}  // namespace

TEST_CASE("a study's refusals name their paths", "[study]") {
  const json good = wheelStepStudy();
  REQUIRE(parseStudy(good.dump(), {}).ok());
  json s = good;
  s["format"] = "roverlab-scenario";
  CHECK(refusedAt(s, "format"));
  s = good;
  s["version"] = 2;
  CHECK(refusedAt(s, "version"));
  s = good;
  s["parameters"][0]["values"] = json::array();
  CHECK(refusedAt(s, "parameters[0].values"));
  s = good;
  s["parameters"][0]["from"] = 0.1;  // values and a range
  CHECK(refusedAt(s, "parameters[0]"));
  s = good;
  s["parameters"][0]["path"] = "terrain.boxes[7].size[2]";  // no such box
  CHECK(refusedAt(s, "parameters[0].path"));
  s = good;
  s["threshold"]["predicate"] = "crossed";
  CHECK(refusedAt(s, "threshold.predicate"));
  s = good;
  s["threshold"]["tolerance"] = 1.0;
  CHECK(refusedAt(s, "threshold.tolerance"));
  s = good;  // a range over a tolerance too large for a double: infinitely many bisections
  s["threshold"]["from"] = 0;
  s["threshold"]["to"] = 1e300;
  s["threshold"]["tolerance"] = 1e-300;
  CHECK(refusedAt(s, "threshold.tolerance"));
  s = good;
  s["threshold"]["also"][0]["path"] = "terrain.materials.default.phi_max";  // a parameter's
  CHECK(refusedAt(s, "threshold.also[0].path"));
  s = good;
  s["predicates"]["climbed"] = {{"base_x_past", 0.6}, {"base_z_above", 0.1}};
  CHECK(refusedAt(s, "predicates.climbed"));
  s = good;
  s["predicates"]["flipped"] = {{"base_z_above", 0.1}};
  CHECK(refusedAt(s, "predicates.flipped"));
  s = good;
  s["parameters"][0] = {
      {"path", "robot.params.wheel_radius"}, {"from", 0.1}, {"to", 0.2}, {"steps", 0}};
  CHECK(refusedAt(s, "parameters[0].steps"));
  s = good;
  s["parameters"][0] = {{"path", "robot.params.wheel_radius"}, {"values", json::array({0.1})}};
  s["parameters"][1] = {
      {"path", "robot.params.wheel_mass"}, {"from", 1}, {"to", 2}, {"steps", 100000}};
  s["parameters"][2] = {
      {"path", "robot.params.body_mass"}, {"from", 1}, {"to", 2}, {"steps", 100000}};
  CHECK(refusedAt(s, "parameters"));  // 1e10 runs
  s = good;
  s["surprise"] = true;
  CHECK(refusedAt(s, "surprise"));
  CHECK(refusedAt(json::array(), ""));
}

TEST_CASE("a study's scenario file stays inside the study's folder", "[study]") {
  json s = wheelStepStudy();
  s["scenario"] = "../terrains/flat-wheel-rig.json";
  Expected<Study> up =
      parseStudy(s.dump(), filesInFolder(std::string(ROVERLAB_SOURCE_DIR) + "/tests/"));
  REQUIRE_FALSE(up.ok());
  CHECK(up.issues()[0].path == "scenario");
  CHECK_THAT(up.issues()[0].message, Catch::Contains("stays inside the scenario's folder"));
  s["scenario"] = "/etc/passwd";
  Expected<Study> absolute =
      parseStudy(s.dump(), filesInFolder(std::string(ROVERLAB_SOURCE_DIR) + "/tests/"));
  REQUIRE_FALSE(absolute.ok());
  CHECK(absolute.issues()[0].path == "scenario");
  // From the project's folder, terrains/ is inside.
  s["scenario"] = "terrains/flat-wheel-rig.json";
  s.erase("threshold");
  s["parameters"] = json::array({{{"path", "robot.params.wheel_radius"}, {"values", {0.2}}}});
  CHECK(parseStudy(s.dump(), filesInFolder(std::string(ROVERLAB_SOURCE_DIR) + "/")).ok());
}

TEST_CASE("the grid: every combination, the last parameter fastest; ranges and samples",
          "[study]") {
  json s = json::parse(testing::dataFile("studies/cli_grid.json"));
  s["repeats"] = 2;
  s["parameters"].push_back({{"path", "robot.params.wheel_mass"},
                             {"random", {{"from", 4}, {"to", 6}, {"count", 2}, {"seed", 7}}}});
  const Study study = parseStudy(s.dump(), {}).value();
  const std::vector<StudyRun> grid = studyGrid(study);
  REQUIRE(grid.size() == 2 * 3 * 2 * 2);
  CHECK(grid[0].values[0] == 0.2);
  CHECK(grid[0].values[1] == 1.0);
  CHECK(grid[0].repeat == 0);
  CHECK(grid[1].repeat == 1);
  CHECK(grid[2].values[2] != grid[0].values[2]);  // the second sample
  CHECK(grid[4].values[2] == grid[0].values[2]);  // the same samples for every combination
  CHECK(grid[4].values[1] == 2.0);
  CHECK(grid.back().values[0] == 0.3);
  CHECK(grid.back().values[1] == 3.0);
  const std::vector<double> samples = studySamples(4, 6, 2, 7);
  CHECK(samples == studySamples(4, 6, 2, 7));  // the same every time
  CHECK(samples[0] != samples[1]);
  for (double v : samples) CHECK((v >= 4 && v < 6));
  CHECK(grid[0].values[2] == samples[0]);
  const std::vector<std::string> sets = studyAssignments(study, grid[0]);
  CHECK(sets == std::vector<std::string>{"robot.params.wheel_radius=0.2", "control.wheel_speed=1.0",
                                         "robot.params.wheel_mass=" + json(samples[0]).dump()});
}

TEST_CASE("a study's row is the run its assignments name; a refused value is a row", "[study]") {
  const Study study = parseStudy(testing::dataFile("studies/cli_grid.json"), {}).value();
  const StudyRun run = studyGrid(study)[5];
  const json row = runStudyRow(study, run);
  CHECK(row["ok"] == true);
  CHECK(row["outcome"] == "ok");
  // The same scenario, set by hand and run to its duration.
  Expected<std::string> doc = applyOverrides(study.scenario, studyAssignments(study, run));
  REQUIRE(doc.ok());
  Simulation sim = testing::simulationFromText(doc.value());
  runSteps(sim, stepsIn(sim.duration, sim.model.dt), 1000, [](Simulation&) { return true; });
  CHECK(row["state_hash"] == stateHashHex(sim.state));
  CHECK(row["steps"] == sim.steps);
  CHECK(row["reached"] == true);                                             // 0.3 m in 0.36 s
  CHECK(row["reached_time_s"].get<double>() == Approx(0.36).margin(0.011));  // sampled every 10 ms
  CHECK(row["peak_wheel_torque_Nm"].get<double>() <= 200.0);                 // the motor's limit
  CHECK(row["drive_energy_J"].get<double>() > 0);

  json s = json::parse(testing::dataFile("studies/cli_grid.json"));
  s["parameters"][0]["values"] = {-0.2};
  const Study bad = parseStudy(s.dump(), {}).value();
  const json refused = runStudyRow(bad, studyGrid(bad)[0]);
  CHECK(refused["ok"] == false);
  CHECK(refused["outcome"] == "refused");
  CHECK_THAT(refused["message"].get<std::string>(), Catch::Contains("robot.params.wheel_radius"));
  CHECK(refused["state_hash"].is_null());
}

TEST_CASE("a study's row with a controller program: its host drives it a stretch at a time",
          "[study]") {
  // A host that commands the wheel speed its program's parameter names, at
  // every update: the row is the run with that wheel speed set in the scenario.
  json doc = json::parse(testing::dataFile("studies/cli_grid.json"));
  doc["scenario"]["control"] = {
      {"program",
       {{"language", "javascript"}, {"source", "(hosted)"}, {"params", {{"speed", 0}}}}}};
  doc["parameters"] = {{{"path", "control.program.params.speed"}, {"values", {1.5, 3.0}}}};
  const Study study = parseStudy(doc.dump(), {}).value();
  for (const StudyRun& run : studyGrid(study)) {
    const double speed = run.values[0].get<double>();
    StudyRowRun row(study, run, true);
    REQUIRE(row.simulation());
    CHECK(row.scenario()->control.program.language == "javascript");
    Simulation& sim = *row.simulation();
    REQUIRE(attachProgram(sim, 0.01));
    int updates = 0;
    while (row.running()) {
      if (programDue(sim)) {
        observeNow(sim);
        Command c;
        c.clear(sim.model.robot.actuators.size());
        c.wheel_speed_rad_s = speed;
        commandProgram(sim, c);
        ++updates;
      }
      row.step(1'000'000);
    }
    const json got = row.finish();
    CHECK(got["ok"] == true);
    CHECK(updates == 50);  // 0.5 s at 100 Hz
    json set = json::parse(testing::dataFile("studies/cli_grid.json"));
    set["parameters"] = {{{"path", "control.wheel_speed"}, {"values", {speed}}}};
    const Study scripted = parseStudy(set.dump(), {}).value();
    const json expected = runStudyRow(scripted, studyGrid(scripted)[0]);
    CHECK(got["state_hash"] == expected["state_hash"]);
    CHECK(got["base_x_m"] == expected["base_x_m"]);
  }
  // Without a host the row is refused at control.program; a failed program is its row's outcome.
  const json unhosted = runStudyRow(study, studyGrid(study)[0]);
  CHECK(unhosted["outcome"] == "refused");
  CHECK_THAT(unhosted["message"].get<std::string>(), Catch::Contains("control.program"));
  StudyRowRun failing(study, studyGrid(study)[0], true);
  failing.step(10);
  failing.failProgram("update at t = 0.004 s: TypeError: x is undefined (line 3)");
  CHECK_FALSE(failing.running());
  const json failed = failing.finish();
  CHECK(failed["ok"] == false);
  CHECK(failed["outcome"] == "program_error");
  CHECK(failed["message"] == "update at t = 0.004 s: TypeError: x is undefined (line 3)");
  CHECK(failed["steps"] == 10);
}

TEST_CASE("threshold search: the single wheel's highest step, r(1 − 1/√(1+μ²)) plus compliance",
          "[study]") {
  // One wheel pushed only by its own drive meets a step edge (the analytic
  // test's rig, tests/sim/analytic_test.cpp). A rigid wheel rises when the
  // friction at the edge can turn the contact line past the load:
  // h_rigid = r(1 − 1/√(1+μ²)). A compliant tire (k = 2e5 N/m) still rests on
  // the ground, deflected by δ0 = W/k = 2.70 mm, when it meets the edge; it
  // leaves the ground with its centre at r, pressed into the edge by
  // W/(k cos θ), so the edge sits δ0 higher at lift-off: h_rigid + δ0 is the
  // bound of a tire whose whole load has moved to the edge. The search must
  // bracket the threshold to its tolerance, between the two.
  const Study study = parseStudy(wheelStepStudy().dump(), {}).value();
  const std::vector<StudyRun> combos = studyGrid(study);
  REQUIRE(combos.size() == 2);
  const double r = 0.19, delta0 = 55 * 9.81 / 2e5;
  for (const StudyRun& c : combos) {
    const double mu = c.values[0].get<double>();
    const double rigid = r * (1 - 1 / std::sqrt(1 + mu * mu));
    int runs = 0;
    const json t = searchThreshold(study, c, [&](const StudyRun& run) {
      ++runs;
      return runStudyRow(study, run);
    });
    INFO("mu " << mu << ": " << t.dump());
    REQUIRE(t["found"] == true);
    CHECK(t["at_from"] == true);  // a 1 cm step is climbed
    CHECK(t["upper"].get<double>() - t["lower"].get<double>() <= 0.0005);
    CHECK(t["runs"] == runs);
    CHECK(runs <= 2 + 8);  // log2(0.07 / 0.0005) = 7.1 bisections
    CHECK(t["threshold"].get<double>() > rigid);
    CHECK(t["threshold"].get<double>() < rigid + delta0);
  }
}
