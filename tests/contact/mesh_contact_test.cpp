// Contact on triangle mesh terrains: a mesh of a heightfield's own triangles
// gives the heightfield's contacts; an irregular mesh of a plane or a crease
// (jittered vertices, diagonals either way) gives the forces of the same
// surface as quads; walls at open edges; a box on a flat mesh is the same
// spring as on a slab.
#include "contact/mesh_contact.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "contact/heightfield_contact.h"
#include "contact/wheel_contact.h"
#include "support/surface_terrains.h"
#include "terrain/builders.h"

using namespace roverlab;
using testing::load;
using testing::prismOf;
using testing::terrainOf;

namespace {

const WheelShape& kWheel = testing::kSurfaceWheel;

// A mesh over n × n cells of about `cell` m from (x0, y0), heights z(x, y):
// inner vertices moved by up to `jitter` cells in plan (at most 0.25 keeps
// every cell convex), but along y only in column `fixed`; each cell split
// along a random diagonal (seeded), triangles in random winding.
template <class F>
TriMesh meshOf(double x0, double y0, double cell, int n, F z, double jitter, unsigned seed,
               double base = -2.0, int fixed = -1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-jitter, jitter);
  std::vector<Vec3> v;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const bool inner = i > 0 && j > 0 && i < n && j < n;
      const double dx = inner ? u(rng) : 0;
      const double x = x0 + (i + (i == fixed ? 0 : dx)) * cell;
      const double y = y0 + (j + (inner ? u(rng) : 0)) * cell;
      v.emplace_back(x, y, z(x, y));
    }
  Expected<TriMesh> m = makeTriMesh(std::move(v), testing::randomDiagonals(n, rng, true), base);
  REQUIRE(m.ok());
  return m.value();
}

Terrain terrainOf(TriMesh m) {
  TerrainBuilder tb;
  tb.addMesh(std::move(m));
  return std::move(tb).build().value();
}

}  // namespace

TEST_CASE("a mesh of a heightfield's triangles gives the heightfield's contacts",
          "[contact][mesh]") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.03, 0.03);
  const int n = 40;
  std::vector<float> h;
  for (int k = 0; k < (n + 1) * (n + 1); ++k) h.push_back(static_cast<float>(u(rng)));
  HeightfieldSpec spec;
  spec.dx = spec.dy = 0.05;
  spec.nx = spec.ny = n + 1;
  spec.heights = h;
  spec.base = -1;
  const Heightfield f = makeHeightfield(std::move(spec)).value();
  std::vector<Vec3> v;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) v.push_back(f.sample(i, j));
  std::vector<std::array<int, 3>> t;
  for (long k = 0; k < f.triangleCount(); ++k) {
    const long cell = k / 2;
    const int i = static_cast<int>(cell % n), j = static_cast<int>(cell / n), a = j * (n + 1) + i;
    if (k % 2 == 0)
      t.push_back({a, a + 1, a + n + 2});
    else
      t.push_back({a, a + n + 2, a + n + 1});
  }
  const TriMesh m = makeTriMesh(v, t, -1).value();
  CHECK(m.wallCount() == f.wallCount());
  std::uniform_real_distribution<double> at(-0.2, 2.2);
  SurfaceScratch scratch, fs;
  // The wheel, and a sphere reaching some hundred triangles (the
  // heightfield's path for more hits than it keeps compact).
  const double big = 0.6;
  for (int k = 0; k < 2300; ++k) {
    const double radius = k < 2000 ? kWheel.radius : big;
    const Vec3 centre(at(rng), at(rng), (k < 2000 ? 0.16 : big - 0.1) + u(rng));
    std::vector<SurfaceHit> fo, mo;
    heightfieldSphereHits(f, centre, radius, fs, fo);
    meshSphereHits(m, centre, radius, scratch, mo);
    INFO("centre " << centre.transpose() << " radius " << radius);
    REQUIRE(mo.size() == fo.size());
    // The same points: the mesh holds the field's float heights exactly, so
    // only the two tolerances for one point (1e-6 and 1e-9 of the
    // coordinates) differ, far above the points' own rounding.
    double a = 0, b = 0;
    for (const SurfaceHit& x : fo) a += radius - x.distance;
    for (const SurfaceHit& x : mo) b += radius - x.distance;
    CHECK(a == Approx(b).margin(1e-12));
  }
}

TEST_CASE("a plane as an irregular mesh loads a rolling wheel as a single quad does",
          "[contact][mesh]") {
  const Vec3 n =
      Vec3(-std::sin(0.35) * std::cos(0.6), -std::sin(0.35) * std::sin(0.6), std::cos(0.35))
          .normalized();
  const auto z = [&](double x, double y) { return -(n.x() * x + n.y() * y) / n.z(); };
  const Terrain mesh = terrainOf(meshOf(-3, -3, 0.05, 120, z, 0.2, 11, -10.0));
  const Terrain quad = terrainOf({prismOf(
      {Vec3(-3, -3, z(-3, -3)), Vec3(3, -3, z(3, -3)), Vec3(3, 3, z(3, 3)), Vec3(-3, 3, z(-3, 3))},
      -10.0)});
  const Vec3 axle = n.cross(Vec3(1, 0.3, 0)).normalized();
  for (int k = 0; k <= 2000; ++k) {
    const double s = -1.5 + 3.0 * k / 2000;
    const Vec3 foot(s, 0.37 * s + 0.01, z(s, 0.37 * s + 0.01));
    const Vec3 centre = foot + (kWheel.radius - 0.015) * n;
    int count = 0;
    const Vec3 a = load(mesh, centre, axle, &count), b = load(quad, centre, axle);
    INFO("sample " << k);
    REQUIRE(count == 1);
    // The issue asks for 1 %; vertices are exact doubles on the plane, so
    // the mesh agrees to the rounding of the vertex heights (1e-16 m) times
    // the plane's slope: far inside 1e-9 of the load.
    CHECK((a - b).norm() <= 1e-9 * b.norm());
  }
}

TEST_CASE("a concave and a convex crease as irregular meshes load a wheel as two pieces do",
          "[contact][mesh]") {
  for (double slope : {std::tan(0.44), -std::tan(0.44)}) {
    const auto z = [&](double x, double) { return x <= 1 ? 0.0 : slope * (x - 1); };
    // The crease x = 1 is the mesh's column 40, whose vertices move along y only.
    const Terrain meshes = terrainOf(meshOf(-1, -1, 0.05, 80, z, 0.2, 5, -5.0, 40));
    const Terrain quads = terrainOf(
        {prismOf({Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, 1, 0), Vec3(-1, 1, 0)}, -5.0),
         prismOf({Vec3(1, -1, 0), Vec3(3, -1, 2 * slope), Vec3(3, 1, 2 * slope), Vec3(1, 1, 0)},
                 -5.0)});
    for (int k = 0; k <= 600; ++k) {
      const double x = 0.7 + 0.6 * k / 600;
      const double y = 0.1 + 0.0123 * k / 600;
      const Vec3 centre(x, y, z(x, y) + 0.175);
      const Vec3 a = load(meshes, centre, Vec3::UnitY()), b = load(quads, centre, Vec3::UnitY());
      INFO("slope " << slope << " x " << x);
      // Within 1e-9 of the load (exact double vertices on both faces).
      CHECK((a - b).norm() <= 1e-9 * std::max(b.norm(), 1e-3));
    }
  }
}

TEST_CASE("a mesh raised above the ground has walls at its open edges, and holes",
          "[contact][mesh]") {
  // A 1 m square at 0.1 m of two triangles: walls on its four sides.
  const TriMesh m =
      makeTriMesh({Vec3(0, 0, 0.1), Vec3(1, 0, 0.1), Vec3(1, 1, 0.1), Vec3(0, 1, 0.1)},
                  {{0, 1, 2}, {0, 2, 3}}, 0.0)
          .value();
  CHECK(m.wallCount() == 4);
  const Terrain t = terrainOf(m);
  // A wheel beside the west side, its centre 0.05 m up: pushed west by the wall.
  const Vec3 f = load(t, Vec3(-0.15, 0.5, 0.05), Vec3::UnitY());
  CHECK(f.x() == Approx(-0.04).margin(1e-12));
  CHECK(f.z() == Approx(0).margin(1e-12));
  // Over the square: the top; beyond it: nothing.
  CHECK(load(t, Vec3(0.5, 0.5, 0.25), Vec3::UnitY()).z() == Approx(0.04).margin(1e-12));
  CHECK(load(t, Vec3(1.5, 0.5, 0.05), Vec3::UnitY()).norm() == 0);
}

TEST_CASE("a centre under a mesh's surface is pushed out through the plane above it",
          "[contact][mesh]") {
  const Terrain t = terrainOf(meshOf(
      0, 0, 0.1, 10, [](double, double) { return 0.0; }, 0.2, 2));
  std::vector<WheelContact> out;
  wheelContacts(t, kWheel, Vec3(0.5, 0.5, -0.03), Vec3::UnitY(), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].deflection == Approx(0.22).margin(1e-12));
  CHECK(out[0].normal.isApprox(Vec3::UnitZ(), 1e-12));
  CHECK(t.meshOf(out[0].piece) == 0);
  CHECK(t.heightfieldOf(out[0].piece) == -1);
}

TEST_CASE("a box lying on a flat mesh is the same spring as on a slab", "[contact][mesh][body]") {
  const Terrain t = terrainOf(meshOf(
      -2, -2, 0.07, 60, [](double, double) { return 0.0; }, 0.2, 9));
  const ContactBox box =
      makeContactBox(0, Vec3::Zero(), Vec3(0.5, 0.4, 0.2), 20.0, BodyContactSettings{}, 4e-4);
  const double d = 0.004;
  BodyMotion motion;
  motion.origin = Vec3(0.13, 0.21, 0.1 - d);
  BodyContactScratch scratch;
  std::vector<BodyContact> out;
  boxContacts(t, box, worldBox(box, motion.origin, Eigen::Matrix3d::Identity()), {}, motion,
              scratch, out);
  REQUIRE(out.size() == 1);  // the bottom face's four corners, over 84 triangles
  CHECK(out[0].points == 4);
  CHECK(out[0].normalForce.isApprox(box.stiffness * d * Vec3::UnitZ(), 1e-9));
  CHECK(out[0].load == Approx(box.stiffness * d).epsilon(1e-9));
}
