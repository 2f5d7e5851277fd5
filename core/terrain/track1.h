// Track1 ([KJ2025] §2.4): the polyline the rover's left wheels follow. Its
// inner nodes lie on the intersection lines of adjacent left-row quad planes,
// which are the quads' shared edges; moving a node by one coordinate keeps it
// on its line and recomputes the other two.
#pragma once

#include <vector>

#include "common/types.h"
#include "terrain/builders.h"

namespace roverlab {

struct Track1Node {
  Vec3 point = Vec3::Zero();      ///< node position (m)
  Vec3 linePoint = Vec3::Zero();  ///< start of the node's edge on its line (m)
  Vec3 lineDir = Vec3::Zero();    ///< unit direction of the line
  double edgeLength = 0.0;  ///< the edge (the left row's part of the line) ends at linePoint +
                            ///< edgeLength·lineDir (m)
  Vec3 normal =
      Vec3::Zero();  ///< surface normal shown to the user: mean of adjacent quads' normals
};

/// Automatic Track1: one node on the near edge of the first quad, one on each
/// shared edge, one on the far edge of the last; each at fraction `lateral`
/// (0 = at a, 1 = at b) along its edge.
Expected<std::vector<Track1Node>> makeTrack1(const std::vector<Quad>& leftRow,
                                             double lateral = 0.5);

/// Moves node to the point of its line whose coordinate `axis` (0 = x, 1 = y,
/// 2 = z) equals `value`. Issue when the line is (nearly) perpendicular to the
/// axis, the value is not finite, or the point would leave the left row (lie
/// beyond the ends of the node's edge): Track1 nodes stay on the left part.
Expected<Track1Node> moveTrack1Node(const Track1Node& node, int axis, double value);

/// Position along the node's edge (m from linePoint) of a point of its line;
/// issue when it lies off the line or beyond the edge's ends.
Expected<double> track1Along(const Track1Node& node, const Vec3& point);

}  // namespace roverlab
