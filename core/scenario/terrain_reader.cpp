#include "scenario/terrain_reader.h"

#include "terrain/overlap.h"

namespace roverlab {
namespace {

int materialOf(Reader& r, TerrainContext& t, const json& obj, const std::string& path) {
  const std::string name = r.string(obj, path, "material", "default");
  auto it = t.materials.find(name);
  if (it != t.materials.end()) return it->second;
  std::vector<std::string> known;
  for (const auto& [n, i] : t.materials) known.push_back(n);
  r.add(Reader::at(path, "material"),
        "unknown material '" + clipped(name) + "' (defined: " + clipped(join(known)) + ")");
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

void addShape(Reader& r, TerrainContext& t, Expected<Polytope> shape, const std::string& path,
              int material, std::uint32_t color) {
  if (!shape) return r.addAll(path, shape.issues());
  if (!roomFor(r, t, path)) return;
  t.builder.addPiece(std::move(shape).value(), material, color);
  t.piecePaths.push_back(path);
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
    if (static_cast<size_t>(i) >= nl || static_cast<size_t>(j) < nl)
      return;  // one of each row (i < j)
    const size_t right = j - nl;
    if (static_cast<size_t>(i) < firstLeft[right] &&
        quadsOverlapInPlan(t.rows[1][right], t.rows[0][i], 1e-6))
      firstLeft[right] = i;
  });
  if (!complete) {
    r.add(path,
          "the rows' quads form more than " + std::to_string(kMaxBoundsPairs) +
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
      const std::optional<Vec3> c =
          b.contains("centre") ? r.vec3(b["centre"], p + ".centre") : std::nullopt;
      const std::optional<Vec3> s =
          b.contains("size") ? r.vec3(b["size"], p + ".size") : std::nullopt;
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
      if (!r.object(w, p, {"start", "length", "width", "height", "yaw", "material", "color"}))
        continue;
      const size_t before = r.issues.size();
      const std::optional<Vec3> start =
          w.contains("start") ? r.vec3(w["start"], p + ".start") : std::nullopt;
      if (!w.contains("start"))
        r.add(p + ".start", "is required: [x, y, z] (m), middle of the low edge");
      const double length = r.number(w, p, "length", 1, 1e-3, 1e4, "m", true);
      const double width = r.number(w, p, "width", 1, 1e-3, 1e4, "m", true);
      const double height = r.number(w, p, "height", 1, 1e-3, 1e4, "m", true);
      const double yaw = r.number(w, p, "yaw", 0.0, -10.0, 10.0, "rad");
      const int material = materialOf(r, t, w, p);
      const std::uint32_t color = colour(r, w, p, 0x6f9a58);
      if (r.issues.size() == before)
        addShape(r, t, makeWedge(*start, length, width, height, yaw), p, material, color);
    }
  }
  if (const json* hulls = r.array(terrain, "terrain", "hulls")) {
    // The points of all hulls counted first: past the limit no hull is built.
    size_t total = 0;
    for (size_t i = 0; i < hulls->size(); ++i) {
      const json& h = (*hulls)[i];
      if (h.is_object() && h.contains("points") && h["points"].is_array())
        total += h["points"].size();
      if (total > static_cast<size_t>(kMaxTotalHullPoints)) {
        r.add(Reader::at("terrain.hulls", i) + ".points",
              "the terrain's hulls would have more than " + std::to_string(kMaxTotalHullPoints) +
                  " points in all, the limit (docs/scenario-format.md, \"Limits\")");
        break;
      }
    }
    for (size_t i = 0; total <= static_cast<size_t>(kMaxTotalHullPoints) && i < hulls->size();
         ++i) {
      const std::string p = Reader::at("terrain.hulls", i);
      const json& h = (*hulls)[i];
      if (!r.object(h, p, {"points", "material", "color"})) continue;
      const size_t before = r.issues.size();
      std::vector<Vec3> points;
      if (const json* pts = r.array(h, p, "points")) {
        if (pts->size() > static_cast<size_t>(kMaxHullPoints)) {
          r.add(p + ".points", "has " + std::to_string(pts->size()) +
                                   " points; a hull has at most " + std::to_string(kMaxHullPoints) +
                                   " (split the shape into several hulls)");
          continue;
        }
        for (size_t k = 0; k < pts->size(); ++k)
          if (std::optional<Vec3> v = r.vec3((*pts)[k], Reader::at(p + ".points", k)))
            points.push_back(*v);
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

}  // namespace

void readTerrain(Reader& r, const json& doc, TerrainContext& t) {
  if (!doc.contains("terrain")) return r.add("terrain", "is required");
  if (!r.object(doc["terrain"], "terrain",
                {"materials", "base", "quads", "boxes", "wedges", "hulls", "profiles"}))
    return;
  const json& tj = doc["terrain"];
  t.base = r.number(tj, "terrain", "base", -1.0, -1e4, 1e4, "m");
  readMaterials(r, t, tj);
  readQuads(r, t, tj);
  readBlocks(r, t, tj);
  if (t.builder.pieceCount() == 0 && r.issues.empty()) r.add("terrain", "has no pieces");
}

std::vector<Issue> terrainIssues(const std::vector<Issue>& issues,
                                 const std::vector<std::string>& paths) {
  const auto rename = [&](std::string text) {
    for (size_t at = text.find("pieces["); at != std::string::npos;
         at = text.find("pieces[", at + 1)) {
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
    const std::string path = piece                ? rename(i.path)
                             : i.path == "pieces" ? "terrain"
                                                  : Reader::at("terrain", i.path);
    out.push_back({path, rename(i.message)});
  }
  return out;
}

}  // namespace roverlab
