// terrain.meshes: OBJ text embedded or in a file (small files in tests/data),
// placed by scale, yaw, offset and "up"; every refusal at its path; and a
// robot driving on a mesh in motion.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario/obj_text.h"
#include "scenario/scenario.h"
#include "support/scenario_files.h"

using namespace roverlab;
using testing::dataFile;

namespace {

// A scenario whose terrain is one mesh entry (JSON object text).
std::string withMesh(const std::string& entry) {
  return R"({"format": "roverlab-scenario", "version": 1,
  "terrain": {"meshes": [)" +
         entry + R"(]},
  "robot": {"preset": "wheel-rig", "pose": {"position": [0.5, 0.5]}}})";
}

Scenario parsed(const std::string& entry) {
  const Expected<Scenario> s = parseScenario(withMesh(entry), testing::kDataFiles);
  INFO(s.message());
  REQUIRE(s.ok());
  return s.value();
}

// The first issue's path and whether its message contains `part`.
void expectIssue(const std::string& entry, const std::string& path, const std::string& part) {
  const Expected<Scenario> s = parseScenario(withMesh(entry), testing::kDataFiles);
  REQUIRE_FALSE(s.ok());
  INFO(s.message());
  CHECK(s.issues()[0].path == path);
  CHECK(s.issues()[0].message.find(part) != std::string::npos);
}

const char* kSquare = R"("v 0 0 0\nv 1 0 0\nv 1 1 0.5\nv 0 1 0.5\nf 1 2 3 4\n")";

}  // namespace

TEST_CASE("OBJ text: faces fanned into triangles, other records ignored", "[scenario][mesh]") {
  const Expected<ObjMesh> m = parseObj(dataFile("steps.obj"), 100);
  REQUIRE(m.ok());
  CHECK(m.value().vertices.size() == 8);
  CHECK(m.value().triangles.size() == 4);
  CHECK(m.value().triangles[1] == std::array<int, 3>{0, 2, 3});
  CHECK(parseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", 100).issues()[0].message ==
        "face 0 (line 4) names vertex 4; the file has 3 vertices (numbered from 1)");
  // A vertex number beyond 32 bits is named as written (the reader's own
  // indices would wrap it to another number), relative ones too.
  CHECK(parseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 99999999999\n", 100)
            .issues()[0]
            .message ==
        "face 1 (line 5) names vertex 99999999999; the file has 3 vertices "
        "(numbered from 1)");
  CHECK(parseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2/1/1 -4294967299/2\n", 100)
            .issues()[0]
            .message.find("face 0 (line 4) names vertex -4294967299;") == 0);
  CHECK(parseObj("v 0 0 0\n", 100).issues()[0].message.find("has no faces") == 0);
  CHECK(parseObj(dataFile("steps.obj"), 3).issues()[0].message.find("more than 3 triangles") !=
        std::string::npos);
}

TEST_CASE("OBJ corners in every form, relative numbers, comments; bad faces refused at their line",
          "[scenario][mesh]") {
  // v, v/vt, v//vn and v/vt/vn; −1 is the last vertex written before the face;
  // texture coordinates, normals, groups and comments are passed over.
  const Expected<ObjMesh> m = parseObj(
      "# two triangles\nv 0 0 0\nv 1 0 0\nvt 0 0\nvn 0 0 1\nv 1 1 0\ng top\n"
      "f 1/1 2//1 3/1/1 # first\nv 0 1 0\nf -4 -2 -1\n",
      100);
  INFO(m.message());
  REQUIRE(m.ok());
  CHECK(m.value().vertices.size() == 4);
  REQUIRE(m.value().triangles.size() == 2);
  CHECK(m.value().triangles[0] == std::array<int, 3>{0, 1, 2});
  CHECK(m.value().triangles[1] == std::array<int, 3>{0, 2, 3});
  const auto message = [](const std::string& obj) {
    return parseObj(obj, 100).issues()[0].message;
  };
  const std::string three = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  CHECK(message(three + "f 1 0 2\n") ==
        "face 0 (line 4) names vertex 0; the file has 3 vertices (numbered from 1)");
  // Relative numbers count the vertices written before the face only.
  CHECK(message("v 0 0 0\nf -1 -2 3\nv 1 0 0\nv 0 1 0\n") ==
        "face 0 (line 2) names vertex -2; the file has 3 vertices (numbered from 1)");
  CHECK(message(three + "f 1 x/2 3\n") ==
        "is not a readable OBJ mesh: line 4: face corner \"x/2\" does not start with a vertex "
        "number");
  CHECK(message(three + "f 1 2\n") == "face 0 (line 4) has 2 corners (a face may have 3 to 255)");
  std::string wide = three + "f";
  for (int k = 0; k < 256; ++k) wide += " " + std::to_string(1 + k % 3);
  CHECK(message(wide + "\n") ==
        "face 0 (line 4) has more than 255 corners (a face may have 3 to 255)");
}

TEST_CASE("OBJ numbers are rounded correctly, as the same decimal in C++", "[scenario][mesh]") {
  // Numbers a table of powers of ten (times the digits read as an integer)
  // can round the other way: the reader must give the double nearest each.
  const Expected<ObjMesh> m = parseObj(
      "v 0.3 1.44 -0.0005\nv 123456.789e-3 9007199254740993 2.2250738585072014e-308\n"
      "v 0.1234567891234567 7.0000000000000001 1e-7\nf 1 2 3\n",
      100);
  REQUIRE(m.ok());
  const std::vector<Vec3>& v = m.value().vertices;
  CHECK(v[0] == Vec3(0.3, 1.44, -0.0005));
  CHECK(v[1] == Vec3(123456.789e-3, 9007199254740993.0, 2.2250738585072014e-308));
  CHECK(v[2] == Vec3(0.1234567891234567, 7.0000000000000001, 1e-7));
}

TEST_CASE("an embedded mesh is placed by scale, yaw and offset", "[scenario][mesh]") {
  const Scenario s = parsed(std::string(R"({"obj": )") + kSquare +
                            R"(, "scale": 2, "yaw": 1.5707963267948966, "offset": [1, 2, 0.25]})");
  REQUIRE(s.terrain->meshes.size() == 1);
  const TriMesh& m = s.terrain->meshes[0];
  CHECK(m.triangleCount() == 2);
  CHECK(m.wallCount() == 4);
  // (1, 0, 0) scaled to (2, 0, 0), turned to (0, 2, 0), moved to (1, 4, 0.25).
  double z;
  Vec3 n;
  REQUIRE(m.surfaceAt(0.0, 3.0, z, n));  // file point (0.5, 0.5): height 0.25·2 + 0.25
  CHECK(z == Approx(0.75));
  CHECK(m.box.min.x() == Approx(-1.0));
  CHECK(m.box.max.y() == Approx(4.0));
  // The default base: 1 m under the lowest vertex (or terrain.base, if lower).
  CHECK(m.base == Approx(-1.0));
}

TEST_CASE("a y-up OBJ file beside the scenario", "[scenario][mesh]") {
  const Scenario s = parsed(R"({"file": "steps.obj", "up": "y"})");
  const TriMesh& m = s.terrain->meshes[0];
  CHECK(m.triangleCount() == 4);
  double z;
  Vec3 n;
  // File y is height; file z = −1 is ground y = 1.
  REQUIRE(m.surfaceAt(1.5, 0.5, z, n));
  CHECK(z == Approx(0.1));
  REQUIRE(m.surfaceAt(0.5, 0.5, z, n));
  CHECK(z == Approx(0.0));
  // The step between the two quads is a wall on each side of x = 1.
  CHECK(m.wallCount() == 8);
}

TEST_CASE("bad meshes are refused at their paths", "[scenario][mesh]") {
  expectIssue(R"({})", "terrain.meshes[0]", "needs its surface");
  expectIssue(std::string(R"({"obj": )") + kSquare + R"(, "file": "steps.obj"})",
              "terrain.meshes[0].obj", "one of two sources");
  expectIssue(R"({"obj": 5})", "terrain.meshes[0].obj", "must be a string");
  expectIssue(R"({"obj": "v 0 0 0\nf 1 2 3\n"})", "terrain.meshes[0].obj", "names vertex");
  expectIssue(R"({"file": "missing.obj"})", "terrain.meshes[0].file", "cannot read");
  expectIssue(R"({"file": "folded.obj"})", "terrain.meshes[0].file",
              "triangle 2 overlaps triangle 0");
  expectIssue(std::string(R"({"obj": )") + kSquare + R"(, "scale": 0})", "terrain.meshes[0].scale",
              "must be in");
  expectIssue(std::string(R"({"obj": )") + kSquare + R"(, "up": "x"})", "terrain.meshes[0].up",
              "must be one of");
  expectIssue(std::string(R"({"obj": )") + kSquare + R"(, "base": 0.1})", "terrain.meshes[0].base",
              "below the lowest vertex");
  expectIssue(std::string(R"({"obj": )") + kSquare + R"(, "material": "lava"})",
              "terrain.meshes[0].material", "");
  expectIssue(R"({"obj": "v 0 0 1e6\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"})", "terrain.meshes[0].obj",
              "vertex 0");
  expectIssue(R"({"obj": "v 0 0 1e400\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"})", "terrain.meshes[0].obj",
              "line 1: vertex coordinate z");
  expectIssue(std::string(R"({"obj": )") + kSquare + R"(, "colour": "red"})",
              "terrain.meshes[0].colour", "unknown field");
  // The app has no files.
  const Expected<Scenario> app = parseScenario(withMesh(R"({"file": "steps.obj"})"), nullptr);
  REQUIRE_FALSE(app.ok());
  CHECK(app.issues()[0].message.find("only the command-line tool") != std::string::npos);
}

TEST_CASE("a rover drives on a rough mesh: no NaN, no wheel through the ground",
          "[scenario][mesh][motion]") {
  // 64 × 64 cells of 0.1 m, bumps of ±3 cm, diagonals alternating.
  std::string obj;
  const int n = 64;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      obj += "v " + std::to_string(-2 + 0.1 * i) + " " + std::to_string(-3.2 + 0.1 * j) + " " +
             std::to_string(0.03 * std::sin(1.7 * i) * std::cos(2.3 * j)) + "\\n";
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int a = j * (n + 1) + i + 1, b = a + 1, c = a + n + 2, d = a + n + 1;
      if ((i + j) % 2)
        obj += "f " + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(c) + " " +
               std::to_string(d) + "\\n";
      else
        obj += "f " + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(d) +
               "\\nf " + std::to_string(b) + " " + std::to_string(c) + " " + std::to_string(d) +
               "\\n";
    }
  const std::string text = R"({"format": "roverlab-scenario", "version": 1,
    "terrain": {"meshes": [{"obj": ")" +
                           obj + R"("}]},
    "robot": {"preset": "rocker8", "pose": {"position": [0, 0]}},
    "control": {"wheel_speed": 2},
    "simulation": {"duration": 4}})";
  roverlab::Simulation sim = testing::simulationFromText(text);
  testing::runUntil(sim, 4.0);
  CHECK(sim.state.bodies.q.allFinite());
  CHECK(sim.data.law.contacts > 0);
  CHECK(sim.data.law.frictionViolations == 0);
  CHECK(sim.data.law.centresInside == 0);
  CHECK(worldPoint(sim.data.bodies, 0, Vec3::Zero()).x() > 1.0);
}

TEST_CASE("an OBJ vertex whose coordinate is not a finite number is refused at its line",
          "[scenario][mesh]") {
  for (const char* coordinate : {"nan", "inf", "1e999", "0x", "abc"}) {
    const std::string obj = std::string("v 0 0 0\nv 1 0 0\nv 0 1 ") + coordinate + "\nf 1 2 3\n";
    const Expected<ObjMesh> m = parseObj(obj, 100);
    INFO(coordinate);
    REQUIRE(!m.ok());
    CHECK(m.issues()[0].message ==
          std::string("is not a readable OBJ mesh: line 3: vertex coordinate z \"") + coordinate +
              "\" is not a finite number");
  }
  const Expected<ObjMesh> missing = parseObj("v 0 0\nf 1 1 1\n", 100);
  REQUIRE(!missing.ok());
  CHECK(missing.issues()[0].message ==
        "is not a readable OBJ mesh: line 1: vertex coordinate z is missing");
  // Vertex colours after x y z, and tabs and CRLF line ends, are fine.
  CHECK(parseObj("v\t0 0 0 1 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n", 100).ok());
}
