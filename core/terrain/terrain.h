// Terrain: many convex polytopes, each with a material and a colour, plus a
// static broadphase and the flush-seam data that keeps abutting pieces from
// producing ghost contacts. Immutable once built (see TerrainBuilder).
#pragma once

#include <cstdint>
#include <vector>

#include "geometry/polytope.h"
#include "terrain/broadphase.h"
#include "terrain/heightfield.h"
#include "terrain/material.h"
#include "terrain/trimesh.h"

namespace roverlab {

/// A convex polygon where a face of one piece lies flush against a face of a
/// neighbouring piece (the same plane, opposite normals, overlapping). The
/// surface continues across it, so a contact whose closest point lies on it
/// belongs to the neighbour when the query point is on the neighbour's side.
struct SharedPatch {
  int neighbour = -1;         ///< index of the abutting piece
  Plane plane;                ///< the owning piece's face plane (outward normal)
  std::vector<Vec3> polygon;  ///< patch vertices (m), convex, on the plane
  /// The lines of the polygon's sides of nonzero length, as planes square to
  /// `plane` (unit normal n × side / |side|, through the side's first vertex),
  /// made by setSides: a point's offsets from them decide whether the polygon covers it.
  std::vector<Plane> sides;

  /// Makes `sides` from `polygon` and `plane`.
  void setSides();
  /// True when q, projected along the plane's normal, falls inside the
  /// polygon or within `tol` (m) of a side's line.
  bool covers(const Vec3& q, double tol) const;
};

struct TerrainPiece {
  Polytope shape;
  int material = 0;                 ///< index into Terrain::materials
  std::uint32_t color = 0x8a8a80;   ///< display colour, 0xRRGGBB
  std::vector<SharedPatch> shared;  ///< flush contacts with neighbours
};

/// Faces of two pieces closer than this (m) count as flush: a gap, an
/// overlap or a misalignment of up to 1 mm between abutting pieces is a seam,
/// not an edge (typed coordinates, rounding, hand-built terrains).
constexpr double kFlushTolerance = 1.1e-3;

/// A crease whose faces turn by less than this (sine; about 3°) is treated as
/// flush by the contact queries of heightfields and meshes, one surface: a
/// touch there is left to the nearer one. Beyond it both are kept, and the
/// union law shares the load (contact/union_law.h); below it the union law
/// would give the farther touch nothing while the crease is narrower than
/// its kernel (kUnionWidth: 3.2° at a deflection of 10⁻⁴ r), so the threshold
/// saves work, not load.
constexpr double kCreaseSine = 0.05;

/// The same for convex pieces (0.06°): they take a point within
/// kFlushTolerance of a seam as on it, so at a flatter threshold a face's
/// touch inside a near-flat concave crease would be dropped as a ghost (and
/// appear with a share of the load 1.1 mm further on).
constexpr double kPieceCreaseSine = 1e-3;

/// Most pieces a scenario's terrain may have (the scenario reader's limit;
/// terrains built in code may have more): 10 000 boxes build in about 0.3 s
/// natively (docs/scenario-format.md, "Limits").
constexpr int kMaxPieces = 10000;

/// Terrain: convex pieces, heightfields and meshes. A contact names what it
/// touches by one id: a piece's index, or for a heightfield's or mesh's
/// triangle or wall its first id (after the pieces, the fields and the meshes
/// before it) plus the feature's index (featureCount()).
struct Terrain {
  std::vector<TerrainPiece> pieces;
  std::vector<Heightfield> heightfields;
  std::vector<int> heightfieldFirst;  ///< per heightfield: the id of its first feature
  std::vector<TriMesh> meshes;
  std::vector<int> meshFirst;  ///< per mesh: the id of its first feature
  std::vector<Material> materials;
  std::vector<double> peakAdhesion;  ///< per material: adhesionPeak (-)
  Broadphase broadphase;
  Aabb box;  ///< bounds of all pieces, heightfields and meshes (m)

  /// The heightfield a contact id belongs to, or -1 for a piece or a mesh.
  int heightfieldOf(int id) const;
  /// The mesh a contact id belongs to, or -1 for a piece or a heightfield.
  int meshOf(int id) const;
  /// The material index of a contact id's piece, heightfield or mesh.
  int materialOf(int id) const;
};

/// Collects pieces, then `build()` computes the broadphase and shared patches.
class TerrainBuilder {
 public:
  /// Adds a material and returns its index.
  int addMaterial(const Material& m);
  /// Adds a piece; returns its index.
  int addPiece(Polytope shape, int material = 0, std::uint32_t color = 0x8a8a80);
  /// Adds every piece of another terrain (materials are appended).
  void append(const Terrain& other);
  /// Adds a heightfield (its material an index as for pieces); returns its index.
  int addHeightfield(Heightfield field);
  /// Adds a mesh (its material an index as for pieces); returns its index.
  int addMesh(TriMesh mesh);
  int pieceCount() const { return static_cast<int>(pieces_.size()); }
  int heightfieldCount() const { return static_cast<int>(heightfields_.size()); }
  int meshCount() const { return static_cast<int>(meshes_.size()); }

  /// Finalises: broadphase, bounds, flush seams. At least one piece, heightfield or mesh is needed,
  /// no two may overlap by more than kFlushTolerance (issues at `pieces[i]`,
  /// naming the earlier piece `pieces[j]`), and at most kMaxBoundsPairs pairs
  /// of pieces may have overlapping bounds.
  Expected<Terrain> build() &&;

 private:
  std::vector<TerrainPiece> pieces_;
  std::vector<Heightfield> heightfields_;
  std::vector<TriMesh> meshes_;
  std::vector<Material> materials_;
};

/// Pieces whose bounding boxes overlap the box `query`, written to `out`
/// (cleared first) without duplicates.
void piecesNear(const Terrain& terrain, const Aabb& query, std::vector<int>& out);

/// The ground under a point: the highest surface of the terrain (pieces,
/// heightfields and meshes) on the vertical line through (x, y) that is not
/// above `zMax` (m), in `z`; false where nothing is under it. A piece's
/// surface there is the top of the line's stretch inside it. `near` is
/// scratch (its capacity is kept).
bool groundUnder(const Terrain& terrain, double x, double y, double zMax, double& z,
                 std::vector<int>& near);

}  // namespace roverlab
