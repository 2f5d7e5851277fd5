// Terrains and wheel loads for the surface contact tests (heightfields and
// meshes checked against the same surface built from convex pieces).
#pragma once

#include <array>
#include <random>
#include <utility>
#include <vector>

#include "contact/wheel_contact.h"
#include "terrain/builders.h"
#include "terrain/terrain.h"

namespace testing {

/// The wheel of the surface contact tests: radius 0.19 m, width 0.12 m.
inline const roverlab::WheelShape kSurfaceWheel{0.19, 0.12};

/// A terrain of convex pieces.
inline roverlab::Terrain terrainOf(const std::vector<roverlab::Polytope>& pieces) {
  roverlab::TerrainBuilder tb;
  for (const roverlab::Polytope& p : pieces) tb.addPiece(p);
  return std::move(tb).build().value();
}

/// The prism under a planar polygon `top` (its corners, m) down to `base` (m).
inline roverlab::Polytope prismOf(std::vector<roverlab::Vec3> top, double base) {
  for (size_t k = 0, n = top.size(); k < n; ++k)
    top.push_back(roverlab::Vec3(top[k].x(), top[k].y(), base));
  return roverlab::makeHull(top).value();
}

/// The triangles of a grid of (n + 1) × (n + 1) vertices (row by row), each
/// square split along a random diagonal; `mixWindings`: each square's second
/// triangle turned clockwise at random.
inline std::vector<std::array<int, 3>> randomDiagonals(int n, std::mt19937& rng,
                                                       bool mixWindings = false) {
  std::vector<std::array<int, 3>> t;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int a = j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
      if (rng() % 2) {
        t.push_back({a, b, c}), t.push_back({a, c, d});
      } else {
        t.push_back({a, b, d}), t.push_back({b, c, d});
      }
      if (mixWindings && rng() % 2) std::swap(t.back()[1], t.back()[2]);
    }
  return t;
}

/// Σ share·deflection·normal (m) over kSurfaceWheel's contacts at `centre`: the
/// spring force per unit stiffness; `count` (if given) gets how many contacts.
inline roverlab::Vec3 load(const roverlab::Terrain& t, const roverlab::Vec3& centre,
                           const roverlab::Vec3& axle, int* count = nullptr) {
  std::vector<roverlab::WheelContact> out;
  roverlab::wheelContacts(t, kSurfaceWheel, centre, axle, out);
  if (count) *count = static_cast<int>(out.size());
  roverlab::Vec3 s = roverlab::Vec3::Zero();
  for (const roverlab::WheelContact& c : out) s += c.share * c.deflection * c.normal;
  return s;
}

}  // namespace testing
