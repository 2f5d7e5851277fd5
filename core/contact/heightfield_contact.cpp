#include "contact/heightfield_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact/crease.h"
#include "terrain/terrain.h"

namespace roverlab {
namespace {

// floor(x) clamped to lo..hi (lo ≥ 0; truncation is the floor of what is not
// negative, and needs no call to the math library).
int clampedFloor(double x, int lo, int hi) {
  return x < lo ? lo : x >= hi ? hi : static_cast<int>(x);
}

// The cells whose bounds come within `reach` of (x, y), into `cells`; false when none.
bool cellRange(const Heightfield& f, double x, double y, double reach, CellRange& cells) {
  const double u0 = (x - reach - f.originX) / f.dx, u1 = (x + reach - f.originX) / f.dx;
  const double v0 = (y - reach - f.originY) / f.dy, v1 = (y + reach - f.originY) / f.dy;
  if (!(u1 >= 0 && v1 >= 0 && u0 <= f.cellsX() && v0 <= f.cellsY())) return false;
  cells.i0 = clampedFloor(u0, 0, f.cellsX()), cells.j0 = clampedFloor(v0, 0, f.cellsY());
  cells.i1 = clampedFloor(u1, 0, f.cellsX() - 1), cells.j1 = clampedFloor(v1, 0, f.cellsY() - 1);
  return cells.i0 <= cells.i1 && cells.j0 <= cells.j1;
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

// Calls visit(i, j) for the cells of `cells` (those within `radius` of the
// centre's plan position) that may come within `radius` of `centre`, row by
// row: the sphere dips below the highest cell top of the blocks around it
// only within a plan distance of its centre, and each row only within a
// chord of that circle.
template <class Visit>
void forCellsNear(const Heightfield& f, const Vec3& centre, double radius, CellRange cells,
                  Visit&& visit) {
  float local = -std::numeric_limits<float>::infinity();
  for (int bj = cells.j0 / Heightfield::kBlock; bj <= cells.j1 / Heightfield::kBlock; ++bj)
    for (int bi = cells.i0 / Heightfield::kBlock; bi <= cells.i1 / Heightfield::kBlock; ++bi)
      local = std::max(local, f.blockTop[static_cast<size_t>(bj) * f.blocksX() + bi]);
  const double above = std::max(0.0, centre.z() - local);
  const double plan2 = radius * radius - above * above;  // squared plan reach (m²)
  // The cells within that plan reach.
  CellRange dipped;
  if (plan2 <= 0 || !cellRange(f, centre.x(), centre.y(), std::sqrt(plan2), dipped)) return;
  for (int j = dipped.j0; j <= dipped.j1; ++j) {
    const double ylo = f.originY + j * f.dy;
    const double ey = std::max({0.0, ylo - centre.y(), centre.y() - ylo - f.dy});
    const double across2 = plan2 - ey * ey;  // squared plan reach left along x (m²)
    if (across2 <= 0) continue;
    const double across = std::sqrt(across2);
    const int first =
        clampedFloor((centre.x() - across - f.originX) / f.dx, cells.i0, cells.i1 + 1);
    const double end = (centre.x() + across - f.originX) / f.dx;
    const int last = end < cells.i0 ? cells.i0 - 1 : clampedFloor(end, cells.i0, cells.i1);
    for (int i = first; i <= last; ++i) visit(i, j);
  }
}

// What a triangle's hit needs of it (fieldTriangle), by these names: its unit
// upward normal (kNx, kNy, kNz); its corner a = (i, j) (kAx, kAy, kAz, m); the
// heights of its corners b and c above a (kBz, kCz, m); (b − a)², (b − a)·(c − a),
// (c − a)² and (c − b)² (kBB, kBC, kCC, kEE, m²).
// clang-format off
enum FieldTriangleNumber { kNx, kNy, kNz, kAx, kAy, kAz, kBz, kCz, kBB, kBC, kCC, kEE,
                           kFieldTriangleNumbers };
// clang-format on

static_assert(kNearListBound + kFieldTriangleNumbers == kNearListPlanes);

// Triangle `upper` (0 lower, 1 upper) of cell (i, j), as Heightfield::triangle
// makes it from its cell's corners: a = (i, j), then counter-clockwise b and c,
// lower (i+1, j), (i+1, j+1), upper (i+1, j+1), (i, j+1); in t, by
// FieldTriangleNumber. Corners b and c lie at (dx, 0) and (dx, dy) from a in
// plan (lower), or (dx, dy) and (0, dy) (upper).
void fieldTriangle(const Heightfield& f, int i, int j, int upper, double t[kFieldTriangleNumbers]) {
  const double dx = f.dx, dy = f.dy;
  const float* row = f.heights.data() + static_cast<long>(j) * f.nx + i;
  const double z00 = row[0], z11 = row[f.nx + 1], zs = upper ? row[f.nx] : row[1];
  const double bx = dx, by = upper ? dy : 0, bz = (upper ? z11 : zs) - z00;
  const double cx = upper ? 0 : dx, cy = dy, cz = (upper ? zs : z11) - z00;
  // The cross product of its sides (upward, unnormalized).
  const double mx = upper ? -dy * (z11 - zs) : -dy * (zs - z00);
  const double my = upper ? -dx * (zs - z00) : -dx * (z11 - zs);
  const double mz = dx * dy;
  const double perLen = 1 / std::sqrt(mx * mx + my * my + mz * mz);
  t[kNx] = mx * perLen, t[kNy] = my * perLen, t[kNz] = mz * perLen;
  t[kAx] = f.originX + i * dx, t[kAy] = f.originY + j * dy, t[kAz] = z00;
  t[kBz] = bz, t[kCz] = cz;
  t[kBB] = bx * bx + by * by + bz * bz, t[kBC] = bx * cx + by * cy + bz * cz;
  t[kCC] = cx * cx + cy * cy + cz * cz;
  t[kEE] = (cx - bx) * (cx - bx) + (cy - by) * (cy - by) + (cz - bz) * (cz - bz);
}

// The part of a triangle's hit the ghost rule needs; the rest of its
// SurfaceHit is made only for the hits kept (surfaceHitOf).
struct FieldHit {
  Vec3 closest;        // nearest point of the triangle (m)
  Vec3 gap;            // the centre − closest (m), for a nearest point on the boundary
  Vec3 face;           // the triangle's unit upward normal
  double s;            // the centre's height above the triangle's plane (m), for an inner point
  double distance;     // from the centre (m)
  int i, j;            // the triangle's cell
  signed char upper;   // 0 lower, 1 upper triangle of the cell
  signed char c0, c1;  // the triangle's corners (0..2) the nearest point is on: an edge
                       // c0 → c1; a corner c0 with c1 = −1; the inside c0 = −1
};

// Triangle `upper` of a cell, t as fieldTriangle gives it, as
// nearestOnTriangleBoundary reads it (each number read where it is needed).
struct FieldSides {
  const double* t;
  double dx, dy;  // the cell's sides (m)
  int upper;
  double bx() const { return dx; }
  double by() const { return upper ? dy : 0; }
  double bz() const { return t[kBz]; }
  double cx() const { return upper ? 0 : dx; }
  double cy() const { return dy; }
  double cz() const { return t[kCz]; }
  double bb() const { return t[kBB]; }
  double bc() const { return t[kBC]; }
  double cc() const { return t[kCC]; }
  double ee() const { return t[kEE]; }
};

// The hit of triangle `upper` of cell (i, j), t as fieldTriangle gives it,
// with the sphere (centre, radius), r2 = radius²; false when the triangle is
// `radius` or farther. In coordinates relative to the triangle's corner a,
// the nearest point by nearestOnTriangleBoundary (most hits of a wheel on a
// grid are on a corner or an edge); a point inside the triangle is the
// centre's foot on its plane, at the plane's distance, as hitOf finds it.
inline bool fieldTriangleHit(const Heightfield& f, int i, int j, int upper, const double* t,
                             const Vec3& centre, double radius, double r2, FieldHit& h) {
  const double dx = f.dx, dy = f.dy;
  const double rx = centre.x() - t[kAx], ry = centre.y() - t[kAy], rz = centre.z() - t[kAz];
  const FieldSides sides{t, dx, dy, upper};
  double qx, qy, qz;  // the nearest point, relative to a (m)
  int c0, c1;         // as FieldHit's
  if (!nearestOnTriangleBoundary(sides, rx, ry, rz, qx, qy, qz, c0, c1)) {
    // Inside: the foot on the plane.
    const double nx = t[kNx], ny = t[kNy], nz = t[kNz];
    const double s = nx * rx + ny * ry + nz * rz, d = std::abs(s);
    if (d >= radius) return false;
    h.closest = Vec3(t[kAx] + (rx - s * nx), t[kAy] + (ry - s * ny), t[kAz] + (rz - s * nz));
    h.s = s;
    h.distance = d;
    h.c0 = h.c1 = -1;
    h.face = Vec3(nx, ny, nz);
    h.i = i, h.j = j;
    h.upper = static_cast<signed char>(upper);
    return true;
  }
  const double gx = rx - qx, gy = ry - qy, gz = rz - qz, gap2 = gx * gx + gy * gy + gz * gz;
  if (gap2 >= r2) return false;  // before the square root: many are out of reach
  h.closest = Vec3(t[kAx] + qx, t[kAy] + qy, t[kAz] + qz);
  h.gap = Vec3(gx, gy, gz);
  h.distance = std::sqrt(gap2);
  h.c0 = static_cast<signed char>(c0);
  h.c1 = static_cast<signed char>(c1);
  h.face = Vec3(t[kNx], t[kNy], t[kNz]);
  h.i = i, h.j = j;
  h.upper = static_cast<signed char>(upper);
  return true;
}

// The unit normal of a triangle's hit: from its nearest point towards the
// centre (the face's, on the centre's side, for an inner point), or the
// face's for a centre on the triangle.
Vec3 fieldHitNormal(const FieldHit& x) {
  if (!(x.distance > 1e-12)) return x.face;
  if (x.c0 < 0) return std::copysign(1.0, x.s) * x.face;
  const double perD = 1 / x.distance;
  return Vec3(x.gap.x() * perD, x.gap.y() * perD, x.gap.z() * perD);
}

// The SurfaceHit of a triangle's hit: its feature, normal and vertex ids.
void surfaceHitOf(const Heightfield& f, const FieldHit& x, SurfaceHit& h) {
  const long a = static_cast<long>(x.j) * f.nx + x.i;
  const long ids[3] = {a, x.upper ? a + f.nx + 1 : a + 1, x.upper ? a + f.nx : a + f.nx + 1};
  h.feature = f.triangleId(x.i, x.j, x.upper);
  h.closest = x.closest;
  h.face = x.face;
  h.normal = fieldHitNormal(x);
  h.distance = x.distance;
  h.boundary = x.c0 >= 0;
  h.samples[0] = x.c0 >= 0 ? ids[x.c0] : -1;
  h.samples[1] = x.c0 >= 0 && x.c1 >= 0 ? ids[x.c1] : -1;
  h.corners[0] = ids[0], h.corners[1] = ids[1], h.corners[2] = ids[2];
}

// Calls visit(i, j, upper, t) for every triangle the sphere (centre, radius)
// may reach, t as fieldTriangle gives it: from the near list when there is
// one, else from the cells near it.
template <class Visit>
void forTrianglesNear(const Heightfield& f, const NearList* near, const Vec3& centre, double radius,
                      CellRange cells, Visit&& visit) {
  if (near) {
    // A triangle's distance from this centre is at least the centre's
    // height above the plane it lies behind; those that stay `radius` or
    // farther by that bound (with a margin of 1e-9 r for its rounding) are
    // passed over: a wheel rolling along its ground barely changes its
    // height above the planes of the triangles under it.
    // The centre, the list's size and its start are read once: `visit`
    // writes through pointers the compiler cannot tell apart from them.
    const double reach = radius * (1 + 1e-9);
    const double x = centre.x(), y = centre.y(), z = centre.z();
    const double* p = near->planes.data();
    const int* item = near->items.data();
    const int* const end = item + near->items.size();
    for (; item != end; item += 2, p += kNearListPlanes) {
      if (p[0] * x + p[1] * y + p[2] * z - p[3] >= reach) continue;
      visit(item[0] >> 1, item[1], item[0] & 1, p + kNearListBound);
    }
    return;
  }
  const double r2 = radius * radius;
  double t[kFieldTriangleNumbers];
  forCellsNear(f, centre, radius, cells, [&](int i, int j) {
    if (!cellInReach(f, i, j, centre, r2)) return;
    for (int upper = 0; upper < 2; ++upper) {
      fieldTriangle(f, i, j, upper, t);
      visit(i, j, upper, t);
    }
  });
}

// Corner k (0..2) of the lower (upper = 0) and upper triangle of a cell, as
// sample offsets from its corner (i, j) along x (kCornerI) and y (kCornerJ).
constexpr int kCornerI[2][3] = {{0, 1, 1}, {0, 1, 0}};
constexpr int kCornerJ[2][3] = {{0, 0, 1}, {0, 1, 1}};

// The hits of a query by triangle, over the window of cells they lie in, so
// that a hit's ghost check finds the hits of the triangles through its edge
// or corner by the grid's topology: triangle `upper` of cell (i, j) has slot
// 2 (j w + i) + upper, less the window's first, w the window's width in cells.
class FieldHitIndex {
 public:
  static constexpr int kSlots = 2048;  // triangles of the largest window indexed
  // False when the hits' window has more than kSlots triangles. The window
  // has a margin of one cell, so that every triangle through a hit's edge or
  // corner lies in it.
  bool make(const FieldHit* hits, int n) {
    CellRange window = {hits[0].i, hits[0].i, hits[0].j, hits[0].j};
    for (int k = 1; k < n; ++k) {
      window.i0 = std::min(window.i0, hits[k].i), window.i1 = std::max(window.i1, hits[k].i);
      window.j0 = std::min(window.j0, hits[k].j), window.j1 = std::max(window.j1, hits[k].j);
    }
    return make(hits, n, window);
  }
  // The same over `window`, which holds every hit's cell.
  bool make(const FieldHit* hits, int n, const CellRange& window) {
    w_ = window.i1 - window.i0 + 3;
    first_ = 2 * ((window.j0 - 1) * w_ + window.i0 - 1);
    const int cells = w_ * (window.j1 - window.j0 + 3);
    if (2 * cells > kSlots) return false;
    std::fill(slot_, slot_ + 2 * cells, static_cast<signed char>(-1));
    for (int k = 0; k < n; ++k)
      slot_[slotOf(hits[k].i, hits[k].j, hits[k].upper)] = static_cast<signed char>(k);
    return true;
  }
  // The slot of triangle `upper` of cell (i, j) (in the window).
  int slotOf(int i, int j, int upper) const { return 2 * (j * w_ + i) + upper - first_; }
  // The hit in slot s, or −1.
  int at(int s) const { return slot_[s]; }
  // The step in slots from a cell to the next along y.
  int row() const { return 2 * w_; }

 private:
  int first_ = 0, w_ = 0;
  signed char slot_[kSlots];
};

// True when hit `c` (on its triangle's edge or corner) is a ghost
// (isSurfaceGhost's rule): a triangle through that edge or corner is
// nearer to the centre and its nearest point does not rise above c's plane.
bool isFieldGhost(const FieldHit* hits, const FieldHitIndex& index, const FieldHit& c, double span2,
                  double tol) {
  const double nearer = c.distance - 1e-6 * tol;  // only hits nearer than this count
  const double reach2 = span2 + tol, tol2 = tol * tol;
  const auto ghostBy = [&](int slot) {
    const int k = index.at(slot);
    if (k < 0) return false;
    const FieldHit& t = hits[k];
    if (t.distance >= nearer) return false;
    const Vec3 apart = t.closest - c.closest;
    const double plan2 = apart.head<2>().squaredNorm(), apart2 = plan2 + apart.z() * apart.z();
    if (plan2 > reach2) return false;
    return continuesOrTurnsAway(c.face.dot(apart), apart2, tol2);  // contact/crease.h
  };
  const int u = c.upper, own = index.slotOf(c.i, c.j, u), row = index.row();
  if (c.c1 < 0) {
    // A corner, sample (si, sj): the six triangles through it but c's own,
    // both of cells (si − 1, sj − 1) and (si, sj), the lower of (si − 1,
    // sj), the upper of (si, sj − 1), in slots from the first's.
    const int first = index.slotOf(c.i + kCornerI[u][c.c0] - 1, c.j + kCornerJ[u][c.c0] - 1, 0);
    for (const int s : {0, 1, 3, row, row + 2, row + 3})
      if (first + s != own && ghostBy(first + s)) return true;
    return false;
  }
  // An edge c0 → c1 (c1 = c0 + 1 mod 3): the triangle across it. Lower
  // triangle: edge 0 along x at the cell's south side (the upper of cell
  // (i, j − 1)), 1 along y at its east side (the upper of (i + 1, j)), 2 the
  // diagonal (the cell's upper); upper: 0 the diagonal (the cell's lower), 1
  // along x at the north side (the lower of (i, j + 1)), 2 along y at the
  // west side (the lower of (i − 1, j)).
  static constexpr int kAcross[6] = {1, 3, 1, -1, -1, -3};  // slots, and ± row for 0 and 4
  const int e = 3 * u + c.c0;
  return ghostBy(own + kAcross[e] + (e == 0 ? -row : e == 4 ? row : 0));
}

}  // namespace

void heightfieldSphereHits(const Heightfield& f, const Vec3& centre, double radius,
                           SurfaceScratch& scratch, std::vector<SurfaceHit>& out) {
  std::vector<SurfaceHit>& all = scratch.hits;
  all.clear();
  if (centre.z() - radius > f.box.max.z() || centre.z() + radius < f.box.min.z()) return;
  // The cells within reach in plan are needed only for a centre outside the
  // field's plan (the walls) or a query without a near list.
  CellRange cells;
  const bool inPlan = centre.x() >= f.originX && centre.y() >= f.originY &&
                      centre.x() <= f.box.max.x() && centre.y() <= f.box.max.y();
  if (!inPlan && !cellRange(f, centre.x(), centre.y(), radius, cells)) return;
  // A centre under the surface: one contact, through the plane of the
  // triangle above it (the signed distance, as for a centre inside a piece).
  // The surface over a cell rises no higher than its highest corner (to the
  // rounding of its interpolation, 1e-9 of it): a centre above that, as a
  // wheel on the ground is, needs no height.
  const float top = f.cellTop[static_cast<size_t>(clampedFloor((centre.y() - f.originY) / f.dy, 0,
                                                               f.cellsY() - 1)) *
                                  f.cellsX() +
                              clampedFloor((centre.x() - f.originX) / f.dx, 0, f.cellsX() - 1)];
  double ground;
  if (centre.z() < top + 1e-9 * (1 + std::abs(top)) && f.heightAt(centre.x(), centre.y(), ground) &&
      centre.z() < ground) {
    Vec3 up;
    f.surfaceAt(centre.x(), centre.y(), ground, up);
    const double u = std::min((centre.x() - f.originX) / f.dx, f.cellsX() - 1e-9);
    const double v = std::min((centre.y() - f.originY) / f.dy, f.cellsY() - 1e-9);
    const int i = static_cast<int>(u), j = static_cast<int>(v);
    out.push_back(underSurface(f.triangleId(i, j, (u - i) >= (v - j) ? 0 : 1), centre, ground, up));
    return;
  }
  const double r2 = radius * radius;
  FieldHit x;
  SurfaceHit h;
  // The near list holds the triangles within (1 + kNearListMargin)·radius of
  // its centre, as (2i + upper, j), and for each a plane it lies behind and
  // what its hit needs (fieldTriangle): every triangle this sphere reaches.
  const NearList* near =
      nearList(scratch, &f, centre, radius, [&](const Vec3& c, double r, NearList& l) {
        const double wide2 = r * r;
        bool fits = true;
        CellRange wide;
        if (!cellRange(f, c.x(), c.y(), r, wide)) return true;  // none
        forTrianglesNear(f, nullptr, c, r, wide, [&](int i, int j, int upper, const double* t) {
          if (!fits) return;
          if (!fieldTriangleHit(f, i, j, upper, t, c, r, wide2, x)) return;
          fits = l.items.size() + 2 <= l.items.capacity() &&
                 l.planes.size() + kNearListPlanes <= l.planes.capacity();
          if (!fits) return;
          l.items.push_back(2 * i + upper);
          l.items.push_back(j);
          l.cells.i0 = std::min(l.cells.i0, i), l.cells.i1 = std::max(l.cells.i1, i);
          l.cells.j0 = std::min(l.cells.j0, j), l.cells.j1 = std::max(l.cells.j1, j);
          // The plane through the triangle's nearest point square to the
          // way to the centre (or the triangle's own, from on its plane):
          // the triangle, convex, lies behind it.
          const Vec3 normal = fieldHitNormal(x);
          l.planes.insert(l.planes.end(),
                          {normal.x(), normal.y(), normal.z(), normal.dot(x.closest)});
          l.planes.insert(l.planes.end(), t, t + kFieldTriangleNumbers);
        });
        return fits;
      });
  if (inPlan && !near) cellRange(f, centre.x(), centre.y(), radius, cells);
  // The triangles' hits, kept compact until the ghosts are known.
  FieldHit hits[kMaxCompactHits];
  int n = 0;
  bool compact = true;  // false: more hits than kept compact
  forTrianglesNear(f, near, centre, radius, cells, [&](int i, int j, int upper, const double* t) {
    if (!compact) return;
    if (!fieldTriangleHit(f, i, j, upper, t, centre, radius, r2, hits[n])) return;
    compact = ++n < kMaxCompactHits;
  });
  // The walls of the cells at the field's border, seen from outside.
  Vec3 v[4];
  const long tri = f.triangleCount();
  const int cx = f.cellsX(), cy = f.cellsY();
  const auto addWall = [&](long w) {
    f.wall(w, v);
    if (wallHit(tri + w, v, centre, radius, h)) all.push_back(h);
  };
  if (cells.j0 == 0 && centre.y() < f.originY)
    for (int i = cells.i0; i <= cells.i1; ++i) addWall(i);
  if (cells.j1 == cy - 1 && centre.y() > f.box.max.y())
    for (int i = cells.i0; i <= cells.i1; ++i) addWall(cx + i);
  if (cells.i0 == 0 && centre.x() < f.originX)
    for (int j = cells.j0; j <= cells.j1; ++j) addWall(2L * cx + j);
  if (cells.i1 == cx - 1 && centre.x() > f.box.max.x())
    for (int j = cells.j0; j <= cells.j1; ++j) addWall(2L * cx + cy + j);

  // Points this close are one point: heights are stored as float (relative
  // rounding 6e-8), so two triangles meeting at a seam agree to about 1e-7 of
  // the field's coordinates, not to double precision.
  const double tol = 1e-6 * std::max({1.0, std::abs(centre.x()), std::abs(centre.y()),
                                      std::abs(f.box.max.z()), std::abs(f.box.min.z())});
  const double span2 = f.dx * f.dx + f.dy * f.dy;
  FieldHitIndex index;
  // The hits' window: the near list's cells, or (no list, or too many of
  // its cells) the hits' own.
  if (compact && all.empty() &&
      (n == 0 || (near && index.make(hits, n, near->cells)) || index.make(hits, n))) {
    // Triangles only: each hit's ghost check reads the hits of the triangles
    // through its edge or corner, and only the hits kept are made in full.
    keepCompactHits(
        n, [&](int k) { return hits[k].c0 >= 0 && isFieldGhost(hits, index, hits[k], span2, tol); },
        [&](int k, SurfaceHit& made) { surfaceHitOf(f, hits[k], made); }, tol, scratch, h, out);
    return;
  }
  // Walls, or more hits than kept compact (a wheel far larger than the
  // cells): every hit in full, each checked against all the others.
  if (compact) {
    for (int k = 0; k < n; ++k) {
      surfaceHitOf(f, hits[k], h);
      all.push_back(h);
    }
  } else {
    forTrianglesNear(f, near, centre, radius, cells, [&](int i, int j, int upper, const double* t) {
      if (!fieldTriangleHit(f, i, j, upper, t, centre, radius, r2, x)) return;
      surfaceHitOf(f, x, h);
      all.push_back(h);
    });
  }
  keepSurfaceContacts(f, span2, tol, scratch, out, AllSurfaceHits{all});
}

}  // namespace roverlab
