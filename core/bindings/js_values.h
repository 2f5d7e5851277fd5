// Conversions between JS values and the core's types, shared by the bindings
// files (embind).
//
// Conventions of the module:
//  - Inputs are plain JS values (objects of numbers, arrays, typed arrays, the
//    scenario's JSON text); every call that can fail on user input returns
//    data, never throws: { ok: true, ... } or { ok: false, issues: [{ path,
//    message }, ...] }.
//  - What the core describes as JSON (sim/describe.h) is converted as it is
//    (jsonToJs), so the module and the command-line tool use the same keys.
//  - Bulk numbers (vertices, indices) come back as JS-owned typed arrays
//    (copies), so nothing on the JS side points into WASM memory.
#pragma once

#include <emscripten/val.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/types.h"
#include "terrain/terrain.h"

namespace roverlab {

using emscripten::val;

/// A JSON value as the JS value JSON.parse would give for its text
/// (non-finite numbers become null).
val jsonToJs(const nlohmann::json& j);

/// [{ path, message }, ...].
val issuesToJs(const std::vector<Issue>& issues);

/// { ok: false, issues: [{ path, message }, ...] }.
val issuesResult(const std::vector<Issue>& issues);

/// The JSON text of a scenario passed from JS: a string of at most
/// kMaxDocumentBytes, without lone UTF-16 surrogates; an issue otherwise.
Expected<std::string> jsonText(const val& v);

val vec2ToJs(const Vec2& v);
val vec3ToJs(const Vec3& v);
/// [[x, y, z], ...].
val pointsToJs(const std::vector<Vec3>& points);

/// Copies a vector into a new JS typed array (Float32Array, Uint32Array, ...).
template <class T>
val toTypedArray(const std::vector<T>& data) {
  return val(emscripten::typed_memory_view(data.size(), data.data())).call<val>("slice");
}

/// Reads an optional numeric field of a JS object; records an issue at
/// `prefix`.`name` when the field is present but not a number.
double numberField(const val& obj, const char* name, double fallback, const std::string& prefix,
                   std::vector<Issue>& issues);

/// A flat list of numbers from a JS array or typed array of at most 1 048 576
/// entries (a longer one is refused before anything is allocated for it); an
/// issue at `path` otherwise. Non-numbers become NaN.
bool numberList(const val& v, const std::string& path, std::vector<double>& out,
                std::vector<Issue>& issues);

/// Terrain meshes and bounds as the app draws them: { pieces: [{ kind, color,
/// vertices: Float32Array, indices: Uint32Array }], heightmaps: [{ origin,
/// cell, nx, ny, base, color, heights: Float32Array }], meshes: [as pieces,
/// kind 'mesh': the triangles and the walls down to the base], box: { min,
/// max } }; faces counter-clockwise seen from outside.
val terrainToJs(const Terrain& terrain);

}  // namespace roverlab
