// Reading a parsed scenario document field by field: every problem is an
// Issue with the JSON path of the field (`terrain.boxes[2].size`), every
// number is checked finite and within its documented range, unknown fields
// are issues (a typo never passes silently). Used by the scenario and
// terrain readers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/types.h"
#include "scenario/json_input.h"

namespace roverlab {

using json = nlohmann::json;

inline std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

inline std::string typeName(const json& j) {
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  return "null";
}

/// What a number field may hold, and its value when it holds none.
struct NumberSpec {
  double min = -INFINITY;  ///< smallest value allowed (included)
  double max = INFINITY;   ///< largest value allowed (included)
  std::string unit = "-";  ///< named in messages: "m", "rad/s", "-" (none)
  double fallback = 0.0;   ///< the value when the field is absent or invalid
  bool required = false;   ///< absent is an issue
};

/// A number within [min, max] in `unit`, `fallback` when absent.
inline NumberSpec within(double min, double max, std::string unit, double fallback = 0.0) {
  NumberSpec spec;
  spec.min = min;
  spec.max = max;
  spec.unit = std::move(unit);
  spec.fallback = fallback;
  return spec;
}

/// A coordinate of a point (m): within ±1e6 m.
inline NumberSpec coordinateSpec() { return within(-1e6, 1e6, "m"); }

/// The base of a heightmap or a mesh (m): within ±1e5 m, `fallback` when absent.
inline NumberSpec surfaceBaseSpec(double fallback) { return within(-1e5, 1e5, "m", fallback); }

// Reads fields of JSON objects, recording every problem with its path.
class Reader {
 public:
  std::vector<Issue> issues;

  void add(const std::string& path, const std::string& message) {
    issues.push_back({path, message});
  }
  void addAll(const std::string& path, const std::vector<Issue>& more) {
    for (const Issue& i : path.empty() ? more : prefixed(path, more)) issues.push_back(i);
  }

  static std::string at(const std::string& path, const std::string& key) {
    return path.empty() ? clipped(key) : path + "." + clipped(key);
  }
  static std::string at(const std::string& path, size_t i) {
    return path + "[" + std::to_string(i) + "]";
  }

  // Object check plus unknown-field detection (typos are errors, not silence).
  bool object(const json& j, const std::string& path, const std::set<std::string>& known) {
    if (!j.is_object()) {
      add(path, "must be an object, got " + typeName(j));
      return false;
    }
    for (const auto& [key, value] : j.items())
      if (!known.count(key))
        add(at(path, key),
            "unknown field (expected one of: " + join({known.begin(), known.end()}) + ")");
    return true;
  }

  // The number obj[key] as `spec` allows it; spec.fallback when absent (an
  // issue if required) or invalid.
  double number(const json& obj, const std::string& path, const std::string& key,
                const NumberSpec& spec) {
    const std::string p = at(path, key);
    if (!obj.contains(key)) {
      if (spec.required) add(p, "is required (a number in " + spec.unit + ")");
      return spec.fallback;
    }
    return numberValue(obj[key], p, spec);
  }

  // The number j (at path p) as `spec` allows it; spec.fallback when invalid.
  double numberValue(const json& j, const std::string& p, const NumberSpec& spec) {
    if (!j.is_number()) {
      add(p, "must be a number (" + spec.unit + "), got " + typeName(j));
      return spec.fallback;
    }
    const double v = j.get<double>();
    if (!std::isfinite(v)) {
      add(p, "must be a finite number");
      return spec.fallback;
    }
    if (v < spec.min || v > spec.max) {
      add(p, "must be in [" + format(spec.min) + ", " + format(spec.max) + "] " + spec.unit +
                 ", got " + format(v));
      return spec.fallback;
    }
    return v;
  }

  std::optional<Vec3> vec3(const json& j, const std::string& p, int minSize = 3) {
    if (!j.is_array() || static_cast<int>(j.size()) < minSize || j.size() > 3) {
      add(p, minSize == 3 ? "must be [x, y, z] in m" : "must be [x, y] or [x, y, z] in m");
      return std::nullopt;
    }
    const NumberSpec coordinate = coordinateSpec();
    Vec3 v = Vec3::Zero();
    bool ok = true;
    for (size_t i = 0; i < j.size(); ++i) {
      const size_t before = issues.size();
      v[i] = numberValue(j[i], at(p, i), coordinate);
      ok = ok && issues.size() == before;
    }
    if (!ok) return std::nullopt;
    return v;
  }

  std::string string(const json& obj, const std::string& path, const std::string& key,
                     const std::string& fallback, const std::vector<std::string>& allowed = {}) {
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

/// Colour of a terrain piece: "#rrggbb" at `path`.color, or `fallback`.
std::uint32_t colour(Reader& r, const json& obj, const std::string& path, std::uint32_t fallback);

/// At most kMaxIssues issues, then one that counts the rest: a file of 3 000
/// bad pieces gets a readable answer.
constexpr size_t kMaxIssues = 100;
std::vector<Issue> capped(std::vector<Issue> issues);

}  // namespace roverlab
