// Static broadphase over terrain pieces: a uniform grid in the ground plane
// (x, y) stored as compressed rows, so a query costs the same whatever the
// terrain's size. Terrain is static; the grid is built once.
#pragma once

#include <cstdint>
#include <vector>

#include "common/types.h"

namespace roverlab {

struct Broadphase {
  double originX = 0.0, originY = 0.0;       ///< grid corner (m)
  double cell = 1.0;                         ///< cell edge length (m)
  int nx = 0, ny = 0;                        ///< cells along x and y
  std::vector<std::uint32_t> cellStart;      ///< (nx*ny + 1): first entry of each cell in `items`
  std::vector<std::uint32_t> items;          ///< piece indices, grouped by cell
  std::vector<Aabb> boxes;                   ///< per piece: its bounding box (m)
  std::vector<std::int32_t> firstX, firstY;  ///< per piece: its lowest cell along x and y
};

Broadphase buildBroadphase(const std::vector<Aabb>& boxes);

/// Indices of boxes overlapping `query`, appended to `out` without duplicates:
/// a box in several cells of the query is reported from the first of them.
/// Reads the grid only (safe from several threads).
void queryBroadphase(const Broadphase& bp, const Aabb& query, std::vector<int>& out);

}  // namespace roverlab
