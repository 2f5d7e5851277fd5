// Near lists (contact/surface_contact.h): a surface query that reuses the
// cells or features found for an earlier centre gives exactly the contacts of
// a query that searches afresh, as a wheel drifts, jumps, changes radius and
// crosses onto another surface, and when a list would not fit its capacity.
#include <catch2/catch.hpp>
#include <random>

#include "contact/heightfield_contact.h"
#include "contact/mesh_contact.h"

using namespace roverlab;

namespace {

constexpr int kCells = 40;       // cells along each side
constexpr double kCell = 0.05;   // m
constexpr double kRough = 0.03;  // height amplitude (m)

std::vector<float> roughHeights(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-kRough, kRough);
  std::vector<float> h;
  for (int k = 0; k < (kCells + 1) * (kCells + 1); ++k) h.push_back(static_cast<float>(u(rng)));
  return h;
}

// The rough grid as a heightfield from (0, 0).
Heightfield fieldOf(const std::vector<float>& h) {
  HeightfieldSpec spec;
  spec.dx = spec.dy = kCell;
  spec.nx = spec.ny = kCells + 1;
  spec.heights = h;
  spec.base = -1;
  return makeHeightfield(std::move(spec)).value();
}

// The same rough grid as a mesh, shifted by `dx` (m) along x.
TriMesh meshOf(const std::vector<float>& h, double dx) {
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> t;
  const int n = kCells + 1;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) v.emplace_back(dx + i * kCell, j * kCell, h[j * n + i]);
  for (int j = 0; j < kCells; ++j)
    for (int i = 0; i < kCells; ++i) {
      const int a = j * n + i;
      t.push_back({a, a + 1, a + n + 1});
      t.push_back({a, a + n + 1, a + n});
    }
  return makeTriMesh(std::move(v), std::move(t), -1).value();
}

void requireSame(const std::vector<SurfaceHit>& a, const std::vector<SurfaceHit>& b) {
  REQUIRE(a.size() == b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    CHECK(a[k].feature == b[k].feature);
    CHECK(a[k].distance == b[k].distance);
    CHECK(a[k].closest == b[k].closest);
    CHECK(a[k].normal == b[k].normal);
  }
}

// A scratch keeping `lists` near lists of `capacity` items each.
SurfaceScratch keeping(size_t lists, size_t capacity) {
  SurfaceScratch s;
  s.lists.resize(lists);
  for (NearList& l : s.lists) {
    l.items.reserve(capacity);
    l.planes.reserve(kNearListPlanes / 2 * capacity);
  }
  return s;
}

}  // namespace

TEST_CASE("near lists give the contacts of a fresh search", "[contact][heightfield][mesh]") {
  const std::vector<float> h = roughHeights(11);
  const Heightfield field = fieldOf(h);
  const TriMesh mesh = meshOf(h, 2.0);                 // beside the field: x from 2 m
  for (size_t capacity : {size_t{2048}, size_t{6}}) {  // 6: most lists do not fit
    SurfaceScratch kept = keeping(3, capacity);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> step(-1e-3, 1e-3), jump(0.1, 3.9), lift(-0.01, 0.03);
    Vec3 centre(1.0, 1.0, 0.2);
    double radius = 0.19;
    long contacts = 0;
    for (int k = 0; k < 20000; ++k) {
      if (k % 500 == 0) {  // a jump, and another radius now and then
        centre = Vec3(jump(rng), 0.5 * jump(rng), 0.17 + lift(rng));
        if (k % 1500 == 0) radius = radius == 0.19 ? 0.25 : 0.19;
      } else {
        centre += Vec3(step(rng), step(rng), 0.2 * step(rng));
      }
      std::vector<SurfaceHit> a, b;
      SurfaceScratch fresh;
      heightfieldSphereHits(field, centre, radius, kept, a);
      heightfieldSphereHits(field, centre, radius, fresh, b);
      requireSame(a, b);
      contacts += static_cast<long>(a.size());
      a.clear(), b.clear();
      meshSphereHits(mesh, centre, radius, kept, a);
      meshSphereHits(mesh, centre, radius, fresh, b);
      requireSame(a, b);
      contacts += static_cast<long>(a.size());
    }
    CHECK(contacts > 10000);  // the walk mostly touches the surfaces
  }
}

TEST_CASE("near lists give the contact of a fresh search for a centre under the surface",
          "[contact][heightfield][mesh]") {
  // A centre drifting through the rough grid's surface (heights ±3 cm), so
  // that it passes under it and over it and from triangle to triangle: the
  // mesh keeps the triangle under the centre with its near list.
  const std::vector<float> h = roughHeights(12);
  const Heightfield field = fieldOf(h);
  const TriMesh mesh = meshOf(h, 2.0);
  SurfaceScratch kept = keeping(3, 2048);
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> step(-2e-3, 2e-3), jump(0.2, 3.8), depth(-0.05, 0.05);
  Vec3 centre(1.0, 1.0, 0.0);
  long under = 0;
  for (int k = 0; k < 20000; ++k) {
    if (k % 400 == 0)
      centre = Vec3(jump(rng), 0.5 * jump(rng), depth(rng));
    else
      centre += Vec3(step(rng), step(rng), 0.5 * step(rng));
    for (int surface = 0; surface < 2; ++surface) {
      std::vector<SurfaceHit> a, b;
      SurfaceScratch fresh;
      if (surface == 0) {
        heightfieldSphereHits(field, centre, 0.19, kept, a);
        heightfieldSphereHits(field, centre, 0.19, fresh, b);
      } else {
        meshSphereHits(mesh, centre, 0.19, kept, a);
        meshSphereHits(mesh, centre, 0.19, fresh, b);
      }
      requireSame(a, b);
      under += !a.empty() && a[0].distance < 0;
    }
  }
  CHECK(under > 5000);  // the walk is often under the surface
}
