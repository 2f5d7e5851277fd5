// STL meshes, binary and ASCII (small ones written here), every refusal with
// its message, and the convex hull's vertices: exact input points, the whole
// hull (its support in every direction is the points'), thinned to a limit.
#include "scenario/stl_reader.h"

#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <set>

#include "support/scenario_files.h"

using namespace roverlab;

namespace {

using Triangle = std::array<Vec3, 3>;

void putU32(std::string& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}
void putF32(std::string& out, float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  putU32(out, u);
}

// A binary STL of the triangles; the header text is padded to 80 bytes.
std::string binaryStl(const std::vector<Triangle>& triangles, const std::string& header = "") {
  std::string out = header.substr(0, 80);
  out.resize(80, ' ');
  putU32(out, static_cast<std::uint32_t>(triangles.size()));
  for (const Triangle& t : triangles) {
    for (int k = 0; k < 3; ++k) putF32(out, 0.0f);  // normal
    for (const Vec3& v : t)
      for (int k = 0; k < 3; ++k) putF32(out, static_cast<float>(v[k]));
    out += std::string(2, '\0');  // attribute
  }
  return out;
}

// The 12 triangles of an axis-aligned box from lo to hi.
std::vector<Triangle> box(const Vec3& lo, const Vec3& hi) {
  const auto corner = [&](int i) {
    return Vec3(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(), i & 4 ? hi.z() : lo.z());
  };
  const int faces[12][3] = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                            {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
  std::vector<Triangle> out;
  for (const auto& f : faces) out.push_back({corner(f[0]), corner(f[1]), corner(f[2])});
  return out;
}

// A UV sphere of radius r: 2·nu·nv triangles.
std::vector<Triangle> uvSphere(double r, int nu, int nv) {
  const auto at = [&](int i, int j) {
    const double theta = M_PI * i / nv, phi = 2 * M_PI * j / nu;
    return Vec3(r * std::sin(theta) * std::cos(phi), r * std::sin(theta) * std::sin(phi),
                r * std::cos(theta));
  };
  std::vector<Triangle> out;
  for (int i = 0; i < nv; ++i)
    for (int j = 0; j < nu; ++j) {
      out.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      out.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  return out;
}

const char* kAsciiTetra = R"(solid tetra
  facet normal 0 0 -1
    outer loop
      vertex 0 0 0
      vertex 0 1 0
      vertex 1 0 0
    endloop
  endfacet
  FACET NORMAL 0 -1 0
    OUTER LOOP
      VERTEX 0 0 0
      VERTEX 1 0 0
      VERTEX 0 0 1.5e-1
    ENDLOOP
  ENDFACET
endsolid tetra
)";

std::string message(const std::string& bytes) {
  const Expected<StlMesh> m = readStl(bytes);
  REQUIRE_FALSE(m.ok());
  return m.issues().front().message;
}

// Largest (max over input − max over hull) of the support in random directions.
double supportGap(const std::vector<Vec3>& input, const std::vector<Vec3>& hull) {
  std::mt19937 rng(3);
  std::normal_distribution<double> n;
  double gap = -INFINITY;
  for (int k = 0; k < 500; ++k) {
    const Vec3 d = Vec3(n(rng), n(rng), n(rng)).normalized();
    double a = -INFINITY, b = -INFINITY;
    for (const Vec3& p : input) a = std::max(a, d.dot(p));
    for (const Vec3& p : hull) b = std::max(b, d.dot(p));
    gap = std::max(gap, a - b);
  }
  return gap;
}

bool isSubset(const std::vector<Vec3>& part, const std::vector<Vec3>& whole) {
  std::set<std::array<double, 3>> all;
  for (const Vec3& p : whole) all.insert({p.x(), p.y(), p.z()});
  for (const Vec3& p : part)
    if (!all.count({p.x(), p.y(), p.z()})) return false;
  return true;
}

}  // namespace

TEST_CASE("ASCII STL: facets in any case, the corners in order", "[urdf][stl]") {
  const Expected<StlMesh> m = readStl(kAsciiTetra);
  INFO(m.message());
  REQUIRE(m.ok());
  CHECK_FALSE(m.value().binary);
  CHECK(m.value().triangles == 2);
  REQUIRE(m.value().vertices.size() == 6);
  CHECK(m.value().vertices[1] == Vec3(0, 1, 0));
  CHECK(m.value().vertices[5] == Vec3(0, 0, 0.15));
}

TEST_CASE("binary STL: read by its size, even when the header begins with \"solid\"",
          "[urdf][stl]") {
  const std::vector<Triangle> tris = box(Vec3(-1, -2, -3), Vec3(1, 2, 3));
  for (const std::string header : {"binary STL", "solid part exported by a CAD tool"}) {
    const Expected<StlMesh> m = readStl(binaryStl(tris, header));
    INFO(m.message());
    REQUIRE(m.ok());
    CHECK(m.value().binary);
    CHECK(m.value().triangles == 12);
    REQUIRE(m.value().vertices.size() == 36);
    CHECK(m.value().vertices[0] == Vec3(-1, -2, -3));
    CHECK(m.value().vertices[35] == Vec3(1, 2, -3));
  }
  // The robots' files: Leo's wheel outline is 116 triangles.
  const Expected<StlMesh> wheel =
      readStl(testing::dataFile("robots/leo_rover/meshes/Wheel_outline.stl"));
  REQUIRE(wheel.ok());
  CHECK(wheel.value().triangles == 116);
}

TEST_CASE("STL refusals say what is wrong and where", "[urdf][stl]") {
  const std::string good = binaryStl(box(Vec3::Zero(), Vec3::Ones()), "solid cube");
  // Truncated: the count says 12 triangles.
  CHECK(message(good.substr(0, good.size() - 7)) ==
        "truncated: its header counts 12 triangles, 84 + 50·12 = 684 bytes, but the file has "
        "677 bytes");
  // Bytes beyond the triangles counted.
  CHECK(message(good + std::string(10, '\0')) ==
        "the triangle count is inconsistent with the size: its header counts 12 triangles, 84 + "
        "50·12 = 684 bytes, but the file has 694 bytes");
  // A count beyond the limit.
  std::string huge(80, ' ');
  putU32(huge, 2000001);
  CHECK(message(huge) == "its header counts 2000001 triangles, more than the limit of 2000000");
  // Too short for either form.
  CHECK(message("abc").find("the file is 3 bytes: too short for a binary STL") == 0);
  // A non-finite coordinate, binary and ASCII.
  std::string nan = good;
  const float bad = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(&nan[84 + 50 * 3 + 12 + 12 + 4], &bad, 4);
  CHECK(message(nan).find("triangle 3 (counting from 0; byte 258): vertex 1 has a coordinate that "
                          "is not a finite number") == 0);
  std::string text = kAsciiTetra;
  text.replace(text.find("0 1 0"), 5, "0 inf 0");
  CHECK(message(text) == "line 5: vertex coordinate \"inf\" is not a finite number");
  text = kAsciiTetra;
  text.replace(text.find("1.5e-1"), 6, "abc");
  CHECK(message(text) == "line 13: vertex coordinate \"abc\" is not a number");
  // An ASCII facet of two vertices, and a file cut short.
  text = kAsciiTetra;
  text.erase(text.find("      vertex 1 0 0\n"), 19);
  CHECK(message(text) ==
        "line 6: expected \"vertex\" (3 of 3) in the facet of line 2, got \"endloop\"");
  CHECK(message(std::string(kAsciiTetra).substr(0, 200)).find("line ") == 0);
  CHECK(message("solid nothing\n").find("begins with \"solid\" but holds no facet") == 0);
  // Over 64 MiB: refused by its size before anything is read.
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(message(std::string(kMaxStlBytes + 1, 'x')) ==
        "the file is 67108865 bytes; the limit is 67108864 bytes (64 MiB)");
  CHECK(std::chrono::steady_clock::now() - t0 <
        std::chrono::seconds(1));  // refused within a second
}

TEST_CASE("hull vertices: the corners of a box with points inside and on it", "[urdf][stl]") {
  std::vector<Vec3> points;
  for (const Triangle& t : box(Vec3(-1, -2, -3), Vec3(1, 2, 3)))
    points.insert(points.end(), t.begin(), t.end());
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int k = 0; k < 2000; ++k) {
    points.push_back(Vec3(u(rng), 2 * u(rng), 3 * u(rng)));
    points.push_back(Vec3(1, 2 * u(rng), 3 * u(rng)));  // on the faces
    points.push_back(Vec3(u(rng), -2, 3));              // on an edge
  }
  const HullVertices h = hullVertices(points);
  CHECK(h.dimension == 3);
  CHECK(h.cell == 0);
  REQUIRE(h.points.size() == 8);
  CHECK(h.hullSize == 8);
  for (const Vec3& p : h.points) CHECK(p.cwiseAbs() == Vec3(1, 2, 3));
}

TEST_CASE("hull vertices: every point of a sphere, none of a ball's inside", "[urdf][stl]") {
  std::mt19937 rng(2);
  std::normal_distribution<double> n;
  std::vector<Vec3> points;
  for (int k = 0; k < 1500; ++k) points.push_back(Vec3(n(rng), n(rng), n(rng)).normalized());
  for (int k = 0; k < 1500; ++k) points.push_back(0.9 * Vec3(n(rng), n(rng), n(rng)).normalized());
  const HullVertices h = hullVertices(points);
  CHECK(h.points.size() == 1500);
  for (const Vec3& p : h.points) CHECK(p.norm() == Approx(1.0));
  CHECK(isSubset(h.points, points));
  CHECK(supportGap(points, h.points) <= 0);
  // Random points in a cube: the hull's support equals the points'.
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Vec3> cloud;
  for (int k = 0; k < 20000; ++k) cloud.push_back(Vec3(u(rng), u(rng), u(rng)));
  const HullVertices c = hullVertices(cloud);
  CHECK(isSubset(c.points, cloud));
  CHECK(supportGap(cloud, c.points) <= 0);
}

TEST_CASE("hull vertices: flat, straight and single point sets", "[urdf][stl]") {
  std::vector<Vec3> plate;
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(0, 1);
  for (int k = 0; k < 500; ++k) plate.push_back(Vec3(u(rng), u(rng), 2.0));
  for (const Vec3& c : {Vec3(0, 0, 2), Vec3(1, 0, 2), Vec3(1, 1, 2), Vec3(0, 1, 2)})
    plate.push_back(c);
  const HullVertices flat = hullVertices(plate);
  CHECK(flat.dimension == 2);
  CHECK(flat.points.size() == 4);
  const HullVertices line = hullVertices({Vec3(0, 0, 0), Vec3(2, 2, 2), Vec3(1, 1, 1)});
  CHECK(line.dimension == 1);
  CHECK(line.points == std::vector<Vec3>{Vec3(0, 0, 0), Vec3(2, 2, 2)});
  const HullVertices one = hullVertices({Vec3(1, 2, 3), Vec3(1, 2, 3)});
  CHECK(one.dimension == 0);
  CHECK(one.points.size() == 1);
  const HullVertices none = hullVertices({Vec3(NAN, 0, 0)});
  CHECK(none.dimension == -1);
  CHECK(none.points.empty());
}

TEST_CASE("hull vertices: a large hull thinned to the limit, within a cell of the whole",
          "[urdf][stl]") {
  std::mt19937 rng(5);
  std::normal_distribution<double> n;
  std::vector<Vec3> points;
  for (int k = 0; k < 20000; ++k) points.push_back(Vec3(n(rng), n(rng), n(rng)).normalized());
  const HullVertices h = hullVertices(points, 500);
  CHECK(h.hullSize == 20000);
  CHECK(h.points.size() <= 500);
  CHECK(h.points.size() > 100);
  CHECK(h.cell > 0);
  CHECK(isSubset(h.points, points));
  const double gap = supportGap(points, h.points);
  CHECK(gap > 0);
  CHECK(gap <= h.cell * std::sqrt(3.0));
}

TEST_CASE("a 100 000-triangle STL is read and reduced to its hull quickly", "[urdf][stl]") {
  // A sphere mesh: every one of its about 50 000 distinct vertices is on
  // the hull (the slowest case for the hull), thinned to at most 4096.
  const std::string bytes = binaryStl(uvSphere(0.1, 250, 200));
  REQUIRE(bytes.size() == 84 + 50 * 100000);
  const auto t0 = std::chrono::steady_clock::now();
  const Expected<StlMesh> m = readStl(bytes);
  REQUIRE(m.ok());
  const HullVertices h = hullVertices(m.value().vertices);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  CHECK(h.hullSize > 40000);
  CHECK(h.points.size() <= kMaxHullVertices);
  CHECK(isSubset(h.points, m.value().vertices));
  INFO("read and hull: " << ms << " ms");
  CHECK(ms < 1000);  // about 100 ms on the build machine (Release); a loaded machine varies
}
