// makeHull: face structure, vertex selection, bounds and rejected input.
#include "geometry/polytope.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <set>

#include "support/oracle.h"
#include "support/random_shapes.h"

using namespace roverlab;

namespace {

// Every face: unit normal, every vertex on the plane, polygon CCW seen from
// outside (each consecutive triple turns left about the normal), and every
// vertex of the polytope on the inner side of every face. `tol` (m) is the
// plane tolerance; callers justify it.
void checkFaceStructure(const Polytope& poly, double tol) {
  REQUIRE(poly.faces.size() == poly.faceVertices.size());
  for (size_t f = 0; f < poly.faces.size(); ++f) {
    const Plane& pl = poly.faces[f];
    const std::vector<int>& ring = poly.faceVertices[f];
    INFO("face " << f);
    CHECK(pl.normal.norm() == Approx(1.0).margin(1e-12));
    REQUIRE(ring.size() >= 3);
    for (int v : ring) CHECK(std::abs(pl.signedDistance(poly.vertices[v])) <= tol);
    for (size_t k = 0; k < ring.size(); ++k) {
      const Vec3& v0 = poly.vertices[ring[k]];
      const Vec3& v1 = poly.vertices[ring[(k + 1) % ring.size()]];
      const Vec3& v2 = poly.vertices[ring[(k + 2) % ring.size()]];
      CHECK((v1 - v0).cross(v2 - v0).dot(pl.normal) > 0);
    }
    for (const Vec3& v : poly.vertices) CHECK(pl.signedDistance(v) <= tol);
  }
  // Euler's formula for a convex polyhedron: V − E + F = 2, each edge shared
  // by two faces. A missing or duplicated face breaks it.
  size_t halfEdges = 0;
  for (const auto& ring : poly.faceVertices) halfEdges += ring.size();
  CHECK(halfEdges % 2 == 0);
  CHECK(static_cast<long>(poly.vertices.size()) - static_cast<long>(halfEdges / 2) +
            static_cast<long>(poly.faces.size()) ==
        2);
  // Face edges: face f's run the ring's way, each with the plane through it
  // square to the face, pointing out of it (pointDistance reads them).
  REQUIRE(poly.edgeStart.size() == poly.faces.size() + 1);
  REQUIRE(poly.edges.size() == halfEdges);
  for (size_t f = 0; f < poly.faces.size(); ++f) {
    const std::vector<int>& ring = poly.faceVertices[f];
    REQUIRE(poly.edgeStart[f + 1] - poly.edgeStart[f] == static_cast<int>(ring.size()));
    for (size_t k = 0; k < ring.size(); ++k) {
      const FaceEdge& e = poly.edges[poly.edgeStart[f] + k];
      INFO("face " << f << " edge " << k);
      CHECK(e.from == ring[k]);
      CHECK(e.to == ring[(k + 1) % ring.size()]);
      CHECK(std::abs(e.plane.normal.dot(poly.faces[f].normal)) <= 1e-12);
      CHECK(std::abs(e.plane.signedDistance(poly.vertices[e.from])) <= tol);
      for (int v : ring) CHECK(e.plane.signedDistance(poly.vertices[v]) <= tol);
    }
  }
}

bool hasPath(const Expected<Polytope>& r, const std::string& path) {
  for (const Issue& i : r.issues())
    if (i.path == path) return true;
  return false;
}

}  // namespace

TEST_CASE("hull of a cube has 8 vertices and 6 square faces, CCW from outside", "[polytope]") {
  std::vector<Vec3> pts = shapes::boxCorners(Vec3(0, 0, 0), Vec3(1, 1, 1));
  // Points that are not vertices: centre, a face midpoint, an edge midpoint,
  // a face point off-centre and a duplicate corner.
  pts.emplace_back(0.5, 0.5, 0.5);
  pts.emplace_back(0.5, 0.5, 1.0);
  pts.emplace_back(0.5, 0.0, 0.0);
  pts.emplace_back(0.0, 0.25, 0.75);
  pts.emplace_back(1.0, 1.0, 1.0);
  const Expected<Polytope> r = makeHull(pts);
  REQUIRE(r.ok());
  const Polytope& p = r.value();

  REQUIRE(p.vertices.size() == 8);
  std::set<std::array<double, 3>> got, want;
  for (const Vec3& v : p.vertices) got.insert({v.x(), v.y(), v.z()});
  for (const Vec3& v : shapes::boxCorners(Vec3(0, 0, 0), Vec3(1, 1, 1)))
    want.insert({v.x(), v.y(), v.z()});
  CHECK(got == want);  // exact: vertices are copies of input points

  REQUIRE(p.faces.size() == 6);
  std::set<std::array<double, 4>> planes;
  for (size_t f = 0; f < 6; ++f) {
    CHECK(p.faceVertices[f].size() == 4);
    const Vec3& n = p.faces[f].normal;
    // Axis-aligned unit normals of a cube are computed from exact differences
    // of 0/1 coordinates, so only the normalisation rounds: 1e-15.
    std::array<double, 4> key{std::round(n.x()), std::round(n.y()), std::round(n.z()),
                              std::round(p.faces[f].offset)};
    CHECK((n - Vec3(key[0], key[1], key[2])).norm() < 1e-15);
    CHECK(std::abs(p.faces[f].offset - key[3]) < 1e-15);
    planes.insert(key);
  }
  const std::set<std::array<double, 4>> cubePlanes{{1, 0, 0, 1},  {-1, 0, 0, 0}, {0, 1, 0, 1},
                                                   {0, -1, 0, 0}, {0, 0, 1, 1},  {0, 0, -1, 0}};
  CHECK(planes == cubePlanes);
  checkFaceStructure(p, 1e-15);

  CHECK(p.box.min == Vec3(0, 0, 0));
  CHECK(p.box.max == Vec3(1, 1, 1));
  CHECK((p.centroid - Vec3(0.5, 0.5, 0.5)).norm() < 1e-15);  // mean of 8 corners, exact in binary
  CHECK(p.scale == 1.0);
  CHECK(p.vertices[p.support(Vec3(1, 1, 1))] == Vec3(1, 1, 1));
  CHECK(p.vertices[p.support(Vec3(-1, 2, -3))] == Vec3(0, 1, 0));
  CHECK(contains(p, Vec3(0.5, 0.5, 0.5)));
  CHECK(contains(p, Vec3(1, 1, 1)));  // on a corner: inside or on
  CHECK_FALSE(contains(p, Vec3(1.001, 0.5, 0.5)));
  CHECK(contains(p, Vec3(1.001, 0.5, 0.5), 0.002));
}

TEST_CASE("hull of a translated rotated box keeps 8 vertices and 6 faces", "[polytope]") {
  shapes::Rng rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Matrix3d rot = shapes::randomRotation(rng);
    const Vec3 t = shapes::uniformBox(rng, Vec3::Constant(-50), Vec3::Constant(50));
    std::vector<Vec3> pts;
    for (const Vec3& c : shapes::boxCorners(Vec3(-1, -0.5, -0.25), Vec3(1, 0.5, 0.25)))
      pts.push_back(t + rot * c);
    const Expected<Polytope> r = makeHull(pts);
    REQUIRE(r.ok());
    CHECK(r.value().vertices.size() == 8);
    CHECK(r.value().faces.size() == 6);
    // Rotated coordinates carry ~1e-14 m rounding (|t| ≤ 87 m): 1e-12 m bounds
    // the off-plane error of the face vertices with ~100× margin.
    checkFaceStructure(r.value(), 1e-12);
  }
}

TEST_CASE("hull of random clouds contains every input point and matches the brute-force hull",
          "[polytope]") {
  shapes::Rng rng(20240501);
  for (int trial = 0; trial < 600; ++trial) {
    const std::vector<Vec3> pts = shapes::randomCloud(rng);
    const Expected<Polytope> r = makeHull(pts);
    REQUIRE(r.ok());
    const Polytope& p = r.value();
    INFO("trial " << trial);
    // Coordinates ≤ ~10 m: plane evaluations round at ~1e-14 m; 1e-10·scale
    // is the hull's own coplanarity tolerance (documented in polytope.cpp as
    // its merge tolerance), so use the same: a point outside by more is a bug.
    const double tol = 1e-10 * p.scale;
    checkFaceStructure(p, tol);
    for (const Vec3& q : pts)
      for (const Plane& f : p.faces) CHECK(f.signedDistance(q) <= tol);

    // Vertices are input points, without duplicates, and are exactly the
    // points on the brute-force boundary (random clouds have no four coplanar
    // points, so every boundary point is a vertex).
    const oracle::BruteHull brute(pts);
    std::set<int> onBoundary;
    for (const auto& t : brute.tris) onBoundary.insert(t.begin(), t.end());
    CHECK(p.vertices.size() == onBoundary.size());
    for (const Vec3& v : p.vertices) CHECK(std::find(pts.begin(), pts.end(), v) != pts.end());
    for (size_t i = 0; i < p.vertices.size(); ++i)
      for (size_t j = i + 1; j < p.vertices.size(); ++j) CHECK(p.vertices[i] != p.vertices[j]);
    // Every brute-force supporting plane is one of the faces.
    for (size_t t = 0; t < brute.tris.size(); ++t) {
      bool found = false;
      for (const Plane& f : p.faces)
        found = found || (f.normal.dot(brute.normal[t]) > 1 - 1e-9 &&
                          std::abs(f.offset - brute.offset[t]) <= 1e-9 * p.scale);
      CHECK(found);
    }

    Aabb box;
    Vec3 mean = Vec3::Zero();
    for (const Vec3& q : pts) box.grow(q);
    for (const Vec3& v : p.vertices) mean += v;
    mean /= static_cast<double>(p.vertices.size());
    CHECK(p.box.min == box.min);  // extreme coordinates are attained at vertices
    CHECK(p.box.max == box.max);
    CHECK((p.centroid - mean).norm() <= 1e-14 * (1 + mean.norm()));
    CHECK(p.scale == Approx((box.max - box.min).maxCoeff()).epsilon(1e-15));
  }
}

TEST_CASE("hull of the maximum number of points is accepted", "[polytope]") {
  shapes::Rng rng(11);
  std::vector<Vec3> pts;
  for (int i = 0; i < kMaxHullPoints; ++i) pts.push_back(shapes::unitVector(rng));
  const Expected<Polytope> r = makeHull(pts);
  REQUIRE(r.ok());
  // Points on the unit sphere are all extreme.
  CHECK(r.value().vertices.size() == static_cast<size_t>(kMaxHullPoints));
  checkFaceStructure(r.value(), 1e-10 * r.value().scale);
}

TEST_CASE("makeHull rejects degenerate and non-finite input with a path", "[polytope]") {
  const std::vector<Vec3> tet{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  REQUIRE(makeHull(tet).ok());

  SECTION("fewer than 4 points") {
    for (size_t n = 0; n < 4; ++n) {
      const Expected<Polytope> r = makeHull(std::vector<Vec3>(tet.begin(), tet.begin() + n));
      CHECK_FALSE(r.ok());
      CHECK(hasPath(r, "points"));
      CHECK_FALSE(r.message().empty());
    }
  }
  SECTION("coplanar") {
    const Expected<Polytope> r =
        makeHull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.3, 0.7, 0}, {2, 5, 0}});
    CHECK_FALSE(r.ok());
    CHECK(hasPath(r, "points"));
    // Tilted plane, too: coplanarity is not only about an axis.
    const Expected<Polytope> t = makeHull({{0, 0, 0}, {1, 0, 1}, {0, 1, 1}, {1, 1, 2}, {2, 3, 5}});
    CHECK_FALSE(t.ok());
  }
  SECTION("nearly coplanar: 1e-13 of the size off the plane") {
    const Expected<Polytope> r = makeHull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 1e-13}});
    CHECK_FALSE(r.ok());
  }
  SECTION("collinear") {
    const Expected<Polytope> r =
        makeHull({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {-3, -3, -3}, {0.5, 0.5, 0.5}});
    CHECK_FALSE(r.ok());
    CHECK(hasPath(r, "points"));
  }
  SECTION("all equal") {
    const Expected<Polytope> r = makeHull(std::vector<Vec3>(6, Vec3(1, 2, 3)));
    CHECK_FALSE(r.ok());
    CHECK(hasPath(r, "points"));
  }
  SECTION("NaN names the point") {
    std::vector<Vec3> pts = tet;
    pts.emplace_back(0.2, std::numeric_limits<double>::quiet_NaN(), 0.1);
    const Expected<Polytope> r = makeHull(pts);
    CHECK_FALSE(r.ok());
    CHECK(hasPath(r, "points[4]"));
  }
  SECTION("infinity names the point") {
    std::vector<Vec3> pts = tet;
    pts[2].z() = -std::numeric_limits<double>::infinity();
    const Expected<Polytope> r = makeHull(pts);
    CHECK_FALSE(r.ok());
    CHECK(hasPath(r, "points[2]"));
  }
  SECTION("more than kMaxHullPoints") {
    shapes::Rng rng(3);
    std::vector<Vec3> pts;
    for (int i = 0; i < kMaxHullPoints + 1; ++i) pts.push_back(shapes::unitVector(rng));
    const Expected<Polytope> r = makeHull(pts);
    CHECK_FALSE(r.ok());
    CHECK(hasPath(r, "points"));
  }
}
