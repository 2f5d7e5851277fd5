// Mesh terrains: welding, open edges, the grid, and the 2.5-D check that
// refuses a mesh at its first offending triangle.
#include "terrain/trimesh.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

using namespace roverlab;

namespace {

// A square of side `s` (m) of two triangles at height z, corner (x, y).
void square(std::vector<Vec3>& v, std::vector<std::array<int, 3>>& t, double x, double y, double z,
            double s = 1.0) {
  const int a = static_cast<int>(v.size());
  v.insert(v.end(), {Vec3(x, y, z), Vec3(x + s, y, z), Vec3(x + s, y + s, z), Vec3(x, y + s, z)});
  t.push_back({a, a + 1, a + 2});
  t.push_back({a, a + 2, a + 3});
}

std::string messageOf(const Expected<TriMesh>& m) {
  REQUIRE_FALSE(m.ok());
  return m.issues()[0].message;
}

// 20 × 20 squares of 0.1 m, stepped by up to 0.08 m: 800 triangles over [0, 2]².
void steppedSquares(std::vector<Vec3>& v, std::vector<std::array<int, 3>>& t) {
  for (int j = 0; j < 20; ++j)
    for (int i = 0; i < 20; ++i) square(v, t, i * 0.1, j * 0.1, 0.02 * ((i * 7 + j * 3) % 5), 0.1);
}

// True when triangle f's prism (down to the base) comes within `radius` of
// `centre`, by a fine sampling of its top.
bool withinReach(const TriMesh& m, long f, const Vec3& centre, double radius) {
  Vec3 c[3];
  m.triangle(f, c);
  for (double a = 0; a <= 1; a += 0.05)
    for (double b = 0; a + b <= 1; b += 0.05) {
      const Vec3 p = c[0] + a * (c[1] - c[0]) + b * (c[2] - c[0]);
      if ((Vec3(p.x(), p.y(), std::min(p.z(), centre.z())) - centre).norm() < radius) return true;
    }
  return false;
}

}  // namespace

TEST_CASE("coincident vertices are welded, so a triangle soup has the adjacency of a mesh",
          "[terrain][mesh]") {
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> t;
  square(v, t, 0, 0, 0);
  square(v, t, 1, 0, 0);  // shares the edge x = 1 by position only
  const TriMesh m = makeTriMesh(v, t, -1).value();
  CHECK(m.vertices.size() == 6);
  CHECK(m.wallCount() == 6);  // the 2 × 1 rectangle's outline, not the inner edge
  double z;
  Vec3 n;
  CHECK(m.surfaceAt(1.0, 0.5, z, n));
  CHECK(z == 0);
  CHECK_FALSE(m.surfaceAt(2.5, 0.5, z, n));
}

TEST_CASE("either winding is taken; a triangle is counter-clockwise from above",
          "[terrain][mesh]") {
  const TriMesh m =
      makeTriMesh({Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0.5)}, {{0, 1, 2}}, -1).value();
  Vec3 v[3];
  m.triangle(0, v);
  CHECK((v[1] - v[0]).cross(v[2] - v[0]).z() > 0);
  double z;
  Vec3 n;
  REQUIRE(m.surfaceAt(0.5, 0.25, z, n));
  CHECK(z == Approx(0.25));
  CHECK(n.z() > 0);
}

TEST_CASE("a mesh that is not 2.5-D is refused at its first offending triangle",
          "[terrain][mesh]") {
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> t;
  for (int i = 0; i < 5; ++i) square(v, t, i, 0, 0);
  // Triangle 10: over squares 1 and 2, 0.5 m up: a fold over triangles 2..5.
  v.insert(v.end(), {Vec3(1.5, 0.2, 0.5), Vec3(2.5, 0.2, 0.5), Vec3(2, 0.8, 0.5)});
  t.push_back({20, 21, 22});
  const auto folded = makeTriMesh(v, t, -1);
  CHECK(folded.issues()[0].path == "triangles");
  CHECK(messageOf(folded).find("triangle 10 overlaps triangle 2") == 0);

  // A vertical triangle.
  const auto vertical = makeTriMesh({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, 0, 1), Vec3(0, 1, 0)},
                                    {{0, 1, 3}, {0, 1, 2}}, -1);
  CHECK(messageOf(vertical).find("triangle 1 is vertical") == 0);
  // Degenerate ones.
  CHECK(messageOf(makeTriMesh({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)}, {{0, 1, 2}}, -1))
            .find("triangle 0 is degenerate") == 0);
  CHECK(messageOf(makeTriMesh({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 0, 0)}, {{0, 1, 2}}, -1))
            .find("triangle 0 has two corners at one point") == 0);
  // Bad indices, values and base.
  CHECK(messageOf(makeTriMesh({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {{0, 1, 3}}, -1))
            .find("triangle 0 names vertex 3") == 0);
  CHECK(messageOf(makeTriMesh({Vec3(0, 0, NAN), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {{0, 1, 2}}, -1))
            .find("vertex 0") == 0);
  const auto high = makeTriMesh({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {{0, 1, 2}}, 0.0);
  CHECK(high.issues()[0].path == "base");
  CHECK(makeTriMesh({}, {}, -1).issues()[0].path == "triangles");
}

TEST_CASE("triangles that touch along an edge or at a corner are not overlaps", "[terrain][mesh]") {
  // A fan of 64 triangles about one vertex, and a neighbour touching only at a corner.
  std::vector<Vec3> v = {Vec3(0, 0, 0.3)};
  std::vector<std::array<int, 3>> t;
  for (int k = 0; k < 64; ++k) v.emplace_back(std::cos(k * M_PI / 32), std::sin(k * M_PI / 32), 0);
  for (int k = 0; k < 64; ++k) t.push_back({0, 1 + k, 1 + (k + 1) % 64});
  v.insert(v.end(), {Vec3(1, 0, 0), Vec3(2, -0.5, 0), Vec3(2, 0.5, 0)});
  t.push_back({65, 66, 67});
  const auto m = makeTriMesh(v, t, -1);
  REQUIRE(m.ok());
  CHECK(m.value().wallCount() == 64 + 3);
}

TEST_CASE("the grid finds every feature near a point", "[terrain][mesh]") {
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> t;
  for (int j = 0; j < 20; ++j)
    for (int i = 0; i < 20; ++i) square(v, t, i * 0.1, j * 0.1, 0.01 * ((i * 7 + j * 3) % 5), 0.1);
  const TriMesh m = makeTriMesh(v, t, -1).value();
  std::vector<int> near;
  for (double x = -0.05; x < 2.1; x += 0.137)
    for (double y = -0.05; y < 2.1; y += 0.113) {
      m.featuresNear(x - 0.2, y - 0.2, x + 0.2, y + 0.2, near);
      std::sort(near.begin(), near.end());
      CHECK(std::adjacent_find(near.begin(), near.end()) == near.end());  // each once
      for (long f = 0; f < m.triangleCount(); ++f) {
        Vec3 c[3];
        m.triangle(f, c);
        bool meets = false;
        for (const Vec3& p : c)
          meets = meets || (std::abs(p.x() - x) < 0.2 && std::abs(p.y() - y) < 0.2);
        if (meets) CHECK(std::binary_search(near.begin(), near.end(), static_cast<int>(f)));
      }
    }
}

TEST_CASE("the grid finds every triangle within a sphere's reach, and only those of cells near it",
          "[terrain][mesh]") {
  // Stepped squares and one long sliver (on a coarser grid level).
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> t;
  steppedSquares(v, t);
  const int s = static_cast<int>(v.size());
  v.insert(v.end(), {Vec3(0, 2.05, 0.3), Vec3(2, 2.05, 0.3), Vec3(2, 2.1, 0.3)});
  t.push_back({s, s + 1, s + 2});
  const TriMesh m = makeTriMesh(v, t, -1).value();
  std::vector<int> near;
  std::vector<int> inPlan;
  long found = 0, listed = 0, listedInPlan = 0;
  for (double x = -0.05; x < 2.2; x += 0.137)
    for (double y = -0.05; y < 2.2; y += 0.113)
      for (double z : {0.05, 0.15, 0.3}) {
        const Vec3 centre(x, y, z);
        m.featuresNearSphere(centre, 0.12, near);
        std::sort(near.begin(), near.end());
        CHECK(std::adjacent_find(near.begin(), near.end()) == near.end());  // each once
        listed += static_cast<long>(near.size());
        m.featuresNear(x - 0.12, y - 0.12, x + 0.12, y + 0.12, inPlan);
        listedInPlan += static_cast<long>(inPlan.size());
        for (long f = 0; f < m.triangleCount(); ++f) {
          if (!withinReach(m, f, centre, 0.12)) continue;
          ++found;
          CHECK(std::binary_search(near.begin(), near.end(), static_cast<int>(f)));
        }
      }
  CHECK(found > 0);
  // Cells whose features lie below the sphere, or beside it in 3-D, are passed over.
  CHECK(listed < listedInPlan);
}

TEST_CASE("a fine patch in a wide ground plane: long triangles keep to a coarse grid level",
          "[terrain][mesh]") {
  // 20 × 20 squares of 0.1 m (800 triangles), then a 1 mm gap and eight
  // triangles out to 100 m around them: a scanned patch in its ground plane.
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> t;
  steppedSquares(v, t);
  const int patch = static_cast<int>(t.size());
  const int s = static_cast<int>(v.size());
  const double g = 0.001, far = 100;
  v.insert(v.end(), {Vec3(-g, -g, 0), Vec3(2 + g, -g, 0), Vec3(2 + g, 2 + g, 0), Vec3(-g, 2 + g, 0),
                     Vec3(-far, -far, 0), Vec3(2 + far, -far, 0), Vec3(2 + far, 2 + far, 0),
                     Vec3(-far, 2 + far, 0)});
  for (int k = 0; k < 4; ++k) {
    const int a = s + k, b = s + (k + 1) % 4;
    t.push_back({a, a + 4, b + 4});
    t.push_back({a, b + 4, b});
  }
  const auto built = makeTriMesh(v, t, -1);
  REQUIRE(built.ok());  // the 2.5-D check stays within its bounds
  const TriMesh& m = built.value();
  CHECK(m.levels.size() > 1);

  // Over the patch a wheel lists the cells near it (60 to 190 features here,
  // with the walls and long triangles at its rim), not the whole patch: one
  // grid over the ground plane's 202 m would have cells of about 3 m, and
  // every query would list all 888 features. And every triangle within reach.
  std::vector<int> near;
  for (double x = 0.05; x < 2; x += 0.237)
    for (double y = 0.05; y < 2; y += 0.191) {
      const Vec3 centre(x, y, 0.12);
      m.featuresNearSphere(centre, 0.12, near);
      CHECK(near.size() < 200);
      std::sort(near.begin(), near.end());
      for (long f = 0; f < m.triangleCount(); ++f)
        if (withinReach(m, f, centre, 0.12))
          CHECK(std::binary_search(near.begin(), near.end(), static_cast<int>(f)));
    }
  // Out on the ground plane the long triangles are found.
  double z;
  Vec3 n;
  long which = -1;
  REQUIRE(m.surfaceAt(50, 1, z, n, &which));
  CHECK(z == 0);
  CHECK(which >= patch);
  m.featuresNearSphere(Vec3(50, 1, 0.1), 0.12, near);
  CHECK(std::find(near.begin(), near.end(), static_cast<int>(which)) != near.end());

  // A long triangle over the patch is a fold, found between levels in
  // either order: the later triangle of the first pair is named.
  std::vector<Vec3> v2 = v;
  std::vector<std::array<int, 3>> t2(t.begin(), t.begin() + patch);
  const int o = static_cast<int>(v2.size());
  v2.insert(v2.end(), {Vec3(0.55, 0.55, 1), Vec3(60, 0.55, 1), Vec3(0.55, 60, 1)});
  t2.push_back({o, o + 1, o + 2});  // last: triangle 800 over squares from (0.5, 0.5) on
  CHECK(messageOf(makeTriMesh(v2, t2, -1)).find("triangle 800 overlaps triangle ") == 0);
  t2.insert(t2.begin(), t2.back());  // first: triangle 0; the earliest patch triangle over it is
  t2.pop_back();                     // square (5, 5)'s lower, 1 + 2·(5·20 + 5)
  CHECK(messageOf(makeTriMesh(v2, t2, -1)).find("triangle 211 overlaps triangle 0") == 0);
}
