// Seeded random point clouds and hand-made hostile shapes for the geometry
// tests. Everything is driven by std::mt19937_64 with fixed seeds, so a
// failure reproduces exactly.
#pragma once

#include <Eigen/Geometry>
#include <cmath>
#include <random>
#include <vector>

#include "common/types.h"

namespace shapes {

using roverlab::Vec3;
using Rng = std::mt19937_64;

inline double uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

inline Vec3 uniformBox(Rng& rng, const Vec3& lo, const Vec3& hi) {
  return Vec3(uniform(rng, lo.x(), hi.x()), uniform(rng, lo.y(), hi.y()),
              uniform(rng, lo.z(), hi.z()));
}

/// Uniform direction on the unit sphere.
inline Vec3 unitVector(Rng& rng) {
  std::normal_distribution<double> g;
  Vec3 v;
  do v = Vec3(g(rng), g(rng), g(rng));
  while (v.norm() < 1e-6);
  return v.normalized();
}

inline Eigen::Matrix3d randomRotation(Rng& rng) {
  std::normal_distribution<double> g;
  Eigen::Quaterniond q(g(rng), g(rng), g(rng), g(rng));
  q.normalize();
  return q.toRotationMatrix();
}

/// A random convex cloud: 6-12 points, either on/near a sphere (radius in
/// [0.2, 3], radial jitter up to 20 %) or in a random box, centred within ±5 m.
inline std::vector<Vec3> randomCloud(Rng& rng) {
  const int n = std::uniform_int_distribution<int>(6, 12)(rng);
  const Vec3 centre = uniformBox(rng, Vec3::Constant(-5), Vec3::Constant(5));
  std::vector<Vec3> pts;
  if (rng() % 2 == 0) {
    const double radius = uniform(rng, 0.2, 3.0);
    for (int i = 0; i < n; ++i)
      pts.push_back(centre + radius * uniform(rng, 0.8, 1.0) * unitVector(rng));
  } else {
    const Vec3 half = uniformBox(rng, Vec3::Constant(0.1), Vec3::Constant(2.0));
    for (int i = 0; i < n; ++i) pts.push_back(centre + uniformBox(rng, -half, half));
  }
  return pts;
}

/// Right prism over a regular n-gon of circumradius `radius`, axis along z,
/// z in [0, height].
inline std::vector<Vec3> regularPrism(int n, double radius, double height) {
  std::vector<Vec3> pts;
  for (int k = 0; k < n; ++k) {
    const double a = 2 * M_PI * k / n;
    pts.emplace_back(radius * std::cos(a), radius * std::sin(a), 0.0);
    pts.emplace_back(radius * std::cos(a), radius * std::sin(a), height);
  }
  return pts;
}

/// Axis-aligned box corners, lo..hi.
inline std::vector<Vec3> boxCorners(const Vec3& lo, const Vec3& hi) {
  std::vector<Vec3> pts;
  for (int i = 0; i < 8; ++i)
    pts.emplace_back(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(), i & 4 ? hi.z() : lo.z());
  return pts;
}

/// Random convex combination of points (strictly inside when they span a volume).
inline Vec3 randomInterior(Rng& rng, const std::vector<Vec3>& pts) {
  Vec3 p = Vec3::Zero();
  double sum = 0;
  for (const Vec3& q : pts) {
    const double w = uniform(rng, 0.05, 1.0);
    p += w * q;
    sum += w;
  }
  return p / sum;
}

/// Random strictly positive combination of directions, normalised.
inline Vec3 randomConeDirection(Rng& rng, const std::vector<Vec3>& dirs, double minWeight = 0.1) {
  Vec3 u = Vec3::Zero();
  for (const Vec3& d : dirs) u += uniform(rng, minWeight, 1.0) * d;
  return u.normalized();
}

}  // namespace shapes
