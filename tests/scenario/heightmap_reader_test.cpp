// terrain.heightmaps: inline heights, embedded PNG data URLs and PNG files
// (8- and 16-bit grey, small images in tests/data), every refusal at its path;
// and a robot driving on a heightmap in motion.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario/png_image.h"
#include "scenario/scenario.h"
#include "support/scenario_files.h"

using namespace roverlab;
using testing::dataFile;

namespace {

std::string base64(const std::string& bytes) {
  static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (unsigned char c : bytes) {
    bits = (bits << 8) | c, count += 8;
    while (count >= 6) out.push_back(abc[(bits >> (count -= 6)) & 63]);
  }
  if (count) out.push_back(abc[(bits << (6 - count)) & 63]);
  while (out.size() % 4) out.push_back('=');
  return out;
}

// A scenario whose terrain is one heightmap entry (JSON object text).
std::string withHeightmap(const std::string& entry) {
  return R"({"format": "roverlab-scenario", "version": 1,
  "terrain": {"heightmaps": [)" +
         entry + R"(]},
  "robot": {"preset": "wheel-rig", "pose": {"position": [0.5, 0.5]}}})";
}

// The first issue's path and whether its message contains `part`.
void expectIssue(const std::string& entry, const std::string& path, const std::string& part) {
  const Expected<Scenario> s = parseScenario(withHeightmap(entry), testing::kDataFiles);
  REQUIRE_FALSE(s.ok());
  INFO(s.message());
  CHECK(s.issues()[0].path == path);
  CHECK(s.issues()[0].message.find(part) != std::string::npos);
}

}  // namespace

TEST_CASE("inline heights make a heightfield: rows along +y, columns along +x",
          "[scenario][heightfield]") {
  const Expected<Scenario> s = parseScenario(withHeightmap(
      R"({"origin": [1, 2], "cell": [0.5, 0.25], "heights": [[0, 1, 2], [3, 4, 5]],
          "height_scale": 2, "height_offset": -1, "color": "#336699"})"));
  INFO(s.message());
  REQUIRE(s.ok());
  const Heightfield& f = s.value().terrain->heightfields.at(0);
  CHECK(f.nx == 3);
  CHECK(f.ny == 2);
  CHECK(f.sample(2, 1).isApprox(Vec3(2, 2.25, 9), 1e-12));  // 2·5 − 1
  CHECK(f.sample(0, 0).isApprox(Vec3(1, 2, -1), 1e-12));
  CHECK(f.base == Approx(-2));  // terrain.base −1 is not below −1: 1 m under the lowest
  CHECK(f.color == 0x336699u);
}

TEST_CASE("8- and 16-bit grey PNGs read as heights, the image's top row the field's +y edge",
          "[scenario][heightfield]") {
  const Expected<GreyImage> g8 = decodeGreyPng(dataFile("grey8.png"), 100);
  REQUIRE(g8.ok());
  CHECK(g8.value().bits == 8);
  CHECK(g8.value().width == 4);
  CHECK(g8.value().values[11] == 255);
  const Expected<GreyImage> g16 = decodeGreyPng(dataFile("grey16.png"), 100);
  REQUIRE(g16.ok());
  CHECK(g16.value().bits == 16);
  CHECK(g16.value().values[2] == 65535);
  CHECK(g16.value().values[3] == 30000);
  CHECK(decodeGreyPng(dataFile("colour.png"), 100).issues()[0].message.find("colour") !=
        std::string::npos);
  CHECK(decodeGreyPng(dataFile("grey8.png"), 11).issues()[0].message.find("pixels") !=
        std::string::npos);
  CHECK_FALSE(decodeGreyPng("not a png", 100).ok());

  const Expected<Scenario> embedded = parseScenario(
      withHeightmap(R"({"cell": 0.1, "height_scale": 0.01, "png": "data:image/png;base64,)" +
                    base64(dataFile("grey8.png")) + R"("})"));
  INFO(embedded.message());
  REQUIRE(embedded.ok());
  const Heightfield& f = embedded.value().terrain->heightfields.at(0);
  CHECK(f.nx == 4);
  CHECK(f.ny == 3);
  CHECK(f.height(3, 0) == Approx(2.55).epsilon(1e-6));  // the image's bottom-right pixel
  CHECK(f.height(1, 2) == Approx(0.01).epsilon(1e-6));  // its top row, second pixel

  const Expected<Scenario> file =
      parseScenario(withHeightmap(R"({"cell": 0.1, "height_scale": 1e-4, "file": "grey16.png"})"),
                    testing::kDataFiles);
  INFO(file.message());
  REQUIRE(file.ok());
  CHECK(file.value().terrain->heightfields.at(0).height(2, 1) == Approx(6.5535).epsilon(1e-6));
}

TEST_CASE("bad heightmaps are refused at their paths", "[scenario][heightfield]") {
  const std::string h = "terrain.heightmaps[0]";
  expectIssue(R"({"heights": [[0, 0], [0, 0]]})", h + ".cell", "required");
  expectIssue(R"({"cell": 0, "heights": [[0, 0], [0, 0]]})", h + ".cell", "must be in");
  expectIssue(R"({"cell": [1], "heights": [[0, 0], [0, 0]]})", h + ".cell", "[dx, dy]");
  expectIssue(R"({"cell": 1})", h, "needs its heights");
  expectIssue(R"({"cell": 1, "heights": [[0, 0], [0, 0]], "file": "x.png"})", h + ".heights",
              "several sources");
  expectIssue(R"({"cell": 1, "heights": [[0, 0], [0]]})", h + ".heights[1]", "as long as");
  expectIssue(R"({"cell": 1, "heights": [[0, 0], [0, "x"]]})", h + ".heights[1][1]",
              "finite height");
  expectIssue(R"({"cell": 1, "heights": [[0, 0]]})", h + ".heights", "at least 2 rows");
  expectIssue(R"({"cell": 1, "heights": [[0, 1e5], [0, 0]], "height_scale": 1000})",
              h + ".height_scale", "[-1e5, 1e5]");
  expectIssue(R"({"cell": 1, "heights": [[0, 0], [0, 0]], "base": 0})", h + ".base",
              "below the lowest");
  expectIssue(R"({"cell": 1, "heights": [[0, 0], [0, 0]], "material": "mud"})", h + ".material",
              "unknown material");
  expectIssue(R"({"cell": 1, "png": "data:image/jpeg;base64,AAAA"})", h + ".png", "PNG");
  expectIssue(R"({"cell": 1, "png": "data:image/png;base64,@@@@"})", h + ".png", "base64");
  expectIssue(R"({"cell": 1, "png": "data:image/png;base64,AAAA"})", h + ".png", "not a PNG");
  expectIssue(R"({"cell": 1, "file": "colour.png"})", h + ".file", "colour image");
  expectIssue(R"({"cell": 1, "file": "missing.png"})", h + ".file", "cannot read");
  expectIssue(R"({"cell": 1, "heights": [[0, 0], [0, 0]], "size": 3})", h + ".size",
              "unknown field");
  // Without a file reader (the app), files are refused with what to do instead.
  const Expected<Scenario> s = parseScenario(withHeightmap(R"({"cell": 1, "file": "grey8.png"})"));
  REQUIRE_FALSE(s.ok());
  CHECK(s.issues()[0].message.find("embed") != std::string::npos);
}

TEST_CASE("a rover drives on a rough heightmap: no NaN, no wheel through the ground",
          "[scenario][heightfield][motion]") {
  // 129 × 129 samples of 0.1 m, bumps of ±3 cm (a fixed pattern).
  std::string rows;
  for (int j = 0; j < 129; ++j) {
    rows += j ? ",[" : "[";
    for (int i = 0; i < 129; ++i)
      rows += (i ? "," : "") + std::to_string(0.03 * std::sin(1.7 * i) * std::cos(2.3 * j));
    rows += "]";
  }
  const std::string text = R"({"format": "roverlab-scenario", "version": 1,
    "terrain": {"heightmaps": [{"origin": [-2, -6.4], "cell": 0.1, "heights": [)" +
                           rows + R"(]}]},
    "robot": {"preset": "rocker8", "pose": {"position": [0, 0]}},
    "control": {"wheel_speed": 2},
    "simulation": {"duration": 4}})";
  roverlab::Simulation sim = testing::simulationFromText(text);
  testing::runUntil(sim, 4.0);
  CHECK(sim.state.bodies.q.allFinite());
  CHECK(sim.data.law.contacts > 0);
  CHECK(sim.data.law.frictionViolations == 0);
  CHECK(sim.data.law.centresInside == 0);
  // It drove forwards over the bumps.
  CHECK(worldPoint(sim.data.bodies, 0, Vec3::Zero()).x() > 1.0);
}
