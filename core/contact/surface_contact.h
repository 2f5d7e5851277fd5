// Contact with a triangulated surface, the part heightfields
// (contact/heightfield_contact.h) and meshes (contact/mesh_contact.h) share.
// A surface is a set of features: triangles (tops of prisms down to a base)
// and walls (the prisms' outer sides). Each gives the nearest point of its
// polygon to a query point (a SurfaceHit); the surface knows which triangles
// meet from the vertex ids of their corners (a grid's samples, a mesh's
// welded vertices), and from that which hits are ghosts and which coincide.
//
// Sphere (a wheel, [GKS2025] §2, eq. 1): a nearest point on a triangle's edge
// or corner is a ghost by the one ghost rule of every kind (contact/crease.h),
// the features through that point known from the vertex ids; at a concave
// crease both contacts are real, as between quads. Features whose
// nearest points coincide (a corner shared by six triangles, an edge by two)
// give one contact. A flat surface thus gives exactly the one contact a
// single quad gives, whatever its seams.
//
// A box (a robot body) meets a surface's triangles as it meets pieces
// (contact/body_contact.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "contact/body_contact.h"
#include "contact/crease.h"
#include "terrain/terrain.h"

namespace roverlab {

/// The nearest point of one surface feature (triangle or wall) to a point.
struct SurfaceHit {
  long feature = -1;               ///< triangle index, or the triangle count + wall index
  Vec3 closest = Vec3::Zero();     ///< nearest point of the feature (m)
  Vec3 normal = Vec3::UnitZ();     ///< unit, from the surface towards the query point
  Vec3 face = Vec3::UnitZ();       ///< the feature's own unit outward normal
  double distance = 0.0;           ///< signed (m): < 0 when the point is under the surface
  bool boundary = false;           ///< the nearest point is on the feature's edge or corner
  long samples[2] = {-1, -1};      ///< for a triangle, the vertex ids of that edge (or corner, -1)
  long corners[3] = {-1, -1, -1};  ///< for a triangle, the vertex ids of its corners
};

/// Most features a mesh near list links by their corners (NearList::around):
/// one bit each in 64.
constexpr size_t kNearListLinked = 64;

/// The cells (heightfield) or features (mesh) a sphere may reach, found for a
/// sphere kNearListMargin·radius wider than the query's: they hold every cell or
/// feature the query's sphere reaches while its centre stays within
/// kNearListMargin·radius of `centre`, so a wheel's next queries (its next steps
/// and integrator stages) test only these, not the whole neighbourhood again.
struct NearList {
  const void* surface = nullptr;  ///< the heightfield or mesh listed; null: unused
  Vec3 centre = Vec3::Zero();     ///< the centre the list was found for (m)
  double radius = 0.0;            ///< the query radius it serves (m)
  long used = 0;                  ///< SurfaceScratch::uses when last used
  bool fits = false;              ///< false: the items did not fit (the caller searches)
  /// mesh: some feature's grid cell came near the wider sphere (the caller
  /// then looks for the surface above the centre)
  bool candidates = false;
  /// mesh: the triangle under the last query's centre, or -1 (a cache of
  /// TriMesh::surfaceAt: a wheel stays over one triangle for many steps)
  mutable long below = -1;
  /// mesh: a height (m) the surface stays below over the plan square of the
  /// wider sphere (TriMesh::highestNear): a centre at or above it is not
  /// under the surface
  double ceiling = INFINITY;
  /// heightfield: the cells of the listed triangles lie in these (empty
  /// ranges, kNoCells, while none is listed)
  static constexpr int kNoCell = 1 << 30;
  static constexpr CellRange kNoCells = {kNoCell, -kNoCell, kNoCell, -kNoCell};
  CellRange cells = kNoCells;
  /// heightfield: triangle (2i + upper, j) pairs; mesh: per feature its id,
  /// then a triangle's three vertex ids (-1 for a wall)
  std::vector<int> items;
  /// heightfield: for each listed triangle, kNearListPlanes numbers: a plane
  /// it lies behind, found from `centre` (unit normal x, y, z towards the
  /// centre, then its offset in m): a centre's height above it bounds its
  /// distance from the triangle, so a query passes over the triangles that
  /// bound keeps out of reach; then, from kNearListBound on, what the
  /// triangle's hit needs of it (its plane, corners and sides, as the
  /// heightfield query makes them), so a query reads no heights.
  /// mesh: for each listed feature, a plane it lies behind, found likewise
  /// (kNearListBound numbers), then for a triangle what its hit needs of it
  /// (its corners, normal and sides, as contact/mesh_contact.cpp makes them),
  /// so a query reads no vertices; `items` has its feature id and, for a
  /// triangle, its vertex ids.
  std::vector<double> planes;
  /// mesh: true when `around` holds the listed triangles through each corner
  /// (at most kNearListLinked features listed)
  bool linked = false;
  /// mesh, when `linked`: for listed feature k's corner c (0..2), entry 3k + c
  /// has bit j set when the j-th listed feature is a triangle with that
  /// corner's vertex (k's own bit included; 0 for a wall). The triangles
  /// through an edge are its two corners' entries' common bits.
  std::uint64_t around[3 * kNearListLinked];
};

/// Numbers per listed triangle in NearList::planes (heightfield): the bounding
/// plane's kNearListBound, then the triangle's.
constexpr size_t kNearListBound = 4;
constexpr size_t kNearListPlanes = 16;

/// How far a query's centre may move from the one its near list was found
/// for, as a fraction of the radius (-): 2.5 % of a 0.25 m wheel is 6 mm,
/// 31 steps of 4e-4 s at 0.5 m/s (nearly twice that for a list found ahead,
/// kNearListAhead), while the wider sphere lists about twice the triangles
/// it reaches (rocker8 on 0.05 m cells: about 22 for 10). Margins of 2 % to
/// 4 % cost the same natively; in WebAssembly the narrower lists' fewer
/// triangles to pass over outweigh their more frequent rebuilds, so the
/// margin is at the narrow end (tests/bench/heightmap_bench.sh measures it).
constexpr double kNearListMargin = 0.025;

/// The same for a mesh's lists (-): its triangles come from grid cells of
/// many sizes, so a list costs more to make than a heightfield's, and a wider
/// margin that makes fewer of them is cheaper overall (rocker8's patch
/// queries, natively and in WebAssembly: tests/bench/heightmap_bench.sh).
constexpr double kMeshNearListMargin = 0.04;

/// How far ahead of a centre leaving its last list a new list is found, as a
/// fraction of kNearListMargin·radius (-): less than 1, so that the list
/// serves that centre too.
constexpr double kNearListAhead = 0.9;

/// Buffers of one surface query, kept between queries so that it allocates
/// nothing: the features near the query (meshes), their hits, the hits'
/// order by distance, and the near lists of recent queries (none unless
/// sized by the caller: the step keeps two per wheel).
struct SurfaceScratch {
  std::vector<int> features;
  std::vector<SurfaceHit> hits;
  std::vector<int> order;
  std::vector<NearList> lists;
  long uses = 0;
  /// The lists a query may use: listCount of them from firstList (0: all), so
  /// that each wheel of a step keeps its own.
  size_t firstList = 0, listCount = 0;
};

/// The near list of `surface` for a sphere (centre, radius): one kept from an
/// earlier query of the same radius whose centre is within
/// `margin`·radius of this one (kNearListMargin unless told), or else one made
/// now in the least recently used list by find(centre, (1 + margin)·radius, list), which
/// fills list.items (and list.planes) and returns false when they would
/// not fit their capacity (it must not allocate). Null when the scratch keeps
/// no lists or the items did not fit: the caller then searches the
/// neighbourhood itself.
template <class Find>
const NearList* nearList(SurfaceScratch& scratch, const void* surface, const Vec3& centre,
                         double radius, Find&& find, double marginOfRadius = kNearListMargin) {
  if (scratch.lists.empty()) return nullptr;
  const double margin = marginOfRadius * radius;
  const size_t first = std::min(scratch.firstList, scratch.lists.size() - 1);
  const size_t end = scratch.listCount ? std::min(first + scratch.listCount, scratch.lists.size())
                                       : scratch.lists.size();
  NearList* oldest = &scratch.lists[first];
  const NearList* latest = nullptr;  // the last used of this surface and radius
  for (auto l = scratch.lists.begin() + first; l != scratch.lists.begin() + end; ++l) {
    if (l->surface == surface && l->radius == radius) {
      if ((centre - l->centre).squaredNorm() <= margin * margin) {
        l->used = ++scratch.uses;
        return l->fits ? &*l : nullptr;
      }
      if (!latest || l->used > latest->used) latest = &*l;
    }
    if (l->used < oldest->used) oldest = &*l;
  }
  // A centre that has just left the last list (a wheel rolling on) gets its
  // new list found kNearListAhead·margin ahead of it, on the way it left:
  // the list then serves it over nearly twice the distance.
  Vec3 at = centre;
  if (latest) {
    const Vec3 left = centre - latest->centre;
    const double gone = left.norm();
    if (gone <= 2 * margin) at += (kNearListAhead * margin / gone) * left;
  }
  oldest->items.clear();
  oldest->planes.clear();
  oldest->candidates = false;
  oldest->linked = false;
  oldest->below = -1;
  oldest->ceiling = INFINITY;
  oldest->cells = NearList::kNoCells;
  oldest->used = ++scratch.uses;
  oldest->surface = surface;
  oldest->centre = at;
  oldest->radius = radius;
  oldest->fits = find(at, radius + margin, *oldest);
  return oldest->fits ? oldest : nullptr;
}

/// A corner-relative triangle for nearestOnTriangleBoundary: corners 0, b
/// and c (counter-clockwise; b and c relative to corner 0, in m), with
/// bb = b·b, bc = b·c, cc = c·c and ee = (c − b)·(c − b) (m²). (A heightfield
/// gives the same accessors from its kept numbers.)
struct TriangleSides {
  double b[3], c[3], sides[4];  // sides: bb, bc, cc, ee
  double bx() const { return b[0]; }
  double by() const { return b[1]; }
  double bz() const { return b[2]; }
  double cx() const { return c[0]; }
  double cy() const { return c[1]; }
  double cz() const { return c[2]; }
  double bb() const { return sides[0]; }
  double bc() const { return sides[1]; }
  double cc() const { return sides[2]; }
  double ee() const { return sides[3]; }
};

/// The nearest point (qx, qy, qz) to (rx, ry, rz) of triangle t (all relative
/// to its corner 0, m; t as TriangleSides or with its accessors), by the Voronoi regions of its
/// corners and edges (Ericson, Real-Time Collision Detection, 2005, sec. 5.1.5): a corner or an
/// edge from a few dot products. False when the point is inside the triangle
/// (q is then not set: the foot on its plane); true when it is on the
/// boundary, with c0, c1 as closestOnPolygon's corners (a point within 1e-9
/// of an edge's length of its corner counts as that corner).
template <class Sides>
[[gnu::always_inline]] inline bool nearestOnTriangleBoundary(const Sides& t, double rx, double ry,
                                                             double rz, double& qx, double& qy,
                                                             double& qz, int& c0, int& c1) {
  // An edge e → n at the place u (0..1) along it.
  const auto onEdge = [&](double u, int e, int n) {
    c0 = u > 1 - 1e-9 ? n : e;
    c1 = u < 1e-9 || u > 1 - 1e-9 ? -1 : n;
  };
  c1 = -1;
  // (b, c)·r, (b, c)·(r − b), (b, c)·(r − c) (m²).
  const double d1 = t.bx() * rx + t.by() * ry + t.bz() * rz,
               d2 = t.cx() * rx + t.cy() * ry + t.cz() * rz;
  const double d3 = d1 - t.bb(), d4 = d2 - t.bc();
  if (d1 <= 0 && d2 <= 0) {
    qx = qy = qz = 0, c0 = 0;
  } else if (d3 >= 0 && d4 <= d3) {
    qx = t.bx(), qy = t.by(), qz = t.bz(), c0 = 1;
  } else if (d1 * d4 - d3 * d2 <= 0 && d1 >= 0 && d3 <= 0) {
    const double u = d1 / t.bb();
    qx = u * t.bx(), qy = u * t.by(), qz = u * t.bz();
    onEdge(u, 0, 1);
  } else {
    const double d5 = d1 - t.bc(), d6 = d2 - t.cc();
    if (d6 >= 0 && d5 <= d6) {
      qx = t.cx(), qy = t.cy(), qz = t.cz(), c0 = 2;
    } else if (d5 * d2 - d1 * d6 <= 0 && d2 >= 0 && d6 <= 0) {
      const double u = d2 / t.cc();  // from 0 towards c: on edge c → 0 at 1 − u
      qx = u * t.cx(), qy = u * t.cy(), qz = u * t.cz();
      onEdge(1 - u, 2, 0);
    } else if (d3 * d6 - d5 * d4 <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      const double u = (d4 - d3) / t.ee();
      qx = t.bx() + u * (t.cx() - t.bx()), qy = t.by() + u * (t.cy() - t.by()),
      qz = t.bz() + u * (t.cz() - t.bz());
      onEdge(u, 1, 2);
    } else {
      return false;
    }
  }
  return true;
}

/// The nearest point q of the convex polygon v[0..k), k = 3 or 4 (counter-clockwise about
/// its unit normal n) to p; true when q is inside the polygon, false when it
/// is on its boundary. Then `corners` (if given) gets the polygon's corners
/// that q's feature spans: corners[0] and corners[1] for an edge,
/// corners[1] = -1 for a corner.
bool closestOnPolygon(const Vec3* v, int k, const Vec3& n, const Vec3& p, Vec3& q,
                      int* corners = nullptr);

/// One surface feature as a query meets it: a triangle or a wall. It points
/// at its caller's vertices and ids and owns nothing.
struct SurfaceFeature {
  long id = -1;                     ///< triangle index, or the triangle count + wall index
  const Vec3* vertices = nullptr;   ///< its corners (m), counter-clockwise about `normal`
  int count = 3;                    ///< corners: 3 (a triangle) or 4 (a wall)
  Vec3 normal = Vec3::UnitZ();      ///< unit, outward
  const long* vertexIds = nullptr;  ///< a triangle's corners' vertex ids; null: none (a wall)
  /// points behind it are not hits: true for a wall, with the surface behind
  /// it; false for a triangle (a centre above the surface may be under a
  /// steep triangle's plane and still have its nearest point on its edge)
  bool solid = false;
};

/// The hit `h` of `feature` with p, or false when p is beyond `radius` (m)
/// or behind a solid feature.
bool hitOf(const SurfaceFeature& feature, const Vec3& p, double radius, SurfaceHit& h);

/// hitOf for the solid wall wallFeature(id, v); out of line, so that the
/// queries' loops, which rarely meet a wall, stay lean.
bool wallHit(long id, const Vec3 v[4], const Vec3& p, double radius, SurfaceHit& h);

/// The unit normal of a triangle counter-clockwise about it.
inline Vec3 triangleNormal(const Vec3 v[3]) {
  return (v[1] - v[0]).cross(v[2] - v[0]).normalized();
}

/// The outward unit normal of a wall (vertices as Heightfield::wall and
/// TriMesh::wall give them: its top edge first, counter-clockwise from outside).
inline Vec3 wallNormal(const Vec3 v[4]) { return (v[0] - v[1]).cross(Vec3::UnitZ()).normalized(); }

/// Wall `id` with vertices v[0..4) (as Heightfield::wall and TriMesh::wall
/// give them), solid.
inline SurfaceFeature wallFeature(long id, const Vec3 v[4]) {
  SurfaceFeature wall;
  wall.id = id;
  wall.vertices = v;
  wall.count = 4;
  wall.normal = wallNormal(v);
  wall.solid = true;
  return wall;
}

/// Every hit of the query, as the hits that may make a hit a ghost
/// (isSurfaceGhost's `candidates`): calls visit(t) for each until it returns true.
struct AllSurfaceHits {
  const std::vector<SurfaceHit>& all;
  template <class Visit>
  bool operator()(const SurfaceHit&, Visit&& visit) const {
    for (const SurfaceHit& t : all)
      if (visit(t)) return true;
    return false;
  }
};

/// True when the hit `c` is a ghost: its nearest point is on its edge or
/// corner, and another feature through that point is nearer to the centre
/// without rising above c's plane (no concave crease between them).
/// `Surface` has triangleCount(), triangle(t, v) and wall(w, v); `span2`
/// bounds a triangle's squared plan diameter (m²), `tol` (m) the distance
/// under which two points are one. candidates(c, visit) calls visit(t) for
/// the query's hits t that may pass through c's point (every hit, or fewer
/// where the surface knows its topology: AllSurfaceHits), until visit returns true.
template <class Surface, class Candidates>
bool isSurfaceGhost(const Surface& s, double span2, const SurfaceHit& c, double tol,
                    const Candidates& candidates) {
  const double nearer = c.distance - 1e-6 * tol;  // only hits nearer than this count
  // A triangle through c's point holds it and its own nearest point: they
  // are at most its plan diameter apart in plan (walls are checked in full).
  const double reach2 = span2 + tol;
  const long triangles = s.triangleCount();
  const bool wallC = c.feature >= triangles;
  return candidates(c, [&](const SurfaceHit& t) {
    if (t.distance >= nearer) return false;
    const Vec3 apart = t.closest - c.closest;
    if (!wallC && t.feature < triangles) {
      // Two triangles: t passes through c's point when it has c's edge or corner.
      const long* corners = t.corners;
      const auto has = [&](long v) {
        return v < 0 || v == corners[0] || v == corners[1] || v == corners[2];
      };
      if (!has(c.samples[0]) || !has(c.samples[1])) return false;
      if (apart.head<2>().squaredNorm() > reach2) return false;
      return continuesOrTurnsAway(c.face.dot(apart), apart.squaredNorm(), tol * tol);
    }
    // Concave (t rises above c's plane towards the wheel): both are real.
    // Points within tol are one point: the same contact, not a crease.
    if (!continuesOrTurnsAway(c.face.dot(apart), apart.squaredNorm(), tol * tol)) return false;
    Vec3 v[4], q = Vec3::Zero();
    const bool wall = t.feature >= triangles;
    if (wall)
      s.wall(t.feature - triangles, v);
    else
      s.triangle(t.feature, v);
    closestOnPolygon(v, wall ? 4 : 3, t.face, c.closest, q);
    return (q - c.closest).norm() <= tol;  // t passes through c's point
  });
}

/// The contacts among the hits all[order[...]] (none a ghost), appended to
/// `out`, nearest first: points within `tol` (m) of one another are one
/// contact, the nearer hit's, or on a tie the one most square to its feature
/// (the face's own normal where the centre is right over a seam). Sorts `order`.
inline void mergeSurfaceContacts(const std::vector<SurfaceHit>& all, std::vector<int>& order,
                                 double tol, std::vector<SurfaceHit>& out) {
  if (order.size() == 1) {  // most queries: one contact
    out.push_back(all[order[0]]);
    return;
  }
  // Nearest first (ties in feature order, so the result does not depend on
  // the order the candidates were found in).
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return all[a].distance < all[b].distance ||
           (all[a].distance == all[b].distance && all[a].feature < all[b].feature);
  });
  const size_t first = out.size();
  for (int at : order) {
    const SurfaceHit& c = all[at];
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

/// Most hits a heightfield or mesh query keeps compact (its own small record
/// each, until the ghosts are known); a query with more (a wheel far larger
/// than the triangles) makes every hit in full.
constexpr int kMaxCompactHits = 64;

/// The contacts among a query's n ≤ kMaxCompactHits compact hits, appended to
/// `out`: ghost(k) tells whether hit k is a ghost, make(k, h) makes hit k in
/// full. The one contact of most queries is copied straight into `out`;
/// several are merged (mergeSurfaceContacts) through scratch.hits, which the
/// caller has left empty. Each is made through `h`, not in place: in
/// WebAssembly a SurfaceHit made in place in a vector first takes its default
/// values.
template <class Ghost, class Make>
void keepCompactHits(int n, Ghost&& ghost, Make&& make, double tol, SurfaceScratch& scratch,
                     SurfaceHit& h, std::vector<SurfaceHit>& out) {
  int kept[kMaxCompactHits], m = 0;
  for (int k = 0; k < n; ++k)
    if (!ghost(k)) kept[m++] = k;
  if (m <= 1) {
    if (m == 1) {
      make(kept[0], h);
      out.push_back(h);
    }
    return;
  }
  std::vector<SurfaceHit>& all = scratch.hits;
  std::vector<int>& order = scratch.order;
  order.clear();
  for (int k = 0; k < m; ++k) {
    order.push_back(static_cast<int>(all.size()));
    make(kept[k], h);
    all.push_back(h);
  }
  mergeSurfaceContacts(all, order, tol, out);
}

/// The contacts among the candidate hits (scratch.hits), appended to `out`: ghosts
/// dropped (isSurfaceGhost, with `candidates`), coincident points (within
/// `tol`, m) merged into one contact, the nearer, or on a tie the one most
/// square to its feature (the face's own normal where the centre is right
/// over a seam).
template <class Surface, class Candidates>
void keepSurfaceContacts(const Surface& s, double span2, double tol, SurfaceScratch& scratch,
                         std::vector<SurfaceHit>& out, const Candidates& candidates) {
  const std::vector<SurfaceHit>& all = scratch.hits;
  std::vector<int>& order = scratch.order;
  order.clear();
  for (size_t k = 0; k < all.size(); ++k)
    if (!all[k].boundary || !isSurfaceGhost(s, span2, all[k], tol, candidates))
      order.push_back(static_cast<int>(k));
  mergeSurfaceContacts(all, order, tol, out);
}

/// The hit of a centre under the surface at height `ground` with upward unit
/// normal `up`: the signed distance through that plane, as for a centre
/// inside a piece.
inline SurfaceHit underSurface(long feature, const Vec3& centre, double ground, const Vec3& up) {
  SurfaceHit h;
  h.feature = feature;
  h.face = h.normal = up;
  h.distance = (centre.z() - ground) * up.z();
  h.closest = centre - h.distance * up;
  return h;
}

}  // namespace roverlab
