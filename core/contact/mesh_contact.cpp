#include "contact/mesh_contact.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace roverlab {

void meshSphereHits(const TriMesh& m, const Vec3& centre, double radius, SurfaceScratch& scratch,
                    std::vector<SurfaceHit>& out) {
  std::vector<SurfaceHit>& all = scratch.hits;
  all.clear();
  if (centre.z() - radius > m.box.max.z() || centre.z() + radius < m.box.min.z()) return;
  Vec3 v[4];
  SurfaceHit h;
  const long triangles = m.triangleCount();
  // The near list holds the features within (1 + kNearListMargin)·radius of
  // its centre, each with a plane it lies behind (as a heightfield's
  // triangles), and whether any feature's cell came near it in plan (the
  // surface may then be above a centre deeper than the radius).
  const NearList* list =
      nearList(scratch, &m, centre, radius, [&](const Vec3& c, double r, NearList& l) {
        m.featuresNearSphere(c, r, scratch.features);
        l.candidates = !scratch.features.empty();
        for (int f : scratch.features) {
          // Walls as open polygons here: a centre behind one may come out in front.
          if (f < triangles) {
            m.triangle(f, v);
            const std::array<int, 3>& k = m.triangles[f];
            const long ids[3] = {k[0], k[1], k[2]};
            if (!hitOf(f, v, 3, triangleNormal(v), c, r, false, h, ids)) continue;
          } else {
            m.wall(f - triangles, v);
            if (!hitOf(f, v, 4, wallNormal(v), c, r, false, h)) continue;
          }
          if (l.items.size() + 1 > l.items.capacity() || l.planes.size() + 4 > l.planes.capacity())
            return false;
          l.items.push_back(f);
          l.planes.insert(l.planes.end(),
                          {h.normal.x(), h.normal.y(), h.normal.z(), h.normal.dot(h.closest)});
        }
        return true;
      });
  bool anyNear = list && list->candidates;
  if (!list) {
    m.featuresNearSphere(centre, radius, scratch.features);
    anyNear = !scratch.features.empty();
  }
  if (!anyNear) return;
  // A centre under the surface: one contact, through the plane of the
  // triangle above it (the signed distance, as for a centre inside a piece).
  double ground;
  Vec3 up;
  long under = list ? list->below : -1;
  bool over = under >= 0 && m.heightOn(under, centre.x(), centre.y(), ground, up);
  if (!over) {
    over = m.surfaceAt(centre.x(), centre.y(), ground, up, &under);
    if (list) list->below = over ? under : -1;
  }
  if (over && centre.z() < ground) {
    out.push_back(underSurface(under, centre, ground, up));
    return;
  }
  const std::vector<int>& near = list ? list->items : scratch.features;
  // A feature whose plane bound keeps it `radius` or farther (with a margin of
  // 1e-9 r for its rounding) is passed over.
  const double reach = radius * (1 + 1e-9);
  const double* plane = list ? list->planes.data() : nullptr;
  const double r2 = radius * radius;
  for (size_t at = 0; at < near.size(); ++at) {
    const int f = near[at];
    if (plane) {
      const double* p = plane + 4 * at;
      if (p[0] * centre.x() + p[1] * centre.y() + p[2] * centre.z() - p[3] >= reach) continue;
    }
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
      if (hitOf(f, v, 4, wallNormal(v), centre, radius, true, h)) all.push_back(h);
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
