// A triangle mesh terrain: a 2.5-D surface (a scanned rubble patch, a stair
// exported from CAD), one height over each point of the ground plane it
// covers. Each triangle is the top of a prism down to `base`; the mesh's open
// edges (used by one triangle) are its walls, down to `base` as well.
//
// Vertices that coincide are one vertex, so triangles that share an edge or a
// corner share its vertex indices: the contact queries know from them which
// features meet (contact/mesh_contact.h), as a heightfield knows from its
// grid. Triangles and walls are kept in uniform grids over the plane, one per
// size class (MeshGridLevel), so that a few long features (a ground plane
// around a scanned patch) do not widen every query over the fine grid.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/types.h"

namespace roverlab {

/// Most triangles a mesh may have, and most in all the meshes of a terrain
/// (docs/scenario-format.md, "Limits"): about 60 MB of mesh and grid.
constexpr long kMaxMeshTriangles = 1000000;

/// Steepest a mesh triangle may be: its unit normal's z at least this (a slope
/// of 89.94°). Steeper triangles are vertical walls, which a 2.5-D surface
/// has only at its open edges.
constexpr double kMeshMinNormalZ = 1e-3;

/// One level of a mesh's grid: the features whose plan bounds are at most
/// about twice its cells' size (and wider than the level below allows).
/// Cell (i, j) covers [x + i·cell, +cell) × [y + j·cell, +cell) and lists
/// the level's features whose plan bounds' lower corner (least x, least y)
/// lies in it, each feature in one cell, in feature order.
struct MeshGridLevel {
  double x = 0.0, y = 0.0, cell = 1.0;  ///< (m)
  int gx = 1, gy = 1;                   ///< cells along x and y
  double reachX = 0.0, reachY = 0.0;    ///< its widest feature's plan bounds (m)
  std::vector<int> cellStart;           ///< gx·gy + 1 offsets into cellFeatures
  std::vector<int> cellFeatures;        ///< feature indices, by cell
  std::vector<float> cellTop;           ///< per cell: its features' highest point (m)
};

struct TriMesh {
  std::vector<Vec3> vertices;                 ///< (m), each position once
  std::vector<std::array<int, 3>> triangles;  ///< vertex indices, counter-clockwise from above
  std::vector<std::array<int, 2>> walls;      ///< open edges (a, b): the mesh lies left of a→b
  double base = -1.0;                         ///< bottom of the prisms (m), below every vertex
  int material = 0;                           ///< index into Terrain::materials
  std::uint32_t color = 0x8a8a80;             ///< display colour, 0xRRGGBB
  Aabb box;                                   ///< bounds (m), from base to the highest vertex
  double span = 0.0;  ///< the longest triangle edge in plan (m): a triangle's plan diameter

  /// The grid, finest level first; each feature is in exactly one level.
  std::vector<MeshGridLevel> levels;

  long triangleCount() const { return static_cast<long>(triangles.size()); }
  long wallCount() const { return static_cast<long>(walls.size()); }
  /// Contact features: the triangles, then the walls.
  long featureCount() const { return triangleCount() + wallCount(); }

  /// The vertices of triangle `t` (counter-clockwise seen from above).
  void triangle(long t, Vec3 out[3]) const;
  /// The four vertices of wall `w` (two on its top edge, two at the base),
  /// counter-clockwise seen from outside.
  void wall(long w, Vec3 out[4]) const;
  /// The features whose plan bounds may meet [x0, x1] × [y0, y1] (m), written
  /// to `out` (cleared first), each once.
  void featuresNear(double x0, double y0, double x1, double y1, std::vector<int>& out) const;
  /// The features that may come within `radius` of `centre` (m), by their
  /// cells' bounds, written to `out` (cleared first), each once.
  void featuresNearSphere(const Vec3& centre, double radius, std::vector<int>& out) const;
  /// A height (m) above every feature whose plan bounds may meet
  /// [x0, x1] × [y0, y1] (m), by their cells' highest points; -infinity when
  /// there are none. The surface over that rectangle stays below it.
  double highestNear(double x0, double y0, double x1, double y1) const;
  /// The surface height at (x, y) and its triangle's upward unit normal (and
  /// index, if asked); false where no triangle covers (x, y). Triangles in
  /// cells whose highest point is below `above` (m) are passed over: where only
  /// they cover (x, y), the surface there is below `above` and the answer is false.
  bool surfaceAt(double x, double y, double& z, Vec3& normal, long* triangle = nullptr,
                 double above = -INFINITY) const;
  /// The height at (x, y) of triangle t's plane and its upward unit normal;
  /// false when t does not hold (x, y) in plan (within 1e-12 of the coordinates).
  bool heightOn(long t, double x, double y, double& z, Vec3& normal) const;
};

/// A mesh from vertices (m) and triangles (vertex indices, either winding):
/// finite vertices, valid indices, at most kMaxMeshTriangles triangles, none
/// steeper than kMeshMinNormalZ or overlapping another in plan (2.5-D), the
/// base below every vertex. Issues are at "vertices", "triangles" (naming the
/// first offending triangle by its index) or "base".
Expected<TriMesh> makeTriMesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles,
                              double base, int material = 0, std::uint32_t color = 0x8a8a80);

}  // namespace roverlab
