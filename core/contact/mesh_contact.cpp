#include "contact/mesh_contact.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace roverlab {
namespace {

// What a listed triangle's hit needs of it (meshTriangle), by these names:
// its corner a (kAx, kAy, kAz, m); its corners b and c relative to a (kBx ..
// kCz, m); its unit upward normal (kNx, kNy, kNz); (b − a)², (b − a)·(c − a),
// (c − a)² and (c − b)² (kBB, kBC, kCC, kEE, m²).
// clang-format off
enum MeshTriangleNumber { kAx, kAy, kAz, kBx, kBy, kBz, kCx, kCy, kCz, kNx, kNy, kNz,
                          kBB, kBC, kCC, kEE, kMeshTriangleNumbers };
// clang-format on

// Numbers per listed feature in NearList::planes: its bounding plane's
// kNearListBound, then a triangle's kMeshTriangleNumbers (unused for a wall).
constexpr size_t kMeshListedNumbers = kNearListBound + kMeshTriangleNumbers;

// Items per listed feature in NearList::items: its feature id, then a
// triangle's vertex ids (-1 for a wall).
constexpr size_t kMeshListedItems = 4;

// The numbers of the triangle with vertices v, as MeshTriangleNumber, from
// the same arithmetic hitOf and closestOnPolygon apply to them.
void meshTriangle(const Vec3 v[3], double t[kMeshTriangleNumbers]) {
  const Vec3 b = v[1] - v[0], c = v[2] - v[0];
  const Vec3 n = triangleNormal(v);
  t[kAx] = v[0].x(), t[kAy] = v[0].y(), t[kAz] = v[0].z();
  t[kBx] = b.x(), t[kBy] = b.y(), t[kBz] = b.z();
  t[kCx] = c.x(), t[kCy] = c.y(), t[kCz] = c.z();
  t[kNx] = n.x(), t[kNy] = n.y(), t[kNz] = n.z();
  t[kBB] = b.squaredNorm(), t[kBC] = b.dot(c), t[kCC] = c.squaredNorm();
  t[kEE] = (c - b).squaredNorm();
}

// A listed triangle's numbers as nearestOnTriangleBoundary reads them.
struct MeshSides {
  const double* t;
  double bx() const { return t[kBx]; }
  double by() const { return t[kBy]; }
  double bz() const { return t[kBz]; }
  double cx() const { return t[kCx]; }
  double cy() const { return t[kCy]; }
  double cz() const { return t[kCz]; }
  double bb() const { return t[kBB]; }
  double bc() const { return t[kBC]; }
  double cc() const { return t[kCC]; }
  double ee() const { return t[kEE]; }
};

// The part of a listed triangle's hit the ghost rule needs; the rest of its
// SurfaceHit is made only for the hits kept (surfaceHitOf).
struct MeshHit {
  Vec3 closest;        // nearest point of the triangle (m)
  double d2;           // its distance from the centre, squared (m²): the square root is
                       // taken only for the hits kept and where two hits tie (nearerThan)
  int at;              // the triangle's place in the near list
  signed char c0, c1;  // the triangle's corners (0..2) the nearest point is on: an edge
                       // c0 → c1; a corner c0 with c1 = −1; the inside c0 = −1
};

// The hit of a listed triangle (t as meshTriangle gives it) with the sphere
// (p, radius); false when the triangle is `radius` or farther. The same
// arithmetic as hitOf's for the triangle's vertices, so the same hit.
[[gnu::always_inline]] inline bool meshTriangleHit(const double* t, const Vec3& p, double radius,
                                                   MeshHit& h) {
  const Vec3 n(t[kNx], t[kNy], t[kNz]);
  const Vec3 r = p - Vec3(t[kAx], t[kAy], t[kAz]);
  const double s = n.dot(r);
  if (std::abs(s) >= radius) return false;  // the plane is out of reach already
  double qx, qy, qz;
  int c0, c1;
  if (!nearestOnTriangleBoundary(MeshSides{t}, r.x(), r.y(), r.z(), qx, qy, qz, c0, c1)) {
    h.closest = p - s * n;  // inside: the foot on the plane
    c0 = c1 = -1;
  } else {
    h.closest = Vec3(t[kAx], t[kAy], t[kAz]) + Vec3(qx, qy, qz);
  }
  // The distance, |p − closest|, against the radius: by its square where
  // that is far from the radius' (by more than its rounding), so that the
  // square root is off the way to the answer.
  const double d2 = (p - h.closest).squaredNorm(), r2 = radius * radius;
  if (d2 >= r2 * (1 + 1e-12)) return false;
  if (d2 > r2 * (1 - 1e-12) && std::sqrt(d2) >= radius) return false;
  h.d2 = d2;
  h.c0 = static_cast<signed char>(c0);
  h.c1 = static_cast<signed char>(c1);
  return true;
}

// The SurfaceHit of a listed triangle's hit: the list's items and numbers of
// the triangle, as hitOf makes it.
void surfaceHitOf(const NearList& list, const Vec3& centre, const MeshHit& x, SurfaceHit& h) {
  const int* item = list.items.data() + kMeshListedItems * x.at;
  const double* t = list.planes.data() + kMeshListedNumbers * x.at + kNearListBound;
  const Vec3 n(t[kNx], t[kNy], t[kNz]);
  h.feature = item[0];
  h.closest = x.closest;
  h.face = n;
  h.distance = std::sqrt(x.d2);
  h.normal = h.distance > 1e-12 ? Vec3((centre - x.closest) / h.distance) : n;
  h.boundary = x.c0 >= 0;
  h.samples[0] = x.c0 >= 0 ? item[1 + x.c0] : -1;
  h.samples[1] = x.c0 >= 0 && x.c1 >= 0 ? item[1 + x.c1] : -1;
  h.corners[0] = item[1], h.corners[1] = item[2], h.corners[2] = item[3];
}

// Fills list.around (and sets list.linked) when at most kNearListLinked
// features are listed: for each listed triangle's corner, the listed
// triangles with that vertex, gathered by vertex id in a small open-addressed
// table (twice as many entries as the corners at least).
void linkCorners(NearList& list) {
  const size_t listed = list.items.size() / kMeshListedItems;
  list.linked = listed <= kNearListLinked;
  if (!list.linked) return;
  constexpr unsigned kEntries = 512;  // a power of two, at least 2 · 3 · kNearListLinked
  unsigned size = 8;
  while (size < 6 * listed) size *= 2;
  int vertex[kEntries];                 // the vertex id of an entry, -1 while empty
  std::uint64_t with[kEntries];         // the listed triangles with that vertex
  unsigned entry[3 * kNearListLinked];  // each listed corner's entry
  std::fill(vertex, vertex + size, -1);
  for (size_t k = 0; k < listed; ++k) {
    const int* item = list.items.data() + kMeshListedItems * k;
    for (int c = 0; c < 3; ++c) {
      const int v = item[1 + c];
      if (v < 0) break;  // a wall
      unsigned e = (static_cast<unsigned>(v) * 2654435761u) & (size - 1);
      while (vertex[e] >= 0 && vertex[e] != v) e = (e + 1) & (size - 1);
      if (vertex[e] < 0) vertex[e] = v, with[e] = 0;
      with[e] |= std::uint64_t{1} << k;
      entry[3 * k + c] = e;
    }
  }
  for (size_t k = 0; k < listed; ++k) {
    const bool wall = list.items[kMeshListedItems * k + 1] < 0;
    for (int c = 0; c < 3; ++c) list.around[3 * k + c] = wall ? 0 : with[entry[3 * k + c]];
  }
}

// A difference of two hits' squared distances (m²) above which the nearer
// by the squares is nearer by the distances by more than isSurfaceGhost's
// 1e-6 tol: hits are within radius·(1 + 1e-12), so their distances then
// differ by 1e-6 tol + 1e-11 radius, far above their rounding. The squares
// decide alone beyond it, without a square root.
double tieOf(double radius, double tol) {
  return 2 * radius * (1 + 1e-9) * (1e-6 * tol + 1e-11 * radius);
}

// True when hit `c` (on its triangle's edge or corner) is a ghost
// (isSurfaceGhost's rule, with the same arithmetic): another triangle
// through that edge or corner, by the vertex ids, is nearer to the centre
// and its nearest point does not rise above c's plane. With the list's
// triangles linked by their corners, only the hits of the triangles through
// c's edge or corner are tried (`hitAt`: the hit of each listed feature whose
// bit is set in `hitMask`), else all n hits; either from hits[first] (the
// nearest, which most often is that triangle) on.
//
// `tie` (tieOf) is the difference of two hits' squared distances within
// which their distances decide which is nearer.
bool isMeshGhost(const NearList& list, const MeshHit* hits, int n, int first, std::uint64_t hitMask,
                 const signed char* hitAt, const MeshHit& c, double tie, double span2, double tol) {
  const double* f = list.planes.data() + kMeshListedNumbers * c.at + kNearListBound;
  const Vec3 face(f[kNx], f[kNy], f[kNz]);
  // Only hits nearer than c by more than 1e-6 tol count: by the distances
  // (their square roots) as isSurfaceGhost decides, where the squares differ
  // by `tie` or less (tieOf); beyond it the squares decide alone.
  const auto nearer = [&](const MeshHit& t) {
    const double ahead2 = c.d2 - t.d2;
    if (ahead2 <= 0) return false;
    return ahead2 > tie || std::sqrt(t.d2) < std::sqrt(c.d2) - 1e-6 * tol;
  };
  const double reach2 = span2 + tol;
  // t (a triangle through c's edge or corner) makes c a ghost.
  const auto covers = [&](const MeshHit& t) {
    if (!nearer(t)) return false;
    const Vec3 apart = t.closest - c.closest;
    if (apart.head<2>().squaredNorm() > reach2) return false;
    return continuesOrTurnsAway(face.dot(apart), apart.squaredNorm(), tol * tol);
  };
  if (list.linked) {
    std::uint64_t through = list.around[3 * c.at + c.c0] & hitMask;
    if (c.c1 >= 0) through &= list.around[3 * c.at + c.c1];
    through &= ~(std::uint64_t{1} << c.at);  // c itself is not nearer than c
    // The nearest hit first: most often it is the one.
    const std::uint64_t nearest = std::uint64_t{1} << hits[first].at;
    if (through & nearest && covers(hits[first])) return true;
    for (through &= ~nearest; through; through &= through - 1)
      if (covers(hits[hitAt[__builtin_ctzll(through)]])) return true;
    return false;
  }
  const int* item = list.items.data() + kMeshListedItems * c.at;
  const long s0 = item[1 + c.c0], s1 = c.c1 >= 0 ? item[1 + c.c1] : -1;
  for (int k = first, tried = 0; tried < n; ++tried, k = k + 1 < n ? k + 1 : 0) {
    const MeshHit& t = hits[k];
    if (!nearer(t)) continue;
    const int* corners = list.items.data() + kMeshListedItems * t.at + 1;
    const auto has = [&](long v) {
      return v < 0 || v == corners[0] || v == corners[1] || v == corners[2];
    };
    if (!has(s0) || !has(s1)) continue;
    if (covers(t)) return true;
  }
  return false;
}

}  // namespace

void meshSphereHits(const TriMesh& m, const Vec3& centre, double radius, SurfaceScratch& scratch,
                    std::vector<SurfaceHit>& out) {
  std::vector<SurfaceHit>& all = scratch.hits;
  all.clear();
  if (centre.z() - radius > m.box.max.z() || centre.z() + radius < m.box.min.z()) return;
  Vec3 v[4];
  SurfaceHit h;
  const long triangles = m.triangleCount();
  // The near list holds the features within (1 + kMeshNearListMargin)·radius of
  // its centre, each with a plane it lies behind (as a heightfield's
  // triangles) and, for a triangle, what its hit needs (meshTriangle) and
  // its vertex ids; whether any feature's cell came near it in plan (the
  // surface may then be above a centre deeper than the radius); and a height
  // the surface stays below within that reach in plan.
  const NearList* list = nearList(
      scratch, &m, centre, radius,
      [&](const Vec3& c, double r, NearList& l) {
        m.featuresNearSphere(c, r, scratch.features);
        l.candidates = !scratch.features.empty();
        l.ceiling = m.highestNear(c.x() - r, c.y() - r, c.x() + r, c.y() + r);
        const double wide2 = r * r;
        double t[kMeshTriangleNumbers];
        MeshHit x;
        for (int f : scratch.features) {
          Vec3 normal, closest;  // the feature's nearest point and the unit way from it to c
          if (f < triangles) {
            m.triangle(f, v);
            // Bounds out of reach by far more than their rounding: no hit.
            const double ex = std::max({0.0, std::min({v[0].x(), v[1].x(), v[2].x()}) - c.x(),
                                        c.x() - std::max({v[0].x(), v[1].x(), v[2].x()})});
            const double ey = std::max({0.0, std::min({v[0].y(), v[1].y(), v[2].y()}) - c.y(),
                                        c.y() - std::max({v[0].y(), v[1].y(), v[2].y()})});
            const double ez = std::max({0.0, std::min({v[0].z(), v[1].z(), v[2].z()}) - c.z(),
                                        c.z() - std::max({v[0].z(), v[1].z(), v[2].z()})});
            if (ex * ex + ey * ey + ez * ez >= wide2 * (1 + 1e-9)) continue;
            meshTriangle(v, t);
            if (!meshTriangleHit(t, c, r, x)) continue;
            closest = x.closest;
            const double distance = std::sqrt(x.d2);
            normal =
                distance > 1e-12 ? Vec3((c - x.closest) / distance) : Vec3(t[kNx], t[kNy], t[kNz]);
          } else {
            // Walls as open polygons here: a centre behind one may come out in front.
            m.wall(f - triangles, v);
            SurfaceFeature open = wallFeature(f, v);
            open.solid = false;
            if (!hitOf(open, c, r, h)) continue;
            closest = h.closest, normal = h.normal;
          }
          if (l.items.size() + kMeshListedItems > l.items.capacity() ||
              l.planes.size() + kMeshListedNumbers > l.planes.capacity())
            return false;
          if (f < triangles) {
            const std::array<int, 3>& k = m.triangles[f];
            l.items.insert(l.items.end(), {f, k[0], k[1], k[2]});
          } else {
            l.items.insert(l.items.end(), {f, -1, -1, -1});
          }
          l.planes.insert(l.planes.end(),
                          {normal.x(), normal.y(), normal.z(), normal.dot(closest)});
          if (f < triangles)
            l.planes.insert(l.planes.end(), t, t + kMeshTriangleNumbers);
          else
            l.planes.resize(l.planes.size() + kMeshTriangleNumbers);
        }
        linkCorners(l);
        return true;
      },
      kMeshNearListMargin);
  bool anyNear = list && list->candidates;
  if (!list) {
    m.featuresNearSphere(centre, radius, scratch.features);
    anyNear = !scratch.features.empty();
  }
  if (!anyNear) return;
  // A centre under the surface: one contact, through the plane of the
  // triangle above it (the signed distance, as for a centre inside a piece).
  // A centre at or above the list's ceiling, as a wheel on the ground is,
  // needs no height.
  if (!list || centre.z() < list->ceiling) {
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
  }
  // Points this close are one point: welded vertices are exact, so points on
  // a shared edge agree to the rounding of the nearest-point arithmetic.
  const double tol = 1e-9 * std::max({1.0, std::abs(centre.x()), std::abs(centre.y()),
                                      std::abs(m.box.max.z()), std::abs(m.box.min.z())});
  const double span2 = m.span * m.span;
  // A feature whose plane bound keeps it `radius` or farther (with a margin of
  // 1e-9 r for its rounding) is passed over.
  const double reach = radius * (1 + 1e-9);
  if (list) {
    // The triangles' hits, kept compact until the ghosts are known, from the
    // list's numbers alone; walls' hits in full.
    MeshHit hits[kMaxCompactHits];
    int n = 0;
    bool compact = true;  // false: more hits than kept compact
    // With the list linked: the listed features with a hit (bit k for the
    // k-th), and that hit's index in `hits`.
    std::uint64_t hitMask = 0;
    signed char hitAt[kNearListLinked];
    // Each listed feature the plane bound does not keep out of reach: a
    // wall's hit in full into `all`, a triangle's numbers (at its index) to `triangle`.
    // The centre and the list are read once: the callers write through
    // pointers the compiler cannot tell apart from them.
    const double centreX = centre.x(), centreY = centre.y(), centreZ = centre.z();
    const auto inReach = [&](auto&& triangle) {
      const size_t listed = list->items.size() / kMeshListedItems;
      const double* p = list->planes.data();
      const int* item = list->items.data();
      for (size_t at = 0; at < listed; ++at, p += kMeshListedNumbers, item += kMeshListedItems) {
        if (p[0] * centreX + p[1] * centreY + p[2] * centreZ - p[3] >= reach) continue;
        const int f = *item;
        if (f < triangles) {
          triangle(static_cast<int>(at), p + kNearListBound);
        } else {
          m.wall(f - triangles, v);
          if (wallHit(f, v, centre, radius, h)) all.push_back(h);
        }
      }
    };
    int first = 0;  // the nearest hit
    const bool linked = list->linked;
    inReach([&](int at, const double* numbers) {
      if (!compact || !meshTriangleHit(numbers, centre, radius, hits[n])) return;
      hits[n].at = at;
      if (hits[n].d2 < hits[first].d2) first = n;
      if (linked) hitMask |= std::uint64_t{1} << at, hitAt[at] = static_cast<signed char>(n);
      compact = ++n < kMaxCompactHits;
    });
    if (compact && all.empty()) {
      // Triangles only: each hit's ghost check reads the hits of the
      // triangles through its edge or corner, and only the hits kept are
      // made in full.
      const double tie = tieOf(radius, tol);
      keepCompactHits(
          n,
          [&](int k) {
            return hits[k].c0 >= 0 &&
                   isMeshGhost(*list, hits, n, first, hitMask, hitAt, hits[k], tie, span2, tol);
          },
          [&](int k, SurfaceHit& made) { surfaceHitOf(*list, centre, hits[k], made); }, tol,
          scratch, h, out);
      return;
    }
    // Walls, or more hits than kept compact: every hit in full, each checked
    // against all the others.
    if (compact) {
      for (int k = 0; k < n; ++k) {
        surfaceHitOf(*list, centre, hits[k], h);
        all.push_back(h);
      }
    } else {
      all.clear();
      MeshHit x;
      inReach([&](int at, const double* numbers) {
        if (!meshTriangleHit(numbers, centre, radius, x)) return;
        x.at = at;
        surfaceHitOf(*list, centre, x, h);
        all.push_back(h);
      });
    }
    keepSurfaceContacts(m, span2, tol, scratch, out, AllSurfaceHits{scratch.hits});
    return;
  }
  // No near list: the features of the grid cells near the sphere.
  const double r2 = radius * radius;
  for (const int f : scratch.features) {
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
      SurfaceFeature triangle;
      triangle.id = f;
      triangle.vertices = v;
      triangle.normal = n.normalized();
      triangle.vertexIds = ids;
      if (hitOf(triangle, centre, radius, h)) all.push_back(h);
    } else {
      m.wall(f - triangles, v);
      if (wallHit(f, v, centre, radius, h)) all.push_back(h);
    }
  }
  keepSurfaceContacts(m, span2, tol, scratch, out, AllSurfaceHits{scratch.hits});
}

}  // namespace roverlab
