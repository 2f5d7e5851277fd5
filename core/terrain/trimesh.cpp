#include "terrain/trimesh.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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

// The grid cells [i0, i1] × [j0, j1] a plan box meets.
void cellsOf(const TriMesh& m, const PlanBox& b, int& i0, int& i1, int& j0, int& j1) {
  const auto index = [](double u, int n) {
    return static_cast<int>(std::clamp(std::floor(u), 0.0, static_cast<double>(n - 1)));
  };
  i0 = index((b.x0 - m.gridX) / m.cell, m.gx), i1 = index((b.x1 - m.gridX) / m.cell, m.gx);
  j0 = index((b.y0 - m.gridY) / m.cell, m.gy), j1 = index((b.y1 - m.gridY) / m.cell, m.gy);
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
      const double length = std::hypot(nx, ny);
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

// Fills the grid: each feature in the cell of its plan bounds' lower corner.
void buildGrid(TriMesh& m, double meanEdge) {
  const double w = m.box.max.x() - m.box.min.x(), h = m.box.max.y() - m.box.min.y();
  const long features = m.featureCount();
  // Cells about a typical triangle's size, at most 4 per feature.
  m.cell = std::max({meanEdge, 1e-9 * std::max(w, h), 1e-9});
  while ((w / m.cell + 1) * (h / m.cell + 1) > 4.0 * features + 16) m.cell *= 1.5;
  m.gridX = m.box.min.x(), m.gridY = m.box.min.y();
  m.gx = static_cast<int>(w / m.cell) + 1, m.gy = static_cast<int>(h / m.cell) + 1;
  std::vector<size_t> home(features);
  m.cellTop.assign(static_cast<size_t>(m.gx) * m.gy, -INFINITY);
  Vec3 v[4];
  for (long f = 0; f < features; ++f) {
    if (f < m.triangleCount())
      m.triangle(f, v);
    else
      m.wall(f - m.triangleCount(), v);
    const PlanBox b = planBox(v, f < m.triangleCount() ? 3 : 2);
    m.reachX = std::max(m.reachX, b.x1 - b.x0), m.reachY = std::max(m.reachY, b.y1 - b.y0);
    int i0, i1, j0, j1;
    cellsOf(m, PlanBox{b.x0, b.y0, b.x0, b.y0}, i0, i1, j0, j1);
    home[f] = static_cast<size_t>(j0) * m.gx + i0;
    for (int k = 0; k < (f < m.triangleCount() ? 3 : 2); ++k)
      m.cellTop[home[f]] = std::max(m.cellTop[home[f]], static_cast<float>(v[k].z()));
  }
  m.cellStart.assign(static_cast<size_t>(m.gx) * m.gy + 1, 0);
  for (size_t c : home) ++m.cellStart[c + 1];
  std::partial_sum(m.cellStart.begin(), m.cellStart.end(), m.cellStart.begin());
  m.cellFeatures.resize(features);
  std::vector<int> fill(m.cellStart.begin(), m.cellStart.end() - 1);
  for (long f = 0; f < features; ++f) m.cellFeatures[fill[home[f]]++] = static_cast<int>(f);
}

// The cells whose features may meet the plan box b: those of b widened
// towards −x and −y by the widest feature.
void cellsNear(const TriMesh& m, const PlanBox& b, int& i0, int& i1, int& j0, int& j1) {
  cellsOf(m, PlanBox{b.x0 - m.reachX, b.y0 - m.reachY, b.x1, b.y1}, i0, i1, j0, j1);
}

// The first triangle (in order) that overlaps an earlier one in plan: its
// index and that earlier one's; -1 when none, -2 past the work bounds.
long firstOverlap(const TriMesh& m, double eps, long& other) {
  Vec3 a[3], b[3];
  long tests = 0, visits = 0;
  for (long t = 0; t < m.triangleCount(); ++t) {
    m.triangle(t, a);
    const PlanBox pa = planBox(a, 3);
    int i0, i1, j0, j1;
    cellsNear(m, pa, i0, i1, j0, j1);
    visits += static_cast<long>(i1 - i0 + 1) * (j1 - j0 + 1);
    if (visits > kMaxCellVisits) return -2;
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const size_t c = static_cast<size_t>(j) * m.gx + i;
        for (int k = m.cellStart[c]; k < m.cellStart[c + 1]; ++k) {
          const long u = m.cellFeatures[k];
          if (u >= t) break;  // features are listed in order: earlier triangles only
          m.triangle(u, b);
          const PlanBox pb = planBox(b, 3);
          if (pa.x0 > pb.x1 || pb.x0 > pa.x1 || pa.y0 > pb.y1 || pb.y0 > pa.y1) continue;
          if (++tests > kMaxPairTests) return -2;
          if (overlapInPlan(a, b, eps)) {
            other = u;
            return t;
          }
        }
      }
  }
  return -1;
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
  int i0, i1, j0, j1;
  cellsNear(*this, PlanBox{x0, y0, x1, y1}, i0, i1, j0, j1);
  for (int j = j0; j <= j1; ++j)
    out.insert(out.end(), cellFeatures.begin() + cellStart[static_cast<size_t>(j) * gx + i0],
               cellFeatures.begin() + cellStart[static_cast<size_t>(j) * gx + i1 + 1]);
}

void TriMesh::featuresNearSphere(const Vec3& centre, double radius, std::vector<int>& out) const {
  out.clear();
  const double x0 = centre.x() - radius, y0 = centre.y() - radius;
  const double x1 = centre.x() + radius, y1 = centre.y() + radius;
  if (x1 < box.min.x() || y1 < box.min.y() || x0 > box.max.x() || y0 > box.max.y()) return;
  int i0, i1, j0, j1;
  cellsNear(*this, PlanBox{x0, y0, x1, y1}, i0, i1, j0, j1);
  // A cell's features start in it and span at most reachX × reachY in plan:
  // their bounds lie in the cell widened by that towards +x and +y, up to the
  // cell's top. `slack` (m) covers a corner rounded into the next cell.
  const double slack = 1e-9 * (1 + std::abs(centre.x()) + std::abs(centre.y()));
  const double r2 = radius * radius;
  for (int j = j0; j <= j1; ++j) {
    const double ylo = gridY + j * cell - slack, yhi = ylo + cell + reachY + 2 * slack;
    const double ey = std::max({0.0, ylo - centre.y(), centre.y() - yhi});
    for (int i = i0; i <= i1; ++i) {
      const size_t c = static_cast<size_t>(j) * gx + i;
      const double xlo = gridX + i * cell - slack, xhi = xlo + cell + reachX + 2 * slack;
      const double ex = std::max({0.0, xlo - centre.x(), centre.x() - xhi});
      // A cell's top is rounded to float: 1e-6 relative keeps it above every vertex.
      const double top = cellTop[c] + 1e-6 * (1 + std::abs(cellTop[c]));
      const double ez = std::max(0.0, centre.z() - top);
      if (ex * ex + ey * ey + ez * ez >= r2) continue;
      out.insert(out.end(), cellFeatures.begin() + cellStart[c],
                 cellFeatures.begin() + cellStart[c + 1]);
    }
  }
}

bool TriMesh::surfaceAt(double x, double y, double& z, Vec3& normal, long* triangle,
                        double above) const {
  if (x < box.min.x() || y < box.min.y() || x > box.max.x() || y > box.max.y()) return false;
  int i0, i1, j0, j1;
  cellsNear(*this, PlanBox{x, y, x, y}, i0, i1, j0, j1);
  // On a shared edge both triangles give the same height; a point within
  // 1e-12 of the coordinates of an edge counts as on it.
  const double tol = 1e-12 * std::max({1.0, std::abs(x), std::abs(y)});
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i) {
      const size_t c = static_cast<size_t>(j) * gx + i;
      // A cell's top is rounded to float: 1e-6 relative keeps it above every vertex.
      if (cellTop[c] + 1e-6 * (1 + std::abs(cellTop[c])) < above) continue;
      for (int k = cellStart[c]; k < cellStart[c + 1]; ++k) {
        const long f = cellFeatures[k];
        if (f >= triangleCount()) continue;  // a wall
        Vec3 v[3];
        this->triangle(f, v);
        bool inside = true;
        for (int e = 0; e < 3 && inside; ++e) {
          const Vec3 &a = v[e], &b = v[(e + 1) % 3];
          const double ex = b.x() - a.x(), ey = b.y() - a.y();
          const double side = ex * (y - a.y()) - ey * (x - a.x());  // edge length × distance
          inside = side >= 0 || side * side <= tol * tol * (ex * ex + ey * ey);
        }
        if (!inside) continue;
        const Vec3 n = (v[1] - v[0]).cross(v[2] - v[0]).normalized();
        const double h = v[0].z() - (n.x() * (x - v[0].x()) + n.y() * (y - v[0].y())) / n.z();
        // Triangles do not overlap in plan: the first that holds (x, y) is the
        // surface there (on a shared edge, either gives its height).
        z = h, normal = n;
        if (triangle) *triangle = f;
        return true;
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
  double meanEdge = 0;
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
                    name + " is vertical (slope " + format(std::acos(n.z()) * 180 / M_PI) +
                        "°): a mesh terrain must be 2.5-D, one height over each point of the "
                        "ground plane");
    double longest = 0;
    for (int e = 0; e < 3; ++e)
      longest = std::max(longest, (m.vertices[k[(e + 1) % 3]] - m.vertices[k[e]]).head<2>().norm());
    m.span = std::max(m.span, longest);
    meanEdge += longest / static_cast<double>(triangles.size());
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
  buildGrid(m, meanEdge);
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
