// The one ghost rule of every terrain kind (pieces, heightfields, meshes).
//
// A wheel's touch c whose nearest point q lies on a seam (a piece's face
// shared with a neighbour, a triangle's edge or corner) is a ghost of a touch
// t of a feature through q when t is nearer to the wheel centre and t's
// nearest point does not rise above c's own face plane, towards the wheel, by
// more than a crease's sine (kCreaseSine; kPieceCreaseSine for pieces, whose
// 1.1 mm flush band needs a flatter one) of their distance apart: the surface
// continues flat or turns away (a convex crease), and the distance to the
// union of the features is t's. Where t rises more (a concave crease) both touches are
// real and the union law (contact/union_law.h) shares the load between them.
// Which features pass through q is each kind's adjacency, known when the
// terrain is built: a piece's shared patches, a grid's cells, a mesh's
// welded vertices.
#pragma once

#include "terrain/terrain.h"

namespace roverlab {

/// True when a nearer touch t, its nearest point `rise` (m) above c's own
/// face plane and `apart2` (m²) from c's squared, leaves the surface flat or
/// turning away from the wheel at c (no concave crease steeper than `sine`),
/// or is c's own point (apart2 ≤ tol2).
inline bool continuesOrTurnsAway(double rise, double apart2, double tol2,
                                 double sine = kCreaseSine) {
  return apart2 <= tol2 || rise <= 0 || rise * rise <= sine * sine * apart2;
}

}  // namespace roverlab
