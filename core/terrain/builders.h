// Terrain builders: two rows of quads ([KJ2025] editor), blocks, convex hulls
// and planar profiles ([SP2017]). Each returns pieces to add to a
// TerrainBuilder, or issues naming the offending field relative to the
// builder's input (callers prefix the scenario path).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/types.h"
#include "geometry/polytope.h"

namespace roverlab {

/// One segment of a quad row as typed in [KJ2025]'s editor: two vertices a, b
/// of the near side and the midpoint m of the far side. The far side is a
/// translate of the near one: a' = m + (a − b)/2, b' = m + (b − a)/2.
struct QuadSegment {
  Vec3 a = Vec3::Zero(), b = Vec3::Zero(), m = Vec3::Zero();  ///< (m)
};

/// A flat quadrilateral derived from a QuadSegment, with its plane data.
struct Quad {
  Vec3 corners[4];             ///< a, b, b', a' (m)
  Vec3 sideAB = Vec3::Zero();  ///< b − a (m)
  Vec3 sideAM = Vec3::Zero();  ///< a' − a (m), direction of the row
  Vec3 normal = Vec3::Zero();  ///< unit normal, pointing up (z > 0)
  double offset = 0.0;         ///< plane equation normal·x = offset (m)
};

/// Display colour (0xRRGGBB) of quad i of a row (side 0 = left, 1 = right):
/// a small palette in turn, as the paper's editor fills each quad with one of
/// a set of colours; the rows use different tones.
std::uint32_t quadColor(int side, size_t i);

/// Quad of a segment; issues on non-finite, coincident or vertical input.
Expected<Quad> makeQuad(const QuadSegment& s);

/// A row of segments; segment i+1 must start where segment i ends
/// (a_{i+1} = a'_i, b_{i+1} = b'_i within 1e-9 of the row's size) and run the
/// same way (a segment folding back over the previous one is an issue).
Expected<std::vector<Quad>> makeQuadRow(const std::vector<QuadSegment>& row);

/// Whether two quads overlap in plan view (projected on the xy plane) by more
/// than `tolerance` (m) across every separating direction; quads that only
/// touch along an edge do not overlap.
bool quadsOverlapInPlan(const Quad& p, const Quad& q, double tolerance);

/// Prism under a quad, extruded vertically down to z = base (m).
Expected<Polytope> quadPrism(const Quad& q, double base);

/// Box of size (sx, sy, sz) centred at c, turned by `yaw` (rad) about z.
Expected<Polytope> makeBox(const Vec3& centre, const Vec3& size, double yaw);

/// Wedge (ramp): ground footprint `length` × `width` starting at `start`
/// (middle of the low edge), rising along the yaw direction to `height` (m).
Expected<Polytope> makeWedge(const Vec3& start, double length, double width, double height,
                             double yaw);

/// Convex pieces under a planar ground profile z(x): the polyline (x, z) must
/// have non-decreasing x (vertical steps allowed). Consecutive segments are
/// merged while their slopes do not increase (the region under a concave chain
/// is convex), so each piece is a convex polygon extruded across the track
/// from y = -width/2 to width/2 and down to z = base ([SP2017] §2).
Expected<std::vector<Polytope>> makeProfile(const std::vector<Vec2>& polyline, double width,
                                            double base);

}  // namespace roverlab
