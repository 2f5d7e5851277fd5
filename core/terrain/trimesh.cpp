#include "terrain/trimesh.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/elementary.h"

namespace roverlab {
namespace {

// Grid cells the 2.5-D check may visit in all (each triangle looks at the
// cells its bounds, widened by the widest feature's, meet), and triangle pairs
// it may compare: bounds on the build time (about 0.5 s each) that a mesh of
// kMaxMeshTriangles well-shaped triangles stays far within; only long
// slivers or slivers crowding one place reach them.
constexpr long kMaxCellVisits = 32L << 20;
constexpr long kMaxPairTests = 30000000L;

Expected<TriMesh> refuse(const std::string& path, const std::string& message) {
  return Expected<TriMesh>::failure(path, message);
}

struct PlanBox {
  double x0, y0, x1, y1;
};

// The cells [i0, i1] × [j0, j1] of grid level g a plan box meets (clamped to the grid).
void cellsOf(const MeshGridLevel& g, const PlanBox& b, int& i0, int& i1, int& j0, int& j1) {
  const auto index = [](double u, int n) {
    return static_cast<int>(std::clamp(std::floor(u), 0.0, static_cast<double>(n - 1)));
  };
  i0 = index((b.x0 - g.x) / g.cell, g.gx), i1 = index((b.x1 - g.x) / g.cell, g.gx);
  j0 = index((b.y0 - g.y) / g.cell, g.gy), j1 = index((b.y1 - g.y) / g.cell, g.gy);
}

PlanBox planBox(const Vec3* v, int k) {
  PlanBox b{v[0].x(), v[0].y(), v[0].x(), v[0].y()};
  for (int i = 1; i < k; ++i) {
    b.x0 = std::min(b.x0, v[i].x()), b.x1 = std::max(b.x1, v[i].x());
    b.y0 = std::min(b.y0, v[i].y()), b.y1 = std::max(b.y1, v[i].y());
  }
  return b;
}

// True when triangles a and b (counter-clockwise in plan) share interior
// points in plan by more than `eps` (m): no edge normal of either separates
// them (the separating axis theorem for convex polygons).
bool overlapInPlan(const Vec3 a[3], const Vec3 b[3], double eps) {
  for (int side = 0; side < 2; ++side) {
    const Vec3* p = side == 0 ? a : b;
    for (int e = 0; e < 3; ++e) {
      const double nx = p[(e + 1) % 3].y() - p[e].y(), ny = p[e].x() - p[(e + 1) % 3].x();
      const double length = elementary::hypot(nx, ny);
      double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
      for (int s = 0; s < 2; ++s)
        for (int k = 0; k < 3; ++k) {
          const Vec3& q = (s == 0 ? a : b)[k];
          const double d = nx * q.x() + ny * q.y();
          lo[s] = std::min(lo[s], d), hi[s] = std::max(hi[s], d);
        }
      if (hi[0] <= lo[1] + eps * length || hi[1] <= lo[0] + eps * length) return false;
    }
  }
  return true;
}

// Coincident vertices become one (exact equality): the output lists each
// position once and `triangles` are renumbered.
void weld(std::vector<Vec3>& vertices, std::vector<std::array<int, 3>>& triangles) {
  std::vector<int> order(vertices.size());
  std::iota(order.begin(), order.end(), 0);
  const auto less = [&](int a, int b) {
    const Vec3 &p = vertices[a], &q = vertices[b];
    return p.x() != q.x() ? p.x() < q.x() : p.y() != q.y() ? p.y() < q.y() : p.z() < q.z();
  };
  std::sort(order.begin(), order.end(), less);
  std::vector<int> index(vertices.size());
  std::vector<Vec3> unique;
  unique.reserve(vertices.size());
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || vertices[order[k]] != vertices[order[k - 1]])
      unique.push_back(vertices[order[k]]);
    index[order[k]] = static_cast<int>(unique.size()) - 1;
  }
  for (std::array<int, 3>& t : triangles)
    for (int& v : t) v = index[v];
  vertices = std::move(unique);
}

// The open edges: those used by one triangle, in that triangle's direction.
std::vector<std::array<int, 2>> openEdges(const std::vector<std::array<int, 3>>& triangles) {
  std::vector<std::array<int, 3>> edges;  // (low vertex, high vertex, directed edge index)
  edges.reserve(3 * triangles.size());
  for (size_t t = 0; t < triangles.size(); ++t)
    for (int e = 0; e < 3; ++e) {
      const int a = triangles[t][e], b = triangles[t][(e + 1) % 3];
      edges.push_back({std::min(a, b), std::max(a, b), static_cast<int>(3 * t + e)});
    }
  std::sort(edges.begin(), edges.end());
  std::vector<std::array<int, 2>> open;
  for (size_t k = 0; k < edges.size();) {
    size_t end = k + 1;
    while (end < edges.size() && edges[end][0] == edges[k][0] && edges[end][1] == edges[k][1])
      ++end;
    if (end == k + 1) {
      const int t = edges[k][2] / 3, e = edges[k][2] % 3;
      open.push_back({triangles[t][e], triangles[t][(e + 1) % 3]});
    }
    k = end;
  }
  return open;
}

// Fills the grid levels: cells of level k are 4^k times those of level 0
// (about a typical triangle's size), and a feature goes to the first level
// whose cells are at least half its plan bounds' longer side; each level's
// grid covers its own features' plan bounds, at most 4 cells per feature.
// Each feature is in the cell of its plan bounds' lower corner.
void buildGrid(TriMesh& m, double typicalEdge) {
  const long features = m.featureCount();
  const double extent = std::max(m.box.max.x() - m.box.min.x(), m.box.max.y() - m.box.min.y());
  const double cell0 = std::max({typicalEdge, 1e-9 * extent, 1e-9});
  std::vector<PlanBox> boxes(features);
  std::vector<float> tops(features);  // each feature's highest point (m)
  std::vector<int> level(features);
  int levels = 1;
  Vec3 v[4];
  for (long f = 0; f < features; ++f) {
    const int corners = f < m.triangleCount() ? 3 : 2;  // a wall's top edge
    if (f < m.triangleCount())
      m.triangle(f, v);
    else
      m.wall(f - m.triangleCount(), v);
    boxes[f] = planBox(v, corners);
    tops[f] = static_cast<float>(std::max({v[0].z(), v[1].z(), v[corners - 1].z()}));
    const double size = std::max(boxes[f].x1 - boxes[f].x0, boxes[f].y1 - boxes[f].y0);
    int k = 0;
    for (double c = cell0; size > 2 * c && k < 30; c *= 4) ++k;
    level[f] = k, levels = std::max(levels, k + 1);
  }
  m.levels.assign(levels, MeshGridLevel{});
  std::vector<long> count(levels, 0);
  std::vector<PlanBox> bounds(levels, PlanBox{INFINITY, INFINITY, -INFINITY, -INFINITY});
  for (long f = 0; f < features; ++f) {
    PlanBox& b = bounds[level[f]];
    b.x0 = std::min(b.x0, boxes[f].x0), b.y0 = std::min(b.y0, boxes[f].y0);
    b.x1 = std::max(b.x1, boxes[f].x1), b.y1 = std::max(b.y1, boxes[f].y1);
    ++count[level[f]];
  }
  double nominal = cell0;
  for (int k = 0; k < levels; ++k, nominal *= 4) {
    MeshGridLevel& g = m.levels[k];
    if (count[k] == 0) continue;  // an empty level: one empty cell
    const double w = bounds[k].x1 - bounds[k].x0, h = bounds[k].y1 - bounds[k].y0;
    g.cell = nominal;
    while ((w / g.cell + 1) * (h / g.cell + 1) > 4.0 * count[k] + 16) g.cell *= 1.5;
    g.x = bounds[k].x0, g.y = bounds[k].y0;
    g.gx = static_cast<int>(w / g.cell) + 1, g.gy = static_cast<int>(h / g.cell) + 1;
  }
  for (MeshGridLevel& g : m.levels) {
    g.cellTop.assign(static_cast<size_t>(g.gx) * g.gy, -INFINITY);
    g.cellStart.assign(static_cast<size_t>(g.gx) * g.gy + 1, 0);
  }
  std::vector<size_t> home(features);
  for (long f = 0; f < features; ++f) {
    MeshGridLevel& g = m.levels[level[f]];
    const PlanBox& b = boxes[f];
    g.reachX = std::max(g.reachX, b.x1 - b.x0), g.reachY = std::max(g.reachY, b.y1 - b.y0);
    int i0, i1, j0, j1;
    cellsOf(g, PlanBox{b.x0, b.y0, b.x0, b.y0}, i0, i1, j0, j1);
    home[f] = static_cast<size_t>(j0) * g.gx + i0;
    g.cellTop[home[f]] = std::max(g.cellTop[home[f]], tops[f]);
    ++g.cellStart[home[f] + 1];
  }
  std::vector<std::vector<int>> fill(levels);
  for (int k = 0; k < levels; ++k) {
    MeshGridLevel& g = m.levels[k];
    std::partial_sum(g.cellStart.begin(), g.cellStart.end(), g.cellStart.begin());
    g.cellFeatures.resize(static_cast<size_t>(count[k]));
    fill[k].assign(g.cellStart.begin(), g.cellStart.end() - 1);
  }
  for (long f = 0; f < features; ++f)
    m.levels[level[f]].cellFeatures[fill[level[f]][home[f]]++] = static_cast<int>(f);
}

// The cells of level g whose features may meet the plan box b: those of b
// widened towards −x and −y by the level's widest feature; false when none.
bool cellsNear(const MeshGridLevel& g, const PlanBox& b, int& i0, int& i1, int& j0, int& j1) {
  if (g.cellFeatures.empty() || b.x1 < g.x || b.y1 < g.y || b.x0 - g.reachX > g.x + g.gx * g.cell ||
      b.y0 - g.reachY > g.y + g.gy * g.cell)
    return false;
  cellsOf(g, PlanBox{b.x0 - g.reachX, b.y0 - g.reachY, b.x1, b.y1}, i0, i1, j0, j1);
  return true;
}

// The first triangle (in order) that overlaps an earlier one in plan: its
// index and the earliest triangle it overlaps; -1 when none, -2 past the work
// bounds. Each triangle looks up the triangles of its own grid level and the
// coarser ones, so each pair is compared once, from its finer triangle (or,
// on one level, from the later one).
long firstOverlap(const TriMesh& m, double eps, long& other) {
  std::vector<int> level(m.triangleCount());
  for (int k = 0; k < static_cast<int>(m.levels.size()); ++k)
    for (int f : m.levels[k].cellFeatures)
      if (f < m.triangleCount()) level[f] = k;
  Vec3 a[3], b[3];
  long tests = 0, visits = 0, first = -1;
  for (long t = 0; t < m.triangleCount(); ++t) {
    if (first >= 0 && t > first) break;  // a pair found later has a later triangle
    m.triangle(t, a);
    const PlanBox pa = planBox(a, 3);
    for (int k = level[t]; k < static_cast<int>(m.levels.size()); ++k) {
      const MeshGridLevel& g = m.levels[k];
      int i0, i1, j0, j1;
      if (!cellsNear(g, pa, i0, i1, j0, j1)) continue;
      visits += static_cast<long>(i1 - i0 + 1) * (j1 - j0 + 1);
      if (visits > kMaxCellVisits) return -2;
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) {
          const size_t c = static_cast<size_t>(j) * g.gx + i;
          for (int n = g.cellStart[c]; n < g.cellStart[c + 1]; ++n) {
            const long u = g.cellFeatures[n];
            if (u >= m.triangleCount() || (k == level[t] && u >= t)) break;  // features in order
            m.triangle(u, b);
            const PlanBox pb = planBox(b, 3);
            if (pa.x0 > pb.x1 || pb.x0 > pa.x1 || pa.y0 > pb.y1 || pb.y0 > pa.y1) continue;
            if (++tests > kMaxPairTests) return -2;
            if (!overlapInPlan(a, b, eps)) continue;
            // The pair's later triangle overlaps its earlier one; the least such.
            const long later = std::max(t, u), earlier = std::min(t, u);
            if (first < 0 || later < first || (later == first && earlier < other))
              first = later, other = earlier;
          }
        }
    }
  }
  return first;
}

}  // namespace

void TriMesh::triangle(long t, Vec3 out[3]) const {
  const std::array<int, 3>& k = triangles[t];
  out[0] = vertices[k[0]], out[1] = vertices[k[1]], out[2] = vertices[k[2]];
}

void TriMesh::wall(long w, Vec3 out[4]) const {
  // Seen from outside (the right of a→b), counter-clockwise: b, a, a's foot, b's foot.
  const Vec3 &a = vertices[walls[w][0]], &b = vertices[walls[w][1]];
  out[0] = b;
  out[1] = a;
  out[2] = Vec3(a.x(), a.y(), base);
  out[3] = Vec3(b.x(), b.y(), base);
}

void TriMesh::featuresNear(double x0, double y0, double x1, double y1,
                           std::vector<int>& out) const {
  out.clear();
  if (x1 < box.min.x() || y1 < box.min.y() || x0 > box.max.x() || y0 > box.max.y()) return;
  for (const MeshGridLevel& g : levels) {
    int i0, i1, j0, j1;
    if (!cellsNear(g, PlanBox{x0, y0, x1, y1}, i0, i1, j0, j1)) continue;
    for (int j = j0; j <= j1; ++j)
      out.insert(out.end(),
                 g.cellFeatures.begin() + g.cellStart[static_cast<size_t>(j) * g.gx + i0],
                 g.cellFeatures.begin() + g.cellStart[static_cast<size_t>(j) * g.gx + i1 + 1]);
  }
}

void TriMesh::featuresNearSphere(const Vec3& centre, double radius, std::vector<int>& out) const {
  out.clear();
  const double x0 = centre.x() - radius, y0 = centre.y() - radius;
  const double x1 = centre.x() + radius, y1 = centre.y() + radius;
  if (x1 < box.min.x() || y1 < box.min.y() || x0 > box.max.x() || y0 > box.max.y()) return;
  // A cell's features start in it and span at most reachX × reachY in plan:
  // their bounds lie in the cell widened by that towards +x and +y, up to the
  // cell's top. `slack` (m) covers a corner rounded into the next cell.
  const double slack = 1e-9 * (1 + std::abs(centre.x()) + std::abs(centre.y()));
  const double r2 = radius * radius;
  for (const MeshGridLevel& g : levels) {
    int i0, i1, j0, j1;
    if (!cellsNear(g, PlanBox{x0 - slack, y0 - slack, x1 + slack, y1 + slack}, i0, i1, j0, j1))
      continue;
    for (int j = j0; j <= j1; ++j) {
      const double ylo = g.y + j * g.cell - slack, yhi = ylo + g.cell + g.reachY + 2 * slack;
      const double ey = std::max({0.0, ylo - centre.y(), centre.y() - yhi});
      for (int i = i0; i <= i1; ++i) {
        const size_t c = static_cast<size_t>(j) * g.gx + i;
        const double xlo = g.x + i * g.cell - slack, xhi = xlo + g.cell + g.reachX + 2 * slack;
        const double ex = std::max({0.0, xlo - centre.x(), centre.x() - xhi});
        // A cell's top is rounded to float: 1e-6 relative keeps it above every vertex.
        const double top = g.cellTop[c] + 1e-6 * (1 + std::abs(g.cellTop[c]));
        const double ez = std::max(0.0, centre.z() - top);
        if (ex * ex + ey * ey + ez * ez >= r2) continue;
        out.insert(out.end(), g.cellFeatures.begin() + g.cellStart[c],
                   g.cellFeatures.begin() + g.cellStart[c + 1]);
      }
    }
  }
}

double TriMesh::highestNear(double x0, double y0, double x1, double y1) const {
  double highest = -INFINITY;
  if (x1 < box.min.x() || y1 < box.min.y() || x0 > box.max.x() || y0 > box.max.y()) return highest;
  for (const MeshGridLevel& g : levels) {
    int i0, i1, j0, j1;
    if (!cellsNear(g, PlanBox{x0, y0, x1, y1}, i0, i1, j0, j1)) continue;
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const float top = g.cellTop[static_cast<size_t>(j) * g.gx + i];
        // A cell's top is rounded to float: 1e-6 relative keeps it above every vertex.
        if (top > -INFINITY) highest = std::max(highest, top + 1e-6 * (1 + std::abs(top)));
      }
  }
  return highest;
}

bool TriMesh::heightOn(long t, double x, double y, double& z, Vec3& normal) const {
  Vec3 v[3];
  triangle(t, v);
  // On a shared edge both triangles give the same height; a point within
  // 1e-12 of the coordinates of an edge counts as on it.
  const double tol = 1e-12 * std::max({1.0, std::abs(x), std::abs(y)});
  for (int e = 0; e < 3; ++e) {
    const Vec3 &a = v[e], &b = v[(e + 1) % 3];
    const double ex = b.x() - a.x(), ey = b.y() - a.y();
    const double side = ex * (y - a.y()) - ey * (x - a.x());  // edge length × distance
    if (side < 0 && side * side > tol * tol * (ex * ex + ey * ey)) return false;
  }
  const Vec3 n = (v[1] - v[0]).cross(v[2] - v[0]).normalized();
  z = v[0].z() - (n.x() * (x - v[0].x()) + n.y() * (y - v[0].y())) / n.z();
  normal = n;
  return true;
}

bool TriMesh::surfaceAt(double x, double y, double& z, Vec3& normal, long* triangle,
                        double above) const {
  if (x < box.min.x() || y < box.min.y() || x > box.max.x() || y > box.max.y()) return false;
  for (const MeshGridLevel& g : levels) {
    int i0, i1, j0, j1;
    if (!cellsNear(g, PlanBox{x, y, x, y}, i0, i1, j0, j1)) continue;
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const size_t c = static_cast<size_t>(j) * g.gx + i;
        // A cell's top is rounded to float: 1e-6 relative keeps it above every vertex.
        if (g.cellTop[c] + 1e-6 * (1 + std::abs(g.cellTop[c])) < above) continue;
        for (int k = g.cellStart[c]; k < g.cellStart[c + 1]; ++k) {
          const long f = g.cellFeatures[k];
          // Triangles do not overlap in plan: the first that holds (x, y) is
          // the surface there (on a shared edge, either gives its height).
          if (f >= triangleCount() || !heightOn(f, x, y, z, normal)) continue;  // walls skipped
          if (triangle) *triangle = f;
          return true;
        }
      }
  }
  return false;
}

Expected<TriMesh> makeTriMesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles,
                              double base, int material, std::uint32_t color) {
  if (triangles.empty()) return refuse("triangles", "has no triangles");
  if (static_cast<long>(triangles.size()) > kMaxMeshTriangles)
    return refuse("triangles", "has " + std::to_string(triangles.size()) +
                                   " triangles, more than the limit of " +
                                   std::to_string(kMaxMeshTriangles));
  for (size_t k = 0; k < vertices.size(); ++k)
    if (!vertices[k].allFinite() || vertices[k].cwiseAbs().maxCoeff() > 1e5)
      return refuse("vertices",
                    "vertex " + std::to_string(k) + " must have finite coordinates within ±1e5 m");
  const int count = static_cast<int>(vertices.size());
  for (size_t t = 0; t < triangles.size(); ++t)
    for (int v : triangles[t])
      if (v < 0 || v >= count)
        return refuse("triangles", "triangle " + std::to_string(t) + " names vertex " +
                                       std::to_string(v) + "; there are " + std::to_string(count));
  weld(vertices, triangles);
  TriMesh m;
  m.vertices = std::move(vertices);
  std::vector<double> longestEdges(triangles.size());
  for (size_t t = 0; t < triangles.size(); ++t) {
    std::array<int, 3>& k = triangles[t];
    const std::string name = "triangle " + std::to_string(t);
    if (k[0] == k[1] || k[1] == k[2] || k[2] == k[0])
      return refuse("triangles", name + " has two corners at one point");
    const Vec3 &a = m.vertices[k[0]], &b = m.vertices[k[1]], &c = m.vertices[k[2]];
    Vec3 n = (b - a).cross(c - a);
    if (n.norm() <= 1e-12 * std::max({1.0, (b - a).squaredNorm(), (c - a).squaredNorm()}))
      return refuse("triangles", name + " is degenerate: its corners lie on one line");
    n.normalize();
    if (n.z() < 0) std::swap(k[1], k[2]), n = -n;  // counter-clockwise from above
    if (n.z() < kMeshMinNormalZ)
      return refuse("triangles",
                    name + " is vertical (slope " + format(elementary::acos(n.z()) * 180 / M_PI) +
                        "°): a mesh terrain must be 2.5-D, one height over each point of the "
                        "ground plane");
    double longest = 0;
    for (int e = 0; e < 3; ++e)
      longest = std::max(longest, (m.vertices[k[(e + 1) % 3]] - m.vertices[k[e]]).head<2>().norm());
    m.span = std::max(m.span, longest);
    longestEdges[t] = longest;
  }
  double low = INFINITY, high = -INFINITY;
  for (const std::array<int, 3>& k : triangles)
    for (int v : k) {
      m.box.grow(m.vertices[v]);
      low = std::min(low, m.vertices[v].z()), high = std::max(high, m.vertices[v].z());
    }
  if (!(base < low))
    return refuse("base", "must lie below the lowest vertex " + format(low) + " m (is " +
                              format(base) + " m)");
  m.box.min.z() = base;
  m.triangles = std::move(triangles);
  m.walls = openEdges(m.triangles);
  m.base = base, m.material = material, m.color = color;
  // Level 0's cells are about the median triangle's size: a few large
  // triangles (a ground plane around a scanned patch) do not coarsen it.
  std::nth_element(longestEdges.begin(), longestEdges.begin() + longestEdges.size() / 2,
                   longestEdges.end());
  buildGrid(m, longestEdges[longestEdges.size() / 2]);
  // Plan overlaps thinner than 1e-6 of the coordinates are seams, not folds:
  // coordinates typed or exported with 6 to 7 digits meet to about that.
  const double scale = std::max(
      {1.0, m.box.min.head<2>().cwiseAbs().maxCoeff(), m.box.max.head<2>().cwiseAbs().maxCoeff()});
  long other = -1;
  const long t = firstOverlap(m, 1e-6 * scale, other);
  if (t == -2)
    return refuse("triangles",
                  "are too long or crowd one place: the 2.5-D check would visit more than " +
                      std::to_string(kMaxCellVisits) + " grid cells or compare more than " +
                      std::to_string(kMaxPairTests) +
                      " pairs of triangles; split long triangles or simplify the mesh");
  if (t >= 0)
    return refuse("triangles", "triangle " + std::to_string(t) + " overlaps triangle " +
                                   std::to_string(other) +
                                   " in plan: a mesh terrain must be 2.5-D, one height over each "
                                   "point of the ground plane (no folds or overhangs)");
  return m;
}

}  // namespace roverlab
