#include "contact/surface_contact.h"

#include <limits>

namespace roverlab {

namespace {

// closestOnPolygon for a quad (a wall): its K = 4 corners a constant, so
// that its loops unroll.
bool closestOnQuad(const Vec3* v, const Vec3& n, const Vec3& p, Vec3& q, int* corners) {
  constexpr int K = 4;
  // The side of each edge's line p is on: > 0 inside.
  double side[K];
  bool inside = true;
  for (int e = 0; e < K; ++e) {
    side[e] = (v[(e + 1) % K] - v[e]).cross(p - v[e]).dot(n);
    inside = inside && side[e] > 0;
  }
  const Vec3 onPlane = p - n.dot(p - v[0]) * n;
  if (inside) {
    q = onPlane;
    return true;
  }
  // The boundary point nearest p is the one nearest its projection (by
  // Pythagoras), whose distances are resolved far finer than p's own. It
  // lies on an edge whose line p is outside of (or on): the normal cone of a
  // convex polygon's edge or corner faces out of that edge or one beside it.
  double best = std::numeric_limits<double>::infinity();
  for (int e = 0; e < K; ++e) {
    if (side[e] > 0) continue;
    const Vec3& a = v[e];
    const Vec3 ab = v[(e + 1) % K] - a;
    const double t = std::clamp(ab.dot(onPlane - a) / ab.squaredNorm(), 0.0, 1.0);
    const Vec3 x = a + t * ab;
    const double d = (onPlane - x).squaredNorm();
    if (d < best) {
      best = d, q = x;
      if (corners) {
        // Within 1e-9 of the edge's length of a corner: that corner.
        corners[0] = t > 1 - 1e-9 ? (e + 1) % K : e;
        corners[1] = t < 1e-9 || t > 1 - 1e-9 ? -1 : (e + 1) % K;
      }
    }
  }
  return false;
}

}  // namespace

// The nearest point q of the convex polygon v[0..k) (counter-clockwise about
// its unit normal n) to p; true when q is inside the polygon, false when it is
// on its boundary. Then `corners` (if given) gets the polygon's corners that
// q's feature spans: corners[0] and corners[1] for an edge, corners[1] = -1
// for a corner. A triangle's by nearestOnTriangleBoundary (as a heightfield's
// triangles are found), a quad's from the sides of its edges p lies on.
bool closestOnPolygon(const Vec3* v, int k, const Vec3& n, const Vec3& p, Vec3& q, int* corners) {
  if (k != 3) return closestOnQuad(v, n, p, q, corners);
  // A triangle: by its Voronoi regions, relative to its first corner.
  const Vec3 b = v[1] - v[0], c = v[2] - v[0], r = p - v[0];
  const TriangleSides sides{{b.x(), b.y(), b.z()},
                            {c.x(), c.y(), c.z()},
                            {b.squaredNorm(), b.dot(c), c.squaredNorm(), (c - b).squaredNorm()}};
  double qx, qy, qz;
  int c0, c1;
  if (!nearestOnTriangleBoundary(sides, r.x(), r.y(), r.z(), qx, qy, qz, c0, c1)) {
    q = p - n.dot(r) * n;
    return true;
  }
  q = v[0] + Vec3(qx, qy, qz);
  if (corners) corners[0] = c0, corners[1] = c1;
  return false;
}

// The hit of `feature` with p, or false when p is beyond `radius`, or
// behind the feature when it is solid.
bool hitOf(const SurfaceFeature& feature, const Vec3& p, double radius, SurfaceHit& h) {
  const Vec3* v = feature.vertices;
  const Vec3& n = feature.normal;
  const long* ids = feature.vertexIds;
  if (std::abs(n.dot(p - v[0])) >= radius) return false;  // the plane is out of reach already
  int corners[2] = {-1, -1};
  const bool interior = closestOnPolygon(v, feature.count, n, p, h.closest, corners);
  for (int c = 0; c < 3; ++c) h.corners[c] = ids ? ids[c] : -1;
  h.samples[0] = ids && !interior ? ids[corners[0]] : -1;
  h.samples[1] = ids && !interior && corners[1] >= 0 ? ids[corners[1]] : -1;
  const Vec3 gap = p - h.closest;
  const double d = gap.norm();
  if (d >= radius || (feature.solid && gap.dot(n) < 0)) return false;
  h.feature = feature.id;
  h.face = n;
  h.distance = d;
  h.normal = d > 1e-12 ? Vec3(gap / d) : n;
  h.boundary = !interior;
  return true;
}

bool wallHit(long id, const Vec3 v[4], const Vec3& p, double radius, SurfaceHit& h) {
  return hitOf(wallFeature(id, v), p, radius, h);
}

}  // namespace roverlab
