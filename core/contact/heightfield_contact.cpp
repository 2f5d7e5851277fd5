#include "contact/heightfield_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "terrain/terrain.h"

namespace roverlab {
namespace {

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

// True when the bounds of cell (i, j) (its plan rectangle, up to its highest
// corner) come within sqrt(r2) of `centre`.
bool cellInReach(const Heightfield& f, int i, int j, const Vec3& centre, double r2) {
  const double xlo = f.originX + i * f.dx, ylo = f.originY + j * f.dy;
  const double ex = std::max({0.0, xlo - centre.x(), centre.x() - xlo - f.dx});
  const double ey = std::max({0.0, ylo - centre.y(), centre.y() - ylo - f.dy});
  const double ez = std::max(0.0, centre.z() - f.cellTop[static_cast<size_t>(j) * f.cellsX() + i]);
  return ex * ex + ey * ey + ez * ez < r2;
}

// Calls visit(i, j) for the cells of i0..i1, j0..j1 (those within `radius` of
// the centre's plan position) that may come within `radius` of `centre`, row
// by row: the sphere dips below the highest cell top of the blocks around it
// only within a plan distance of its centre, and each row only within a
// chord of that circle.
template <class Visit>
void forCellsNear(const Heightfield& f, const Vec3& centre, double radius, int i0, int i1, int j0,
                  int j1, Visit&& visit) {
  float local = -std::numeric_limits<float>::infinity();
  for (int bj = j0 / Heightfield::kBlock; bj <= j1 / Heightfield::kBlock; ++bj)
    for (int bi = i0 / Heightfield::kBlock; bi <= i1 / Heightfield::kBlock; ++bi)
      local = std::max(local, f.blockTop[static_cast<size_t>(bj) * f.blocksX() + bi]);
  const double above = std::max(0.0, centre.z() - local);
  const double plan2 = radius * radius - above * above;  // squared plan reach (m²)
  int ci0, ci1, cj0, cj1;
  if (plan2 <= 0 || !cellRange(f, centre.x(), centre.y(), std::sqrt(plan2), ci0, ci1, cj0, cj1))
    return;
  for (int j = cj0; j <= cj1; ++j) {
    const double ylo = f.originY + j * f.dy;
    const double ey = std::max({0.0, ylo - centre.y(), centre.y() - ylo - f.dy});
    const double across2 = plan2 - ey * ey;  // squared plan reach left along x (m²)
    if (across2 <= 0) continue;
    const double across = std::sqrt(across2);
    const int first =
        std::max(i0, static_cast<int>(std::floor((centre.x() - across - f.originX) / f.dx)));
    const int last =
        std::min(i1, static_cast<int>(std::floor((centre.x() + across - f.originX) / f.dx)));
    for (int i = first; i <= last; ++i) visit(i, j);
  }
}

// The hit of triangle `id` of a heightfield cell (corners v, vertex ids
// `ids`, counter-clockwise from above), `upper` telling which of its two
// triangles; m is its upward normal (unnormalized), s = m·(centre − v[0]),
// m2 = |m|², `foot` the centre's foot on its plane and (u, w) that foot in
// the cell's unit square (0 … 1 across the cell along x and y). As hitOf, found
// in the cell's plan coordinates: the foot of the centre on the plane lies
// in the triangle when it does in plan (projecting along z keeps a non-vertical
// plane's orientation), and only edges it lies outside of can hold the
// nearest point. False when the triangle is `radius` or farther.
bool cellTriangleHit(long id, const Vec3* v, const long* ids, bool upper, double u, double w,
                     const Vec3& foot, const Vec3& m, double s, double m2, const Vec3& centre,
                     double radius, SurfaceHit& h) {
  // The foot's side of each edge in the cell's unit square (> 0 inside):
  // lower (0,0)→(1,0)→(1,1): w, 1 − u, u − w; upper (0,0)→(1,1)→(0,1): w − u, 1 − w, u.
  const double side[3] = {upper ? w - u : w, upper ? 1 - w : 1 - u, upper ? u : u - w};
  if (side[0] > 0 && side[1] > 0 && side[2] > 0) {
    const double len = std::sqrt(m2), d = std::abs(s) / len;
    if (d >= radius) return false;
    h.closest = foot;
    h.face = m / len;
    h.distance = d;
    h.normal = d > 1e-12 ? Vec3(std::copysign(1.0, s) * h.face) : h.face;
    h.boundary = false;
    h.samples[0] = h.samples[1] = -1;
  } else {
    // The nearest point of the edges the foot is outside of (closestOnPolygon's rule).
    double best = std::numeric_limits<double>::infinity();
    int c0 = 0, c1 = -1;
    for (int e = 0; e < 3; ++e) {
      if (side[e] > 0) continue;
      const Vec3& a = v[e];
      const Vec3 ab = v[(e + 1) % 3] - a;
      const double t = std::clamp(ab.dot(foot - a) / ab.squaredNorm(), 0.0, 1.0);
      const Vec3 x = a + t * ab;
      const double gap2 = (foot - x).squaredNorm();
      if (gap2 < best) {
        best = gap2, h.closest = x;
        c0 = t > 1 - 1e-9 ? (e + 1) % 3 : e;
        c1 = t < 1e-9 || t > 1 - 1e-9 ? -1 : (e + 1) % 3;
      }
    }
    const Vec3 gap = centre - h.closest;
    const double d = gap.norm();
    if (d >= radius) return false;
    h.face = m / std::sqrt(m2);
    h.distance = d;
    h.normal = d > 1e-12 ? Vec3(gap / d) : h.face;
    h.boundary = true;
    h.samples[0] = ids[c0];
    h.samples[1] = c1 >= 0 ? ids[c1] : -1;
  }
  h.feature = id;
  for (int c = 0; c < 3; ++c) h.corners[c] = ids[c];
  return true;
}

// Appends to `all` the hits of cell (i, j)'s two triangles with the sphere
// (centre, radius), r2 = radius²; perDx = 1/dx, perDy = 1/dy (1/m).
void cellHits(const Heightfield& f, int i, int j, const Vec3& centre, double radius, double r2,
              double perDx, double perDy, std::vector<SurfaceHit>& all) {
  const double xlo = f.originX + i * f.dx, ylo = f.originY + j * f.dy;
  // The cell's two triangles as Heightfield::triangle makes them, from its
  // corners. Their normals follow from the heights (the cross products of the
  // triangles' sides): lower (i, j), (i+1, j), (i+1, j+1) and upper (i, j),
  // (i+1, j+1), (i, j+1). A triangle whose plane is out of reach is skipped
  // before any square root.
  const long cell = static_cast<long>(j) * f.cellsX() + i;
  const long a = static_cast<long>(j) * f.nx + i;
  const float* row = f.heights.data() + a;
  const double z00 = row[0], z10 = row[1], z01 = row[f.nx], z11 = row[f.nx + 1];
  const Vec3 p00(xlo, ylo, z00), p10(xlo + f.dx, ylo, z10), p01(xlo, ylo + f.dy, z01),
      p11(xlo + f.dx, ylo + f.dy, z11);
  const Vec3 rel = centre - p00;
  Vec3 v[3];
  SurfaceHit h;
  const auto test = [&](long id, bool upper, const Vec3& m, const long* corners) {
    const double s = m.dot(rel), m2 = m.squaredNorm();
    if (s * s >= r2 * m2) return;
    // The sphere meets the plane in a disc around the centre's foot of
    // squared radius r² − s²/|m|². A point of the triangle is at least its
    // plan distance from the foot (a length in a plane only shrinks seen from
    // above), so a cell rectangle that far in plan is out of reach (the
    // margin, 1e-12 r², keeps every triangle whose distance rounds below r).
    const double k = s / m2;
    const Vec3 foot = centre - k * m;
    const double gx = std::max({0.0, xlo - foot.x(), foot.x() - xlo - f.dx});
    const double gy = std::max({0.0, ylo - foot.y(), foot.y() - ylo - f.dy});
    if (gx * gx + gy * gy >= r2 * (1 + 1e-12) - s * k) return;
    const double u = (foot.x() - xlo) * perDx, w = (foot.y() - ylo) * perDy;
    if (cellTriangleHit(id, v, corners, upper, u, w, foot, m, s, m2, centre, radius, h))
      all.push_back(h);
  };
  const long lower[3] = {a, a + 1, a + f.nx + 1}, upper[3] = {a, a + f.nx + 1, a + f.nx};
  const double area = f.dx * f.dy;
  v[0] = p00, v[1] = p10, v[2] = p11;
  test(2 * cell, false, Vec3(-f.dy * (z10 - z00), -f.dx * (z11 - z10), area), lower);
  v[1] = p11, v[2] = p01;
  test(2 * cell + 1, true, Vec3(-f.dy * (z11 - z01), -f.dx * (z01 - z00), area), upper);
}

}  // namespace

void heightfieldSphereHits(const Heightfield& f, const Vec3& centre, double radius,
                           SurfaceScratch& scratch, std::vector<SurfaceHit>& out) {
  std::vector<SurfaceHit>& all = scratch.hits;
  all.clear();
  if (centre.z() - radius > f.box.max.z() || centre.z() + radius < f.box.min.z()) return;
  int i0, i1, j0, j1;
  if (!cellRange(f, centre.x(), centre.y(), radius, i0, i1, j0, j1)) return;
  // A centre under the surface: one contact, through the plane of the
  // triangle above it (the signed distance, as for a centre inside a piece).
  double ground;
  if (f.heightAt(centre.x(), centre.y(), ground) && centre.z() < ground) {
    Vec3 up;
    f.surfaceAt(centre.x(), centre.y(), ground, up);
    const double u = std::min((centre.x() - f.originX) / f.dx, f.cellsX() - 1e-9);
    const double v = std::min((centre.y() - f.originY) / f.dy, f.cellsY() - 1e-9);
    const int i = static_cast<int>(u), j = static_cast<int>(v);
    out.push_back(
        underSurface(2L * (static_cast<long>(j) * f.cellsX() + i) + ((u - i) >= (v - j) ? 0 : 1),
                     centre, ground, up));
    return;
  }
  const double r2 = radius * radius, perDx = 1 / f.dx, perDy = 1 / f.dy;
  const auto hits = [&](int i, int j) {
    if (cellInReach(f, i, j, centre, r2)) cellHits(f, i, j, centre, radius, r2, perDx, perDy, all);
  };
  const std::vector<int>* near =
      nearList(scratch, &f, centre, radius, [&](const Vec3& c, double r, std::vector<int>& items) {
        const double wide2 = r * r;
        bool fits = true;
        int wi0, wi1, wj0, wj1;
        if (!cellRange(f, c.x(), c.y(), r, wi0, wi1, wj0, wj1)) return true;  // none
        forCellsNear(f, c, r, wi0, wi1, wj0, wj1, [&](int i, int j) {
          if (!cellInReach(f, i, j, c, wide2)) return;
          if (items.size() + 2 > items.capacity()) fits = false;
          if (!fits) return;
          items.push_back(i);
          items.push_back(j);
        });
        return fits;
      });
  if (near) {
    // The near list's cells, in the order forCellsNear visits them.
    for (size_t k = 0; k < near->size(); k += 2) hits((*near)[k], (*near)[k + 1]);
  } else {
    forCellsNear(f, centre, radius, i0, i1, j0, j1, hits);
  }
  // The walls of the cells at the field's border, seen from outside.
  Vec3 v[4];
  SurfaceHit h;
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
  keepSurfaceContacts(f, f.dx * f.dx + f.dy * f.dy, tol, scratch, out);
}

bool boxHeightfieldContact(const Heightfield& f, int piece, double mu, const ContactBox& box,
                           const OrientedBox& placed, const BodyMotion& motion, BodyContact& out) {
  return boxSurfaceContact(f, piece, mu, box, placed, motion, out);
}

}  // namespace roverlab
