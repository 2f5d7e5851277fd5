// Basic value types shared by the whole core: vectors, bounding boxes and
// input errors that carry the path of the offending field.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace roverlab {

using Vec2 = Eigen::Vector2d;  ///< planar vector (x, z) in the planar model (m)
using Vec3 = Eigen::Vector3d;  ///< world vector: x forward, y left, z up (m)

/// Axis-aligned bounding box (m).
struct Aabb {
  Vec3 min = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 max = Vec3::Constant(-std::numeric_limits<double>::infinity());

  void grow(const Vec3& p) {
    min = min.cwiseMin(p);
    max = max.cwiseMax(p);
  }
  bool overlaps(const Aabb& o) const {
    return (min.array() <= o.max.array()).all() && (o.min.array() <= max.array()).all();
  }
};

/// One problem with user input: `path` names the field (e.g.
/// `terrain.quads.left[3].a`), `message` says what is wrong with it.
struct Issue {
  std::string path;
  std::string message;
};

/// A value or the list of problems that prevented building it.
template <class T>
class Expected {
 public:
  Expected(T value) : value_(std::move(value)), ok_(true) {}  // NOLINT: implicit by design
  Expected(std::vector<Issue> issues) : issues_(std::move(issues)) {}  // NOLINT
  static Expected failure(std::string path, std::string message) {
    return Expected(std::vector<Issue>{{std::move(path), std::move(message)}});
  }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const T& value() const& { return value_; }
  T& value() & { return value_; }
  T&& value() && { return std::move(value_); }
  const std::vector<Issue>& issues() const { return issues_; }
  /// All issues as "path: message" lines.
  std::string message() const {
    std::string out;
    for (const Issue& i : issues_) out += (out.empty() ? "" : "\n") + i.path + ": " + i.message;
    return out;
  }

 private:
  T value_{};
  std::vector<Issue> issues_;
  bool ok_ = false;
};

/// Prefixes every issue's path with `prefix` (e.g. "terrain.blocks[2]"); an
/// index path ("[3].m") joins without a dot.
inline std::vector<Issue> prefixed(const std::string& prefix, std::vector<Issue> issues) {
  for (Issue& i : issues)
    i.path = i.path.empty() ? prefix : prefix + (i.path.front() == '[' ? "" : ".") + i.path;
  return issues;
}

/// Formats a vector for messages: "(x, y, z)".
std::string format(const Vec3& v);
/// Formats a number for messages, 6 significant digits ("0.65", "1e-06").
std::string format(double v);
/// The same with `digits` significant digits.
std::string format(double v, int digits);

}  // namespace roverlab
