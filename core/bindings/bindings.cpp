// JavaScript bindings of the core (embind). The only bindings file: everything
// the browser app and the Node tests call goes through here.
//
// Conventions:
//  - Inputs are plain JS values (objects of numbers, arrays, typed arrays); no JSON.
//  - Every call that can fail on user input returns data, never throws:
//      { ok: true, ... }  or  { ok: false, issues: [{ path, message }, ...] }.
//  - Bulk numbers (vertices, indices) come back as JS-owned typed arrays (copies), so
//    nothing on the JS side points into WASM memory.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "roverlab.h"
#include "scenario/json_input.h"
#include "sim/run.h"

namespace roverlab {
namespace {

using emscripten::val;

constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------- JS helpers

/// Joins a path prefix and a relative issue path ("a.b" + "[2].c" → "a.b[2].c").
std::string joinPath(const std::string& prefix, const std::string& path) {
  if (path.empty()) return prefix;
  if (prefix.empty()) return path;
  return path.front() == '[' ? prefix + path : prefix + "." + path;
}

void appendIssues(std::vector<Issue>& out, const std::string& prefix,
                  const std::vector<Issue>& issues) {
  for (const Issue& i : issues) out.push_back({joinPath(prefix, i.path), i.message});
}

val issuesResult(const std::vector<Issue>& issues) {
  val list = val::array();
  for (const Issue& i : issues) {
    val item = val::object();
    item.set("path", i.path);
    item.set("message", i.message);
    list.call<void>("push", item);
  }
  val result = val::object();
  result.set("ok", false);
  result.set("issues", list);
  return result;
}

/// The JSON text of a scenario passed from JS: a string of at most
/// kMaxDocumentBytes (its UTF-16 length bounds its UTF-8 size from below, so
/// a longer string is refused before it is copied into WASM memory).
Expected<std::string> jsonText(const val& v) {
  if (!v.isString()) {
    const std::string type = v.typeOf().as<std::string>();
    return Expected<std::string>::failure(
        "", "must be the scenario's JSON text (a string), got " + type);
  }
  // A lone surrogate cannot be encoded as UTF-8 (the conversion would
  // replace it silently): the text is not what the user wrote.
  if (!v["isWellFormed"].isUndefined() && !v.call<bool>("isWellFormed")) {
    const int at =
        v.call<int>("search", val::global("RegExp").new_(std::string("\\p{Cs}"), std::string("u")));
    return Expected<std::string>::failure(
        "", "not UTF-8: a lone UTF-16 surrogate at character " + std::to_string(at));
  }
  if (!(v["length"].as<double>() <= static_cast<double>(kMaxDocumentBytes)))
    return Expected<std::string>::failure("", "the document is longer than " +
                                                  std::to_string(kMaxDocumentBytes) +
                                                  " bytes (16 MiB), the limit");
  return v.as<std::string>();
}

val vec3ToJs(const Vec3& v) {
  val a = val::array();
  for (int k = 0; k < 3; ++k) a.call<void>("push", v[k]);
  return a;
}

/// Copies a vector into a new JS typed array (Float32Array, Uint32Array, ...).
template <class T>
val toTypedArray(const std::vector<T>& data) {
  return val(emscripten::typed_memory_view(data.size(), data.data())).call<val>("slice");
}

/// Reads an optional numeric field of a JS object; records an issue when the
/// field is present but not a number.
double numberField(const val& obj, const char* name, double fallback, const std::string& prefix,
                   std::vector<Issue>& issues) {
  if (obj.isUndefined() || obj.isNull()) return fallback;
  const val v = obj[name];
  if (v.isUndefined() || v.isNull()) return fallback;
  if (!v.isNumber()) {
    issues.push_back({joinPath(prefix, name), "must be a number"});
    return fallback;
  }
  return v.as<double>();
}

/// A flat list of numbers from a JS array or typed array; an issue when `v` is neither.
bool numberList(const val& v, const std::string& path, std::vector<double>& out,
                std::vector<Issue>& issues) {
  const bool list = !v.isUndefined() && !v.isNull() &&
                    (val::global("Array").call<bool>("isArray", v) ||
                     val::global("ArrayBuffer").call<bool>("isView", v));
  if (!list) {
    issues.push_back({path, "must be an array of numbers"});
    return false;
  }
  // Nothing here takes more than a few thousand numbers; a huge length is
  // refused before anything is allocated for it.
  constexpr double kMaxNumbers = 1 << 20;
  if (!(v["length"].as<double>() <= kMaxNumbers)) {
    issues.push_back({path, "has more than 1048576 numbers"});
    return false;
  }
  out = emscripten::convertJSArrayToNumberVector<double>(v);  // non-numbers become NaN
  return true;
}

const char* featureName(Feature f) {
  switch (f) {
    case Feature::Face:
      return "face";
    case Feature::Edge:
      return "edge";
    case Feature::Vertex:
      return "vertex";
    case Feature::Inside:
      return "inside";
    case Feature::Far:
      return "far";
  }
  return "far";
}

// ------------------------------------------------------------- mesh export

/// Triangle mesh of a polytope for display: its hull vertices and each face
/// (a convex polygon, CCW seen from outside) fan-triangulated, CCW kept.
val pieceMesh(const TerrainPiece& piece, const char* kind) {
  const Polytope& poly = piece.shape;
  std::vector<float> vertices;
  vertices.reserve(poly.vertices.size() * 3);
  for (const Vec3& v : poly.vertices)
    for (int k = 0; k < 3; ++k) vertices.push_back(static_cast<float>(v[k]));
  std::vector<std::uint32_t> indices;
  for (const std::vector<int>& face : poly.faceVertices)
    for (size_t i = 1; i + 1 < face.size(); ++i) {
      indices.push_back(static_cast<std::uint32_t>(face[0]));
      indices.push_back(static_cast<std::uint32_t>(face[i]));
      indices.push_back(static_cast<std::uint32_t>(face[i + 1]));
    }
  val mesh = val::object();
  mesh.set("kind", std::string(kind));
  mesh.set("color", piece.color);
  mesh.set("vertices", toTypedArray(vertices));
  mesh.set("indices", toTypedArray(indices));
  return mesh;
}

// ------------------------------------------------------------ demo terrain

struct DemoParams {
  int segments = 8;            ///< quads per row (-)
  double segmentLength = 0.6;  ///< quad length along x (m)
  double laneWidth = 0.5;      ///< width of each quad row (m)
  double trackWidth = 1.2;     ///< distance between the rows' centre lines (m)
  double bumpHeight = 0.12;    ///< height of the bumps in the rows (m)
  double base = -0.3;          ///< z of every piece's bottom (m)
};

Expected<DemoParams> readDemoParams(const val& js) {
  const std::string p = "params";
  std::vector<Issue> issues;
  if (!js.isUndefined() && !js.isNull() && js.typeOf().as<std::string>() != "object")
    return Expected<DemoParams>::failure(p, "must be an object of numbers");
  DemoParams d;
  const double segments = numberField(js, "segments", d.segments, p, issues);
  d.segmentLength = numberField(js, "segmentLength", d.segmentLength, p, issues);
  d.laneWidth = numberField(js, "laneWidth", d.laneWidth, p, issues);
  d.trackWidth = numberField(js, "trackWidth", d.trackWidth, p, issues);
  d.bumpHeight = numberField(js, "bumpHeight", d.bumpHeight, p, issues);
  d.base = numberField(js, "base", d.base, p, issues);
  if (!(segments >= 1 && segments <= 64 && segments == std::floor(segments)))
    issues.push_back({p + ".segments", "must be a whole number from 1 to 64"});
  else
    d.segments = static_cast<int>(segments);
  const auto positive = [&](const char* name, double v) {
    if (!(std::isfinite(v) && v > 0)) issues.push_back({p + "." + name, "must be a length > 0 m"});
  };
  positive("segmentLength", d.segmentLength);
  positive("laneWidth", d.laneWidth);
  if (!(std::isfinite(d.bumpHeight) && d.bumpHeight >= 0))
    issues.push_back({p + ".bumpHeight", "must be a height >= 0 m"});
  if (!(std::isfinite(d.trackWidth) && d.trackWidth > d.laneWidth))
    issues.push_back({p + ".trackWidth", "must exceed laneWidth so the rows do not overlap"});
  if (!(std::isfinite(d.base) && d.base < 0))
    issues.push_back({p + ".base", "must be a depth below the ground, < 0 m"});
  if (!issues.empty()) return issues;
  return d;
}

/// A row of level-sided segments along +x with heights `h` at the segment ends.
std::vector<QuadSegment> quadRow(double yCentre, double width, double length,
                                 const std::vector<double>& h) {
  std::vector<QuadSegment> row;
  for (size_t i = 0; i + 1 < h.size(); ++i) {
    const double x0 = i * length, x1 = (i + 1) * length;
    row.push_back({Vec3(x0, yCentre + width / 2, h[i]), Vec3(x0, yCentre - width / 2, h[i]),
                   Vec3(x1, yCentre, h[i + 1])});
  }
  return row;
}

/// Demo terrain: two rows of quads (a bumpy lane for each side of a rover),
/// blocks and a ramp beside them, and a 2-D profile (a step and a slope) after
/// them. Returns the mesh of every piece, or the issues.
val buildDemoTerrain(val params) {
  Expected<DemoParams> read = readDemoParams(params);
  if (!read) return issuesResult(read.issues());
  const DemoParams d = read.value();
  std::vector<Issue> issues;
  TerrainBuilder builder;
  std::vector<const char*> kinds;
  const auto add = [&](Polytope shape, std::uint32_t color, const char* kind) {
    builder.addPiece(std::move(shape), 0, color);
    kinds.push_back(kind);
  };

  // Two rows of quads; the right row's bumps are shifted so the rover rolls.
  const double length = d.segments * d.segmentLength;
  for (int side = 0; side < 2; ++side) {
    std::vector<double> h(d.segments + 1);
    for (int i = 0; i <= d.segments; ++i) {
      const double phase = 2.0 * kPi * i / std::max(4, d.segments) + (side ? 1.3 : 0.0);
      h[i] = d.bumpHeight * 0.5 * (1.0 - std::cos(phase));
    }
    const double y = (side == 0 ? 0.5 : -0.5) * d.trackWidth;
    const std::string path = side == 0 ? "demo.leftRow" : "demo.rightRow";
    Expected<std::vector<Quad>> row = makeQuadRow(quadRow(y, d.laneWidth, d.segmentLength, h));
    if (!row) {
      appendIssues(issues, path, row.issues());
      continue;
    }
    for (size_t i = 0; i < row.value().size(); ++i) {
      Expected<Polytope> prism = quadPrism(row.value()[i], d.base);
      if (!prism) {
        appendIssues(issues, path + "[" + std::to_string(i) + "]", prism.issues());
        continue;
      }
      add(std::move(prism).value(), quadColor(side, i), "quad");
    }
  }

  // Blocks beside the lanes (the first is a unit cube) and a ramp, at fixed
  // places so that they never overlap, whatever the lanes' length.
  const double yOut = 0.5 * d.trackWidth + 0.5 * d.laneWidth + 0.6;
  const struct {
    Vec3 centre, size;
    double yaw;
  } blocks[] = {
      {Vec3(1.0, yOut, 0.5 + d.base), Vec3(1, 1, 1), 0.0},
      {Vec3(2.6, yOut, 0.1 + 0.5 * d.base), Vec3(0.6, 0.4, 0.2 - d.base), 0.4},
      {Vec3(4.0, -yOut, 0.15 + 0.5 * d.base), Vec3(0.5, 0.5, 0.3 - d.base), -0.3},
  };
  for (size_t i = 0; i < std::size(blocks); ++i) {
    Expected<Polytope> box = makeBox(blocks[i].centre, blocks[i].size, blocks[i].yaw);
    if (!box)
      appendIssues(issues, "demo.blocks[" + std::to_string(i) + "]", box.issues());
    else
      add(std::move(box).value(), 0xb86b3c, "box");
  }
  Expected<Polytope> wedge = makeWedge(Vec3(0.2, -yOut, d.base), 1.2, 0.8, 0.3 - d.base, 0.0);
  if (!wedge)
    appendIssues(issues, "demo.ramp", wedge.issues());
  else
    add(std::move(wedge).value(), 0x6f9a58, "wedge");

  // A planar profile after the lanes: flat, a 0.1 m step, a slope, a crest.
  const double x0 = length + 0.5;
  const std::vector<Vec2> profile = {
      Vec2(x0, 0.0),        Vec2(x0 + 1.0, 0.0), Vec2(x0 + 1.0, 0.1),  Vec2(x0 + 2.0, 0.1),
      Vec2(x0 + 3.5, 0.45), Vec2(x0 + 4.0, 0.5), Vec2(x0 + 4.5, 0.45), Vec2(x0 + 5.5, 0.2)};
  Expected<std::vector<Polytope>> pieces = makeProfile(profile, d.trackWidth + d.laneWidth, d.base);
  if (!pieces) {
    appendIssues(issues, "demo.profile", pieces.issues());
  } else {
    int k = 0;
    for (Polytope& piece : pieces.value())
      add(std::move(piece), k++ % 2 ? 0x5b7ea6 : 0x6a8fb8, "profile");
  }
  if (!issues.empty()) return issuesResult(issues);

  Expected<Terrain> built = std::move(builder).build();
  if (!built) {
    appendIssues(issues, "demo", built.issues());
    return issuesResult(issues);
  }
  const Terrain& terrain = built.value();
  val list = val::array();
  for (size_t i = 0; i < terrain.pieces.size(); ++i)
    list.call<void>("push", pieceMesh(terrain.pieces[i], kinds[i]));
  val box = val::object();
  box.set("min", vec3ToJs(terrain.box.min));
  box.set("max", vec3ToJs(terrain.box.max));
  val result = val::object();
  result.set("ok", true);
  result.set("pieces", list);
  result.set("box", box);
  return result;
}

// ------------------------------------------------------------ terrain editor

/// Terrain meshes and bounds as the app draws them.
val terrainToJs(const Terrain& terrain) {
  val pieces = val::array();
  for (const TerrainPiece& piece : terrain.pieces)
    pieces.call<void>("push", pieceMesh(piece, "piece"));
  val box = val::object();
  box.set("min", vec3ToJs(terrain.box.min));
  box.set("max", vec3ToJs(terrain.box.max));
  val out = val::object();
  out.set("pieces", pieces);
  out.set("box", box);
  return out;
}

val quadToJs(const Quad& q, std::uint32_t color) {
  val corners = val::array();
  for (const Vec3& c : q.corners) corners.call<void>("push", vec3ToJs(c));
  val out = val::object();
  out.set("corners", corners);  // a, b, b', a'
  out.set("sideAB", vec3ToJs(q.sideAB));
  out.set("sideAM", vec3ToJs(q.sideAM));
  out.set("normal", vec3ToJs(q.normal));
  out.set("offset", q.offset);  // plane: normal · x = offset
  out.set("color", color);
  return out;
}

val track1NodeToJs(const Track1Node& n) {
  val out = val::object();
  out.set("point", vec3ToJs(n.point));
  out.set("linePoint", vec3ToJs(n.linePoint));
  out.set("lineDir", vec3ToJs(n.lineDir));
  out.set("edgeLength", n.edgeLength);
  out.set("normal", vec3ToJs(n.normal));
  return out;
}

/// What the terrain editor shows of a scenario document (JSON text): the
/// issues of its terrain and Track1 (paths as the validator's), the quad of
/// every segment that can be built (null where not), Track1 and, when those
/// parts are valid, the terrain meshes. Never throws.
val inspectTerrainJs(val json) {
  const Expected<std::string> text = jsonText(json);
  TerrainInspection inspection;
  if (text)
    inspection = inspectTerrain(text.value());
  else
    inspection.issues = text.issues();
  val out = val::object();
  out.set("ok", inspection.issues.empty());
  out.set("issues", issuesResult(inspection.issues)["issues"]);
  val quads = val::object();
  for (int side = 0; side < 2; ++side) {
    const auto& row = side == 0 ? inspection.leftSegments : inspection.rightSegments;
    val list = val::array();
    for (size_t i = 0; i < row.size(); ++i)
      list.call<void>("push", row[i] ? quadToJs(*row[i], quadColor(side, i)) : val::null());
    quads.set(side == 0 ? "left" : "right", list);
  }
  out.set("quads", quads);
  val track1 = val::array();
  for (const Track1Node& n : inspection.track1) track1.call<void>("push", track1NodeToJs(n));
  out.set("track1", track1);
  out.set("terrain", inspection.terrain ? terrainToJs(*inspection.terrain) : val::null());
  return out;
}

/// Moves Track1 node `index` of the scenario (JSON text) so that its
/// coordinate `axis` (0 = x, 1 = y, 2 = z) is `value`; the node stays on the
/// intersection line of the adjacent left-row planes, so the other two follow.
/// { ok: true, point } or { ok: false, issues } (off the left row, a line
/// perpendicular to the axis, a non-finite value, an invalid terrain).
val moveTrack1NodeJs(val json, int index, int axis, double value) {
  const Expected<std::string> text = jsonText(json);
  if (!text) return issuesResult(text.issues());
  const TerrainInspection inspection = inspectTerrain(text.value());
  if (!inspection.issues.empty()) return issuesResult(inspection.issues);
  if (index < 0 || index >= static_cast<int>(inspection.track1.size()))
    return issuesResult({{"track1.nodes", "has no node " + std::to_string(index) + " (it has " +
                                              std::to_string(inspection.track1.size()) + ")"}});
  const std::string path = "track1.nodes[" + std::to_string(index) + "]";
  const Expected<Track1Node> moved = moveTrack1Node(inspection.track1[index], axis, value);
  if (!moved) return issuesResult(prefixed(path, moved.issues()));
  val out = val::object();
  out.set("ok", true);
  out.set("point", vec3ToJs(moved.value().point));
  return out;
}

// ---------------------------------------------------------- point distance

/// Signed distance from `point` ([x, y, z]) to the convex hull of `points`
/// (flat [x0, y0, z0, x1, ...]). `radius` bounds the search (infinite if
/// omitted): farther points come back with feature "far".
val pointDistanceJs(val points, val point, val radius) {
  std::vector<Issue> issues;
  std::vector<double> flat, p;
  if (numberList(points, "points", flat, issues) && flat.size() % 3 != 0)
    issues.push_back({"points", "needs x, y, z per point: length must be a multiple of 3"});
  if (numberList(point, "point", p, issues) && p.size() != 3)
    issues.push_back({"point", "must be [x, y, z]"});
  double r = INFINITY;
  if (!radius.isUndefined() && !radius.isNull()) {
    if (!radius.isNumber() || !(radius.as<double>() > 0))
      issues.push_back({"radius", "must be a number > 0 (m)"});
    else
      r = radius.as<double>();
  }
  if (!issues.empty()) return issuesResult(issues);
  const Vec3 q(p[0], p[1], p[2]);
  if (!q.allFinite()) return issuesResult({{"point", "not finite: " + format(q)}});
  std::vector<Vec3> pts;
  for (size_t i = 0; i + 2 < flat.size(); i += 3)
    pts.emplace_back(flat[i], flat[i + 1], flat[i + 2]);
  Expected<Polytope> hull = makeHull(pts);
  if (!hull) return issuesResult(hull.issues());

  const PointDistance pd = pointDistance(hull.value(), q, r);
  val result = val::object();
  result.set("ok", true);
  result.set("distance", pd.distance);
  result.set("feature", std::string(featureName(pd.feature)));
  if (pd.feature != Feature::Far) {
    result.set("closest", vec3ToJs(pd.closest));
    result.set("normal", vec3ToJs(pd.normal));
  }
  result.set("face", pd.face);
  result.set("converged", pd.converged);
  result.set("iterations", pd.iterations);
  return result;
}

// ------------------------------------------------------ crawler link contact

val vec2ToJs(const Vec2& v) {
  val a = val::array();
  a.call<void>("push", v.x());
  a.call<void>("push", v.y());
  return a;
}

/// Seed 003's contact mode of a crawler link against a rectangular obstacle.
/// params: { L, phiStart, phiEnd, A: [x, y], l, b, alpha } (m, rad) →
/// { ok: true, mode, kind, kindName, contact, phiContact, alphaContact, point,
/// pointEnd, contactDistance, correction: { needed, endAngle, length, lift } }
/// (the contact fields only when contact is true), or { ok: false, issues }.
val crawlerLinkContact(val params) {
  std::vector<Issue> issues;
  if (params.isUndefined() || params.isNull() || params.typeOf().as<std::string>() != "object")
    return issuesResult({{"params", "must be an object {L, phiStart, phiEnd, A, l, b, alpha}"}});
  auto required = [&](const char* name) {
    if (params[name].isUndefined() || params[name].isNull())
      issues.push_back({name, "is required"});
    return numberField(params, name, 0.0, "", issues);
  };
  LinkObstacle in;
  in.length = required("L");
  in.phiStart = required("phiStart");
  in.phiEnd = required("phiEnd");
  in.sideL = required("l");
  in.sideB = required("b");
  in.alpha = required("alpha");
  std::vector<double> a;
  if (numberList(params["A"], "A", a, issues)) {
    if (a.size() != 2)
      issues.push_back({"A", "must be [x, y]"});
    else
      in.a = Vec2(a[0], a[1]);
  }
  if (!issues.empty()) return issuesResult(issues);
  const Expected<LinkContact> r = determineLinkContact(in);
  if (!r) return issuesResult(r.issues());
  const LinkContact& c = r.value();
  val out = val::object();
  out.set("ok", true);
  out.set("mode", c.mode);
  out.set("kind", static_cast<int>(c.kind));
  out.set("kindName", std::string(contactKindName(c.kind)));
  out.set("contact", c.mode < 5);
  out.set("alphaContact", c.alphaContact);
  if (c.mode < 5) {
    out.set("phiContact", c.phiContact);
    out.set("point", vec2ToJs(c.point));
    out.set("pointEnd", vec2ToJs(c.pointEnd));
    out.set("contactDistance", c.contactDistance);
  }
  val corr = val::object();
  corr.set("needed", c.correction.needed);
  if (c.correction.needed) {
    corr.set("endAngle", c.correction.endAngle);
    corr.set("length", c.correction.length);
    corr.set("lift", c.correction.lift);
  }
  out.set("correction", corr);
  return out;
}

val buildDemoTerrainDefault() { return buildDemoTerrain(val::undefined()); }

val pointDistanceExact(val points, val point) {
  return pointDistanceJs(std::move(points), std::move(point), val::undefined());
}

std::string version() { return "0.1.0"; }

// ---------------------------------------------------------------- scenarios

/// Runs a scenario (JSON text) for `seconds` of simulated time (the scenario's
/// duration when ≤ 0): { ok: true, summary } with the same summary the
/// command-line tool prints, or { ok: false, issues }. A run that stopped
/// (blew up, left the terrain) has summary.ok false, summary.outcome
/// ("blew_up", "left_terrain") and summary.error; warnings are in
/// summary.warnings.
val runScenario(val json, double seconds) {
  const Expected<std::string> text = jsonText(json);
  if (!text) return issuesResult(text.issues());
  // 0 (or less) runs the scenario's duration; otherwise a finite time within
  // the format's range of simulation.duration.
  if (!(seconds <= 1e5))
    return issuesResult(
        {{"seconds", "must be a number of seconds ≤ 1e5 (0 for the scenario's duration)"}});
  Expected<Scenario> scenario = parseScenario(text.value());
  if (!scenario) return issuesResult(scenario.issues());
  Expected<Simulation> made = makeSimulation(scenario.value());
  if (!made) return issuesResult(made.issues());
  Simulation& sim = made.value();
  RunStats stats;
  // One call runs in one go, so it is bounded: ~1e8 steps take minutes.
  constexpr long long kMaxSteps = 100'000'000;
  const long long steps = stepsIn(seconds > 0 ? seconds : sim.duration, sim.model.dt);
  if (steps > kMaxSteps)
    return issuesResult(
        {{seconds > 0 ? "seconds" : "simulation.duration",
          "would take " + std::to_string(steps) + " steps of " + format(sim.model.dt) +
              " s; runScenario takes at most 100000000 in one call (step a World "
              "in chunks for longer runs)"}});
  const double start = emscripten_get_now();
  runSteps(sim, steps, stepsIn(kSampleInterval, sim.model.dt), [&](Simulation& s) {
    stats.sample(s);
    return true;
  });
  const double wall = (emscripten_get_now() - start) / 1000.0;
  updateKinematics(sim);
  stats.sample(sim);
  val result = val::object();
  result.set("ok", true);
  result.set("summary", val::global("JSON").call<val>("parse", summaryJson(sim, stats, wall)));
  return result;
}

// ------------------------------------------------------------------- world

/// A running scenario for the browser: `new World(json)`, then `ok()` or
/// `issues()`; `step(n)`, inputs, and `frame()`, a Float64Array view into WASM
/// memory laid out as in sim/frame.h (valid until the next call that may grow
/// memory: take it again after each step, or copy it).
class World {
 public:
  explicit World(val json) {
    const Expected<std::string> text = jsonText(json);
    if (!text) {
      issues_ = text.issues();
      return;
    }
    Expected<Scenario> scenario = parseScenario(text.value());
    if (!scenario) {
      issues_ = scenario.issues();
      return;
    }
    scenario_ = std::move(scenario).value();
    reset();
  }

  bool ok() const { return sim_.has_value(); }
  val issues() const { return issuesResult(issues_)["issues"]; }

  /// Back to the initial state (false if the scenario was rejected).
  bool reset() {
    Expected<Simulation> made = makeSimulation(scenario_);
    if (!made) {
      issues_ = made.issues();
      sim_.reset();
      return false;
    }
    sim_ = std::move(made).value();
    samples_.clear();
    layout_ = frameLayout(*sim_);
    writeFrame(*sim_, layout_, frame_);
    return true;
  }

  /// Advances up to n steps; returns how many were taken (fewer when the run
  /// stopped: outcome() and error() say why).
  /// Every 10 ms of simulated time the telemetry row is kept for samples().
  int step(int n) {
    if (!sim_) return 0;
    const int taken = static_cast<int>(runSteps(
        *sim_, std::max(0, n), stepsIn(kSampleInterval, sim_->model.dt), [&](Simulation& s) {
          telemetryRow(s, row_);
          samples_.insert(samples_.end(), row_.begin(), row_.end());
          return true;
        }));
    writeFrame(*sim_, layout_, frame_);
    return taken;
  }

  /// Telemetry rows kept since the last call (flat, `columns` numbers each) as
  /// a Float64Array of its own; the store is emptied.
  val samples() {
    val out =
        val(emscripten::typed_memory_view(samples_.size(), samples_.data())).call<val>("slice");
    samples_.clear();
    return out;
  }

  std::string error() const { return sim_ ? sim_->data.error : std::string(); }
  /// "ok" while running or done, "blew_up" or "left_terrain" once stopped.
  std::string outcome() const { return outcomeName(sim_ ? sim_->outcome : RunOutcome::Ok); }
  /// Settings that run but deserve a word: [{ path, message }].
  val warnings() const {
    return issuesResult(sim_ ? sim_->warnings : std::vector<Issue>{})["issues"];
  }
  double time() const { return sim_ ? sim_->state.bodies.time : 0.0; }
  double dt() const { return sim_ ? sim_->model.dt : 0.0; }
  /// Wheel speed commands (rad/s); false, and nothing changed, unless both
  /// are finite (they are clamped to the preset's limit).
  bool setWheelSpeeds(double left, double right) {
    return sim_ && roverlab::setWheelSpeeds(*sim_, left, right);
  }
  /// False, and nothing changed, for an unknown joint or a non-finite target.
  bool setJointTarget(const std::string& name, double target) {
    return sim_ && roverlab::setJointTarget(*sim_, name, target);
  }
  /// The named controller on or off; false when the scenario has none.
  bool setController(bool on) { return sim_ && roverlab::setControllerOn(*sim_, on); }
  val frame() const { return val(emscripten::typed_memory_view(frame_.size(), frame_.data())); }

  /// What the view needs to build the scene once: bodies and their boxes,
  /// wheels, terrain meshes, Track1, joint drives, the frame layout and the
  /// telemetry columns.
  val model() const {
    val m = val::object();
    if (!sim_) return m;
    const Simulation& sim = *sim_;
    val bodies = val::array();
    for (const Body& b : sim.model.robot.bodies.bodies) {
      val body = val::object();
      body.set("name", b.name);
      body.set("parent", b.parent);
      body.set("boxes", val::array());
      bodies.call<void>("push", body);
    }
    for (const BodyBox& box : sim.model.robot.boxes) {
      val item = val::object();
      item.set("centre", vec3ToJs(box.centre));
      item.set("size", vec3ToJs(box.size));
      bodies[box.body]["boxes"].call<void>("push", item);
    }
    m.set("bodies", bodies);
    val wheels = val::array();
    for (const WheelModel& w : sim.model.robot.wheels) {
      val wheel = val::object();
      wheel.set("body", w.body);
      wheel.set("name", sim.model.robot.bodies.bodies[w.body].name);
      wheel.set("radius", w.shape.radius);
      wheel.set("width", w.shape.width);
      wheels.call<void>("push", wheel);
    }
    m.set("wheels", wheels);
    m.set("terrain", terrainToJs(sim.model.terrain));
    val track1 = val::array();
    for (const Track1Node& n : scenario_.track1) track1.call<void>("push", vec3ToJs(n.point));
    m.set("track1", track1);
    val joints = val::array();
    for (const auto& [name, index] : sim.model.robot.joints) {
      const int body = sim.model.robot.actuators[index].body;
      val joint = val::object();
      joint.set("name", name);
      joint.set("prismatic", sim.model.robot.bodies.bodies[body].joint == JointType::Prismatic);
      for (const JointLimit& l : sim.model.robot.limits)
        if (l.body == body) {
          joint.set("lower", l.lower);
          joint.set("upper", l.upper);
        }
      joints.call<void>("push", joint);
    }
    m.set("joints", joints);
    val sections = val::array();
    for (int s : sim.model.robot.sections) sections.call<void>("push", s);
    m.set("sections", sections);
    val columns = val::array();
    for (const std::string& c : telemetryColumns(sim)) columns.call<void>("push", c);
    m.set("columns", columns);
    val layout = val::object();
    layout.set("bodies", layout_.bodies);
    layout.set("wheels", layout_.wheels);
    layout.set("poses", layout_.poses);
    layout.set("contacts", layout_.contacts);
    layout.set("boxes", layout_.boxes);
    layout.set("boxContacts", layout_.boxContacts);
    layout.set("row", layout_.row);
    layout.set("size", layout_.size);
    layout.set("pose", FrameLayout::kPose);
    layout.set("slot", FrameLayout::kSlot);
    layout.set("wheel", FrameLayout::kWheel);
    layout.set("slots", kContactSlots);
    m.set("layout", layout);
    m.set("preset", sim.model.robot.preset);
    m.set("controller", sim.controllerKind ? sim.controllerKind->name : std::string("none"));
    val phases = val::array();  // names of the controller's phases, by its telemetry value
    if (sim.controllerKind)
      for (const std::string& p : sim.controllerKind->phases) phases.call<void>("push", p);
    m.set("phases", phases);
    m.set("planar", sim.model.robot.planar);
    m.set("base", sim.model.robot.base);
    m.set("maxWheelSpeed", sim.model.robot.maxWheelSpeed);
    double mass = 0;
    for (const Body& b : sim.model.robot.bodies.bodies) mass += b.mass;
    m.set("mass", mass);
    m.set("dt", sim.model.dt);
    m.set("duration", sim.duration);
    m.set("warnings", warnings());
    m.set("name", scenario_.name);
    m.set("description", scenario_.description);
    return m;
  }

 private:
  Scenario scenario_;
  std::optional<Simulation> sim_;
  std::vector<Issue> issues_;
  FrameLayout layout_;
  std::vector<double> frame_;
  std::vector<double> row_, samples_;
};

// ------------------------------------------------------- rocker positioning

val pointsToJs(const std::vector<Vec3>& points) {
  val list = val::array();
  for (const Vec3& p : points) list.call<void>("push", vec3ToJs(p));
  return list;
}

val rockerPoseToJs(const RockerPose& pose) {
  val out = val::object();
  out.set("s", pose.s);
  out.set("stance", pose.stance);
  out.set("reason", pose.reason);
  out.set("iterations", pose.iterations);
  if (!pose.stance) return out;
  const Eigen::Quaterniond q(pose.rotation);
  val quaternion = val::array();
  for (const double c : {q.x(), q.y(), q.z(), q.w()}) quaternion.call<void>("push", c);
  out.set("position", vec3ToJs(pose.position));
  out.set("quaternion", quaternion);  // [x, y, z, w], body to world
  out.set("yaw", pose.yaw);
  out.set("pitch", pose.pitch);
  out.set("roll", pose.roll);
  out.set("tilt", pose.tilt);
  val pivots = val::array(), angles = val::array(), gaps = val::array();
  for (int k = 0; k < 4; ++k) {
    pivots.call<void>("push", vec3ToJs(pose.pivots[k]));
    angles.call<void>("push", pose.rockerAngles[k]);
    gaps.call<void>("push", pose.pivotGaps[k]);
  }
  out.set("pivots", pivots);
  out.set("rockerAngles", angles);
  out.set("pivotGaps", gaps);
  val wheels = val::array();
  for (const RockerWheel& w : pose.wheels) {
    val wheel = val::object();
    wheel.set("centre", vec3ToJs(w.centre));
    wheel.set("contact", w.contact ? vec3ToJs(w.contactPoint) : val::null());
    wheel.set("clearance", w.clearance);
    wheels.call<void>("push", wheel);
  }
  out.set("wheels", wheels);
  val lines = val::object(), tracks = val::object();
  lines.set("left", pointsToJs(pose.centreLines[0]));
  lines.set("right", pointsToJs(pose.centreLines[1]));
  tracks.set("left", pointsToJs(pose.tracks[0]));
  tracks.set("right", pointsToJs(pose.tracks[1]));
  out.set("centreLines", lines);
  out.set("tracks", tracks);
  return out;
}

/// seed 002's kinematic positioning of the rocker8 rover along Track1 of a
/// scenario (JSON text), every `step` metres of arc length: { ok: true,
/// length, geometry, poses: [{ s, stance, reason, iterations, and with a
/// stance: position, quaternion, yaw, pitch, roll, tilt, pivots, rockerAngles,
/// pivotGaps, wheels: [{ centre, contact: [x, y, z] | null, clearance }],
/// centreLines: { left, right }, tracks: { left, right } (segment pairs) }] }
/// or { ok: false, issues }.
val rockerPlaybackJs(val json, double step) {
  const Expected<std::string> text = jsonText(json);
  if (!text) return issuesResult(text.issues());
  const Expected<Scenario> scenario = parseScenario(text.value());
  if (!scenario) return issuesResult(scenario.issues());
  const Expected<RockerModel> model = makeRockerModel(scenario.value());
  if (!model) return issuesResult(model.issues());
  const Expected<std::vector<RockerPose>> poses = rockerPlayback(model.value(), step);
  if (!poses) return issuesResult(poses.issues());
  const RockerGeometry& g = model.value().geometry;
  val geometry = val::object();
  geometry.set("wheelRadius", g.wheelRadius);
  geometry.set("wheelWidth", g.wheelWidth);
  geometry.set("rockerArm", g.rockerArm);
  geometry.set("pivotHeight", g.pivotHeight);
  geometry.set("pivotSpacing", g.pivotSpacing);
  geometry.set("trackWidth", g.trackWidth);
  geometry.set("pivotLateral", g.pivotLateral);
  geometry.set("bodySize", vec3ToJs(g.bodySize));
  geometry.set("bodyCentre", vec3ToJs(g.bodyCentre));
  val list = val::array();
  for (const RockerPose& pose : poses.value()) list.call<void>("push", rockerPoseToJs(pose));
  val out = val::object();
  out.set("ok", true);
  out.set("length", track1Length(model.value()));
  out.set("geometry", geometry);
  out.set("poses", list);
  return out;
}

/// Every preset with its parameters: [{ preset, description, params: [{ name,
/// value, min, max, unit, description }] }].
val presets() {
  val list = val::array();
  for (const std::string& name : presetNames()) {
    val params = val::array();
    for (const ParamSpec& p : presetParams(name)) {
      val item = val::object();
      item.set("name", p.name);
      item.set("value", p.value);
      item.set("min", p.min);
      item.set("max", p.max);
      item.set("unit", p.unit);
      item.set("description", p.description);
      params.call<void>("push", item);
    }
    val preset = val::object();
    preset.set("preset", name);
    preset.set("description", presetDescription(name));
    preset.set("params", params);
    list.call<void>("push", preset);
  }
  return list;
}

}  // namespace
}  // namespace roverlab

EMSCRIPTEN_BINDINGS(roverlab) {
  emscripten::class_<roverlab::World>("World")
      .constructor<emscripten::val>()
      .function("ok", &roverlab::World::ok)
      .function("issues", &roverlab::World::issues)
      .function("reset", &roverlab::World::reset)
      .function("step", &roverlab::World::step)
      .function("error", &roverlab::World::error)
      .function("outcome", &roverlab::World::outcome)
      .function("warnings", &roverlab::World::warnings)
      .function("time", &roverlab::World::time)
      .function("dt", &roverlab::World::dt)
      .function("setWheelSpeeds", &roverlab::World::setWheelSpeeds)
      .function("setJointTarget", &roverlab::World::setJointTarget)
      .function("setController", &roverlab::World::setController)
      .function("frame", &roverlab::World::frame)
      .function("samples", &roverlab::World::samples)
      .function("model", &roverlab::World::model);
  emscripten::function("presets", &roverlab::presets);
  emscripten::function("runScenario", &roverlab::runScenario);
  emscripten::function("version", &roverlab::version);
  emscripten::function("inspectTerrain", &roverlab::inspectTerrainJs);
  emscripten::function("moveTrack1Node", &roverlab::moveTrack1NodeJs);
  emscripten::function("rockerPlayback", &roverlab::rockerPlaybackJs);
  // Overloads by argument count stand in for optional arguments.
  emscripten::function("buildDemoTerrain", &roverlab::buildDemoTerrain);
  emscripten::function("buildDemoTerrain", &roverlab::buildDemoTerrainDefault);
  emscripten::function("pointDistance", &roverlab::pointDistanceJs);
  emscripten::function("pointDistance", &roverlab::pointDistanceExact);
  emscripten::function("crawlerLinkContact", &roverlab::crawlerLinkContact);
}
