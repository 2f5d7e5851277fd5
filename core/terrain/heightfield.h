// A heightfield: ground given as heights on a regular grid (a digital
// elevation model, a height image, a generated rough field). It is one terrain
// piece type, stored as its grid (4 bytes per sample) and each cell's highest
// corner (4 bytes per cell) and each block of kBlock × kBlock cells' highest
// sample, for the queries to pass over cells out of reach;
// its triangles are made on demand by the contact queries
// (contact/heightfield_contact.h), so a 2048 × 2048 field costs 32 MB.
//
// Sample (i, j) lies at (origin.x + i·dx, origin.y + j·dy, heights[j·nx + i]):
// columns along +x, rows along +y. Cell (i, j) spans samples i..i+1, j..j+1 and
// is split along its diagonal from (i, j) to (i+1, j+1) into two triangles,
//   lower: (i, j), (i+1, j), (i+1, j+1)    upper: (i, j), (i+1, j+1), (i, j+1),
// each the top of a prism down to `base`. Outside the grid's rectangle the
// prisms' outer walls are the field's sides.
#pragma once

#include <cstdint>
#include <vector>

#include "common/types.h"

namespace roverlab {

/// Most samples a heightfield may have (a 2049 × 2049 grid: 2048 × 2048 cells),
/// and most in all the heightfields of a terrain (docs/scenario-format.md, "Limits").
constexpr long kMaxHeightfieldSamples = 2049L * 2049L;

/// The cells i0..i1 (along x) by j0..j1 (along y) of a heightfield, both
/// ends included: none when i0 > i1 or j0 > j1.
struct CellRange {
  int i0 = 0, i1 = -1;
  int j0 = 0, j1 = -1;
};

struct Heightfield {
  /// Cells along each side of a block (blockTop).
  static constexpr int kBlock = 8;

  double originX = 0.0, originY = 0.0;  ///< position of sample (0, 0) in the ground plane (m)
  double dx = 1.0, dy = 1.0;            ///< sample spacing along x and y (m)
  int nx = 0, ny = 0;                   ///< samples along x (columns) and y (rows)
  std::vector<float> heights;           ///< nx·ny heights (m), row j at [j·nx, (j+1)·nx)
  std::vector<float> cellTop;  ///< per cell (i, j) at [j·cellsX() + i]: its highest corner (m)
  /// per block of cells kBlock·bi .. kBlock·bi + kBlock − 1 along x (and
  /// likewise along y), at [bj·blocksX() + bi]: its highest cell top (m)
  std::vector<float> blockTop;
  double base = -1.0;              ///< bottom of the prisms (m), below every height
  int material = 0;                ///< index into Terrain::materials
  std::uint32_t color = 0x8a8a80;  ///< display colour, 0xRRGGBB
  Aabb box;                        ///< bounds (m), from base to the highest sample

  int cellsX() const { return nx - 1; }
  int cellsY() const { return ny - 1; }
  int blocksX() const { return (cellsX() + kBlock - 1) / kBlock; }
  int blocksY() const { return (cellsY() + kBlock - 1) / kBlock; }
  /// Triangles: two per cell, cell (i, j) has 2·(j·cellsX() + i) (lower) and + 1 (upper).
  long triangleCount() const { return 2L * cellsX() * cellsY(); }
  /// The id of cell (i, j)'s lower (upper = 0) or upper (upper = 1) triangle.
  long triangleId(long i, long j, int upper) const { return 2 * (j * cellsX() + i) + upper; }
  /// Walls: one per outer cell edge, south (j = 0), north, west (i = 0), east.
  long wallCount() const { return 2L * (cellsX() + cellsY()); }
  /// Contact features: the triangles, then the walls.
  long featureCount() const { return triangleCount() + wallCount(); }

  double height(int i, int j) const { return heights[static_cast<size_t>(j) * nx + i]; }
  Vec3 sample(int i, int j) const { return {originX + i * dx, originY + j * dy, height(i, j)}; }
  /// The vertices of triangle `t` (counter-clockwise seen from above).
  void triangle(long t, Vec3 out[3]) const;
  /// The four vertices of wall `w` (two on the top edge, two at the base),
  /// counter-clockwise seen from outside.
  void wall(long w, Vec3 out[4]) const;

  /// The surface height at (x, y) and its triangle's upward unit normal;
  /// false outside the grid's rectangle.
  bool surfaceAt(double x, double y, double& z, Vec3& normal) const;
  /// The surface height at (x, y), as surfaceAt gives it; false outside the grid's rectangle.
  bool heightAt(double x, double y, double& z) const;
};

/// What a heightfield is made from (makeHeightfield): its grid, base, material and colour.
struct HeightfieldSpec {
  double originX = 0.0, originY = 0.0;  ///< position of sample (0, 0) in the ground plane (m)
  double dx = 1.0, dy = 1.0;            ///< sample spacing along x and y (m), > 0
  int nx = 0, ny = 0;                   ///< samples along x (columns) and y (rows), ≥ 2 each
  std::vector<float> heights;           ///< nx·ny finite heights (m), row j at [j·nx, (j+1)·nx)
  double base = -1.0;                   ///< bottom of the prisms (m), below every height
  int material = 0;                     ///< index into Terrain::materials
  std::uint32_t color = 0x8a8a80;       ///< display colour, 0xRRGGBB
};

/// A heightfield from its spec (its heights moved in): nx, ny ≥ 2, positive
/// spacings, finite heights, the base below every height. Issues are at
/// "heights", "cell" or "base".
Expected<Heightfield> makeHeightfield(HeightfieldSpec spec);

}  // namespace roverlab
