// The scenario validator: every class of bad input gives a {path, message}
// naming the field, and every file in terrains/ is valid.
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/scenario_files.h"

using namespace roverlab;

namespace {

const char* kValid = R"({"format": "roverlab-scenario", "version": 1,
  "terrain": {"boxes": [{"centre": [0, 0, -0.5], "size": [20, 4, 1]}]},
  "robot": {"preset": "wheel-rig", "pose": {"position": [0, 0]}}})";

/// Issues of the valid scenario with `assignments` applied (PATH=VALUE).
std::vector<Issue> issuesWith(const std::vector<std::string>& assignments) {
  const Expected<std::string> text = applyOverrides(kValid, assignments);
  REQUIRE(text.ok());
  const Expected<Scenario> s = parseScenario(text.value());
  if (!s) return s.issues();
  const Expected<Simulation> sim = makeSimulation(s.value());
  return sim ? std::vector<Issue>{} : sim.issues();
}

/// The single issue of a change, checked for its path and a part of its message.
void expectIssue(const std::vector<std::string>& assignments, const std::string& path,
                 const std::string& part) {
  const std::vector<Issue> issues = issuesWith(assignments);
  INFO("after " << assignments.front());
  REQUIRE(issues.size() >= 1);
  bool found = false;
  for (const Issue& i : issues)
    found = found || (i.path == path && i.message.find(part) != std::string::npos);
  INFO("first issue: " << issues.front().path << ": " << issues.front().message);
  CHECK(found);
}

}  // namespace

TEST_CASE("the reference scenario is valid", "[scenario]") { CHECK(issuesWith({}).empty()); }

TEST_CASE("malformed documents", "[scenario]") {
  // JSON has no NaN or infinity; an overflowing number is refused by the parser.
  const Expected<Scenario> huge =
      parseScenario(R"({"format": "roverlab-scenario", "version": 1e999})");
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.issues()[0].message.find("not valid JSON") == 0);
  CHECK(huge.issues()[0].message.find("number overflow") != std::string::npos);
  const Expected<Scenario> notJson = parseScenario("{\"format\": ");
  REQUIRE_FALSE(notJson.ok());
  CHECK(notJson.issues()[0].path == "format");  // the value that is missing
  CHECK(notJson.issues()[0].message.rfind("not valid JSON", 0) == 0);
  const Expected<Scenario> array = parseScenario("[1, 2]");
  REQUIRE_FALSE(array.ok());
  CHECK(array.issues()[0].message == "must be an object, got an array");
}

TEST_CASE("format, version and top-level fields", "[scenario]") {
  expectIssue({"format=\"something\""}, "format", "must be \"roverlab-scenario\"");
  expectIssue({"version=2"}, "version",
              "unsupported scenario version 2; this build reads version 1");
  expectIssue({"version=\"1\""}, "version", "unsupported scenario version \"1\"");
  expectIssue({"colour=1"}, "colour", "unknown field");
}

TEST_CASE("robot section", "[scenario]") {
  expectIssue({"robot.preset=\"tank\""}, "robot.preset", "must be one of: articulated6, rocker8");
  expectIssue({"robot.params.wheel_radius=-1"}, "robot.params.wheel_radius",
              "must be in [0.02, 2] m, got -1");
  expectIssue({"robot.params.wings=2"}, "robot.params.wings",
              "unknown parameter of preset 'wheel-rig'");
  expectIssue({"robot.params.wheel_radius=\"big\""}, "robot.params.wheel_radius",
              "must be a number, got a string");
  expectIssue({"robot.pose.position=[1]"}, "robot.pose.position",
              "must be [x, y] or [x, y, z] in m");
  expectIssue({"robot.pose.pitch=9"}, "robot.pose.pitch", "must be in [-3.14159, 3.14159] rad");
}

TEST_CASE("terrain section", "[scenario]") {
  expectIssue({"terrain.boxes[0].size=[20, 4]"}, "terrain.boxes[0].size", "must be [x, y, z] in m");
  expectIssue({"terrain.boxes[0].size[2]=-1"}, "terrain.boxes[0].size[2]", "");
  expectIssue({"terrain.boxes[0].material=\"ice\""}, "terrain.boxes[0].material",
              "unknown material 'ice' (defined: default)");
  expectIssue({"terrain.boxes[0].color=\"red\""}, "terrain.boxes[0].color",
              "must be a colour '#rrggbb'");
  expectIssue({"terrain.materials={\"ice\": {\"phi_max\": -1}}"}, "terrain.materials.ice.phi_max",
              "must be in [0, 5]");
  expectIssue({"terrain.hulls=[{\"points\": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]}]"},
              "terrain.hulls[0].points", "");
  expectIssue({"terrain.hulls=[{\"points\": [[0,0,0],[1,0,0],[0,1,0],[0,0,2e6]]}]"},
              "terrain.hulls[0].points[3][2]", "must be in [-1e+06, 1e+06] m");
  expectIssue(
      {"terrain.wedges=[{\"start\": [0,0,0], \"length\": -1, \"width\": 1, \"height\": 1}]"},
      "terrain.wedges[0].length", "must be in");
  expectIssue({"terrain.quads={\"left\": [{\"a\": [0,0,0], \"b\": [0,1,0], \"m\": [0,2,0]}]}"},
              "terrain.quads.left[0].m", "lies on the line through a and b");
  expectIssue({"terrain.profiles=[{\"points\": [[0,0],[1,0],[0.5,1]]}]"},
              "terrain.profiles[0].points[2][0]", "must not decrease");
  expectIssue({"terrain={}"}, "terrain", "has no pieces");
}

TEST_CASE("every piece kind: its fields in order, required ones named, its colour", "[scenario]") {
  const auto issues = [](const std::string& assignment) {
    std::vector<std::string> lines;
    for (const Issue& i : issuesWith({assignment})) lines.push_back(i.path + ": " + i.message);
    return lines;
  };
  // Points given are read first, then the missing required ones, then numbers.
  CHECK(issues("terrain.boxes=[{\"size\": [1, \"a\", 1], \"yaw\": 20, \"extra\": 1}]") ==
        std::vector<std::string>{
            "terrain.boxes[0].extra: unknown field (expected one of: centre, color, material, "
            "size, yaw)",
            "terrain.boxes[0].size[1]: must be a number (m), got a string",
            "terrain.boxes[0].centre: is required: [x, y, z] (m)",
            "terrain.boxes[0].yaw: must be in [-10, 10] rad, got 20"});
  CHECK(issues("terrain.wedges=[{\"width\": 0}]") ==
        std::vector<std::string>{
            "terrain.wedges[0].start: is required: [x, y, z] (m), middle of the low edge",
            "terrain.wedges[0].length: is required (a number in m)",
            "terrain.wedges[0].width: must be in [0.001, 10000] m, got 0",
            "terrain.wedges[0].height: is required (a number in m)"});
  CHECK(issues("terrain.hulls=[{\"color\": \"red\"}]") ==
        std::vector<std::string>{
            "terrain.hulls[0].points: is required: at least 4 points [x, y, z] (m), not all in "
            "one plane",
            "terrain.hulls[0].color: must be a colour '#rrggbb', got 'red'"});
  CHECK(issues("terrain.profiles=[{\"points\": 3, \"material\": \"ice\"}]") ==
        std::vector<std::string>{
            "terrain.profiles[0].points: must be an array, got a number",
            "terrain.profiles[0].material: unknown material 'ice' (defined: default)"});
  // Default colours, and every other piece of a profile a shade darker.
  const Expected<std::string> text = applyOverrides(
      kValid,
      {"terrain.wedges=[{\"start\": [5, 0, 0], \"length\": 1, \"width\": 1, \"height\": 0.1}]",
       "terrain.hulls=[{\"points\": [[8,0,0],[9,0,0],[8,1,0],[8,0,1]]}]",
       "terrain.profiles=[{\"points\": [[12,0],[13,0.1],[14,0.3]]}]"});
  REQUIRE(text.ok());
  const Expected<Scenario> s = parseScenario(text.value());
  REQUIRE(s.ok());
  std::vector<std::uint32_t> colours;
  for (const TerrainPiece& p : s.value().terrain->pieces) colours.push_back(p.color);
  CHECK(colours ==
        std::vector<std::uint32_t>{0xb86b3c, 0x6f9a58, 0x8f7a66, 0x6a8fb8, 0x6a8fb8 & 0xf0f0f0});
}

TEST_CASE("control and simulation sections", "[scenario]") {
  expectIssue({"control.script=[{\"t\": 2}, {\"t\": 1}]"}, "control.script[1].t",
              "must not be earlier than the previous entry");
  expectIssue({"control.joints={\"fold_front\": 1}"}, "control.joints.fold_front",
              "this robot has no joint drives");
  expectIssue({"control.controller=\"autopilot\""}, "control.controller", "must be one of: none");
  expectIssue({"simulation.dt=0"}, "simulation.dt", "must be in [1e-06, 0.01] s");
  expectIssue({"simulation.mode=\"4d\""}, "simulation.mode", "must be one of: 3d, planar");
  expectIssue({"simulation.dt=0.01"}, "simulation.dt", "the tire stiffness of wheel 'wheel'");
}

TEST_CASE("placement on the terrain", "[scenario]") {
  expectIssue({"robot.pose.position=[0, 0, -0.05]"}, "robot.pose.position",
              "starts with its centre inside terrain piece 0");
  expectIssue({"robot.pose.position=[50, 0]"}, "robot.pose.position",
              "there is no terrain under the robot's wheels");
}

TEST_CASE("a body that starts inside the terrain is refused with its name and depth",
          "[scenario]") {
  // The planar vehicle placed on the ground over a 0.65 m block between its
  // axles: its body box starts 0.2 m inside (before this check the run blew
  // up at 1.2 ms).
  expectIssue({"robot.preset=\"planar-vehicle\"",
               "terrain.boxes[1]={\"centre\": [0, 0, 0.325], \"size\": [0.3, 4, 0.65]}"},
              "robot.pose.position", "body 'base' starts 0.2 m inside terrain piece 1");
  // The same over a heightmap with a 0.65 m ridge (x from −0.1 to 0.1 m): the
  // lattice of the box finds it as the pieces' manifold does.
  std::string rows;
  for (int j = 0; j < 41; ++j) {
    std::string row;
    for (int i = 0; i < 61; ++i)
      row += std::string(i ? "," : "") + (i >= 29 && i <= 31 ? "0.65" : "0");
    rows += std::string(j ? "," : "") + "[" + row + "]";
  }
  expectIssue(
      {"robot.preset=\"planar-vehicle\"", "terrain.boxes=[]",
       "terrain.heightmaps=[{\"origin\": [-3, -2], \"cell\": 0.1, \"heights\": [" + rows + "]}]"},
      "robot.pose.position", "body 'base' starts");
  // Resting on the ground is no start inside.
  CHECK(issuesWith({"robot.preset=\"planar-vehicle\""}).empty());
}

TEST_CASE("several problems are reported together", "[scenario]") {
  const std::vector<Issue> issues = issuesWith(
      {"robot.params.wheel_radius=-1", "terrain.boxes[0].color=\"red\"", "simulation.slip=\"x\""});
  CHECK(issues.size() == 3);
}

TEST_CASE("overrides: paths and values", "[scenario]") {
  const Expected<std::string> ok =
      applyOverrides(kValid, {"robot.params.wheel_radius=0.2", "terrain.boxes[0].size[2]=2"});
  REQUIRE(ok.ok());
  const Expected<Scenario> s = parseScenario(ok.value());
  REQUIRE(s.ok());
  CHECK(s.value().robot.params.at("wheel_radius") == 0.2);
  CHECK(s.value().terrain->pieces[0].shape.box.min.z() == Approx(-1.5));
  const Expected<std::string> bad = applyOverrides(kValid, {"novalue", "a..b=1", "x[1=2"});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.issues().size() == 3);
  CHECK(bad.issues()[0].message.find("must be PATH=VALUE") != std::string::npos);
}

TEST_CASE("every scenario in terrains/ is valid and builds", "[scenario]") {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::terrainsDir())) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    INFO(entry.path().filename().string());
    const Expected<Scenario> s = parseScenario(testing::readText(entry.path()));
    INFO(s.message());
    REQUIRE(s.ok());
    const Expected<Simulation> sim = makeSimulation(s.value());
    INFO(sim.message());
    CHECK(sim.ok());
  }
  CHECK(files >= 14);
}
