// Terrain pieces that overlap: two pieces filling the same space are ground
// counted twice under a wheel (and a file of identical pieces is the cheapest
// way to make a terrain expensive), so a terrain refuses them. Pieces that
// only touch, within kFlushTolerance, are seams and stay valid.
#pragma once

#include <functional>
#include <vector>

#include "geometry/polytope.h"

namespace roverlab {

/// Most pairs of pieces with overlapping bounding boxes a terrain may have
/// (each costs a narrow-phase test when the terrain is built): a grid of
/// 10 000 boxes has ~40 000, only pieces piled on each other come near it.
constexpr long kMaxBoundsPairs = 1000000;

/// Calls `visit(i, j)` (i < j) for every pair of boxes that overlap by more
/// than `overlap` along each axis (a negative `overlap` also pairs boxes up to
/// −overlap apart), sweeping along the axis where the boxes' centres spread
/// most. Boxes with `dead[k]` set are not paired from then on (`visit` may set
/// it). Returns false, having stopped, when more than `budget` pairs were visited.
bool sweepPairs(const std::vector<Aabb>& boxes, double overlap, long budget, std::vector<char>& dead,
                const std::function<void(int, int)>& visit);

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
/// pieces' bounding boxes; a piece found overlapping is not compared again,
/// so n identical pieces cost O(n log n). False when the pieces' bounds form
/// more than kMaxBoundsPairs pairs (nothing is then known).
bool findOverlaps(const std::vector<const Polytope*>& pieces, double tolerance, std::vector<PieceOverlap>& found);

}  // namespace roverlab
