#include "scenario/terrain_reader.h"

#include "common/size_optimized.h"
#include "terrain/overlap.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

// The bottom of the prisms (m): terrain.base, or a quad row's or a profile's
// own, `fallback` when absent.
NumberSpec baseSpec(double fallback) { return within(-1e4, 1e4, "m", fallback); }

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
  NumberSpec phiMax = within(0.0, 5.0, "-", asphalt.phiMax);
  NumberSpec s0 = within(1e-6, 100.0, "- (m/s for absolute slip)", asphalt.s0);
  NumberSpec s1 = s0;
  s1.min = 1e-9;
  s1.fallback = asphalt.s1;
  NumberSpec rolling = within(0.0, 1.0, "-", asphalt.rolling);
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
        mat.phiMax = r.number(m, p, "phi_max", phiMax);
        mat.s0 = r.number(m, p, "s0", s0);
        mat.s1 = r.number(m, p, "s1", s1);
        mat.rolling = r.number(m, p, "rolling", rolling);
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

// Adds the pieces of one terrain entry, all at its path; every other piece
// of a split shape gets a darker shade of its colour.
void addShapes(Reader& r, TerrainContext& t, Expected<std::vector<Polytope>> shapes,
               const std::string& path, int material, std::uint32_t color) {
  if (!shapes) return r.addAll(path, shapes.issues());
  if (!roomFor(r, t, path, shapes.value().size())) return;
  int k = 0;
  for (Polytope& shape : shapes.value()) {
    t.builder.addPiece(std::move(shape), material, k++ % 2 ? (color & 0xf0f0f0) : color);
    t.piecePaths.push_back(path);
  }
}

void readQuads(Reader& r, TerrainContext& t, const json& terrain) {
  if (!terrain.contains("quads")) return;
  const std::string path = "terrain.quads";
  const json& q = terrain["quads"];
  if (!r.object(q, path, {"left", "right", "material", "base"})) return;
  const int material = materialOf(r, t, q, path);
  const double base = r.number(q, path, "base", baseSpec(t.base));
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
      addShapes(r, t, std::vector<Polytope>{std::move(prism).value()}, Reader::at(rowPath, i),
                material, quadColor(side, i));
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

// ------------------------------------------------------------ piece kinds
//
// Boxes, wedges, hulls and profiles are read by one reader from a table of
// piece kinds: each kind's key under `terrain`, its fields in reading order
// (then "material" and "color", which every kind has), its default colour
// and the builder of its shape.

/// The values of one entry's fields, by key.
struct PieceValues {
  std::map<std::string, Vec3> points;     ///< Point fields
  std::map<std::string, double> numbers;  ///< Number fields
  std::vector<Vec3> hull;                 ///< a PointList3 field
  std::vector<Vec2> profile;              ///< a PointList2 field
};

struct PieceField {
  enum Kind {
    Point,       ///< [x, y, z] (m)
    Number,      ///< a number as its NumberSpec allows
    PointList3,  ///< hull points [[x, y, z], ...], at most kMaxHullPoints
    PointList2,  ///< a profile polyline [[x, z], ...], a piece per segment
  };
  const char* key;
  Kind kind;
  const char* required = nullptr;  ///< Point and lists: the message when it is missing
  NumberSpec number = {};          ///< Number: what it may hold
  bool terrainBase = false;        ///< Number: falls back to terrain.base
};

using Shapes = Expected<std::vector<Polytope>>;

Shapes one(Expected<Polytope> shape) {
  if (!shape) return shape.issues();
  return std::vector<Polytope>{std::move(shape).value()};
}

struct PieceKind {
  const char* key;  ///< under `terrain`
  std::vector<PieceField> fields;
  std::uint32_t color;
  Shapes (*build)(const PieceValues& v);
  /// Checks the whole list first; false: no entry of it is read.
  bool (*checkList)(Reader& r, const json& list, const std::string& path) = nullptr;
};

// The points of all hulls counted first: past the limit no hull is built.
bool hullPointsWithinLimit(Reader& r, const json& hulls, const std::string& path) {
  size_t total = 0;
  for (size_t i = 0; i < hulls.size(); ++i) {
    const json& h = hulls[i];
    if (h.is_object() && h.contains("points") && h["points"].is_array())
      total += h["points"].size();
    if (total > static_cast<size_t>(kMaxTotalHullPoints)) {
      r.add(Reader::at(path, i) + ".points",
            "the terrain's hulls would have more than " + std::to_string(kMaxTotalHullPoints) +
                " points in all, the limit (docs/scenario-format.md, \"Limits\")");
      return false;
    }
  }
  return true;
}

std::vector<PieceKind> makePieceKinds() {
  using F = PieceField;
  NumberSpec yaw = within(-10.0, 10.0, "rad");
  NumberSpec side = within(1e-3, 1e4, "m", 1);  // a wedge's length, width and height
  side.required = true;
  NumberSpec width = side;  // a profile's
  width.fallback = 4.0;
  width.required = false;
  return {
      {"boxes",
       {{"centre", F::Point, "is required: [x, y, z] (m)"},
        {"size", F::Point, "is required: [length, width, height] (m)"},
        {"yaw", F::Number, nullptr, yaw}},
       0xb86b3c,
       [](const PieceValues& v) {
         return one(makeBox(v.points.at("centre"), v.points.at("size"), v.numbers.at("yaw")));
       }},
      {"wedges",
       {{"start", F::Point, "is required: [x, y, z] (m), middle of the low edge"},
        {"length", F::Number, nullptr, side},
        {"width", F::Number, nullptr, side},
        {"height", F::Number, nullptr, side},
        {"yaw", F::Number, nullptr, yaw}},
       0x6f9a58,
       [](const PieceValues& v) {
         const auto& n = v.numbers;
         return one(makeWedge(v.points.at("start"), n.at("length"), n.at("width"), n.at("height"),
                              n.at("yaw")));
       }},
      {"hulls",
       {{"points", F::PointList3,
         "is required: at least 4 points [x, y, z] (m), not all in one plane"}},
       0x8f7a66,
       [](const PieceValues& v) { return one(makeHull(v.hull)); },
       hullPointsWithinLimit},
      {"profiles",
       {{"points", F::PointList2, "is required: the ground polyline [[x, z], ...] (m)"},
        {"width", F::Number, nullptr, width},
        {"base", F::Number, nullptr, baseSpec(0.0), true}},
       0x6a8fb8,
       [](const PieceValues& v) {
         return makeProfile(v.profile, v.numbers.at("width"), v.numbers.at("base"));
       }},
  };
}

const std::vector<PieceKind>& pieceKinds() {
  static const std::vector<PieceKind> kinds = makePieceKinds();
  return kinds;
}

// Reads a list field present in `obj` (an issue if it is not an array);
// false when the entry must be skipped (too many points).
bool readPointList(Reader& r, TerrainContext& t, const json& obj, const std::string& p,
                   const PieceField& f, PieceValues& v) {
  const json* pts = r.array(obj, p, f.key);
  if (!pts) return true;
  const std::string path = Reader::at(p, f.key);
  if (f.kind == PieceField::PointList3) {
    if (pts->size() > static_cast<size_t>(kMaxHullPoints)) {
      r.add(path, "has " + std::to_string(pts->size()) + " points; a hull has at most " +
                      std::to_string(kMaxHullPoints) + " (split the shape into several hulls)");
      return false;
    }
    for (size_t k = 0; k < pts->size(); ++k)
      if (std::optional<Vec3> point = r.vec3((*pts)[k], Reader::at(path, k)))
        v.hull.push_back(*point);
    return true;
  }
  if (!roomFor(r, t, path, pts->size() > 0 ? pts->size() - 1 : 0)) return false;
  const NumberSpec coordinate = coordinateSpec();
  for (size_t k = 0; k < pts->size(); ++k) {
    const std::string pk = Reader::at(path, k);
    const json& pt = (*pts)[k];
    if (!pt.is_array() || pt.size() != 2) {
      r.add(pk, "must be [x, z] (m)");
      continue;
    }
    v.profile.emplace_back(r.numberValue(pt[0], pk + "[0]", coordinate),
                           r.numberValue(pt[1], pk + "[1]", coordinate));
  }
  return true;
}

// One entry of a piece kind: its fields (points and lists given, then the
// missing required ones, then numbers), material and colour, then its shape.
void readPiece(Reader& r, TerrainContext& t, const PieceKind& kind, const json& obj,
               const std::string& p) {
  const size_t before = r.issues.size();
  PieceValues v;
  for (const PieceField& f : kind.fields) {
    if (f.kind == PieceField::Number || !obj.contains(f.key)) continue;
    if (f.kind != PieceField::Point) {
      if (!readPointList(r, t, obj, p, f, v)) return;
    } else if (std::optional<Vec3> point = r.vec3(obj[f.key], Reader::at(p, f.key))) {
      v.points[f.key] = *point;
    }
  }
  for (const PieceField& f : kind.fields)
    if (f.kind != PieceField::Number && !obj.contains(f.key))
      r.add(Reader::at(p, f.key), f.required);
  for (const PieceField& f : kind.fields) {
    if (f.kind != PieceField::Number) continue;
    NumberSpec number = f.number;
    if (f.terrainBase) number.fallback = t.base;
    v.numbers[f.key] = r.number(obj, p, f.key, number);
  }
  const int material = materialOf(r, t, obj, p);
  const std::uint32_t color = colour(r, obj, p, kind.color);
  if (r.issues.size() == before) addShapes(r, t, kind.build(v), p, material, color);
}

void readPieces(Reader& r, TerrainContext& t, const json& terrain, const PieceKind& kind) {
  const json* list = r.array(terrain, "terrain", kind.key);
  if (!list) return;
  const std::string path = Reader::at("terrain", kind.key);
  if (kind.checkList && !kind.checkList(r, *list, path)) return;
  std::set<std::string> known = {"material", "color"};
  for (const PieceField& f : kind.fields) known.insert(f.key);
  for (size_t i = 0; i < list->size(); ++i) {
    const std::string p = Reader::at(path, i);
    if (r.object((*list)[i], p, known)) readPiece(r, t, kind, (*list)[i], p);
  }
}

}  // namespace

void readTerrain(Reader& r, const json& doc, TerrainContext& t) {
  if (!doc.contains("terrain")) return r.add("terrain", "is required");
  if (!r.object(doc["terrain"], "terrain",
                {"materials", "base", "quads", "boxes", "wedges", "hulls", "profiles", "heightmaps",
                 "meshes"}))
    return;
  const json& tj = doc["terrain"];
  t.base = r.number(tj, "terrain", "base", baseSpec(-1.0));
  readMaterials(r, t, tj);
  readQuads(r, t, tj);
  for (const PieceKind& kind : pieceKinds()) readPieces(r, t, tj, kind);
  if (const json* fields = r.array(tj, "terrain", "heightmaps"))
    readHeightmaps(
        r, *fields, t.builder, t.base,
        [&](const json& obj, const std::string& p) { return materialOf(r, t, obj, p); }, t.files);
  if (const json* meshes = r.array(tj, "terrain", "meshes"))
    readMeshes(
        r, *meshes, t.builder, t.base,
        [&](const json& obj, const std::string& p) { return materialOf(r, t, obj, p); }, t.files);
  if (t.builder.pieceCount() == 0 && t.builder.heightfieldCount() == 0 &&
      t.builder.meshCount() == 0 && r.issues.empty())
    r.add("terrain", "has no pieces");
}

void readTrack1(Reader& r, const json& doc, TerrainContext& t) {
  const std::vector<Quad>& leftRow = t.rows[0];
  if (!doc.contains("track1")) {
    if (leftRow.size() >= 1) {
      Expected<std::vector<Track1Node>> nodes = makeTrack1(leftRow);
      if (nodes)
        t.track1 = nodes.value();
      else
        r.addAll("track1", nodes.issues());
    }
    return;
  }
  const json& tj = doc["track1"];
  if (!r.object(tj, "track1", {"lateral", "nodes"})) return;
  if (leftRow.empty()) {
    // A left row that is present but invalid has its own issues already.
    const bool rowGiven = doc.contains("terrain") && doc["terrain"].is_object() &&
                          doc["terrain"].contains("quads") && doc["terrain"]["quads"].is_object() &&
                          doc["terrain"]["quads"].contains("left");
    if (!rowGiven)
      r.add("track1",
            "needs terrain.quads.left: Track1 nodes lie on the left row's plane intersections");
    return;
  }
  NumberSpec lateralSpec = within(0.0, 1.0, "-", 0.5);
  const double lateral = r.number(tj, "track1", "lateral", lateralSpec);
  Expected<std::vector<Track1Node>> nodes = makeTrack1(leftRow, lateral);
  if (!nodes) return r.addAll("track1", nodes.issues());
  t.track1 = nodes.value();
  const json* given = r.array(tj, "track1", "nodes");
  if (!given) return;
  if (given->size() != t.track1.size()) {
    r.add("track1.nodes", "has " + std::to_string(given->size()) + " nodes; the left row has " +
                              std::to_string(t.track1.size()) + " node lines");
    return;
  }
  for (size_t i = 0; i < given->size(); ++i) {
    const std::string p = Reader::at("track1.nodes", i);
    const std::optional<Vec3> v = r.vec3((*given)[i], p);
    if (!v) continue;
    Track1Node& node = t.track1[i];
    const Expected<double> along = track1Along(node, *v);
    if (!along) {
      r.addAll(p, along.issues());
      continue;
    }
    node.point = *v;  // as given: within 1e-6 m of its line, and what the user typed stays exact
  }
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

ROVERLAB_SIZE_OPTIMIZED_END
