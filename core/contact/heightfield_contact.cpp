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
  const double r2 = radius * radius;
  // The sphere dips below the highest cell top of the blocks around it only
  // within `plan` of its centre (m, in plan): no cell farther out is in reach.
  float local = -std::numeric_limits<float>::infinity();
  for (int bj = j0 / Heightfield::kBlock; bj <= j1 / Heightfield::kBlock; ++bj)
    for (int bi = i0 / Heightfield::kBlock; bi <= i1 / Heightfield::kBlock; ++bi)
      local = std::max(local, f.blockTop[static_cast<size_t>(bj) * f.blocksX() + bi]);
  const double above = std::max(0.0, centre.z() - local);
  const double plan2 = r2 - above * above;
  int ci0 = i0, ci1 = i1, cj0 = j0, cj1 = j1;  // the cells within `plan`
  if (plan2 <= 0 || !cellRange(f, centre.x(), centre.y(), std::sqrt(plan2), ci0, ci1, cj0, cj1))
    cj1 = cj0 - 1;  // none
  Vec3 v[4];
  SurfaceHit h;
  for (int j = cj0; j <= cj1; ++j) {
    const double ylo = f.originY + j * f.dy;
    const double ey = std::max({0.0, ylo - centre.y(), centre.y() - ylo - f.dy});
    const double across2 = plan2 - ey * ey;  // squared plan reach left along x (m²)
    if (across2 <= 0) continue;
    // The columns whose cells come within that reach in plan.
    const double across = std::sqrt(across2);
    const int first =
        std::max(i0, static_cast<int>(std::floor((centre.x() - across - f.originX) / f.dx)));
    const int last =
        std::min(i1, static_cast<int>(std::floor((centre.x() + across - f.originX) / f.dx)));
    const float* tops = f.cellTop.data() + static_cast<long>(j) * f.cellsX();
    for (int i = first; i <= last; ++i) {
      const double xlo = f.originX + i * f.dx;
      const double ex = std::max({0.0, xlo - centre.x(), centre.x() - xlo - f.dx});
      const double ez = std::max(0.0, centre.z() - tops[i]);
      if (ex * ex + ey * ey + ez * ez >= r2) continue;  // the cell's bounds are out of reach
      // The cell's two triangles as Heightfield::triangle makes them, from
      // its corners. Their normals follow from the heights (the cross
      // products of the triangles' sides): lower (i, j), (i+1, j), (i+1, j+1)
      // and upper (i, j), (i+1, j+1), (i, j+1). A triangle whose plane is out
      // of reach is skipped before any square root.
      const long cell = static_cast<long>(j) * f.cellsX() + i;
      const long a = static_cast<long>(j) * f.nx + i;
      const Vec3 p00 = f.sample(i, j), p10 = f.sample(i + 1, j), p01 = f.sample(i, j + 1),
                 p11 = f.sample(i + 1, j + 1);
      const Vec3 rel = centre - p00;
      const auto test = [&](long id, const Vec3& m, const long* corners) {
        const double s = m.dot(rel), m2 = m.squaredNorm();
        if (s * s >= r2 * m2) return;
        // The sphere meets the plane in a disc around the centre's foot (fx, fy)
        // of squared radius r² − s²/|m|². A point of the triangle is at least its
        // plan distance from the foot (a length in a plane only shrinks seen from
        // above), so a cell rectangle that far in plan is out of reach (the
        // margin, 1e-12 r², keeps every triangle whose distance rounds below r).
        const double k = s / m2, fx = centre.x() - k * m.x(), fy = centre.y() - k * m.y();
        const double gx = std::max({0.0, xlo - fx, fx - xlo - f.dx});
        const double gy = std::max({0.0, ylo - fy, fy - ylo - f.dy});
        if (gx * gx + gy * gy >= r2 * (1 + 1e-12) - s * k) return;
        if (hitOf(id, v, 3, m.normalized(), centre, radius, false, h, corners)) all.push_back(h);
      };
      const long lower[3] = {a, a + 1, a + f.nx + 1}, upper[3] = {a, a + f.nx + 1, a + f.nx};
      const double area = f.dx * f.dy;
      v[0] = p00, v[1] = p10, v[2] = p11;
      test(2 * cell, Vec3(-f.dy * (p10.z() - p00.z()), -f.dx * (p11.z() - p10.z()), area), lower);
      v[1] = p11, v[2] = p01;
      test(2 * cell + 1, Vec3(-f.dy * (p11.z() - p01.z()), -f.dx * (p01.z() - p00.z()), area),
           upper);
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
  keepSurfaceContacts(f, f.dx * f.dx + f.dy * f.dy, tol, scratch, out);
}

bool boxHeightfieldContact(const Heightfield& f, int piece, double mu, const ContactBox& box,
                           const OrientedBox& placed, const BodyMotion& motion, BodyContact& out) {
  return boxSurfaceContact(f, piece, mu, box, placed, motion, out);
}

}  // namespace roverlab
