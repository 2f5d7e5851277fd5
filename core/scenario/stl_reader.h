// STL meshes (binary and ASCII) read into their triangles' corners, and the
// convex hull of a point set reduced to its vertices: how a URDF's collision
// mesh becomes a Hull collision shape (scenario/urdf_reader.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/types.h"

namespace roverlab {

/// Largest STL file read (bytes): 64 MiB.
constexpr std::size_t kMaxStlBytes = std::size_t{64} << 20;
/// Most triangles of one STL file.
constexpr long kMaxStlTriangles = 2000000;
/// Most points hullVertices returns.
constexpr std::size_t kMaxHullVertices = 4096;

struct StlMesh {
  /// The corners of the triangles, three per triangle in file order, as
  /// written (file units; URDF meshes are in m).
  std::vector<Vec3> vertices;
  long triangles = 0;
  bool binary = false;  ///< read as binary STL (else ASCII)
};

/// Reads STL bytes. Binary when the size is exactly 84 + 50 n bytes for the
/// triangle count n of bytes 80-83 (little-endian), even when the header
/// begins with "solid"; else ASCII when the file begins with "solid" and
/// holds a "facet"; else binary, and refused for its size. Refuses, with a
/// message that says what and where (an ASCII line, a binary triangle), a
/// file over kMaxStlBytes, more than kMaxStlTriangles triangles, a binary
/// size that does not match its count (truncated or with bytes left over), a
/// coordinate that is not a finite number, an ASCII facet that is not three
/// vertices in an outer loop. Issues have an empty path (the caller names the
/// file). The normals and binary attribute bytes are not read.
Expected<StlMesh> readStl(const std::string& bytes);

/// The vertices of the convex hull of `points`, and how they were found.
struct HullVertices {
  /// Hull vertices: input points, exactly as given, each once.
  std::vector<Vec3> points;
  /// 3 for a solid hull; 2 when the points lie in a plane (points: the
  /// vertices of their convex polygon), 1 on a line (the two ends), 0 at one
  /// point (that point), -1 for no finite point (points empty).
  int dimension = -1;
  /// Vertices of the whole hull; more than points.size() when it had more
  /// than the maximum and was thinned.
  std::size_t hullSize = 0;
  /// Thinned: the edge of the grid cells (same unit as the points) of which
  /// each kept one hull vertex, the one farthest from the hull's centre; 0
  /// when not thinned. The kept points' hull lies inside the whole hull and
  /// within about cell·√3 of it.
  double cell = 0.0;
};

/// The convex hull's vertices (3-D quickhull). A point within 1e-7 of the
/// points' bounding-box diagonal of the hull (or within the rounding error of
/// its coordinates, if larger) counts as inside it, so the hull of the
/// returned points holds every input point to that tolerance; points with a
/// non-finite coordinate are skipped. At most `maxPoints` (≥ 4) points are
/// returned: a larger hull is thinned on a grid (HullVertices::cell). Time
/// about n log n for n points.
HullVertices hullVertices(const std::vector<Vec3>& points,
                          std::size_t maxPoints = kMaxHullVertices);

}  // namespace roverlab
