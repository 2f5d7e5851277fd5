// Convex hull by exhaustive face search: every triple of input points spans a
// candidate plane, kept when all points lie on one side. For the small point
// sets of terrain pieces (≤ kMaxHullPoints) this is simple and exact up to the
// tolerance, and it merges coplanar triangles into one face by construction.
#include "geometry/polytope.h"

#include <algorithm>
#include <cmath>

namespace roverlab {
namespace {

// Largest accepted coordinate (m): keeps squared lengths far from overflow.
constexpr double kMaxCoordinate = 1e9;

// Convex hull of 2-D points (Andrew's monotone chain), counter-clockwise,
// collinear points dropped. Returns indices into `pts`.
std::vector<int> hull2d(const std::vector<Vec2>& pts, double tol) {
  std::vector<int> order(pts.size());
  for (size_t i = 0; i < pts.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return pts[a].x() < pts[b].x() || (pts[a].x() == pts[b].x() && pts[a].y() < pts[b].y());
  });
  auto cross = [&](int o, int a, int b) {
    return (pts[a] - pts[o]).x() * (pts[b] - pts[o]).y() -
           (pts[a] - pts[o]).y() * (pts[b] - pts[o]).x();
  };
  std::vector<int> h(2 * order.size());
  int k = 0;
  for (int i : order) {
    while (k >= 2 && cross(h[k - 2], h[k - 1], i) <= tol) --k;
    h[k++] = i;
  }
  for (int j = static_cast<int>(order.size()) - 2, lo = k + 1; j >= 0; --j) {
    int i = order[j];
    while (k >= lo && cross(h[k - 2], h[k - 1], i) <= tol) --k;
    h[k++] = i;
  }
  h.resize(std::max(0, k - 1));
  return h;
}

}  // namespace

int Polytope::support(const Vec3& d) const {
  int best = 0;
  double bestDot = vertices[0].dot(d);
  for (int i = 1, n = static_cast<int>(vertices.size()); i < n; ++i) {
    double s = vertices[i].dot(d);
    if (s > bestDot) bestDot = s, best = i;
  }
  return best;
}

bool contains(const Polytope& poly, const Vec3& p, double tol) {
  for (const Plane& f : poly.faces)
    if (f.signedDistance(p) > tol) return false;
  return true;
}

Expected<Polytope> makeHull(const std::vector<Vec3>& input) {
  const int n = static_cast<int>(input.size());
  if (n < 4)
    return Expected<Polytope>::failure(
        "points", "a polytope needs at least 4 points, got " + std::to_string(n));
  if (n > kMaxHullPoints)
    return Expected<Polytope>::failure("points", "at most " + std::to_string(kMaxHullPoints) +
                                                     " points per piece, got " + std::to_string(n) +
                                                     "; split the shape into several pieces");
  for (int i = 0; i < n; ++i) {
    const std::string path = "points[" + std::to_string(i) + "]";
    if (!input[i].allFinite())
      return Expected<Polytope>::failure(path, "not finite: " + format(input[i]));
    if (input[i].cwiseAbs().maxCoeff() > kMaxCoordinate)
      return Expected<Polytope>::failure(path, "coordinate beyond ±1e9 m: " + format(input[i]));
  }

  Aabb box;
  for (const Vec3& p : input) box.grow(p);
  const double scale = (box.max - box.min).maxCoeff();
  if (!(scale > 1e-9))
    return Expected<Polytope>::failure("points", "all points coincide (extent below 1e-9 m)");
  const double tol = 1e-10 * scale;  // plane tolerance: ~1e6 ulps of the coordinates

  // Drop duplicates.
  std::vector<Vec3> pts;
  for (const Vec3& p : input) {
    bool dup = false;
    for (const Vec3& q : pts) dup = dup || (p - q).cwiseAbs().maxCoeff() <= tol;
    if (!dup) pts.push_back(p);
  }
  const int m = static_cast<int>(pts.size());

  // Volume check: farthest point from p0, from the line, from the plane.
  int i1 = 0, i2 = -1, i3 = -1;
  for (int i = 0; i < m; ++i)
    if ((pts[i] - pts[0]).squaredNorm() > (pts[i1] - pts[0]).squaredNorm()) i1 = i;
  const Vec3 axis = (pts[i1] - pts[0]).normalized();
  double best = 0;
  for (int i = 0; i < m; ++i) {
    double d = (pts[i] - pts[0]).cross(axis).norm();
    if (d > best) best = d, i2 = i;
  }
  if (i2 < 0 || best <= tol)
    return Expected<Polytope>::failure("points", "points are collinear; a polytope needs volume");
  const Vec3 normal0 = axis.cross(pts[i2] - pts[0]).normalized();
  best = 0;
  for (int i = 0; i < m; ++i) {
    double d = std::abs(normal0.dot(pts[i] - pts[0]));
    if (d > best) best = d, i3 = i;
  }
  if (i3 < 0 || best <= tol)
    return Expected<Polytope>::failure("points", "points are coplanar; a polytope needs volume");

  // Face planes: a triple's plane is a face when no point lies outside it. Of
  // the triples spanning one face, keep the widest for the best-conditioned normal.
  struct Candidate {
    Plane plane;
    double area2;
  };
  std::vector<Candidate> planes;
  for (int a = 0; a < m; ++a)
    for (int b = a + 1; b < m; ++b)
      for (int c = b + 1; c < m; ++c) {
        Vec3 nrm = (pts[b] - pts[a]).cross(pts[c] - pts[a]);
        const double area2 = nrm.norm();
        if (area2 <= tol * scale) continue;
        nrm /= area2;
        int above = 0, below = 0;
        for (int i = 0; i < m && !(above && below); ++i) {
          double s = nrm.dot(pts[i] - pts[a]);
          above += s > tol;
          below += s < -tol;
        }
        if (above && below) continue;
        if (above) nrm = -nrm;
        const Plane pl{nrm, nrm.dot(pts[a])};
        bool merged = false;
        for (Candidate& cand : planes) {
          if (cand.plane.normal.dot(nrm) > 1 - 1e-9 &&
              std::abs(cand.plane.offset - pl.offset) <= 2 * tol) {
            if (area2 > cand.area2) cand = {pl, area2};
            merged = true;
            break;
          }
        }
        if (!merged) planes.push_back({pl, area2});
      }

  // Each face's polygon: the points on its plane, ordered by a 2-D hull.
  Polytope poly;
  std::vector<int> remap(m, -1);
  for (const Candidate& cand : planes) {
    const Vec3& nrm = cand.plane.normal;
    const Vec3 u = nrm.unitOrthogonal();
    const Vec3 v = nrm.cross(u);
    std::vector<int> on;
    std::vector<Vec2> uv;
    for (int i = 0; i < m; ++i)
      if (std::abs(cand.plane.signedDistance(pts[i])) <= 2 * tol) {
        on.push_back(i);
        uv.emplace_back(u.dot(pts[i]), v.dot(pts[i]));
      }
    std::vector<int> ring = hull2d(uv, tol * scale);
    if (ring.size() < 3) continue;
    std::vector<int> face;
    for (int r : ring) {
      int i = on[r];
      if (remap[i] < 0) {
        remap[i] = static_cast<int>(poly.vertices.size());
        poly.vertices.push_back(pts[i]);
      }
      face.push_back(remap[i]);
    }
    poly.faces.push_back(cand.plane);
    poly.faceVertices.push_back(std::move(face));
  }
  if (poly.faces.size() < 4)
    return Expected<Polytope>::failure("points", "points do not enclose a volume");

  for (const Vec3& p : poly.vertices) {
    poly.box.grow(p);
    poly.centroid += p;
  }
  poly.centroid /= static_cast<double>(poly.vertices.size());
  poly.scale = scale;
  buildFaceEdges(poly);
  return poly;
}

void buildFaceEdges(Polytope& poly) {
  poly.edgeStart.assign(1, 0);
  poly.edges.clear();
  for (size_t f = 0; f < poly.faces.size(); ++f) {
    const std::vector<int>& ring = poly.faceVertices[f];
    for (size_t k = 0; k < ring.size(); ++k) {
      const Vec3& a = poly.vertices[ring[k]];
      const Vec3& b = poly.vertices[ring[(k + 1) % ring.size()]];
      // In-face normal of edge ab pointing out of the face (ring is CCW about n).
      Vec3 out = (b - a).cross(poly.faces[f].normal).normalized();
      poly.edges.push_back(FaceEdge{Plane{out, out.dot(a)}, ring[k], ring[(k + 1) % ring.size()]});
    }
    poly.edgeStart.push_back(static_cast<int>(poly.edges.size()));
  }
}

}  // namespace roverlab
