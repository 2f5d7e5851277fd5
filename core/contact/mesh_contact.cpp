#include "contact/mesh_contact.h"

#include <algorithm>
#include <cmath>

namespace roverlab {

void meshSphereHits(const TriMesh& m, const Vec3& centre, double radius, SurfaceScratch& scratch,
                    std::vector<SurfaceHit>& out) {
  std::vector<SurfaceHit>& all = scratch.hits;
  all.clear();
  if (centre.z() - radius > m.box.max.z() || centre.z() + radius < m.box.min.z()) return;
  const NearList* list =
      nearList(scratch, &m, centre, radius, [&](const Vec3& c, double r, NearList& l) {
        m.featuresNearSphere(c, r, scratch.features);
        if (scratch.features.size() > l.items.capacity()) return false;
        l.items.assign(scratch.features.begin(), scratch.features.end());
        return true;
      });
  const std::vector<int>* near = list ? &list->items : nullptr;
  if (!near) {
    m.featuresNearSphere(centre, radius, scratch.features);
    near = &scratch.features;
  }
  if (near->empty()) return;
  // A centre under the surface: one contact, through the plane of the
  // triangle above it (the signed distance, as for a centre inside a piece).
  double ground;
  Vec3 up;
  long under = -1;
  if (m.surfaceAt(centre.x(), centre.y(), ground, up, &under, centre.z()) && centre.z() < ground) {
    out.push_back(underSurface(under, centre, ground, up));
    return;
  }
  Vec3 v[4];
  SurfaceHit h;
  const long triangles = m.triangleCount();
  const double r2 = radius * radius;
  for (int f : *near) {
    if (f < triangles) {
      m.triangle(f, v);
      // The triangle's bounds out of reach (as a heightfield's cells are culled).
      const double x0 = std::min({v[0].x(), v[1].x(), v[2].x()});
      const double x1 = std::max({v[0].x(), v[1].x(), v[2].x()});
      const double y0 = std::min({v[0].y(), v[1].y(), v[2].y()});
      const double y1 = std::max({v[0].y(), v[1].y(), v[2].y()});
      const double ex = std::max({0.0, x0 - centre.x(), centre.x() - x1});
      const double ey = std::max({0.0, y0 - centre.y(), centre.y() - y1});
      const double ez = std::max(0.0, centre.z() - std::max({v[0].z(), v[1].z(), v[2].z()}));
      if (ex * ex + ey * ey + ez * ez >= r2) continue;
      // Its plane out of reach, then its plan bounds beyond the disc in which
      // the sphere meets the plane (as for a heightfield's triangles), before
      // any square root.
      const Vec3 n = (v[1] - v[0]).cross(v[2] - v[0]);
      const double s = n.dot(centre - v[0]), n2 = n.squaredNorm();
      if (s * s >= r2 * n2) continue;
      const double k = s / n2, fx = centre.x() - k * n.x(), fy = centre.y() - k * n.y();
      const double gx = std::max({0.0, x0 - fx, fx - x1}), gy = std::max({0.0, y0 - fy, fy - y1});
      if (gx * gx + gy * gy >= r2 * (1 + 1e-12) - s * k) continue;
      const std::array<int, 3>& c = m.triangles[f];
      const long ids[3] = {c[0], c[1], c[2]};
      if (hitOf(f, v, 3, n.normalized(), centre, radius, false, h, ids)) all.push_back(h);
    } else {
      m.wall(f - triangles, v);
      const Vec3 n = (v[0] - v[1]).cross(Vec3::UnitZ()).normalized();  // outward
      if (hitOf(f, v, 4, n, centre, radius, true, h)) all.push_back(h);
    }
  }
  // Points this close are one point: welded vertices are exact, so points on
  // a shared edge agree to the rounding of the nearest-point arithmetic.
  const double tol = 1e-9 * std::max({1.0, std::abs(centre.x()), std::abs(centre.y()),
                                      std::abs(m.box.max.z()), std::abs(m.box.min.z())});
  keepSurfaceContacts(m, m.span * m.span, tol, scratch, out, AllSurfaceHits{scratch.hits});
}

bool boxMeshContact(const TriMesh& m, int piece, double mu, const ContactBox& box,
                    const OrientedBox& placed, const BodyMotion& motion, BodyContact& out) {
  return boxSurfaceContact(m, piece, mu, box, placed, motion, out);
}

}  // namespace roverlab
