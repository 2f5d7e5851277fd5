#include "scenario/scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "scenario/json_input.h"
#include "terrain/builders.h"
#include "terrain/overlap.h"

namespace roverlab {
namespace {

using json = nlohmann::json;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string typeName(const json& j) {
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  return "null";
}

// Reads fields of JSON objects, recording every problem with its path.
class Reader {
 public:
  std::vector<Issue> issues;

  void add(const std::string& path, const std::string& message) { issues.push_back({path, message}); }
  void addAll(const std::string& path, const std::vector<Issue>& more) {
    for (const Issue& i : prefixed(path, more)) issues.push_back(i);
  }

  static std::string at(const std::string& path, const std::string& key) {
    return path.empty() ? clipped(key) : path + "." + clipped(key);
  }
  static std::string at(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

  // Object check plus unknown-field detection (typos are errors, not silence).
  bool object(const json& j, const std::string& path, const std::set<std::string>& known) {
    if (!j.is_object()) {
      add(path, "must be an object, got " + typeName(j));
      return false;
    }
    for (const auto& [key, value] : j.items())
      if (!known.count(key)) add(at(path, key), "unknown field (expected one of: " + join({known.begin(), known.end()}) + ")");
    return true;
  }

  // A finite number in [min, max]; `fallback` when absent (or an issue if required).
  double number(const json& obj, const std::string& path, const std::string& key, double fallback, double min,
                double max, const std::string& unit, bool required = false) {
    const std::string p = at(path, key);
    if (!obj.contains(key)) {
      if (required) add(p, "is required (a number in " + unit + ")");
      return fallback;
    }
    return numberValue(obj[key], p, fallback, min, max, unit);
  }

  double numberValue(const json& j, const std::string& p, double fallback, double min, double max,
                     const std::string& unit) {
    if (!j.is_number()) {
      add(p, "must be a number (" + unit + "), got " + typeName(j));
      return fallback;
    }
    const double v = j.get<double>();
    if (!std::isfinite(v)) {
      add(p, "must be a finite number");
      return fallback;
    }
    if (v < min || v > max) {
      add(p, "must be in [" + num(min) + ", " + num(max) + "] " + unit + ", got " + num(v));
      return fallback;
    }
    return v;
  }

  std::optional<Vec3> vec3(const json& j, const std::string& p, int minSize = 3) {
    if (!j.is_array() || static_cast<int>(j.size()) < minSize || j.size() > 3) {
      add(p, minSize == 3 ? "must be [x, y, z] in m" : "must be [x, y] or [x, y, z] in m");
      return std::nullopt;
    }
    Vec3 v = Vec3::Zero();
    bool ok = true;
    for (size_t i = 0; i < j.size(); ++i) {
      const size_t before = issues.size();
      v[i] = numberValue(j[i], at(p, i), 0.0, -1e6, 1e6, "m");
      ok = ok && issues.size() == before;
    }
    if (!ok) return std::nullopt;
    return v;
  }

  std::string string(const json& obj, const std::string& path, const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& allowed = {}) {
    if (!obj.contains(key)) return fallback;
    const std::string p = at(path, key);
    if (!obj[key].is_string()) {
      add(p, "must be a string, got " + typeName(obj[key]));
      return fallback;
    }
    std::string v = obj[key].get<std::string>();
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
      add(p, "must be one of: " + join(allowed) + " (got '" + clipped(v) + "')");
      return fallback;
    }
    return v;
  }

  bool boolean(const json& obj, const std::string& path, const std::string& key, bool fallback) {
    if (!obj.contains(key)) return fallback;
    if (!obj[key].is_boolean()) {
      add(at(path, key), "must be true or false, got " + typeName(obj[key]));
      return fallback;
    }
    return obj[key].get<bool>();
  }

  const json* array(const json& obj, const std::string& path, const std::string& key) {
    if (!obj.contains(key)) return nullptr;
    if (!obj[key].is_array()) {
      add(at(path, key), "must be an array, got " + typeName(obj[key]));
      return nullptr;
    }
    return &obj[key];
  }
};

// Colour of a terrain piece: "#rrggbb" or the given default.
std::uint32_t colour(Reader& r, const json& obj, const std::string& path, std::uint32_t fallback) {
  const std::string s = r.string(obj, path, "color", "");
  if (s.empty()) return fallback;
  if (s.size() != 7 || s[0] != '#' || s.find_first_not_of("0123456789abcdefABCDEF", 1) != std::string::npos) {
    r.add(Reader::at(path, "color"), "must be a colour '#rrggbb', got '" + clipped(s) + "'");
    return fallback;
  }
  return static_cast<std::uint32_t>(std::stoul(s.substr(1), nullptr, 16));
}

/// Most hull points of a terrain in all: a 128-point hull takes ~15 ms to
/// build, so 16 of them stay within a quarter of a second (docs/scenario-format.md, "Limits").
constexpr int kMaxTotalHullPoints = 2048;

struct TerrainContext {
  TerrainBuilder builder;
  std::vector<std::string> piecePaths;  ///< per builder piece: the JSON path it came from
  int hullPoints = 0;                   ///< points of every hull read so far (reported once past the limit)
  bool full = false;                    ///< kMaxPieces reached: further pieces are not built
  std::map<std::string, int> materials;
  double base = -1.0;
  std::vector<Quad> rows[2];                     ///< left, right: the rows when they are valid
  std::vector<std::optional<Quad>> segments[2];  ///< each segment's quad, where it could be built
};

int materialOf(Reader& r, TerrainContext& t, const json& obj, const std::string& path) {
  const std::string name = r.string(obj, path, "material", "default");
  auto it = t.materials.find(name);
  if (it != t.materials.end()) return it->second;
  std::vector<std::string> known;
  for (const auto& [n, i] : t.materials) known.push_back(n);
  r.add(Reader::at(path, "material"), "unknown material '" + clipped(name) + "' (defined: " + clipped(join(known)) + ")");
  return 0;
}

void readMaterials(Reader& r, TerrainContext& t, const json& terrain) {
  const Material asphalt;
  bool haveDefault = false;
  if (terrain.contains("materials")) {
    const json& ms = terrain["materials"];
    const std::string path = "terrain.materials";
    if (!ms.is_object()) {
      r.add(path, "must be an object of named materials");
    } else {
      for (const auto& [name, m] : ms.items()) {
        const std::string p = Reader::at(path, name);
        if (!r.object(m, p, {"phi_max", "s0", "s1", "rolling"})) continue;
        Material mat;
        mat.phiMax = r.number(m, p, "phi_max", asphalt.phiMax, 0.0, 5.0, "-");
        mat.s0 = r.number(m, p, "s0", asphalt.s0, 1e-6, 100.0, "- (m/s for absolute slip)");
        mat.s1 = r.number(m, p, "s1", asphalt.s1, 1e-9, 100.0, "- (m/s for absolute slip)");
        mat.rolling = r.number(m, p, "rolling", asphalt.rolling, 0.0, 1.0, "-");
        t.materials[name] = t.builder.addMaterial(mat);
        haveDefault = haveDefault || name == "default";
      }
    }
  }
  if (!haveDefault) t.materials["default"] = t.builder.addMaterial(asphalt);
}

// False (with an issue, once) when the terrain already has kMaxPieces pieces.
bool roomFor(Reader& r, TerrainContext& t, const std::string& path, size_t more = 1) {
  if (t.builder.pieceCount() + more <= static_cast<size_t>(kMaxPieces)) return true;
  if (!t.full)
    r.add(path, "the terrain would have more than " + std::to_string(kMaxPieces) +
                    " pieces, the limit (docs/scenario-format.md, \"Limits\")");
  t.full = true;
  return false;
}

void addShape(Reader& r, TerrainContext& t, Expected<Polytope> shape, const std::string& path, int material,
              std::uint32_t color) {
  if (!shape) return r.addAll(path, shape.issues());
  if (!roomFor(r, t, path)) return;
  t.builder.addPiece(std::move(shape).value(), material, color);
  t.piecePaths.push_back(path);
}

// The builder's issues with `pieces[i]` turned into the JSON paths the pieces
// came from.
std::vector<Issue> terrainIssues(const std::vector<Issue>& issues, const std::vector<std::string>& paths) {
  const auto rename = [&](std::string text) {
    for (size_t at = text.find("pieces["); at != std::string::npos; at = text.find("pieces[", at + 1)) {
      const size_t close = text.find(']', at);
      if (close == std::string::npos) break;
      const size_t i = std::strtoul(text.c_str() + at + 7, nullptr, 10);
      if (i >= paths.size()) continue;
      text.replace(at, close + 1 - at, paths[i]);
      at += paths[i].size() - 1;
    }
    return text;
  };
  std::vector<Issue> out;
  for (const Issue& i : issues) {
    const bool piece = i.path.rfind("pieces[", 0) == 0;
    const std::string path = piece ? rename(i.path) : i.path == "pieces" ? "terrain" : Reader::at("terrain", i.path);
    out.push_back({path, rename(i.message)});
  }
  return out;
}

void readQuads(Reader& r, TerrainContext& t, const json& terrain) {
  if (!terrain.contains("quads")) return;
  const std::string path = "terrain.quads";
  const json& q = terrain["quads"];
  if (!r.object(q, path, {"left", "right", "material", "base"})) return;
  const int material = materialOf(r, t, q, path);
  const double base = r.number(q, path, "base", t.base, -1e4, 1e4, "m");
  for (int side = 0; side < 2; ++side) {
    const std::string key = side == 0 ? "left" : "right";
    const json* row = r.array(q, path, key);
    if (!row) continue;
    const std::string rowPath = Reader::at(path, key);
    if (!roomFor(r, t, rowPath, row->size())) continue;
    std::vector<QuadSegment> segments;
    bool ok = true;
    for (size_t i = 0; i < row->size(); ++i) {
      const std::string p = Reader::at(rowPath, i);
      const json& s = (*row)[i];
      if (!r.object(s, p, {"a", "b", "m"})) {
        ok = false;
        continue;
      }
      QuadSegment seg;
      for (const char* k : {"a", "b", "m"}) {
        if (!s.contains(k)) {
          r.add(Reader::at(p, k), "is required: a point [x, y, z] (m)");
          ok = false;
          continue;
        }
        const std::optional<Vec3> v = r.vec3(s[k], Reader::at(p, k));
        if (!v) ok = false;
        (k[0] == 'a' ? seg.a : k[0] == 'b' ? seg.b : seg.m) = v.value_or(Vec3::Zero());
      }
      segments.push_back(seg);
    }
    for (const QuadSegment& seg : segments) {
      Expected<Quad> one = makeQuad(seg);
      t.segments[side].push_back(one ? std::optional<Quad>(one.value()) : std::nullopt);
    }
    if (!ok || segments.empty()) continue;
    Expected<std::vector<Quad>> quads = makeQuadRow(segments);
    if (!quads) {
      r.addAll(rowPath, quads.issues());
      continue;
    }
    for (size_t i = 0; i < quads.value().size(); ++i) {
      Expected<Polytope> prism = quadPrism(quads.value()[i], base);
      if (!prism) {  // the base is the row's, at terrain.quads.base (or terrain.base)
        const std::string basePath = q.contains("base") ? Reader::at(path, "base") : "terrain.base";
        r.add(basePath, prism.issues().front().message + " (" + Reader::at(rowPath, i) + ")");
        continue;
      }
      addShape(r, t, std::move(prism), Reader::at(rowPath, i), material, quadColor(side, i));
    }
    t.rows[side] = quads.value();
  }
  // The rows lie side by side: a right quad over a left one would be ground
  // counted twice under a wheel. Pairs come from a sweep over the quads' plan
  // bounds (O(n log n) for rows along any direction).
  const size_t nl = t.rows[0].size(), nr = t.rows[1].size();
  if (nl == 0 || nr == 0) return;
  std::vector<Aabb> plan;
  for (int side = 0; side < 2; ++side)
    for (const Quad& quad : t.rows[side]) {
      Aabb b;
      for (const Vec3& c : quad.corners) b.grow(Vec3(c.x(), c.y(), 0.0));
      b.max.z() = 1.0;  // every quad spans the same z, so only x and y separate them
      plan.push_back(b);
    }
  std::vector<char> none(plan.size(), 0);
  std::vector<size_t> firstLeft(nr, nl);  // per right quad: the lowest left quad it overlaps
  const bool complete = sweepPairs(plan, 1e-6, kMaxBoundsPairs, none, [&](int i, int j) {
    if (static_cast<size_t>(i) >= nl || static_cast<size_t>(j) < nl) return;  // one of each row (i < j)
    const size_t right = j - nl;
    if (static_cast<size_t>(i) < firstLeft[right] && quadsOverlapInPlan(t.rows[1][right], t.rows[0][i], 1e-6))
      firstLeft[right] = i;
  });
  if (!complete) {
    r.add(path, "the rows' quads form more than " + std::to_string(kMaxBoundsPairs) +
                    " pairs with overlapping bounds, the limit (docs/scenario-format.md, \"Limits\")");
    return;
  }
  for (size_t j = 0; j < nr; ++j)
    if (firstLeft[j] < nl)
      r.add(Reader::at(Reader::at(path, "right"), j),
            "overlaps left-row segment " + std::to_string(firstLeft[j]) +
                " in plan view; the rows must lie side by side (they may share an edge)");
}

void readBlocks(Reader& r, TerrainContext& t, const json& terrain) {
  if (const json* boxes = r.array(terrain, "terrain", "boxes")) {
    for (size_t i = 0; i < boxes->size(); ++i) {
      const std::string p = Reader::at("terrain.boxes", i);
      const json& b = (*boxes)[i];
      if (!r.object(b, p, {"centre", "size", "yaw", "material", "color"})) continue;
      const size_t before = r.issues.size();
      const std::optional<Vec3> c = b.contains("centre") ? r.vec3(b["centre"], p + ".centre") : std::nullopt;
      const std::optional<Vec3> s = b.contains("size") ? r.vec3(b["size"], p + ".size") : std::nullopt;
      if (!b.contains("centre")) r.add(p + ".centre", "is required: [x, y, z] (m)");
      if (!b.contains("size")) r.add(p + ".size", "is required: [length, width, height] (m)");
      const double yaw = r.number(b, p, "yaw", 0.0, -10.0, 10.0, "rad");
      const int material = materialOf(r, t, b, p);
      const std::uint32_t color = colour(r, b, p, 0xb86b3c);
      if (r.issues.size() == before) addShape(r, t, makeBox(*c, *s, yaw), p, material, color);
    }
  }
  if (const json* wedges = r.array(terrain, "terrain", "wedges")) {
    for (size_t i = 0; i < wedges->size(); ++i) {
      const std::string p = Reader::at("terrain.wedges", i);
      const json& w = (*wedges)[i];
      if (!r.object(w, p, {"start", "length", "width", "height", "yaw", "material", "color"})) continue;
      const size_t before = r.issues.size();
      const std::optional<Vec3> start = w.contains("start") ? r.vec3(w["start"], p + ".start") : std::nullopt;
      if (!w.contains("start")) r.add(p + ".start", "is required: [x, y, z] (m), middle of the low edge");
      const double length = r.number(w, p, "length", 1, 1e-3, 1e4, "m", true);
      const double width = r.number(w, p, "width", 1, 1e-3, 1e4, "m", true);
      const double height = r.number(w, p, "height", 1, 1e-3, 1e4, "m", true);
      const double yaw = r.number(w, p, "yaw", 0.0, -10.0, 10.0, "rad");
      const int material = materialOf(r, t, w, p);
      const std::uint32_t color = colour(r, w, p, 0x6f9a58);
      if (r.issues.size() == before) addShape(r, t, makeWedge(*start, length, width, height, yaw), p, material, color);
    }
  }
  if (const json* hulls = r.array(terrain, "terrain", "hulls")) {
    for (size_t i = 0; i < hulls->size(); ++i) {
      const std::string p = Reader::at("terrain.hulls", i);
      const json& h = (*hulls)[i];
      if (!r.object(h, p, {"points", "material", "color"})) continue;
      const size_t before = r.issues.size();
      std::vector<Vec3> points;
      if (const json* pts = r.array(h, p, "points")) {
        t.hullPoints += static_cast<int>(std::min<size_t>(pts->size(), kMaxTotalHullPoints + 1));
        const bool tooMany = t.hullPoints > kMaxTotalHullPoints;
        if (pts->size() > static_cast<size_t>(kMaxHullPoints) || tooMany) {
          if (!tooMany || t.hullPoints - static_cast<int>(pts->size()) <= kMaxTotalHullPoints) r.add(p + ".points", pts->size() > static_cast<size_t>(kMaxHullPoints)
                                   ? "has " + std::to_string(pts->size()) + " points; a hull has at most " +
                                         std::to_string(kMaxHullPoints) + " (split the shape into several hulls)"
                                   : "the terrain's hulls would have more than " +
                                         std::to_string(kMaxTotalHullPoints) + " points in all, the limit");
          continue;
        }
        for (size_t k = 0; k < pts->size(); ++k)
          if (std::optional<Vec3> v = r.vec3((*pts)[k], Reader::at(p + ".points", k))) points.push_back(*v);
      } else if (!h.contains("points")) {
        r.add(p + ".points", "is required: at least 4 points [x, y, z] (m), not all in one plane");
      }
      const int material = materialOf(r, t, h, p);
      const std::uint32_t color = colour(r, h, p, 0x8f7a66);
      if (r.issues.size() == before) addShape(r, t, makeHull(points), p, material, color);
    }
  }
  if (const json* profiles = r.array(terrain, "terrain", "profiles")) {
    for (size_t i = 0; i < profiles->size(); ++i) {
      const std::string p = Reader::at("terrain.profiles", i);
      const json& pr = (*profiles)[i];
      if (!r.object(pr, p, {"points", "width", "base", "material", "color"})) continue;
      const size_t before = r.issues.size();
      std::vector<Vec2> points;
      if (const json* pts = r.array(pr, p, "points")) {
        if (!roomFor(r, t, p + ".points", pts->size() > 0 ? pts->size() - 1 : 0)) continue;
        for (size_t k = 0; k < pts->size(); ++k) {
          const std::string pk = Reader::at(p + ".points", k);
          const json& pt = (*pts)[k];
          if (!pt.is_array() || pt.size() != 2) {
            r.add(pk, "must be [x, z] (m)");
            continue;
          }
          points.emplace_back(r.numberValue(pt[0], pk + "[0]", 0, -1e6, 1e6, "m"),
                              r.numberValue(pt[1], pk + "[1]", 0, -1e6, 1e6, "m"));
        }
      } else if (!pr.contains("points")) {
        r.add(p + ".points", "is required: the ground polyline [[x, z], ...] (m)");
      }
      const double width = r.number(pr, p, "width", 4.0, 1e-3, 1e4, "m");
      const double base = r.number(pr, p, "base", t.base, -1e4, 1e4, "m");
      const int material = materialOf(r, t, pr, p);
      const std::uint32_t color = colour(r, pr, p, 0x6a8fb8);
      if (r.issues.size() != before) continue;
      Expected<std::vector<Polytope>> pieces = makeProfile(points, width, base);
      if (!pieces) {
        r.addAll(p, pieces.issues());
        continue;
      }
      if (!roomFor(r, t, p, pieces.value().size())) continue;
      int k = 0;
      for (Polytope& piece : pieces.value()) {
        t.builder.addPiece(std::move(piece), material, k++ % 2 ? (color & 0xf0f0f0) : color);
        t.piecePaths.push_back(p);
      }
    }
  }
}

void readTrack1(Reader& r, const json& doc, const std::vector<Quad>& leftRow, Scenario& s) {
  if (!doc.contains("track1")) {
    if (leftRow.size() >= 1) {
      Expected<std::vector<Track1Node>> nodes = makeTrack1(leftRow);
      if (nodes) s.track1 = nodes.value();
      else r.addAll("track1", nodes.issues());
    }
    return;
  }
  const json& tj = doc["track1"];
  if (!r.object(tj, "track1", {"lateral", "nodes"})) return;
  if (leftRow.empty()) {
    // A left row that is present but invalid has its own issues already.
    const bool rowGiven = doc.contains("terrain") && doc["terrain"].is_object() && doc["terrain"].contains("quads") &&
                          doc["terrain"]["quads"].is_object() && doc["terrain"]["quads"].contains("left");
    if (!rowGiven) r.add("track1", "needs terrain.quads.left: Track1 nodes lie on the left row's plane intersections");
    return;
  }
  const double lateral = r.number(tj, "track1", "lateral", 0.5, 0.0, 1.0, "-");
  Expected<std::vector<Track1Node>> nodes = makeTrack1(leftRow, lateral);
  if (!nodes) return r.addAll("track1", nodes.issues());
  s.track1 = nodes.value();
  const json* given = r.array(tj, "track1", "nodes");
  if (!given) return;
  if (given->size() != s.track1.size()) {
    r.add("track1.nodes", "has " + std::to_string(given->size()) + " nodes; the left row has " +
                              std::to_string(s.track1.size()) + " node lines");
    return;
  }
  for (size_t i = 0; i < given->size(); ++i) {
    const std::string p = Reader::at("track1.nodes", i);
    const std::optional<Vec3> v = r.vec3((*given)[i], p);
    if (!v) continue;
    Track1Node& node = s.track1[i];
    const Expected<double> along = track1Along(node, *v);
    if (!along) {
      r.addAll(p, along.issues());
      continue;
    }
    node.point = *v;  // as given: within 1e-6 m of its line, and what the user typed stays exact
  }
}

void readRobot(Reader& r, const json& doc, Scenario& s) {
  if (!doc.contains("robot")) return r.add("robot", "is required: {\"preset\": ...}");
  const json& rj = doc["robot"];
  if (!r.object(rj, "robot", {"preset", "params", "pose"})) return;
  s.robot.preset = r.string(rj, "robot", "preset", "", presetNames());
  if (!rj.contains("preset")) r.add("robot.preset", "is required (one of: " + join(presetNames()) + ")");
  if (rj.contains("params")) {
    const json& pj = rj["params"];
    if (!pj.is_object()) {
      r.add("robot.params", "must be an object of parameter values");
    } else {
      for (const auto& [name, v] : pj.items()) {
        const std::string p = Reader::at("robot.params", name);
        if (!v.is_number()) r.add(p, "must be a number, got " + typeName(v));
        else s.robot.params[name] = v.get<double>();
      }
    }
  }
  if (rj.contains("pose")) {
    const json& pj = rj["pose"];
    if (r.object(pj, "robot.pose", {"position", "yaw", "pitch", "roll"})) {
      if (pj.contains("position")) {
        if (std::optional<Vec3> v = r.vec3(pj["position"], "robot.pose.position", 2)) {
          s.robot.pose.position = *v;
          s.robot.placeOnGround = pj["position"].size() == 2;
        }
      }
      s.robot.pose.yaw = r.number(pj, "robot.pose", "yaw", 0.0, -10.0, 10.0, "rad");
      s.robot.pose.pitch = r.number(pj, "robot.pose", "pitch", 0.0, -M_PI, M_PI, "rad");
      s.robot.pose.roll = r.number(pj, "robot.pose", "roll", 0.0, -M_PI, M_PI, "rad");
    }
  }
}

std::map<std::string, double> readJoints(Reader& r, const json& obj, const std::string& path) {
  std::map<std::string, double> out;
  if (!obj.contains("joints")) return out;
  const json& j = obj["joints"];
  const std::string p = Reader::at(path, "joints");
  if (!j.is_object()) {
    r.add(p, "must be an object of joint targets (rad or m)");
    return out;
  }
  for (const auto& [name, v] : j.items()) out[name] = r.numberValue(v, Reader::at(p, name), 0.0, -1e3, 1e3, "rad or m");
  return out;
}

// Wheel speeds: "wheel_speed" sets both sides; "left_speed"/"right_speed" one side each.
void readSpeeds(Reader& r, const json& obj, const std::string& path, std::optional<double>& left,
                std::optional<double>& right) {
  if (obj.contains("wheel_speed")) left = right = r.number(obj, path, "wheel_speed", 0.0, -1e3, 1e3, "rad/s");
  if (obj.contains("left_speed")) left = r.number(obj, path, "left_speed", 0.0, -1e3, 1e3, "rad/s");
  if (obj.contains("right_speed")) right = r.number(obj, path, "right_speed", 0.0, -1e3, 1e3, "rad/s");
}

void readControl(Reader& r, const json& doc, Scenario& s) {
  if (!doc.contains("control")) return;
  const json& cj = doc["control"];
  if (!r.object(cj, "control", {"wheel_speed", "left_speed", "right_speed", "joints", "script", "controller"}))
    return;
  std::optional<double> left, right;
  readSpeeds(r, cj, "control", left, right);
  s.control.leftSpeed = left.value_or(0.0);
  s.control.rightSpeed = right.value_or(0.0);
  s.control.joints = readJoints(r, cj, "control");
  s.control.controller = r.string(cj, "control", "controller", "none", controllerNames());
  if (const json* script = r.array(cj, "control", "script")) {
    double last = -1;
    for (size_t i = 0; i < script->size(); ++i) {
      const std::string p = Reader::at("control.script", i);
      const json& e = (*script)[i];
      if (!r.object(e, p, {"t", "wheel_speed", "left_speed", "right_speed", "joints"})) continue;
      ScriptEntry entry;
      entry.time = r.number(e, p, "t", 0.0, 0.0, 1e6, "s", true);
      if (entry.time < last) r.add(p + ".t", "must not be earlier than the previous entry (" + num(last) + " s)");
      last = std::max(last, entry.time);
      readSpeeds(r, e, p, entry.leftSpeed, entry.rightSpeed);
      entry.joints = readJoints(r, e, p);
      s.control.script.push_back(entry);
    }
  }
}

void readSimulation(Reader& r, const json& doc, Scenario& s) {
  if (!doc.contains("simulation")) return;
  const json& sj = doc["simulation"];
  if (!r.object(sj, "simulation", {"dt", "duration", "mode", "slip", "integrator", "chassis_contact"})) return;
  SimulationSpec& sim = s.simulation;
  sim.dt = r.number(sj, "simulation", "dt", sim.dt, 1e-6, 0.01, "s");
  sim.duration = r.number(sj, "simulation", "duration", sim.duration, 0.0, 1e5, "s");
  sim.planar = r.string(sj, "simulation", "mode", "3d", {"3d", "planar"}) == "planar";
  sim.slip = r.string(sj, "simulation", "slip", "relative", {"relative", "absolute"}) == "absolute"
                 ? SlipDefinition::Absolute
                 : SlipDefinition::Relative;
  sim.integrator = r.string(sj, "simulation", "integrator", "semi-implicit", {"semi-implicit", "rk4"}) == "rk4"
                       ? Integrator::RungeKutta4
                       : Integrator::SemiImplicitEuler;
  sim.chassisContact = r.boolean(sj, "simulation", "chassis_contact", true);
}

// Checks that joint names in the control section exist on the robot.
void checkJointNames(Reader& r, const Scenario& s) {
  Expected<Robot> robot = buildRobot(s.robot.preset, s.robot.params, s.simulation.planar);
  if (!robot) return r.addAll("robot", robot.issues());
  std::vector<std::string> known;
  for (const auto& [name, i] : robot.value().joints) known.push_back(name);
  const std::string list = known.empty() ? "this preset has no joint drives" : "known: " + join(known);
  auto check = [&](const std::map<std::string, double>& joints, const std::string& path) {
    for (const auto& [name, v] : joints)
      if (!robot.value().joints.count(name)) r.add(Reader::at(path + ".joints", name), "unknown joint drive (" + list + ")");
  };
  check(s.control.joints, "control");
  for (size_t i = 0; i < s.control.script.size(); ++i) check(s.control.script[i].joints, Reader::at("control.script", i));
}

// One step of a --set path: an object key or an array index.
struct PathStep {
  bool isIndex = false;
  std::string key;
  std::size_t index = 0;
};

// Splits "a.b[2].c" into keys and indices.
std::optional<std::vector<PathStep>> splitPath(const std::string& path) {
  std::vector<PathStep> steps;
  std::string token;
  auto flush = [&]() {
    if (token.empty()) return false;
    steps.push_back({false, token, 0});
    token.clear();
    return true;
  };
  for (size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == '.') {
      if (!flush()) return std::nullopt;
    } else if (c == '[') {
      if (!token.empty()) flush();
      else if (steps.empty()) return std::nullopt;
      const size_t close = path.find(']', i);
      if (close == std::string::npos) return std::nullopt;
      const std::string index = path.substr(i + 1, close - i - 1);
      // Up to 9 digits: no array a scenario may hold comes near 10^9 elements.
      if (index.empty() || index.size() > 9 || index.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
      steps.push_back({true, "", static_cast<std::size_t>(std::stoul(index))});
      i = close;
      if (i + 1 < path.size() && path[i + 1] == '.') ++i;
    } else {
      token += c;
    }
  }
  if (!token.empty()) flush();
  if (steps.empty()) return std::nullopt;
  return steps;
}

// Sets the value at `steps` in `doc`, creating missing objects and arrays; an
// index may address an element or the one just past the end (appending).
std::optional<Issue> setAt(json& doc, const std::vector<PathStep>& steps, const std::string& path, json value) {
  json* node = &doc;
  for (const PathStep& step : steps) {
    if (step.isIndex) {
      if (node->is_null()) *node = json::array();
      if (!node->is_array()) return Issue{path, "cannot be set: [" + std::to_string(step.index) + "] indexes " + typeName(*node)};
      if (step.index > node->size())
        return Issue{path, "cannot be set: index " + std::to_string(step.index) + " is past the end of an array of " +
                               std::to_string(node->size()) + " (an index up to " + std::to_string(node->size()) +
                               " sets or appends)"};
      if (step.index == node->size()) node->push_back(nullptr);
      node = &(*node)[step.index];
    } else {
      if (node->is_null()) *node = json::object();
      if (!node->is_object())
        return Issue{path, "cannot be set: ." + clipped(step.key) + " names a field of " + typeName(*node)};
      node = &(*node)[step.key];
    }
  }
  *node = std::move(value);
  return std::nullopt;
}

void readTerrain(Reader& r, const json& doc, TerrainContext& t) {
  if (!doc.contains("terrain")) return r.add("terrain", "is required");
  if (!r.object(doc["terrain"], "terrain", {"materials", "base", "quads", "boxes", "wedges", "hulls", "profiles"}))
    return;
  const json& tj = doc["terrain"];
  t.base = r.number(tj, "terrain", "base", -1.0, -1e4, 1e4, "m");
  readMaterials(r, t, tj);
  readQuads(r, t, tj);
  readBlocks(r, t, tj);
  if (t.builder.pieceCount() == 0 && r.issues.empty()) r.add("terrain", "has no pieces");
}

// At most kMaxIssues issues, then one that counts the rest: a file of 3 000
// bad pieces gets a readable answer.
constexpr size_t kMaxIssues = 100;
std::vector<Issue> capped(std::vector<Issue> issues) {
  if (issues.size() <= kMaxIssues) return issues;
  const size_t more = issues.size() - kMaxIssues;
  issues.resize(kMaxIssues);
  issues.push_back({"", "and " + std::to_string(more) + " more issues"});
  return issues;
}

}  // namespace

TerrainInspection inspectTerrain(const std::string& text) {
  TerrainInspection out;
  Expected<json> parsed = readJson(text);
  if (!parsed) {
    out.issues = parsed.issues();
    return out;
  }
  const json& doc = parsed.value();
  if (!doc.is_object()) {
    out.issues.push_back({"", "must be a JSON object"});
    return out;
  }
  Reader r;
  TerrainContext t;
  readTerrain(r, doc, t);
  Scenario s;
  readTrack1(r, doc, t.rows[0], s);
  out.leftSegments = t.segments[0];
  out.rightSegments = t.segments[1];
  out.track1 = s.track1;
  out.issues = capped(r.issues);
  if (!out.issues.empty()) return out;
  Expected<Terrain> terrain = std::move(t.builder).build();
  if (!terrain) out.issues = capped(terrainIssues(terrain.issues(), t.piecePaths));
  else out.terrain = std::move(terrain).value();
  return out;
}

std::vector<std::string> controllerNames() { return {"none", "step-climb"}; }

Expected<Scenario> parseScenario(const std::string& text) {
  Expected<json> parsed = readJson(text);
  if (!parsed) return parsed.issues();
  const json& doc = parsed.value();
  Reader r;
  if (!r.object(doc, "", {"format", "version", "name", "description", "terrain", "track1", "robot", "control",
                          "simulation"}))
    return capped(r.issues);
  const std::string format = r.string(doc, "", "format", "");
  if (format != kScenarioFormat) r.add("format", std::string("must be \"") + kScenarioFormat + "\"");
  // Compared as the 64-bit integer it is: 2^32 + 1 is not 1.
  if (!doc.contains("version") || !doc["version"].is_number_integer() || doc["version"] != kScenarioVersion) {
    const std::string got = doc.contains("version") ? clipped(dumpJson(doc["version"])) : "nothing";
    r.add("version", "unsupported scenario version " + got + "; this build reads version " +
                         std::to_string(kScenarioVersion));
    return r.issues;  // the rest may mean something else in another version
  }
  Scenario s;
  s.name = r.string(doc, "", "name", "");
  s.description = r.string(doc, "", "description", "");

  TerrainContext t;
  readTerrain(r, doc, t);
  readTrack1(r, doc, t.rows[0], s);
  s.leftRow = t.rows[0];
  s.rightRow = t.rows[1];
  readRobot(r, doc, s);
  readControl(r, doc, s);
  readSimulation(r, doc, s);
  if (!s.robot.preset.empty()) checkJointNames(r, s);  // preset parameters too, alongside other issues
  if (!r.issues.empty()) return capped(r.issues);
  Expected<Terrain> terrain = std::move(t.builder).build();
  if (!terrain) return capped(terrainIssues(terrain.issues(), t.piecePaths));
  s.terrain = std::move(terrain).value();
  return s;
}

Expected<std::string> applyOverrides(const std::string& text, const std::vector<std::string>& assignments) {
  if (assignments.empty()) return text;  // read as it is: nothing re-serialized
  Expected<json> parsed = readJson(text);
  if (!parsed) return parsed.issues();
  json& doc = parsed.value();
  std::vector<Issue> issues;
  for (const std::string& a : assignments) {
    const std::string shown = "--set " + clipped(a);
    if (const size_t bad = invalidUtf8Offset(a); bad != std::string::npos) {
      issues.push_back({"--set", "not UTF-8 at byte " + std::to_string(bad) + " of the assignment"});
      continue;
    }
    const size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      issues.push_back({shown, "must be PATH=VALUE, e.g. robot.params.wheel_radius=0.2"});
      continue;
    }
    const std::string path = a.substr(0, eq), value = a.substr(eq + 1);
    const std::optional<std::vector<PathStep>> steps = splitPath(path);
    if (!steps) {
      issues.push_back({clipped(path), "is not a field path (use dots and [index] with up to 9 digits, e.g. terrain.boxes[0].size[2])"});
      continue;
    }
    // VALUE is JSON when it parses; text that cannot be anything but JSON
    // (an array, an object, a quoted string, a number) and does not parse is
    // an issue, anything else is a string.
    Expected<json> v = readJson(value);
    if (!v) {
      const size_t first = value.find_first_not_of(" \t");
      if (first != std::string::npos && std::string("[{\"-0123456789").find(value[first]) != std::string::npos) {
        issues.push_back({clipped(path), "the value: " + v.issues().front().message});
        continue;
      }
      v = json(value);
    }
    if (std::optional<Issue> problem = setAt(doc, *steps, clipped(path), std::move(v).value())) issues.push_back(*problem);
  }
  if (!issues.empty()) return issues;
  return dumpJson(doc, 2);
}

}  // namespace roverlab
