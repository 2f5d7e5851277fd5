// Terrain pieces that overlap: two pieces filling the same space are ground
// counted twice under a wheel (and a file of identical pieces is the cheapest
// way to make a terrain expensive), so a terrain refuses them. Pieces that
// only touch, within kFlushTolerance, are seams and stay valid.
#pragma once

#include <vector>

#include "geometry/polytope.h"

namespace roverlab {

/// How deep two convex polytopes interpenetrate (m): the least overlap of
/// their projections over the separating axes (Gottschalk, Lin, Manocha,
/// "OBBTree", SIGGRAPH 1996: the face normals of both and the cross products
/// of their edge directions). At most `enough` when they overlap by more;
/// ≤ 0 when they are apart or touch.
double penetrationDepth(const Polytope& a, const Polytope& b, double enough);

struct PieceOverlap {
  int piece = -1;   ///< the later piece (the higher index)
  int other = -1;   ///< an earlier piece it overlaps
  double depth = 0; ///< penetration depth (m), > tolerance
};

/// Each piece that overlaps another by more than `tolerance` (m), at most
/// once, paired with one piece it overlaps; sorted by piece. A sweep over the
/// pieces' bounding boxes along x; a piece found overlapping is not compared
/// again, so n identical pieces cost O(n log n).
std::vector<PieceOverlap> findOverlaps(const std::vector<const Polytope*>& pieces, double tolerance);

}  // namespace roverlab
