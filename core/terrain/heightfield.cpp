#include "terrain/heightfield.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace roverlab {

void Heightfield::triangle(long t, Vec3 out[3]) const {
  const long cell = t / 2;
  const int i = static_cast<int>(cell % cellsX()), j = static_cast<int>(cell / cellsX());
  out[0] = sample(i, j);
  if (t % 2 == 0) {
    out[1] = sample(i + 1, j);
    out[2] = sample(i + 1, j + 1);
  } else {
    out[1] = sample(i + 1, j + 1);
    out[2] = sample(i, j + 1);
  }
}

void Heightfield::wall(long w, Vec3 out[4]) const {
  // Each wall's top edge runs so that the field lies on its left seen from
  // above: counter-clockwise around the field, the outside on the right.
  const int cx = cellsX(), cy = cellsY();
  Vec3 a, b;
  if (w < cx) {  // south, y = originY, along +x
    a = sample(static_cast<int>(w), 0), b = sample(static_cast<int>(w) + 1, 0);
  } else if ((w -= cx) < cx) {  // north, along −x
    a = sample(static_cast<int>(w) + 1, cy), b = sample(static_cast<int>(w), cy);
  } else if ((w -= cx) < cy) {  // west, x = originX, along −y
    a = sample(0, static_cast<int>(w) + 1), b = sample(0, static_cast<int>(w));
  } else {  // east, along +y
    w -= cy;
    a = sample(cx, static_cast<int>(w)), b = sample(cx, static_cast<int>(w) + 1);
  }
  // Seen from outside (the right of a→b), counter-clockwise: b, a, a's foot, b's foot.
  out[0] = b;
  out[1] = a;
  out[2] = Vec3(a.x(), a.y(), base);
  out[3] = Vec3(b.x(), b.y(), base);
}

namespace {

// The cell (i, j) holding (x, y) and the place in it (s, t) in [0, 1]², or
// false outside the grid's rectangle.
bool cellAt(const Heightfield& f, double x, double y, int& i, int& j, double& s, double& t) {
  const double u = (x - f.originX) / f.dx, v = (y - f.originY) / f.dy;
  if (!(u >= 0 && v >= 0 && u <= f.cellsX() && v <= f.cellsY())) return false;
  i = std::min(static_cast<int>(u), f.cellsX() - 1);
  j = std::min(static_cast<int>(v), f.cellsY() - 1);
  s = u - i, t = v - j;
  return true;
}

}  // namespace

bool Heightfield::surfaceAt(double x, double y, double& z, Vec3& normal) const {
  int i, j;
  double s, t;
  if (!cellAt(*this, x, y, i, j, s, t)) return false;
  const double h00 = height(i, j), h10 = height(i + 1, j), h01 = height(i, j + 1),
               h11 = height(i + 1, j + 1);
  double gx, gy;  // the triangle's slopes dz/dx, dz/dy
  if (s >= t) {   // lower triangle
    gx = (h10 - h00) / dx, gy = (h11 - h10) / dy;
    z = h00 + s * (h10 - h00) + t * (h11 - h10);
  } else {
    gx = (h11 - h01) / dx, gy = (h01 - h00) / dy;
    z = h00 + t * (h01 - h00) + s * (h11 - h01);
  }
  normal = Vec3(-gx, -gy, 1.0).normalized();
  return true;
}

bool Heightfield::heightAt(double x, double y, double& z) const {
  int i, j;
  double s, t;
  if (!cellAt(*this, x, y, i, j, s, t)) return false;
  const double h00 = height(i, j), h10 = height(i + 1, j), h01 = height(i, j + 1),
               h11 = height(i + 1, j + 1);
  z = s >= t ? h00 + s * (h10 - h00) + t * (h11 - h10) : h00 + t * (h01 - h00) + s * (h11 - h01);
  return true;
}

Expected<Heightfield> makeHeightfield(HeightfieldSpec spec) {
  const int nx = spec.nx, ny = spec.ny;
  std::vector<float>& heights = spec.heights;
  if (nx < 2 || ny < 2)
    return Expected<Heightfield>::failure("heights", "needs at least 2 × 2 samples (has " +
                                                         std::to_string(nx) + " × " +
                                                         std::to_string(ny) + ")");
  if (static_cast<long>(nx) * ny > kMaxHeightfieldSamples)
    return Expected<Heightfield>::failure(
        "heights", "has " + std::to_string(static_cast<long>(nx) * ny) +
                       " samples, more than the limit of " +
                       std::to_string(kMaxHeightfieldSamples) + " (2049 × 2049)");
  if (static_cast<size_t>(nx) * ny != heights.size())
    return Expected<Heightfield>::failure("heights", "has " + std::to_string(heights.size()) +
                                                         " samples, not " + std::to_string(nx) +
                                                         " × " + std::to_string(ny));
  if (!(spec.dx > 0 && spec.dy > 0 && std::isfinite(spec.dx) && std::isfinite(spec.dy)))
    return Expected<Heightfield>::failure("cell", "must be positive (m)");
  Heightfield f;
  f.originX = spec.originX, f.originY = spec.originY, f.dx = spec.dx, f.dy = spec.dy, f.nx = nx,
  f.ny = ny;
  float low = heights[0], high = heights[0];
  for (size_t k = 0; k < heights.size(); ++k) {
    if (!std::isfinite(heights[k]))
      return Expected<Heightfield>::failure("heights", "sample [" + std::to_string(k / nx) + "][" +
                                                           std::to_string(k % nx) +
                                                           "] is not a finite number");
    low = std::min(low, heights[k]), high = std::max(high, heights[k]);
  }
  if (!(spec.base < low))
    return Expected<Heightfield>::failure("base", "must lie below the lowest height " +
                                                      format(static_cast<double>(low)) + " m (is " +
                                                      format(spec.base) + " m)");
  f.heights = std::move(heights);
  f.cellTop.resize(static_cast<size_t>(nx - 1) * (ny - 1));
  for (int j = 0; j + 1 < ny; ++j) {
    const float* row = &f.heights[static_cast<size_t>(j) * nx];
    const float* next = row + nx;
    float* top = &f.cellTop[static_cast<size_t>(j) * (nx - 1)];
    for (int i = 0; i + 1 < nx; ++i)
      top[i] = std::max(std::max(row[i], row[i + 1]), std::max(next[i], next[i + 1]));
  }
  const int bx = f.blocksX(), cx = f.cellsX();
  f.blockTop.assign(static_cast<size_t>(bx) * f.blocksY(), -std::numeric_limits<float>::infinity());
  for (int j = 0; j < f.cellsY(); ++j) {
    const float* top = &f.cellTop[static_cast<size_t>(j) * cx];
    float* block = &f.blockTop[static_cast<size_t>(j / Heightfield::kBlock) * bx];
    for (int i = 0; i < cx; ++i)
      block[i / Heightfield::kBlock] = std::max(block[i / Heightfield::kBlock], top[i]);
  }
  f.base = spec.base, f.material = spec.material, f.color = spec.color;
  f.box.min = Vec3(spec.originX, spec.originY, spec.base);
  f.box.max = Vec3(spec.originX + (nx - 1) * spec.dx, spec.originY + (ny - 1) * spec.dy, high);
  return f;
}

}  // namespace roverlab
