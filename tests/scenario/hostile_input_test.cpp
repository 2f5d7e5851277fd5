// Hostile input: documents that are not UTF-8, nested without end, full of
// duplicate keys, overflowing numbers or pieces, each refused with a precise
// {path, message} and without exceptions (docs/scenario-format.md, "Limits").
// How long each takes is measured by the fuzz harness, not here.
#include <catch2/catch.hpp>
#include <cmath>

#include "scenario/json_input.h"
#include "support/scenario_files.h"
#include "terrain/overlap.h"

using namespace roverlab;

namespace {

const std::string kHead =
    R"({"format": "roverlab-scenario", "version": 1, "robot": {"preset": "wheel-rig", "pose": {"position": [0, 0]}}, )";

std::string withTerrain(const std::string& terrain) {
  return kHead + R"("terrain": )" + terrain + "}";
}

const std::string kGround = R"({"centre": [0, 0, -0.5], "size": [20, 4, 1]})";

Issue firstIssue(const std::string& text) {
  const Expected<Scenario> s = parseScenario(text);
  REQUIRE_FALSE(s.ok());
  INFO(s.issues().front().path << ": " << s.issues().front().message);
  return s.issues().front();
}

}  // namespace

TEST_CASE("bytes that are not UTF-8 are refused with their offset", "[scenario][hostile]") {
  const std::string text = withTerrain("{\"boxes\": [" + kGround + "]}");
  std::string bad = text;
  bad.insert(bad.find("\"robot\""), "\"name\": \"\xFF\xFE\", ");
  const Issue i = firstIssue(bad);
  CHECK(i.message.rfind("not UTF-8: byte 0xFF at byte ", 0) == 0);
  CHECK(i.message.find("byte " + std::to_string(bad.find('\xFF'))) != std::string::npos);
  // A UTF-16 file (BOM FF FE) says so.
  CHECK(firstIssue(std::string("\xFF\xFE{\0", 4)).message.find("UTF-16") != std::string::npos);
  // Overlong forms, surrogates and code points past U+10FFFF are ill-formed;
  // real multi-byte text is fine.
  CHECK(invalidUtf8Offset("a\xC0\xAF") == 1);
  CHECK(invalidUtf8Offset("\xED\xA0\x80") == 0);
  CHECK(invalidUtf8Offset("\xF4\x90\x80\x80") == 0);
  CHECK(invalidUtf8Offset("Ωμ €𝄞") == std::string::npos);
  CHECK(invalidUtf8Offset("\xE2\x82") == 0);  // cut short
}

TEST_CASE("nesting deeper than the limit is refused without recursion", "[scenario][hostile]") {
  for (const auto& [open, close] :
       {std::pair<std::string, std::string>{"[", "]"}, {"{\"a\": ", "}"}}) {
    const std::string deep = kHead + "\"x\": " + testing::repeat(open, 100000) + "1" +
                             testing::repeat(close, 100000) + "}";
    const Issue i = firstIssue(deep);
    CHECK(i.message == "nested more than 64 levels deep");
    CHECK(i.path.rfind("x", 0) == 0);
    CHECK(i.path.size() < 200);
  }
  // 64 levels are allowed (an unknown field, so the reader says that instead).
  const std::string ok =
      kHead + "\"x\": " + testing::repeat("[", 63) + testing::repeat("]", 63) + "}";
  CHECK(firstIssue(ok).message.rfind("unknown field", 0) == 0);
}

TEST_CASE("duplicate keys, overflowing numbers and 64-bit versions are refused",
          "[scenario][hostile]") {
  const std::string ground = "{\"boxes\": [" + kGround + "]}";
  const Issue dup =
      firstIssue(kHead + R"("control": {"wheel_speed": "fast", "wheel_speed": 3}, "terrain": )" +
                 ground + "}");
  CHECK(dup.path == "control.wheel_speed");
  CHECK(dup.message.rfind("duplicate key", 0) == 0);
  const Issue overflow = firstIssue(withTerrain(R"({"base": 1e400, "boxes": [)" + kGround + "]}"));
  CHECK(overflow.path == "terrain.base");
  CHECK(overflow.message.find("number overflow") != std::string::npos);
  std::string v = withTerrain(ground);
  v.replace(v.find("\"version\": 1"), 12, "\"version\": 4294967297");
  const Issue version = firstIssue(v);
  CHECK(version.path == "version");
  CHECK(version.message.find("4294967297") != std::string::npos);
}

TEST_CASE("messages quote at most 80 characters of the user's text", "[scenario][hostile]") {
  const std::string colour(10'000'000, 'a');
  const Issue i = firstIssue(withTerrain(
      R"({"boxes": [{"centre": [0, 0, -0.5], "size": [20, 4, 1], "color": "#)" + colour + "\"}]}"));
  CHECK(i.path == "terrain.boxes[0].color");
  CHECK(i.message.size() < 200);
  CHECK(i.message.find("(10000001 bytes)") != std::string::npos);
  const Issue key = firstIssue(withTerrain("{\"" + std::string(5000, 'k') + "\": 1}"));
  CHECK(key.path.size() < 120);
  // Cut on a character boundary.
  CHECK(invalidUtf8Offset(clipped(testing::repeat("Ω", 200))) == std::string::npos);
}

TEST_CASE("documents beyond the size and value limits are refused", "[scenario][hostile]") {
  const std::string big(kMaxDocumentBytes + 1, ' ');
  CHECK(firstIssue(big).message.find("the limit is") != std::string::npos);
  const std::string many =
      kHead + "\"x\": [" + testing::repeat("0,", static_cast<int>(kMaxJsonValues)) + "0]}";
  CHECK(firstIssue(many).message.find("more than") != std::string::npos);
  std::string keys = kHead + "\"x\": {";
  for (int k = 0; k <= static_cast<int>(kMaxObjectKeys); ++k)
    keys += (k ? ", \"k" : "\"k") + std::to_string(k) + "\": 0";
  const Issue wide = firstIssue(keys + "}}");
  CHECK(wide.path == "x.k4096");
  CHECK(wide.message == "the object has more than 4096 keys");
}

TEST_CASE("--set paths are bounded by the arrays they address", "[scenario][hostile]") {
  const std::string text = withTerrain("{\"boxes\": [" + kGround + "]}");
  const Expected<std::string> huge = applyOverrides(text, {"terrain.boxes[999999999999]=1"});
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.issues()[0].message.find("up to 9 digits") != std::string::npos);
  const Expected<std::string> far = applyOverrides(text, {"terrain.boxes[99999999]=1"});
  REQUIRE_FALSE(far.ok());
  CHECK(far.issues()[0].path == "terrain.boxes[99999999]");
  CHECK(far.issues()[0].message.find("past the end of an array of 1") != std::string::npos);
  // An index just past the end appends.
  const Expected<std::string> append =
      applyOverrides(text, {R"(terrain.boxes[1]={"centre": [0, 0, 0.1], "size": [1, 1, 0.2]})"});
  REQUIRE(append.ok());
  CHECK(parseScenario(append.value()).value().terrain->pieces.size() == 2);
  // Values that must be JSON and are not, and bytes that are not UTF-8.
  const Expected<std::string> overflow = applyOverrides(text, {"control.wheel_speed=1e400"});
  REQUIRE_FALSE(overflow.ok());
  CHECK(overflow.issues()[0].message.find("number overflow") != std::string::npos);
  const Expected<std::string> bytes = applyOverrides(text, {"name=\xFF"});
  REQUIRE_FALSE(bytes.ok());
  CHECK(bytes.issues()[0].message.find("not UTF-8") != std::string::npos);
  // Without assignments the text is passed on as it is.
  CHECK(applyOverrides(text, {}).value() == text);
}

TEST_CASE("overlapping pieces are refused at the later one, abutting pieces are not",
          "[scenario][hostile]") {
  const std::string boxes =
      R"({"boxes": [)" + kGround + R"(, {"centre": [5, 0, 0.2], "size": [1, 1, 0.4]},
      {"centre": [5, 0, 0.2], "size": [1, 1, 0.4]}]})";
  const Issue i = firstIssue(withTerrain(boxes));
  CHECK(i.path == "terrain.boxes[2]");
  CHECK(i.message.rfind("overlaps terrain.boxes[1] by 400.0 mm", 0) == 0);
  // A box sunk 5 mm into the ground overlaps; one within 1 mm touches.
  CHECK(firstIssue(withTerrain(R"({"boxes": [)" + kGround +
                               R"(, {"centre": [5, 0, 0.195], "size": [1, 1, 0.4]}]})"))
            .message.find("by 5.0 mm") != std::string::npos);
  CHECK(parseScenario(withTerrain(R"({"boxes": [)" + kGround +
                                  R"(, {"centre": [5, 0, 0.1995], "size": [1, 1, 0.4]}]})"))
            .ok());
  // A rotated box whose corner reaches into its neighbour (edge against edge).
  const Issue corner = firstIssue(withTerrain(R"({"boxes": [)" + kGround +
                                              R"(, {"centre": [5, 0, 0.5], "size": [1, 1, 1]},
      {"centre": [5.75, 0, 0.5], "size": [1, 1, 1], "yaw": 0.7853981634}]})"));
  CHECK(corner.path == "terrain.boxes[2]");
}

TEST_CASE("overlap depth agrees with the separating distance", "[terrain][hostile]") {
  const Polytope a = makeBox(Vec3(0, 0, 0), Vec3(1, 1, 1), 0).value();
  for (double shift : {0.5, 0.9, 0.999, 1.0, 1.2}) {
    const Polytope b = makeBox(Vec3(shift, 0.1, 0), Vec3(1, 1, 1), 0).value();
    INFO("shift " << shift);
    CHECK(penetrationDepth(a, b, 10) == Approx(1 - shift).margin(1e-12));
  }
  // Two cubes turned 45° about z and x: their closest features are edges.
  const Polytope c = makeHull({{-0.5, 0, 0},
                               {0.5, 0, 0},
                               {0, -0.5, -0.5},
                               {0, 0.5, 0.5},
                               {0, 0.5, -0.5},
                               {0, -0.5, 0.5}})
                         .value();
  const Polytope d = makeBox(Vec3(0, 0, 1.2), Vec3(1, 1, 1), 0.3).value();
  CHECK(penetrationDepth(c, d, 10) < 0);
}

TEST_CASE("piece limits keep bombs cheap", "[scenario][hostile]") {
  // 15 000 identical boxes: refused at the limit, fast.
  std::string boxes = R"({"boxes": [)" + kGround;
  for (int k = 0; k < 15000; ++k) boxes += R"(, {"centre": [5, 0, 0.2], "size": [1, 1, 0.4]})";
  boxes += "]}";
  const Issue i = firstIssue(withTerrain(boxes));
  CHECK(i.path == "terrain.boxes[10000]");
  // 3 000 identical boxes are within the limit: each after the first is one
  // overlap, found in O(n log n); the answer is capped at 100 issues.
  boxes = R"({"boxes": [)" + kGround;
  for (int k = 0; k < 3000; ++k) boxes += R"(, {"centre": [5, 0, 0.2], "size": [1, 1, 0.4]})";
  boxes += "]}";
  const Expected<Scenario> many = parseScenario(withTerrain(boxes));
  REQUIRE_FALSE(many.ok());
  CHECK(many.issues().size() == 101);
  CHECK(many.issues().back().message == "and 2899 more issues");
  // Hull points in all.
  std::string hulls = R"({"boxes": [)" + kGround + R"(], "hulls": [)";
  for (int k = 0; k < 20; ++k) {
    hulls += std::string(k ? ", " : "") + R"({"points": [)";
    for (int p = 0; p < 128; ++p)
      hulls += std::string(p ? ", " : "") + "[" +
               std::to_string(3.0 * k + std::cos(p * 2.4) * (p % 7) / 7) + ", " +
               std::to_string(10 + std::sin(p * 2.4) * (p % 7) / 7) + ", " +
               std::to_string(p / 128.0) + "]";
    hulls += "]}";
  }
  hulls += "]}";
  const Issue h = firstIssue(withTerrain(hulls));
  CHECK(h.path == "terrain.hulls[16].points");
  CHECK(h.message.find("2048") != std::string::npos);
}

TEST_CASE("pieces whose bounds overlap pairwise beyond the limit are refused quickly",
          "[scenario][hostile]") {
  // 1 500 long slabs side by side at 45°: no two overlap, but every bounding
  // box overlaps every other (1.1 million pairs).
  std::string boxes = R"({"boxes": [)";
  for (int k = 0; k < 1500; ++k) {
    const double offset = 0.03 * k;  // along the slabs' normal (−sin 45°, cos 45°)
    boxes += std::string(k ? ", " : "") + R"({"centre": [)" +
             std::to_string(-offset * std::sqrt(0.5)) + ", " +
             std::to_string(offset * std::sqrt(0.5)) +
             R"(, -0.5], "size": [100, 0.02, 1], "yaw": 0.7853981634})";
  }
  boxes += "]}";
  const Issue i = firstIssue(withTerrain(boxes));
  CHECK(i.path == "terrain");
  CHECK(i.message.find("pairs of pieces have overlapping bounding boxes") != std::string::npos);
}
