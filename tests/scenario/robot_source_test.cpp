// A scenario's robot from each of its sources (robot.preset, robot.model,
// robot.file, robot.urdf): one source at a time, each refusal at its path,
// and the same robot from a preset and from the preset's description.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "scenario/json_input.h"
#include "scenario/robot_reader.h"
#include "support/scenario_files.h"
#include "world/state_hash.h"

using namespace roverlab;
using json = nlohmann::json;

namespace {

json scenarioWith(const json& robot) {
  return {{"format", "roverlab-scenario"},
          {"version", 1},
          {"terrain", {{"boxes", json::array({{{"centre", {0, 0, -0.5}}, {"size", {20, 4, 1}}}})}}},
          {"robot", robot}};
}

std::vector<Issue> issuesOf(const json& robot, const ScenarioFiles& files = {}) {
  const Expected<Scenario> s = parseScenario(scenarioWith(robot).dump(), files);
  if (!s) return s.issues();
  const Expected<Simulation> sim = makeSimulation(s.value());
  return sim ? std::vector<Issue>{} : sim.issues();
}

bool hasIssue(const std::vector<Issue>& issues, const std::string& path, const std::string& part) {
  for (const Issue& i : issues)
    if (i.path == path && i.message.find(part) != std::string::npos) return true;
  return false;
}

// A two-wheel differential-drive robot as URDF text: a box base and two
// cylinder wheels on continuous joints along y.
const char* kTwoWheels = R"(<robot name="two_wheels">
  <link name="base">
    <inertial><mass value="10"/><inertia ixx="0.2" iyy="0.3" izz="0.4" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.4 0.3 0.1"/></geometry></collision>
  </link>
  <link name="left"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.02" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.1" length="0.04"/></geometry></collision></link>
  <link name="right"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.02" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.1" length="0.04"/></geometry></collision></link>
  <joint name="left_wheel" type="continuous"><parent link="base"/><child link="left"/>
    <origin xyz="0 0.2 -0.02"/><axis xyz="0 1 0"/></joint>
  <joint name="right_wheel" type="continuous"><parent link="base"/><child link="right"/>
    <origin xyz="0 -0.2 -0.02"/><axis xyz="0 1 0"/></joint>
</robot>)";

}  // namespace

TEST_CASE("a scenario gives its robot from exactly one source", "[scenario][robot-source]") {
  CHECK(hasIssue(issuesOf({{"pose", {{"position", {0, 0}}}}}), "robot", "needs one of"));
  const json model =
      json::parse(dumpJson(writeRobotDescription(describePreset("wheel-rig", {}).value())));
  CHECK(hasIssue(issuesOf({{"preset", "wheel-rig"}, {"model", model}}), "robot",
                 "gives several robots"));
  CHECK(hasIssue(issuesOf({{"model", model}, {"params", {{"wheel_radius", 0.2}}}}), "robot.params",
                 "a model's are set in the model itself"));
  CHECK(issuesOf({{"model", model}, {"pose", {{"position", {0, 0}}}}}).empty());
}

TEST_CASE("a model's problems are named at robot.model", "[scenario][robot-source]") {
  json model =
      json::parse(dumpJson(writeRobotDescription(describePreset("wheel-rig", {}).value())));
  model["links"][0]["inertia"] = {{"ixx", 1}, {"iyy", 1}, {"izz", 3}};  // no rigid body has it
  CHECK(hasIssue(issuesOf({{"model", model}}), "robot.model.links[0].inertia",
                 "triangle inequality"));
  model = json::parse(dumpJson(writeRobotDescription(describePreset("wheel-rig", {}).value())));
  model["joints"][0]["parent"] = "nowhere";
  CHECK(hasIssue(issuesOf({{"model", model}}), "robot.model.joints[0].parent",
                 "no link named 'nowhere'"));
  model["joints"][0]["parent"] = 3;
  CHECK(hasIssue(issuesOf({{"model", model}}), "robot.model.joints[0].parent", "string"));
}

TEST_CASE("robot.file is read through the scenario's files, robot.urdf inline",
          "[scenario][robot-source]") {
  // Without a files callback (the app) a file is refused; with one it is read.
  CHECK(hasIssue(issuesOf({{"file", "two.urdf"}}), "robot.file", "only the command-line tool"));
  std::vector<std::string> asked;
  const ScenarioFiles files = [&](const std::string& name,
                                  std::string& error) -> std::optional<std::string> {
    asked.push_back(name);
    if (name == "robots/two.urdf") return std::string(kTwoWheels);
    error = "no such file";
    return std::nullopt;
  };
  CHECK(issuesOf({{"file", "robots/two.urdf"}, {"pose", {{"position", {0, 0}}}}}, files).empty());
  CHECK(asked == std::vector<std::string>{"robots/two.urdf"});
  CHECK(hasIssue(issuesOf({{"file", "robots/two.txt"}}, files), "robot.file",
                 "a description (.json) or a URDF (.urdf)"));
  CHECK(hasIssue(issuesOf({{"file", "missing.urdf"}}, files), "robot.file", "no such file"));

  const Expected<Scenario> s =
      parseScenario(scenarioWith({{"urdf", kTwoWheels}, {"pose", {{"position", {0, 0}}}}}).dump());
  REQUIRE(s.ok());
  const RobotDescription& d = s.value().robot.description;
  CHECK(d.name == "two_wheels");
  REQUIRE(d.wheels.size() == 2);
  CHECK(d.wheels[0].radius == 0.1);
  CHECK(d.wheels[0].width == 0.04);
  CHECK(d.controls.left == std::vector<std::string>{"left_wheel"});
  CHECK(d.controls.right == std::vector<std::string>{"right_wheel"});
  Expected<Simulation> sim = makeSimulation(s.value());
  REQUIRE(sim.ok());
  // Driven straight at 2 rad/s for 2 s, it rolls forward at about ω·r.
  setWheelSpeeds(sim.value(), 2.0, 2.0);
  const double x0 = sim.value().state.bodies.q[0];
  for (int i = 0; i < 5000; ++i) step(sim.value().model, sim.value().state, sim.value().data);
  const double x = sim.value().state.bodies.q[0] - x0;
  CHECK(x > 0.5 * 2 * 0.1 * 2);
  CHECK(x < 2 * 0.1 * 2);
}

TEST_CASE("a preset and its description are the same robot", "[scenario][robot-source]") {
  for (const std::string& preset : presetNames()) {
    INFO(preset);
    const json model =
        json::parse(dumpJson(writeRobotDescription(describePreset(preset, {}).value())));
    const Expected<Scenario> a =
        parseScenario(scenarioWith({{"preset", preset}, {"pose", {{"position", {0, 0}}}}}).dump());
    const Expected<Scenario> b =
        parseScenario(scenarioWith({{"model", model}, {"pose", {{"position", {0, 0}}}}}).dump());
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    Expected<Simulation> sa = makeSimulation(a.value()), sb = makeSimulation(b.value());
    REQUIRE(sa.ok());
    REQUIRE(sb.ok());
    for (int i = 0; i < 500; ++i) {
      step(sa.value().model, sa.value().state, sa.value().data);
      step(sb.value().model, sb.value().state, sb.value().data);
    }
    CHECK(stateHash(sa.value().state) == stateHash(sb.value().state));
  }
}
