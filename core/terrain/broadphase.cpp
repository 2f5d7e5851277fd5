#include "terrain/broadphase.h"

#include <algorithm>
#include <cmath>

namespace roverlab {
namespace {

// Grid cell range covered by [lo, hi] along one axis, clamped to the grid.
void cellRange(double lo, double hi, double origin, double cell, int n, int& a, int& b) {
  // Clamp in floating point first: an unbounded query must not overflow int.
  const double top = n - 1;
  a = static_cast<int>(std::clamp(std::floor((lo - origin) / cell), 0.0, top));
  b = static_cast<int>(std::clamp(std::floor((hi - origin) / cell), 0.0, top));
}

}  // namespace

Broadphase buildBroadphase(const std::vector<Aabb>& boxes) {
  Broadphase bp;
  bp.boxes = boxes;
  if (boxes.empty()) return bp;
  Aabb all;
  std::vector<double> sizes;
  sizes.reserve(boxes.size());
  for (const Aabb& b : boxes) {
    all.grow(b.min);
    all.grow(b.max);
    sizes.push_back(std::max(b.max.x() - b.min.x(), b.max.y() - b.min.y()));
  }
  // Cell edge: the median piece footprint, so a typical piece spans a few cells;
  // then widened until the grid has at most ~4 cells per piece.
  std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
  const double ex = std::max(all.max.x() - all.min.x(), 1e-6);
  const double ey = std::max(all.max.y() - all.min.y(), 1e-6);
  double cell = std::max(sizes[sizes.size() / 2], 1e-3);
  const double maxCells = 4.0 * static_cast<double>(boxes.size()) + 16.0;
  while ((ex / cell + 1) * (ey / cell + 1) > maxCells) cell *= 1.5;
  bp.cell = cell;
  bp.originX = all.min.x();
  bp.originY = all.min.y();
  bp.nx = static_cast<int>(ex / cell) + 1;
  bp.ny = static_cast<int>(ey / cell) + 1;

  // Counting sort of (cell, piece) pairs into compressed rows.
  const size_t ncell = static_cast<size_t>(bp.nx) * bp.ny;
  bp.cellStart.assign(ncell + 1, 0);
  auto forCells = [&](const Aabb& b, auto&& fn) {
    int x0, x1, y0, y1;
    cellRange(b.min.x(), b.max.x(), bp.originX, cell, bp.nx, x0, x1);
    cellRange(b.min.y(), b.max.y(), bp.originY, cell, bp.ny, y0, y1);
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) fn(static_cast<size_t>(y) * bp.nx + x);
  };
  for (const Aabb& b : boxes) forCells(b, [&](size_t c) { ++bp.cellStart[c + 1]; });
  for (size_t c = 0; c < ncell; ++c) bp.cellStart[c + 1] += bp.cellStart[c];
  bp.items.resize(bp.cellStart[ncell]);
  std::vector<std::uint32_t> fill(bp.cellStart.begin(), bp.cellStart.end() - 1);
  bp.firstX.resize(boxes.size());
  bp.firstY.resize(boxes.size());
  for (size_t i = 0; i < boxes.size(); ++i) {
    int last;
    cellRange(boxes[i].min.x(), boxes[i].max.x(), bp.originX, cell, bp.nx, bp.firstX[i], last);
    cellRange(boxes[i].min.y(), boxes[i].max.y(), bp.originY, cell, bp.ny, bp.firstY[i], last);
  }
  for (size_t i = 0; i < boxes.size(); ++i)
    forCells(boxes[i], [&](size_t c) { bp.items[fill[c]++] = static_cast<std::uint32_t>(i); });
  return bp;
}

void queryBroadphase(const Broadphase& bp, const Aabb& query, std::vector<int>& out) {
  // An empty, inverted or NaN query box overlaps nothing.
  if (bp.nx == 0 || !(query.min.array() <= query.max.array()).all()) return;
  const double fx = bp.originX + bp.nx * bp.cell, fy = bp.originY + bp.ny * bp.cell;
  if (query.max.x() < bp.originX || query.min.x() > fx || query.max.y() < bp.originY ||
      query.min.y() > fy)
    return;
  int x0, x1, y0, y1;
  cellRange(query.min.x(), query.max.x(), bp.originX, bp.cell, bp.nx, x0, x1);
  cellRange(query.min.y(), query.max.y(), bp.originY, bp.cell, bp.ny, y0, y1);
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const size_t c = static_cast<size_t>(y) * bp.nx + x;
      for (std::uint32_t k = bp.cellStart[c]; k < bp.cellStart[c + 1]; ++k) {
        const std::uint32_t i = bp.items[k];
        // Reported once: from the first cell of the query the box lies in.
        if (std::max(bp.firstX[i], x0) != x || std::max(bp.firstY[i], y0) != y) continue;
        if (bp.boxes[i].overlaps(query)) out.push_back(static_cast<int>(i));
      }
    }
}

}  // namespace roverlab
