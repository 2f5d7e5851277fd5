// Scenes shared by the Google Benchmark suite (contact_bench.cpp) and the
// portable std::chrono suite (portable_bench.cpp, also built to WebAssembly):
// random polytope pools with precomputed query points, and grid terrains with
// precomputed wheel positions.
//
// Everything is generated from raw std::mt19937_64 output (its sequence is fixed
// by the standard); the <random> distributions are implementation-defined and
// would give libstdc++ (native) and libc++ (Emscripten) different scenes.
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "roverlab.h"

namespace roverlab::bench {

constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------------------
// Random numbers

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// Uniform integer in [0, n).
  int index(int n) { return static_cast<int>(engine_() % static_cast<std::uint64_t>(n)); }
  /// Uniform in the box [lo, hi]. Draws in x, y, z order: never draw several
  /// numbers in one argument list, whose evaluation order differs between
  /// compilers (GCC right to left, Clang left to right).
  Vec3 uniform3(const Vec3& lo, const Vec3& hi) {
    const double x = uniform(lo.x(), hi.x());
    const double y = uniform(lo.y(), hi.y());
    const double z = uniform(lo.z(), hi.z());
    return Vec3(x, y, z);
  }
  Vec3 uniform3(double lo, double hi) { return uniform3(Vec3::Constant(lo), Vec3::Constant(hi)); }
  /// Uniform direction (rejection from the cube).
  Vec3 direction() {
    for (;;) {
      const Vec3 v = uniform3(-1, 1);
      const double s = v.squaredNorm();
      if (s > 1e-4 && s <= 1) return v / std::sqrt(s);
    }
  }
  /// Random convex weights (flat Dirichlet) for n points.
  std::vector<double> weights(int n) {
    std::vector<double> w(n);
    double sum = 0;
    for (double& x : w) sum += (x = -std::log(1.0 - uniform()));
    for (double& x : w) x /= sum;
    return w;
  }

 private:
  std::mt19937_64 engine_;
};

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "bench setup failed: %s\n", what.c_str());
  std::exit(2);
}

/// Random rotation (unit quaternion from four uniforms).
inline Eigen::Matrix3d randomRotation(Rng& rng) {
  for (;;) {
    Eigen::Vector4d q;
    for (int k = 0; k < 4; ++k) q[k] = rng.uniform(-1, 1);
    const double n = q.norm();
    if (n > 1e-3 && n <= 1)
      return Eigen::Quaterniond(q[0] / n, q[1] / n, q[2] / n, q[3] / n).toRotationMatrix();
  }
}

// ---------------------------------------------------------------------------
// Reference point-polytope distance, independent of the core's algorithm: the
// nearest point over all face polygons (O(faces × edges)). Used only at setup
// to classify query points and to cross-check the core.

enum class RefFeature { Inside, Face, Edge, Vertex };

struct RefDistance {
  double distance = 0;  ///< signed (< 0 inside)
  RefFeature feature = RefFeature::Inside;
};

inline RefDistance referenceDistance(const Polytope& poly, const Vec3& p) {
  double maxPlane = -std::numeric_limits<double>::infinity();
  for (const Plane& f : poly.faces) maxPlane = std::max(maxPlane, f.signedDistance(p));
  if (maxPlane <= 0) return {maxPlane, RefFeature::Inside};
  const double tol = 1e-9 * poly.scale;
  RefDistance best{std::numeric_limits<double>::infinity(), RefFeature::Face};
  for (size_t f = 0; f < poly.faces.size(); ++f) {
    const Plane& pl = poly.faces[f];
    const std::vector<int>& ring = poly.faceVertices[f];
    const Vec3 q = p - pl.signedDistance(p) * pl.normal;
    bool inside = true;
    for (size_t k = 0; k < ring.size() && inside; ++k) {
      const Vec3& a = poly.vertices[ring[k]];
      const Vec3& b = poly.vertices[ring[(k + 1) % ring.size()]];
      inside = (b - a).cross(q - a).dot(pl.normal) >= -tol;
    }
    if (inside) {
      const double d = (p - q).norm();
      if (d < best.distance) best = {d, RefFeature::Face};
      continue;
    }
    for (size_t k = 0; k < ring.size(); ++k) {
      const Vec3& a = poly.vertices[ring[k]];
      const Vec3& b = poly.vertices[ring[(k + 1) % ring.size()]];
      const Vec3 ab = b - a;
      const double t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
      const double d = (p - (a + t * ab)).norm();
      const double edgeTol = 1e-9;
      const RefFeature feat =
          (t <= edgeTol || t >= 1 - edgeTol) ? RefFeature::Vertex : RefFeature::Edge;
      if (d < best.distance - tol || (d <= best.distance + tol && feat == RefFeature::Edge &&
                                      best.feature == RefFeature::Vertex))
        best = {std::min(d, best.distance), feat};
    }
  }
  return best;
}

// ---------------------------------------------------------------------------
// Polytope pools

enum class Pool { Hull6to12, Box8, Cube8 };
inline const char* poolName(Pool p) {
  switch (p) {
    case Pool::Hull6to12:
      return "hull6_12";
    case Pool::Box8:
      return "box8";
    case Pool::Cube8:
      return "cube8";
  }
  return "?";
}

/// 6-12 points on a random ellipsoid (all on the hull), kept apart so faces are
/// not slivers; size 0.5-1.5 m.
inline Polytope randomHull(Rng& rng) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int n = 6 + rng.index(7);
    const double size = rng.uniform(0.5, 1.5);
    const Vec3 axes = rng.uniform3(0.6, 1.0);
    const Eigen::Matrix3d rot = randomRotation(rng);
    const Vec3 centre = rng.uniform3(Vec3(-50, -50, -2), Vec3(50, 50, 2));
    std::vector<Vec3> unit;
    while (static_cast<int>(unit.size()) < n) {
      const Vec3 d = rng.direction();
      bool apart = true;
      for (const Vec3& u : unit) apart = apart && (u - d).norm() > 0.5;
      if (apart) unit.push_back(d);
    }
    std::vector<Vec3> pts;
    for (const Vec3& u : unit) pts.push_back(centre + rot * (0.5 * size * u.cwiseProduct(axes)));
    Expected<Polytope> h = makeHull(pts);
    if (h && static_cast<int>(h.value().vertices.size()) == n) return h.value();
  }
  fail("could not make a random 6-12 vertex hull");
}

/// makeBox: sides 0.3-1.2 m, random yaw (6 quad faces, 8 vertices).
inline Polytope randomBox(Rng& rng) {
  const Vec3 centre = rng.uniform3(Vec3(-50, -50, -2), Vec3(50, 50, 2));
  const Vec3 size = rng.uniform3(0.3, 1.2);
  Expected<Polytope> b = makeBox(centre, size, rng.uniform(0, 2 * kPi));
  if (!b || b.value().vertices.size() != 8) fail("makeBox: " + b.message());
  return b.value();
}

/// Cube with corners moved by up to 12% of the half-edge, randomly rotated, as a
/// hull (8 vertices, mostly triangular faces).
inline Polytope perturbedCube(Rng& rng) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const double h = 0.5 * rng.uniform(0.5, 1.2);
    const Eigen::Matrix3d rot = randomRotation(rng);
    const Vec3 centre = rng.uniform3(Vec3(-50, -50, -2), Vec3(50, 50, 2));
    std::vector<Vec3> pts;
    for (int c = 0; c < 8; ++c) {
      const Vec3 corner((c & 1) ? h : -h, (c & 2) ? h : -h, (c & 4) ? h : -h);
      const Vec3 jitter = rng.uniform3(-1, 1);
      pts.push_back(centre + rot * (corner + 0.12 * h * jitter));
    }
    Expected<Polytope> p = makeHull(pts);
    if (p && p.value().vertices.size() == 8) return p.value();
  }
  fail("could not make a perturbed cube");
}

inline Polytope makePoolPolytope(Pool pool, Rng& rng) {
  switch (pool) {
    case Pool::Hull6to12:
      return randomHull(rng);
    case Pool::Box8:
      return randomBox(rng);
    case Pool::Cube8:
      return perturbedCube(rng);
  }
  fail("unknown pool");
}

// ---------------------------------------------------------------------------
// Query mixes

enum class Mix { OutsideNear, NearFace, Inside, Far, Mixed };
inline const char* mixName(Mix m) {
  switch (m) {
    case Mix::OutsideNear:
      return "outside_near";
    case Mix::NearFace:
      return "near_face";
    case Mix::Inside:
      return "inside";
    case Mix::Far:
      return "far";
    case Mix::Mixed:
      return "mixed";
  }
  return "?";
}

/// The query radius relative to the polytope's size (`scale`): "near" is within
/// it, "far" beyond it.
constexpr double kRadiusFactor = 0.3;

struct PointQuery {
  const Polytope* poly = nullptr;
  Vec3 point = Vec3::Zero();
  double radius = 0;
};

/// One query point of a given kind (never Mixed) for `poly`.
inline Vec3 queryPoint(Mix mix, const Polytope& poly, Rng& rng) {
  const double size = poly.scale;
  const double radius = kRadiusFactor * size;
  for (int attempt = 0; attempt < 100000; ++attempt) {
    switch (mix) {
      case Mix::OutsideNear: {
        // Uniform in the box grown by the radius, kept when 0 < d <= radius:
        // face, edge and vertex regions in proportion to their volume.
        Vec3 p;
        for (int k = 0; k < 3; ++k)
          p[k] = rng.uniform(poly.box.min[k] - radius, poly.box.max[k] + radius);
        const RefDistance r = referenceDistance(poly, p);
        if (r.distance > 1e-3 * size && r.distance <= radius) return p;
        break;
      }
      case Mix::NearFace: {
        // Above an interior point of a random face, 0.1-5% of the size away.
        const int f = rng.index(static_cast<int>(poly.faces.size()));
        const std::vector<int>& ring = poly.faceVertices[f];
        const std::vector<double> w = rng.weights(static_cast<int>(ring.size()));
        Vec3 q = Vec3::Zero();
        for (size_t k = 0; k < ring.size(); ++k) q += w[k] * poly.vertices[ring[k]];
        const Vec3 p = q + rng.uniform(1e-3, 5e-2) * size * poly.faces[f].normal;
        const RefDistance r = referenceDistance(poly, p);
        if (r.feature == RefFeature::Face && r.distance > 0) return p;
        break;
      }
      case Mix::Inside: {
        const std::vector<double> w = rng.weights(static_cast<int>(poly.vertices.size()));
        Vec3 p = Vec3::Zero();
        for (size_t k = 0; k < poly.vertices.size(); ++k) p += w[k] * poly.vertices[k];
        if (referenceDistance(poly, p).distance < -1e-4 * size) return p;
        break;
      }
      case Mix::Far: {
        const double reach = rng.uniform(1.0, 3.0) * size;
        const Vec3 p = poly.centroid + reach * rng.direction();
        if (referenceDistance(poly, p).distance > 1.05 * radius) return p;
        break;
      }
      case Mix::Mixed:
        fail("queryPoint(Mixed)");
    }
  }
  fail(std::string("no query point for mix ") + mixName(mix));
}

struct PointScene {
  std::vector<Polytope> polytopes;
  std::vector<PointQuery> queries;  // size is a power of two
  // Setup statistics (the core's answers on the query set, untimed).
  double gjkFraction = 0;    ///< share of queries that reached GJK
  double gjkIterations = 0;  ///< mean GJK iterations over those
  int mismatches = 0;        ///< core vs reference distance disagreements
  int farUnflagged = 0;      ///< beyond the radius but not reported as Feature::Far
  double meanVertices = 0;
  double checksum = 0;  ///< sum of the query coordinates (same scene in every build)
};

constexpr int kPolytopes = 1024;
constexpr int kHotPolytopes = 16;
constexpr int kQueries = 4096;  // power of two: cycled with a mask

/// `polytopes` = pool size: 1024 for the benchmark proper (about 1.5-3 MB of
/// polytope data, more than L2, as the pieces near a wheel on a large terrain);
/// the "hot" diagnostic cases use 16, which stay in L1/L2.
inline PointScene makePointScene(Pool pool, Mix mix, int polytopes = kPolytopes,
                                 std::uint64_t seed = 1) {
  PointScene s;
  Rng rng(seed * 7919 + static_cast<int>(pool) * 131 + static_cast<int>(mix));
  s.polytopes.reserve(polytopes);
  for (int i = 0; i < polytopes; ++i) s.polytopes.push_back(makePoolPolytope(pool, rng));
  s.queries.reserve(kQueries);
  int gjk = 0;
  long iterations = 0;
  double vertices = 0;
  for (int i = 0; i < kQueries; ++i) {
    const Polytope& poly = s.polytopes[rng.index(polytopes)];
    const Mix kind = mix == Mix::Mixed ? static_cast<Mix>(rng.index(4)) : mix;
    PointQuery q{&poly, queryPoint(kind, poly, rng), kRadiusFactor * poly.scale};
    s.queries.push_back(q);
    s.checksum += q.point.x() + 2 * q.point.y() + 3 * q.point.z();
    vertices += static_cast<double>(poly.vertices.size());

    const PointDistance pd = pointDistance(poly, q.point, q.radius);
    if (pd.iterations > 0) ++gjk, iterations += pd.iterations;
    const RefDistance ref = referenceDistance(poly, q.point);
    const double tol = 1e-9 * poly.scale;
    const bool ok = pd.feature == Feature::Far
                        ? pd.distance > q.radius && pd.distance <= ref.distance + tol
                        : std::abs(pd.distance - ref.distance) <= tol;
    if (!ok) ++s.mismatches;
    if (ref.distance > q.radius + tol && pd.feature != Feature::Far) ++s.farUnflagged;
  }
  s.gjkFraction = static_cast<double>(gjk) / kQueries;
  s.gjkIterations = gjk ? static_cast<double>(iterations) / gjk : 0.0;
  s.meanVertices = vertices / kQueries;
  return s;
}

// ---------------------------------------------------------------------------
// Wheel-contact scenes: a grid of abutting boxes (0.5 m cells, tops 0-4 cm
// high on a 1 mm lattice, flush sides, so the terrain has shared seams like
// real ground), and a wheel (r = 0.19 m, tread 0.12 m) pressed 0.3-3 cm into it.
//
// So that terrains of every size see the same local geometry, wheel positions
// are drawn on an unbounded plane and folded onto the grid cell by cell: the
// position inside its cell is kept, and the cell is chosen so that every
// neighbour the wheel can reach exists (no terrain borders in reach). Cell
// heights are a hash of the cell index, the same on every terrain.

constexpr double kCell = 0.5;      // exact in binary: flush faces are exact
constexpr double kBoxDepth = 0.3;  // boxes reach down to z = -0.3 m

inline double cellHeight(int i, int j) {
  std::uint64_t h = (static_cast<std::uint64_t>(i) << 32) ^ static_cast<std::uint32_t>(j);
  h += 0x9E3779B97F4A7C15ull;  // splitmix64 finaliser
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  return 0.001 * static_cast<double>(h % 41);
}

struct GridTerrain {
  Terrain terrain;
  int nx = 0, ny = 0;
};

/// nx × ny pieces; for the benchmark sizes: 10 = 5×2, 1000 = 40×25, 100000 = 400×250.
inline void gridShape(int pieces, int& nx, int& ny) {
  switch (pieces) {
    case 10:
      nx = 5, ny = 2;
      return;
    case 1000:
      nx = 40, ny = 25;
      return;
    case 100000:
      nx = 400, ny = 250;
      return;
    default: {
      ny = std::max(2, static_cast<int>(std::sqrt(pieces / 1.6)));
      nx = std::max(3, pieces / ny);
    }
  }
}

inline GridTerrain makeGridTerrain(int pieces) {
  GridTerrain g;
  gridShape(pieces, g.nx, g.ny);
  TerrainBuilder builder;
  builder.addMaterial(asphalt());
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const double h = cellHeight(i, j);
      const Vec3 centre((i + 0.5) * kCell, (j + 0.5) * kCell, 0.5 * (h - kBoxDepth));
      Expected<Polytope> box = makeBox(centre, Vec3(kCell, kCell, h + kBoxDepth), 0.0);
      if (!box) fail("grid box: " + box.message());
      builder.addPiece(std::move(box).value(), 0);
    }
  Expected<Terrain> t = std::move(builder).build();
  if (!t) fail("grid terrain: " + t.message());
  g.terrain = std::move(t).value();
  return g;
}

/// Grid cell (along one axis, n cells) for unbounded cell index `k` with
/// position `local` in [0, kCell) inside it: a triangle wave over the interior
/// cells 1..n-2 (consecutive cells stay adjacent), or with two cells the one
/// whose neighbour lies on the side the wheel is near.
inline int foldCell(long k, int n, double local) {
  if (n >= 3) {
    const long m = n - 2, period = 2 * m;
    const long r = ((k % period) + period) % period;
    return 1 + static_cast<int>(r < m ? r : period - 1 - r);
  }
  if (n == 2) return local < 0.5 * kCell ? 1 : 0;
  return 0;
}

enum class WheelPath { Walk, Random };
inline const char* pathName(WheelPath p) { return p == WheelPath::Walk ? "walk" : "random"; }

struct WheelPose {
  Vec3 centre;
  Vec3 axle;
};

struct WheelScene {
  const GridTerrain* grid = nullptr;
  WheelShape wheel;
  std::vector<WheelPose> poses;  // kQueries poses
  double meanContacts = 0;
  double meanCandidates = 0;  // broadphase candidates per query
  double checksum = 0;        // sum of the pose coordinates (same scene in every build)
};

/// Walk: the wheel drives 2 cm per step along a slowly turning heading (82 m in
/// all; temporal coherence as in a simulation). Random: independent uniform
/// positions over a 200 m × 125 m plane and uniform headings (no coherence:
/// each query touches cold memory on large terrains). Poses with 0 or more
/// than 4 contacts are redrawn, so every query finds 1-4.
inline WheelScene makeWheelScene(const GridTerrain& g, WheelPath path, std::uint64_t seed = 11) {
  WheelScene s;
  s.grid = &g;
  Rng rng(seed + static_cast<int>(path));
  double x = 1000.0, y = 1000.0;  // on the unbounded plane (m)
  double heading = rng.uniform(0, 2 * kPi);
  std::vector<WheelContact> contacts;
  std::vector<int> near;
  long contactSum = 0, candidateSum = 0;
  while (static_cast<int>(s.poses.size()) < kQueries) {
    if (path == WheelPath::Walk) {
      heading += rng.uniform(-0.08, 0.08);
      x += 0.02 * std::cos(heading);
      y += 0.02 * std::sin(heading);
    } else {
      x = rng.uniform(0, 200.0), y = rng.uniform(0, 125.0);
      heading = rng.uniform(0, 2 * kPi);
    }
    const double kx = std::floor(x / kCell), ky = std::floor(y / kCell);
    const double u = x - kx * kCell, v = y - ky * kCell;
    const int i = foldCell(static_cast<long>(kx), g.nx, u);
    const int j = foldCell(static_cast<long>(ky), g.ny, v);
    const double z = cellHeight(i, j) + s.wheel.radius - rng.uniform(0.003, 0.03);
    const WheelPose pose{Vec3(i * kCell + u, j * kCell + v, z),
                         Vec3(-std::sin(heading), std::cos(heading), 0.0)};
    const int n = wheelContacts(g.terrain, s.wheel, pose.centre, pose.axle, contacts);
    if (n < 1 || n > 4) continue;
    Aabb reach;
    reach.min = pose.centre.array() - s.wheel.radius;
    reach.max = pose.centre.array() + s.wheel.radius;
    piecesNear(g.terrain, reach, near);
    contactSum += n;
    candidateSum += static_cast<long>(near.size());
    s.poses.push_back(pose);
    s.checksum += pose.centre.x() + 2 * pose.centre.y() + 3 * pose.centre.z() + pose.axle.x();
  }
  s.meanContacts = static_cast<double>(contactSum) / kQueries;
  s.meanCandidates = static_cast<double>(candidateSum) / kQueries;
  return s;
}

constexpr int kTerrainSizes[] = {10, 1000, 100000};

}  // namespace roverlab::bench
