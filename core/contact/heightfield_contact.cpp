#include "contact/heightfield_contact.h"

#include <algorithm>
#include <cmath>

#include "terrain/terrain.h"

namespace roverlab {
namespace {

// The nearest point q of the convex polygon v[0..k) (counter-clockwise about
// its unit normal n) to p; true when q is inside the polygon, false when it is
// on its boundary. Then `corners` (if given) gets the polygon's corners that
// q's feature spans: corners[0] and corners[1] for an edge, corners[1] = -1
// for a corner.
bool closestOnPolygon(const Vec3* v, int k, const Vec3& n, const Vec3& p, Vec3& q,
                      int* corners = nullptr) {
  bool inside = true;
  for (int e = 0; e < k && inside; ++e) inside = (v[(e + 1) % k] - v[e]).cross(p - v[e]).dot(n) > 0;
  const Vec3 onPlane = p - n.dot(p - v[0]) * n;
  if (inside) {
    q = onPlane;
    return true;
  }
  // The boundary point nearest p is the one nearest its projection (by
  // Pythagoras), whose distances are resolved far finer than p's own.
  double best = std::numeric_limits<double>::infinity();
  for (int e = 0; e < k; ++e) {
    const Vec3& a = v[e];
    const Vec3 ab = v[(e + 1) % k] - a;
    const double t = std::clamp(ab.dot(onPlane - a) / ab.squaredNorm(), 0.0, 1.0);
    const Vec3 x = a + t * ab;
    const double d = (onPlane - x).squaredNorm();
    if (d < best) {
      best = d, q = x;
      if (corners) {
        // Within 1e-9 of the edge's length of a corner: that corner.
        corners[0] = t > 1 - 1e-9 ? (e + 1) % k : e;
        corners[1] = t < 1e-9 || t > 1 - 1e-9 ? -1 : (e + 1) % k;
      }
    }
  }
  return false;
}

Vec3 triangleNormal(const Vec3 v[3]) { return (v[1] - v[0]).cross(v[2] - v[0]).normalized(); }

// The hit of feature `id` with vertices v[0..k) and outward normal n, or
// false when p is beyond `radius`, or behind the feature when `solid` (a
// wall, with the field behind it; a centre above the surface may be under a
// steep triangle's plane and still have its nearest point on its edge).
bool hitOf(long id, const Vec3* v, int k, const Vec3& n, const Vec3& p, double radius, bool solid,
           SurfaceHit& h, const long* samples = nullptr) {
  if (std::abs(n.dot(p - v[0])) >= radius) return false;  // the plane is out of reach already
  int corners[2] = {-1, -1};
  const bool interior = closestOnPolygon(v, k, n, p, h.closest, corners);
  for (int c = 0; c < 3; ++c) h.corners[c] = samples ? samples[c] : -1;
  h.samples[0] = samples && !interior ? samples[corners[0]] : -1;
  h.samples[1] = samples && !interior && corners[1] >= 0 ? samples[corners[1]] : -1;
  const Vec3 gap = p - h.closest;
  const double d = gap.norm();
  if (d >= radius || (solid && gap.dot(n) < 0)) return false;
  h.feature = id;
  h.face = n;
  h.distance = d;
  h.normal = d > 1e-12 ? Vec3(gap / d) : n;
  h.boundary = !interior;
  return true;
}

// The cells (i0..i1, j0..j1) whose bounds come within `reach` of (x, y); false when none.
bool cellRange(const Heightfield& f, double x, double y, double reach, int& i0, int& i1, int& j0,
               int& j1) {
  const double u0 = (x - reach - f.originX) / f.dx, u1 = (x + reach - f.originX) / f.dx;
  const double v0 = (y - reach - f.originY) / f.dy, v1 = (y + reach - f.originY) / f.dy;
  if (!(u1 >= 0 && v1 >= 0 && u0 <= f.cellsX() && v0 <= f.cellsY())) return false;
  i0 = std::max(0, static_cast<int>(std::floor(u0)));
  j0 = std::max(0, static_cast<int>(std::floor(v0)));
  i1 = std::min(f.cellsX() - 1, static_cast<int>(std::floor(u1)));
  j1 = std::min(f.cellsY() - 1, static_cast<int>(std::floor(v1)));
  return i0 <= i1 && j0 <= j1;
}

// True when the hit `c` is a ghost: its nearest point is on its edge or
// corner, and another feature through that point is nearer to the centre
// without rising above c's plane (no concave crease between them).
bool isGhost(const Heightfield& f, const std::vector<SurfaceHit>& all, const SurfaceHit& c,
             double tol) {
  const double tie = 1e-6 * tol;
  // A triangle through c's point holds it and its own nearest point: they
  // are at most its plan diagonal apart in plan (walls are checked in full).
  const double reach2 = f.dx * f.dx + f.dy * f.dy + tol;
  const bool wallC = c.feature >= f.triangleCount();
  for (const SurfaceHit& t : all) {
    if (t.feature == c.feature || t.distance >= c.distance - tie) continue;
    const Vec3 apart = t.closest - c.closest;
    if (!wallC && t.feature < f.triangleCount()) {
      // Two triangles: t passes through c's point when it has c's edge or corner.
      if (apart.head<2>().squaredNorm() > reach2) continue;
      const long* corners = t.corners;
      const auto has = [&](long s) {
        return s < 0 || s == corners[0] || s == corners[1] || s == corners[2];
      };
      if (!has(c.samples[0]) || !has(c.samples[1])) continue;
      if (apart.norm() > tol && c.face.dot(apart) > kCreaseSine * apart.norm()) continue;
      return true;
    }
    // Concave (t rises above c's plane towards the wheel): both are real.
    // Points within tol are one point: the same contact, not a crease.
    if (apart.norm() > tol && c.face.dot(apart) > kCreaseSine * apart.norm()) continue;
    Vec3 v[4], q = Vec3::Zero();
    const bool wall = t.feature >= f.triangleCount();
    if (wall)
      f.wall(t.feature - f.triangleCount(), v);
    else
      f.triangle(t.feature, v);
    closestOnPolygon(v, wall ? 4 : 3, t.face, c.closest, q);
    if ((q - c.closest).norm() <= tol) return true;  // t passes through c's point
  }
  return false;
}

}  // namespace

void heightfieldSphereHits(const Heightfield& f, const Vec3& centre, double radius,
                           std::vector<SurfaceHit>& all, std::vector<SurfaceHit>& out) {
  all.clear();
  if (centre.z() - radius > f.box.max.z() || centre.z() + radius < f.box.min.z()) return;
  int i0, i1, j0, j1;
  if (!cellRange(f, centre.x(), centre.y(), radius, i0, i1, j0, j1)) return;
  // A centre under the surface: one contact, through the plane of the
  // triangle above it (the signed distance, as for a centre inside a piece).
  double ground;
  Vec3 up;
  if (f.surfaceAt(centre.x(), centre.y(), ground, up) && centre.z() < ground) {
    SurfaceHit h;
    h.face = h.normal = up;
    h.distance = (centre.z() - ground) * up.z();
    h.closest = centre - h.distance * up;
    const double u = std::min((centre.x() - f.originX) / f.dx, f.cellsX() - 1e-9);
    const double v = std::min((centre.y() - f.originY) / f.dy, f.cellsY() - 1e-9);
    const int i = static_cast<int>(u), j = static_cast<int>(v);
    h.feature = 2L * (static_cast<long>(j) * f.cellsX() + i) + ((u - i) >= (v - j) ? 0 : 1);
    out.push_back(h);
    return;
  }
  const double r2 = radius * radius;
  Vec3 v[4];
  SurfaceHit h;
  for (int j = j0; j <= j1; ++j) {
    const double ylo = f.originY + j * f.dy;
    const double ey = std::max({0.0, ylo - centre.y(), centre.y() - ylo - f.dy});
    for (int i = i0; i <= i1; ++i) {
      const double xlo = f.originX + i * f.dx;
      const double ex = std::max({0.0, xlo - centre.x(), centre.x() - xlo - f.dx});
      if (ex * ex + ey * ey >= r2) continue;  // out of reach in plan
      const double top = std::max(
          {f.height(i, j), f.height(i + 1, j), f.height(i, j + 1), f.height(i + 1, j + 1)});
      const double ez = std::max(0.0, centre.z() - top);
      if (ex * ex + ey * ey + ez * ez >= r2) continue;  // the cell's bounds are out of reach
      // The cell's two triangles as Heightfield::triangle makes them, from
      // its corners (no division per triangle).
      const long cell = static_cast<long>(j) * f.cellsX() + i;
      const long a = static_cast<long>(j) * f.nx + i;
      const Vec3 p00 = f.sample(i, j), p10 = f.sample(i + 1, j), p01 = f.sample(i, j + 1),
                 p11 = f.sample(i + 1, j + 1);
      const long lower[3] = {a, a + 1, a + f.nx + 1}, upper[3] = {a, a + f.nx + 1, a + f.nx};
      v[0] = p00, v[1] = p10, v[2] = p11;
      if (hitOf(2 * cell, v, 3, triangleNormal(v), centre, radius, false, h, lower))
        all.push_back(h);
      v[1] = p11, v[2] = p01;
      if (hitOf(2 * cell + 1, v, 3, triangleNormal(v), centre, radius, false, h, upper))
        all.push_back(h);
    }
  }
  // The walls of the cells at the field's border, seen from outside.
  const long tri = f.triangleCount();
  const int cx = f.cellsX(), cy = f.cellsY();
  const auto wallHit = [&](long w) {
    f.wall(w, v);
    const Vec3 n = (v[0] - v[1]).cross(Vec3::UnitZ()).normalized();  // outward
    if (hitOf(tri + w, v, 4, n, centre, radius, true, h)) all.push_back(h);
  };
  if (j0 == 0 && centre.y() < f.originY)
    for (int i = i0; i <= i1; ++i) wallHit(i);
  if (j1 == cy - 1 && centre.y() > f.box.max.y())
    for (int i = i0; i <= i1; ++i) wallHit(cx + i);
  if (i0 == 0 && centre.x() < f.originX)
    for (int j = j0; j <= j1; ++j) wallHit(2L * cx + j);
  if (i1 == cx - 1 && centre.x() > f.box.max.x())
    for (int j = j0; j <= j1; ++j) wallHit(2L * cx + cy + j);

  // Points this close are one point: heights are stored as float (relative
  // rounding 6e-8), so two triangles meeting at a seam agree to about 1e-7 of
  // the field's coordinates, not to double precision.
  const double tol = 1e-6 * std::max({1.0, std::abs(centre.x()), std::abs(centre.y()),
                                      std::abs(f.box.max.z()), std::abs(f.box.min.z())});
  const size_t first = out.size();
  for (const SurfaceHit& c : all) {
    if (c.boundary && isGhost(f, all, c, tol)) continue;
    // The same point from another feature (a shared edge or corner): one
    // contact, the nearer, or on a tie the one most square to its feature
    // (the face's own normal where the centre is right over a seam).
    size_t k = first;
    while (k < out.size() && (out[k].closest - c.closest).norm() > tol) ++k;
    if (k == out.size()) {
      out.push_back(c);
    } else {
      const double ahead = out[k].distance - c.distance;
      if (ahead > 1e-6 * tol ||
          (ahead >= -1e-6 * tol &&
           c.normal.cross(c.face).norm() < out[k].normal.cross(out[k].face).norm()))
        out[k] = c;
    }
  }
}

bool boxHeightfieldContact(const Heightfield& f, int piece, double mu, const ContactBox& box,
                           const OrientedBox& placed, const BodyMotion& motion, BodyContact& out) {
  out = BodyContact{};
  out.piece = piece;
  double deepest = 0;
  Vec3 weighted = Vec3::Zero(), normalSum = Vec3::Zero();
  // The 27 points of the box's 3 × 3 × 3 lattice but its centre: corners
  // (three coordinates at ±1), edge midpoints (two), face centres (one).
  for (int a = -1; a <= 1; ++a)
    for (int b = -1; b <= 1; ++b)
      for (int c = -1; c <= 1; ++c) {
        const int onFaces = std::abs(a) + std::abs(b) + std::abs(c);
        if (onFaces == 0) continue;
        const Vec3 at = placed.centre + placed.axes * Vec3(a * placed.half.x(), b * placed.half.y(),
                                                           c * placed.half.z());
        double ground;
        Vec3 n;
        if (!f.surfaceAt(at.x(), at.y(), ground, n) || at.z() >= ground) continue;
        const double depth = (ground - at.z()) * n.z();
        // The trapezoidal rule's share of a face: corner 1/16, edge 1/8, centre 1/4.
        const double share = onFaces == 3 ? 1.0 / 16 : onFaces == 2 ? 1.0 / 8 : 1.0 / 4;
        const double k = box.stiffness * share, damping = box.damping * share;
        const Vec3 vel = motion.velocity + motion.omega.cross(at - motion.origin);
        const double vn = vel.dot(n);
        const double fn = std::max(0.0, k * depth - damping * vn);  // non-holding
        if (fn <= 0) continue;
        const Vec3 vt = vel - vn * n;
        const double speed = vt.norm();
        const Vec3 ft =
            speed > 0 ? Vec3(-std::min(mu * fn, damping * speed) / speed * vt) : Vec3::Zero();
        out.normalForce += fn * n;
        out.load += fn;
        out.tangentialForce += ft;
        out.moment += at.cross(fn * n + ft);
        weighted += fn * at;
        normalSum += fn * n;
        deepest = std::max(deepest, depth);
        ++out.points;
      }
  if (out.points == 0) return false;
  out.point = weighted / out.load;
  out.normal = normalSum.normalized();
  out.depth = deepest;
  return true;
}

}  // namespace roverlab
