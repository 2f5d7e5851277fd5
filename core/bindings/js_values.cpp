#include "bindings/js_values.h"

#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>

#include "common/size_optimized.h"
#include "scenario/json_input.h"
#include "sim/describe.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

/// Triangle mesh of a polytope for display: its hull vertices and each face
/// (a convex polygon, CCW seen from outside) fan-triangulated, CCW kept.
val pieceMesh(const TerrainPiece& piece) {
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
  mesh.set("kind", std::string("piece"));
  mesh.set("color", piece.color);
  mesh.set("vertices", toTypedArray(vertices));
  mesh.set("indices", toTypedArray(indices));
  return mesh;
}

/// A mesh terrain for display: its triangles, and its walls down to the base
/// (each a quad of two triangles, CCW seen from outside), as a piece is given.
val triMeshToJs(const TriMesh& m) {
  std::vector<float> vertices;
  const size_t n = m.vertices.size();
  vertices.reserve(6 * n);
  for (double level : {0.0, 1.0})  // the vertices, then their feet at the base
    for (const Vec3& v : m.vertices) {
      vertices.push_back(static_cast<float>(v.x()));
      vertices.push_back(static_cast<float>(v.y()));
      vertices.push_back(static_cast<float>(level == 0.0 ? v.z() : m.base));
    }
  std::vector<std::uint32_t> indices;
  indices.reserve(3 * m.triangles.size() + 6 * m.walls.size());
  for (const std::array<int, 3>& t : m.triangles)
    for (int v : t) indices.push_back(static_cast<std::uint32_t>(v));
  for (const std::array<int, 2>& w : m.walls) {
    // Top edge a→b with the mesh on its left: seen from outside, b, a, a's foot, b's foot.
    const auto a = static_cast<std::uint32_t>(w[0]), b = static_cast<std::uint32_t>(w[1]);
    const auto af = static_cast<std::uint32_t>(w[0] + n), bf = static_cast<std::uint32_t>(w[1] + n);
    indices.insert(indices.end(), {b, a, af, b, af, bf});
  }
  val mesh = val::object();
  mesh.set("kind", std::string("mesh"));
  mesh.set("color", m.color);
  mesh.set("vertices", toTypedArray(vertices));
  mesh.set("indices", toTypedArray(indices));
  return mesh;
}

}  // namespace

val jsonToJs(const nlohmann::json& j) {
  using Type = nlohmann::json::value_t;
  switch (j.type()) {
    case Type::object: {
      val out = val::object();
      for (const auto& [key, value] : j.items()) out.set(key, jsonToJs(value));
      return out;
    }
    case Type::array: {
      val out = val::array();
      for (const nlohmann::json& item : j) out.call<void>("push", jsonToJs(item));
      return out;
    }
    case Type::string:
      return val(j.get_ref<const std::string&>());
    case Type::boolean:
      return val(j.get<bool>());
    case Type::number_integer:
    case Type::number_unsigned:
    case Type::number_float: {
      const double v = j.get<double>();
      return std::isfinite(v) ? val(v) : val::null();
    }
    default:  // null, discarded, binary
      return val::null();
  }
}

val issuesToJs(const std::vector<Issue>& issues) { return jsonToJs(describeIssues(issues)); }

val issuesResult(const std::vector<Issue>& issues) {
  val result = val::object();
  result.set("ok", false);
  result.set("issues", issuesToJs(issues));
  return result;
}

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
  // Its UTF-16 length bounds its UTF-8 size from below, so a longer string is
  // refused before it is copied into WASM memory.
  if (!(v["length"].as<double>() <= static_cast<double>(kMaxDocumentBytes)))
    return Expected<std::string>::failure("", "the document is longer than " +
                                                  std::to_string(kMaxDocumentBytes) +
                                                  " bytes (16 MiB), the limit");
  return v.as<std::string>();
}

val vec2ToJs(const Vec2& v) {
  val a = val::array();
  a.call<void>("push", v.x());
  a.call<void>("push", v.y());
  return a;
}

val vec3ToJs(const Vec3& v) {
  val a = val::array();
  for (int k = 0; k < 3; ++k) a.call<void>("push", v[k]);
  return a;
}

val pointsToJs(const std::vector<Vec3>& points) {
  val list = val::array();
  for (const Vec3& p : points) list.call<void>("push", vec3ToJs(p));
  return list;
}

double numberField(const val& obj, const char* name, double fallback, const std::string& prefix,
                   std::vector<Issue>& issues) {
  if (obj.isUndefined() || obj.isNull()) return fallback;
  const val v = obj[name];
  if (v.isUndefined() || v.isNull()) return fallback;
  if (!v.isNumber()) {
    issues.push_back({prefix.empty() ? name : prefix + "." + name, "must be a number"});
    return fallback;
  }
  return v.as<double>();
}

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

val terrainToJs(const Terrain& terrain) {
  val pieces = val::array();
  for (const TerrainPiece& piece : terrain.pieces) pieces.call<void>("push", pieceMesh(piece));
  val fields = val::array();
  for (const Heightfield& f : terrain.heightfields) {
    val field = val::object();
    field.set("origin", toTypedArray(std::vector<double>{f.originX, f.originY}));
    field.set("cell", toTypedArray(std::vector<double>{f.dx, f.dy}));
    field.set("nx", f.nx);
    field.set("ny", f.ny);
    field.set("base", f.base);
    field.set("color", f.color);
    field.set("heights", toTypedArray(f.heights));
    fields.call<void>("push", field);
  }
  val meshes = val::array();
  for (const TriMesh& m : terrain.meshes) meshes.call<void>("push", triMeshToJs(m));
  // The contact feature ids (frame slots' "feature"): the pieces, then each
  // heightmap's triangles (2 per cell, row by row) and walls, then each
  // mesh's triangles and walls.
  val features = val::array();
  const auto range = [&](const char* kind, int index, int first, long triangles, long walls) {
    val r = val::object();
    r.set("kind", std::string(kind));
    r.set("index", index);
    r.set("first", first);
    r.set("triangles", static_cast<double>(triangles));
    r.set("walls", static_cast<double>(walls));
    features.call<void>("push", r);
    return r;
  };
  range("piece", 0, 0, static_cast<long>(terrain.pieces.size()), 0);
  for (size_t k = 0; k < terrain.heightfields.size(); ++k) {
    const Heightfield& f = terrain.heightfields[k];
    range("heightmap", static_cast<int>(k), terrain.heightfieldFirst[k], f.triangleCount(),
          f.wallCount())
        .set("cellsX", f.cellsX());
  }
  for (size_t k = 0; k < terrain.meshes.size(); ++k) {
    const TriMesh& m = terrain.meshes[k];
    range("mesh", static_cast<int>(k), terrain.meshFirst[k], m.triangleCount(), m.wallCount());
  }
  val box = val::object();
  box.set("min", vec3ToJs(terrain.box.min));
  box.set("max", vec3ToJs(terrain.box.max));
  val out = val::object();
  out.set("pieces", pieces);
  out.set("heightmaps", fields);
  out.set("meshes", meshes);
  out.set("box", box);
  out.set("features", features);
  return out;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
