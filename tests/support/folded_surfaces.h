// Folded surfaces for the union-law tests: a ground z(u) made of planar faces
// that meet at folds (straight lines across the ground), u the distance along
// a direction in plan, written as a scenario's terrain in four ways: convex
// hulls one per face, hulls cut into more coplanar pieces, a heightmap (folds
// on its grid lines or along its cells' diagonals) and an irregular OBJ mesh
// (vertices at random along the folds and along lines inside the faces,
// joined by random diagonals).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace testing {

/// z(u) = the faces' heights, u = x cos β + y sin β (m).
struct FoldedSurface {
  double direction = 0;        ///< β (rad): 0 (folds across x) or −π/4 (grid diagonals)
  std::vector<double> folds;   ///< u of each fold, ascending (m)
  std::vector<double> slopes;  ///< dz/du of each face, folds.size() + 1 of them (-)
  double uMin = -2, uMax = 6;  ///< the ground's extent along u (m)
  double halfWidth = 1;        ///< the ground spans y ∈ [−halfWidth, halfWidth] (m)

  double u(double x, double y) const { return x * std::cos(direction) + y * std::sin(direction); }
  double height(double at) const {
    double z = 0, from = uMin;
    for (size_t k = 0; k < folds.size() && folds[k] < at; ++k)
      z += slopes[k] * (folds[k] - from), from = folds[k];
    const size_t face = faceAt(at);
    return z + slopes[face] * (at - from);
  }
  size_t faceAt(double at) const {
    size_t k = 0;
    while (k < folds.size() && folds[k] < at) ++k;
    return k;
  }
  /// A base level 1 m below the lowest point of the ground (m).
  double base() const {
    double low = std::min(height(uMin), height(uMax));
    for (double f : folds) low = std::min(low, height(f));
    return low - 1;
  }
  /// The plan x of the point of line u = `at` at `y`.
  double xOf(double at, double y) const {
    return (at - y * std::sin(direction)) / std::cos(direction);
  }
  /// The fold's angle (rad): > 0 concave (the ground turns up), < 0 convex.
  double foldAngle(size_t k) const { return std::atan(slopes[k + 1]) - std::atan(slopes[k]); }
};

inline std::string number(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

inline std::string point3(double x, double y, double z) {
  return "[" + number(x) + ", " + number(y) + ", " + number(z) + "]";
}

/// The heightmap's grid: cell (m) and origin x (m); its origin y is −halfWidth.
struct FoldGrid {
  double cell = 0.05;
  double x0 = -1.5;
};

/// A random surface: `folds` folds, the first at `firstAt` along the path
/// y = 0, then `spacing` (m) apart, each turning by an angle of random size
/// (uniform in degrees in [minFold, maxFold]) and sign, the faces' angles kept
/// within ±maxFace (degrees), the first face flat. Along a diagonal the folds
/// lie on the grid's diagonals (i − j constant), else on its lines. Sizes are
/// log-uniform, so small folds (where a ghost contact doubles the load) are as
/// frequent as large ones.
inline FoldedSurface randomFolded(std::mt19937& rng, int folds, double minFold, double maxFold,
                                  double maxFace, bool diagonal, double firstAt = 1.0,
                                  double spacing = 0.8, FoldGrid grid = {}) {
  FoldedSurface s;
  s.direction = diagonal ? -M_PI / 4 : 0;
  std::uniform_real_distribution<double> coin(0, 1);
  const auto size = [&](std::mt19937& g) { return minFold * std::pow(maxFold / minFold, coin(g)); };
  const double deg = M_PI / 180;
  double face = 0;
  s.slopes.push_back(0);
  for (int k = 0; k < folds; ++k) {
    // On the path (y = 0) u = x cos β; a fold on the grid: x − y on a multiple of
    // the cell from the grid's corner (x0, −halfWidth).
    const double x = firstAt + k * spacing;
    const double steps = std::round((x - grid.x0 - s.halfWidth) / grid.cell);
    const double onGrid = grid.x0 + s.halfWidth + steps * grid.cell;
    s.folds.push_back(diagonal ? onGrid / std::sqrt(2.0)
                               : grid.x0 + std::round((x - grid.x0) / grid.cell) * grid.cell);
    double turn = 0;
    for (int tries = 0; tries < 1000; ++tries) {  // a turn that keeps the face within ±maxFace
      turn = size(rng) * (coin(rng) < 0.5 ? -1 : 1);
      if (std::abs(face + turn) <= maxFace) break;
    }
    face += turn;
    s.slopes.push_back(std::tan(face * deg));
  }
  return s;
}

/// `hulls` of a scenario's terrain: one prism per face (and, with `cuts`,
/// each face cut once more along u and once along y into coplanar pieces).
inline std::string hullsJson(const FoldedSurface& s, bool cuts, std::mt19937& rng) {
  const double base = s.base();
  std::vector<double> us{s.uMin};
  std::uniform_real_distribution<double> inside(0.2, 0.8);
  for (size_t k = 0; k <= s.folds.size(); ++k) {
    const double lo = k ? s.folds[k - 1] : s.uMin;
    const double hi = k < s.folds.size() ? s.folds[k] : s.uMax;
    if (cuts) us.push_back(lo + inside(rng) * (hi - lo));
    us.push_back(hi);
  }
  std::vector<double> ys{-s.halfWidth, s.halfWidth};
  if (cuts)
    ys = {-s.halfWidth, std::uniform_real_distribution<double>(-0.6, 0.6)(rng), s.halfWidth};
  std::string out;
  for (size_t i = 0; i + 1 < us.size(); ++i)
    for (size_t j = 0; j + 1 < ys.size(); ++j) {
      std::string points;
      for (double u : {us[i], us[i + 1]})
        for (double y : {ys[j], ys[j + 1]})
          for (double z : {s.height(u), base})
            points += (points.empty() ? "" : ", ") + point3(s.xOf(u, y), y, z);
      out += std::string(out.empty() ? "" : ", ") + R"({"points": [)" + points + "]}";
    }
  return R"("hulls": [)" + out + "]";
}

/// `heightmaps` of a scenario's terrain: the surface sampled on `grid` over
/// x from grid.x0 to the surface's end on the path, y across its width.
inline std::string heightmapJson(const FoldedSurface& s, FoldGrid grid = {}) {
  const double xEnd = s.xOf(s.uMax, 0) - 0.5;
  const int nx = static_cast<int>(std::floor((xEnd - grid.x0) / grid.cell)) + 1;
  const int ny = static_cast<int>(std::lround(2 * s.halfWidth / grid.cell)) + 1;
  std::string rows;
  for (int j = 0; j < ny; ++j) {
    std::string row;
    for (int i = 0; i < nx; ++i) {
      const double x = grid.x0 + i * grid.cell, y = -s.halfWidth + j * grid.cell;
      row += (i ? ", " : "") + number(s.height(s.u(x, y)));
    }
    rows += std::string(j ? ", " : "") + "[" + row + "]";
  }
  return R"("heightmaps": [{"origin": [)" + number(grid.x0) + ", " + number(-s.halfWidth) +
         R"(], "cell": )" + number(grid.cell) + R"(, "base": )" + number(s.base()) +
         R"(, "heights": [)" + rows + "]}]";
}

/// `meshes` of a scenario's terrain: lines u = const at the folds, at the
/// ends and at a random u inside each face, each with vertices at its ends
/// (y = ±halfWidth) and 2-6 random y between; neighbouring lines joined by
/// triangles chosen by walking both lines by y (random diagonals), windings
/// mixed.
inline std::string meshJson(const FoldedSurface& s, std::mt19937& rng) {
  std::vector<double> us{s.uMin};
  std::uniform_real_distribution<double> inside(0.15, 0.85), across(-1, 1);
  std::uniform_int_distribution<int> count(2, 6);
  for (size_t k = 0; k <= s.folds.size(); ++k) {
    const double lo = k ? s.folds[k - 1] : s.uMin;
    const double hi = k < s.folds.size() ? s.folds[k] : s.uMax;
    us.push_back(lo + inside(rng) * (hi - lo));
    us.push_back(hi);
  }
  std::string obj;
  std::vector<std::vector<std::pair<int, double>>> lines;  // per line: (vertex id, y)
  int next = 1;
  for (double u : us) {
    std::vector<double> ys{-s.halfWidth, s.halfWidth};
    for (int k = count(rng); k > 0; --k) ys.push_back(across(rng) * 0.98 * s.halfWidth);
    std::sort(ys.begin(), ys.end());
    std::vector<std::pair<int, double>> line;
    for (double y : ys) {
      obj += "v " + number(s.xOf(u, y)) + " " + number(y) + " " + number(s.height(u)) + "\\n";
      line.push_back({next++, y});
    }
    lines.push_back(line);
  }
  // Walk two neighbouring lines by y: each triangle advances one of them.
  std::uniform_int_distribution<int> flip(0, 1);
  for (size_t l = 0; l + 1 < lines.size(); ++l) {
    const std::vector<std::pair<int, double>>&a = lines[l], &b = lines[l + 1];
    size_t i = 0, j = 0;
    while (i + 1 < a.size() || j + 1 < b.size()) {
      const bool advanceA =
          j + 1 >= b.size() || (i + 1 < a.size() && a[i + 1].second <= b[j + 1].second);
      int t[3] = {a[i].first, b[j].first, advanceA ? a[i + 1].first : b[j + 1].first};
      if (flip(rng)) std::swap(t[1], t[2]);
      obj += "f " + std::to_string(t[0]) + " " + std::to_string(t[1]) + " " + std::to_string(t[2]) +
             "\\n";
      (advanceA ? i : j) += 1;
    }
  }
  return R"("meshes": [{"base": )" + number(s.base()) + R"(, "obj": ")" + obj + R"("}])";
}

}  // namespace testing
