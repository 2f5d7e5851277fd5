// Contact on heightfields: a plane and creases given as a grid of heights give
// the same wheel forces as the same surface given as quads or boxes, whatever
// the cell seams and diagonals under the wheel; walls at the field's sides;
// a box resting on a field is the same spring as on a slab.
#include "contact/heightfield_contact.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "contact/wheel_contact.h"
#include "geometry/gjk.h"
#include "support/surface_terrains.h"
#include "terrain/builders.h"

using namespace roverlab;
using testing::load;
using testing::prismOf;
using testing::terrainOf;

namespace {

const WheelShape& kWheel = testing::kSurfaceWheel;

// A field of n × n cells of `cell` m from (x0, y0), heights z(x, y).
template <class F>
Heightfield fieldOf(double x0, double y0, double cell, int n, F z, double base = -2.0) {
  std::vector<float> h;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) h.push_back(static_cast<float>(z(x0 + i * cell, y0 + j * cell)));
  HeightfieldSpec spec;
  spec.originX = x0;
  spec.originY = y0;
  spec.dx = spec.dy = cell;
  spec.nx = spec.ny = n + 1;
  spec.heights = std::move(h);
  spec.base = base;
  return makeHeightfield(std::move(spec)).value();
}

Terrain terrainOf(Heightfield f) {
  TerrainBuilder tb;
  tb.addHeightfield(std::move(f));
  return std::move(tb).build().value();
}

// Distance from p to the triangle v (Ericson, Real-Time Collision Detection,
// 5.1.5: the nearest point by Voronoi regions), independent of the code under test.
double triangleDistance(const Vec3 v[3], const Vec3& p) {
  const Vec3 &a = v[0], &b = v[1], &c = v[2];
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return (p - a).norm();
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return (p - b).norm();
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return (p - (a + d1 / (d1 - d3) * ab)).norm();
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return (p - c).norm();
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return (p - (a + d2 / (d2 - d6) * ac)).norm();
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
    return (p - (b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b))).norm();
  const double den = 1 / (va + vb + vc);
  return (p - (a + ab * vb * den + ac * vc * den)).norm();
}

}  // namespace

TEST_CASE("a flat heightfield gives one contact, the plane's, on every seam, diagonal and corner",
          "[contact][heightfield]") {
  const double cell = 0.05;
  const Terrain field = terrainOf(fieldOf(-2, -2, cell, 80, [](double, double) { return 0.0; }));
  const double h = 0.17;  // the wheel's centre height: deflection 0.02 m
  // Grid corners, edge midpoints, diagonals, exact seams and points 1e-12 off them.
  std::vector<double> xs;
  for (int k = 0; k <= 40; ++k) xs.push_back(-0.5 + k * cell / 4);
  for (double e : {1e-12, -1e-12, 1e-9}) xs.push_back(e), xs.push_back(cell + e);
  for (double x : xs)
    for (double y : xs) {
      int count = 0;
      const Vec3 f = load(field, Vec3(x, y, h), Vec3::UnitY(), &count);
      INFO("at " << x << ", " << y);
      REQUIRE(count == 1);
      // Exact up to rounding of coordinates of order 1 m.
      CHECK((f - (kWheel.radius - h) * Vec3::UnitZ()).norm() < 1e-12);
    }
}

TEST_CASE("a sloped plane as a heightfield loads a rolling wheel as a single quad does",
          "[contact][heightfield]") {
  // 20° along a diagonal direction, 0.04 m cells: a wheel's footprint spans
  // dozens of seams and diagonals, thousands along the path.
  const Vec3 n =
      Vec3(-std::sin(0.35) * std::cos(0.6), -std::sin(0.35) * std::sin(0.6), std::cos(0.35))
          .normalized();
  const auto z = [&](double x, double y) { return -(n.x() * x + n.y() * y) / n.z(); };
  const Terrain field = terrainOf(fieldOf(-3, -3, 0.04, 150, z, -10.0));
  // The same plane as one quad prism.
  const Terrain quad = terrainOf({prismOf(
      {Vec3(-3, -3, z(-3, -3)), Vec3(3, -3, z(3, -3)), Vec3(3, 3, z(3, 3)), Vec3(-3, 3, z(-3, 3))},
      -10.0)});
  const Vec3 axle = n.cross(Vec3(1, 0.3, 0)).normalized();
  const double depth = 0.015;
  int samples = 0;
  for (int k = 0; k <= 2000; ++k) {
    const double s = -1.5 + 3.0 * k / 2000;
    const Vec3 foot(s, 0.37 * s + 0.01, z(s, 0.37 * s + 0.01));
    const Vec3 centre = foot + (kWheel.radius - depth) * n;
    int count = 0;
    const Vec3 a = load(field, centre, axle, &count), b = load(quad, centre, axle);
    INFO("sample " << k);
    REQUIRE(count == 1);
    // Within 1 % at every sample, the issue's bound; heights are stored as
    // float (relative rounding 6e-8 of heights below 2 m, ~1e-7 m), so the
    // field agrees with the quad far closer: 1e-4 of the load.
    CHECK((a - b).norm() <= 1e-4 * b.norm());
    ++samples;
  }
  CHECK(samples == 2001);
}

TEST_CASE("a concave and a convex crease as heightfields load a wheel as two pieces do",
          "[contact][heightfield]") {
  // Flat ground for x < 1, a 25° ramp up (concave crease) or down (convex)
  // beyond, the crease on a grid line.
  for (double slope : {std::tan(0.44), -std::tan(0.44)}) {
    const auto z = [&](double x, double) { return x <= 1 ? 0.0 : slope * (x - 1); };
    const Terrain field = terrainOf(fieldOf(-1, -1, 0.05, 80, z, -5.0));
    const Terrain quads = terrainOf(
        {prismOf({Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, 3, 0), Vec3(-1, 3, 0)}, -5.0),
         prismOf({Vec3(1, -1, 0), Vec3(3, -1, 2 * slope), Vec3(3, 3, 2 * slope), Vec3(1, 3, 0)},
                 -5.0)});
    for (int k = 0; k <= 600; ++k) {
      const double x = 0.7 + 0.6 * k / 600;
      const double y = 0.5 + 0.0123 * k / 600;
      // The centre 0.175 m above the surface: in contact with both faces near the crease.
      const Vec3 centre(x, y, z(x, y) + 0.175);
      const Vec3 a = load(field, centre, Vec3::UnitY()), b = load(quads, centre, Vec3::UnitY());
      INFO("slope " << slope << " x " << x);
      CHECK((a - b).norm() <= 1e-4 * std::max(b.norm(), 1e-3));
    }
  }
}

TEST_CASE("over a rough heightfield the nearest contact is the surface's nearest point",
          "[contact][heightfield]") {
  // Random centres over a rough field: the ghost filter never drops the
  // surface's nearest point (brute force over the triangles' prisms by GJK),
  // and every contact is finite.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.02, 0.02);
  HeightfieldSpec spec;
  spec.dx = spec.dy = 0.05;
  spec.nx = spec.ny = 41;
  for (int k = 0; k < 41 * 41; ++k) spec.heights.push_back(static_cast<float>(u(rng)));
  spec.base = -1;
  const Terrain t = terrainOf(makeHeightfield(spec).value());
  const Heightfield& f = t.heightfields[0];
  std::uniform_real_distribution<double> at(0.4, 1.6);
  for (int k = 0; k < 500; ++k) {
    const Vec3 centre(at(rng), at(rng), 0.17 + u(rng));
    SurfaceScratch scratch;
    std::vector<SurfaceHit> out;
    heightfieldSphereHits(f, centre, kWheel.radius, scratch, out);
    // The nearest contact is the surface's nearest point (brute force over
    // every triangle).
    double nearest = 1e9;
    Vec3 v[3];
    for (long tri = 0; tri < f.triangleCount(); ++tri) {
      f.triangle(tri, v);
      if ((v[0] - centre).head<2>().norm() > 0.3) continue;  // beyond the wheel's reach
      nearest = std::min(nearest, triangleDistance(v, centre));
    }
    if (nearest >= kWheel.radius) {
      CHECK(out.empty());
      continue;
    }
    REQUIRE(!out.empty());
    double least = 1e9;
    for (const SurfaceHit& c : out) {
      least = std::min(least, c.distance);
      CHECK(c.normal.allFinite());
    }
    CHECK(least == Approx(nearest).margin(1e-12));
  }
}

TEST_CASE("a heightfield keeps each cell's and each block's highest sample for the culls",
          "[terrain][heightfield]") {
  // 20 × 12 cells: blocks of 8 × 8 cells, the last ones partial along both axes.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  HeightfieldSpec spec;
  spec.dx = 0.1;
  spec.dy = 0.2;
  spec.nx = 21;
  spec.ny = 13;
  for (int k = 0; k < 21 * 13; ++k) spec.heights.push_back(static_cast<float>(u(rng)));
  spec.base = -2;
  const Heightfield f = makeHeightfield(spec).value();
  REQUIRE(f.cellTop.size() == 20u * 12u);
  REQUIRE(f.blocksX() == 3);
  REQUIRE(f.blocksY() == 2);
  std::vector<float> block(6, -1e9f);
  for (int j = 0; j < 12; ++j)
    for (int i = 0; i < 20; ++i) {
      const double top = std::max(
          {f.height(i, j), f.height(i + 1, j), f.height(i, j + 1), f.height(i + 1, j + 1)});
      CHECK(f.cellTop[j * 20 + i] == top);
      float& b = block[(j / 8) * 3 + i / 8];
      b = std::max(b, static_cast<float>(top));
    }
  for (int k = 0; k < 6; ++k) CHECK(f.blockTop[k] == block[k]);
}

TEST_CASE("a heightfield raised above the ground has walls at its sides",
          "[contact][heightfield]") {
  const Terrain t = terrainOf(fieldOf(
      0, 0, 0.1, 10, [](double, double) { return 0.3; }, 0.0));
  // Beside the west side, below the top: pushed back along −x.
  std::vector<WheelContact> out;
  wheelContacts(t, kWheel, Vec3(-0.15, 0.5, 0.1), Vec3::UnitY(), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].normal.isApprox(-Vec3::UnitX(), 1e-12));
  CHECK(out[0].deflection == Approx(0.04).margin(1e-12));
  // Over the north-east corner's rim, rolling towards it: one contact from
  // the rim corner, though four features (two triangles, two walls) meet there.
  wheelContacts(t, kWheel, Vec3(1.1, 1.1, 0.4), Vec3(1, -1, 0).normalized(), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].surfacePoint.isApprox(Vec3(1, 1, 0.3), 1e-7));  // 0.3 stored as float
}

TEST_CASE("a centre under the heightfield's surface is pushed out through the plane above it",
          "[contact][heightfield]") {
  const Terrain t = terrainOf(fieldOf(0, 0, 0.1, 10, [](double, double) { return 0.0; }));
  std::vector<WheelContact> out;
  wheelContacts(t, kWheel, Vec3(0.55, 0.42, -0.01), Vec3::UnitY(), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].distance == Approx(-0.01).margin(1e-12));
  CHECK(out[0].normal.isApprox(Vec3::UnitZ(), 1e-12));
  CHECK(t.materialOf(out[0].piece) == 0);
  CHECK(t.heightfieldOf(out[0].piece) == 0);
}

TEST_CASE("a box lying on a flat heightfield is the same spring as on a slab",
          "[contact][heightfield][body]") {
  const Terrain t = terrainOf(fieldOf(-2, -2, 0.07, 60, [](double, double) { return 0.0; }));
  const ContactBox box =
      makeContactBox(0, Vec3::Zero(), Vec3(0.5, 0.4, 0.2), 20.0, BodyContactSettings{}, 4e-4);
  const double d = 0.004;
  BodyMotion motion;
  motion.origin = Vec3(0.13, 0.21, 0.1 - d);
  BodyContactScratch scratch;
  std::vector<BodyContact> out;
  const auto contacts = [&](const Vec3& origin) {
    out.clear();
    boxContacts(t, box, worldBox(box, origin, Eigen::Matrix3d::Identity()), {}, motion, scratch,
                out);
  };
  contacts(motion.origin);
  // The 7 × 6 cells under the box give one contact: the bottom face's four corners.
  REQUIRE(out.size() == 1);
  const BodyContact& c = out[0];
  CHECK(c.points == 4);
  CHECK(c.normalForce.isApprox(box.stiffness * d * Vec3::UnitZ(), 1e-9));
  CHECK(c.load == Approx(box.stiffness * d).epsilon(1e-9));
  CHECK(c.point.head<2>().isApprox(motion.origin.head<2>(), 1e-9));
  // Sliding: friction opposes the motion, never beyond μ·load.
  motion.velocity = Vec3(1.0, 0, 0);
  contacts(motion.origin);
  REQUIRE(out.size() == 1);
  CHECK(out[0].tangentialForce.x() == Approx(-t.materials[0].phiMax * out[0].load).epsilon(1e-9));
  // 1 mm above: none.
  contacts(Vec3(0, 0, 0.101));
  CHECK(out.empty());
}

TEST_CASE("heightfields are validated", "[terrain][heightfield]") {
  // A valid 2 × 2 grid of 1 m cells at height 0, then one thing wrong at a time.
  HeightfieldSpec grid;
  grid.nx = grid.ny = 2;
  grid.heights.assign(4, 0.f);
  grid.base = -1;
  REQUIRE(makeHeightfield(grid).ok());
  HeightfieldSpec oneColumn = grid;
  oneColumn.nx = 1;
  oneColumn.ny = 5;
  oneColumn.heights.assign(5, 0.f);
  CHECK(makeHeightfield(oneColumn).issues()[0].path == "heights");
  HeightfieldSpec flatCell = grid;
  flatCell.dx = 0;
  CHECK(makeHeightfield(flatCell).issues()[0].path == "cell");
  HeightfieldSpec baseAbove = grid;
  baseAbove.base = 0.5;
  CHECK(makeHeightfield(baseAbove).issues()[0].path == "base");
  HeightfieldSpec nan = grid;
  nan.heights[3] = NAN;
  const auto bad = makeHeightfield(nan);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.issues()[0].message.find("[1][1]") != std::string::npos);
  HeightfieldSpec tooLarge = grid;
  tooLarge.nx = tooLarge.ny = 3000;
  tooLarge.heights.clear();
  CHECK(makeHeightfield(tooLarge).issues()[0].message.find("limit") != std::string::npos);
}
