// Fuzz of makeHull + pointDistance with hostile point sets: the result is either
// an error with a message, or a polytope on which every query is finite.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <sstream>

#include "geometry/gjk.h"
#include "support/random_shapes.h"

using namespace roverlab;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// One hostile point set. `kind` picks the recipe; each mixes ordinary points
// with a pathology.
std::vector<Vec3> hostileCloud(shapes::Rng& rng, int kind) {
  const int n = std::uniform_int_distribution<int>(1, 14)(rng);
  std::vector<Vec3> pts;
  const double mag[] = {1e-300, 1e-200, 1e-20, 1e-9, 1e-6, 1, 1e6, 1e9, 1e12, 1e200, 1e300};
  const double s = mag[rng() % 11];
  for (int i = 0; i < n; ++i)
    pts.push_back(s * shapes::uniformBox(rng, Vec3::Constant(-1), Vec3::Constant(1)));
  switch (kind) {
    case 0:  // duplicates of a few points
      for (int i = 0; i < 6 && !pts.empty(); ++i) pts.push_back(pts[rng() % pts.size()]);
      break;
    case 1: {  // near-coplanar: flatten to a plane within a tiny relative thickness
      const Vec3 nrm = shapes::unitVector(rng);
      const double thick = s * std::pow(10.0, -shapes::uniform(rng, 6, 17));
      for (Vec3& p : pts) p -= (nrm.dot(p) + shapes::uniform(rng, 0, thick)) * nrm;
      break;
    }
    case 2: {  // near-collinear
      const Vec3 dir = shapes::unitVector(rng);
      for (Vec3& p : pts) p = dir.dot(p) * dir + s * 1e-13 * shapes::unitVector(rng);
      break;
    }
    case 3:  // a NaN coordinate somewhere
      if (!pts.empty()) pts[rng() % pts.size()][static_cast<int>(rng() % 3)] = kNaN;
      break;
    case 4:  // an infinite coordinate somewhere
      if (!pts.empty())
        pts[rng() % pts.size()][static_cast<int>(rng() % 3)] = (rng() % 2 ? 1 : -1) * kInf;
      break;
    case 5:  // mixed magnitudes: unit cloud plus one enormous or tiny offset point
      pts.push_back(Vec3::Constant(mag[rng() % 11]));
      break;
    case 6:  // a tiny cloud (1e-12 m) next to a normal one
      for (int i = 0; i < 4; ++i) pts.push_back(Vec3(1, 1, 1) + 1e-12 * shapes::unitVector(rng));
      break;
    default:  // near-duplicate points at ulp distance
      for (int i = 0; i < 4 && !pts.empty(); ++i) {
        Vec3 p = pts[rng() % pts.size()];
        p.x() = std::nextafter(p.x(), kInf);
        pts.push_back(p);
      }
      break;
  }
  return pts;
}

}  // namespace

TEST_CASE("makeHull and pointDistance survive hostile input", "[polytope][gjk]") {
  shapes::Rng rng(0xbadf00d);
  int accepted = 0, rejected = 0, bad = 0;
  std::string first;
  auto fail = [&](const std::string& what) {
    if (bad++ < 8) first += what + "\n";
  };
  for (int trial = 0; trial < 6000; ++trial) {
    const int kind = trial % 8;
    const std::vector<Vec3> pts = hostileCloud(rng, kind);
    const Expected<Polytope> r = makeHull(pts);
    const std::string tag = "trial " + std::to_string(trial) + " kind " + std::to_string(kind);
    if (!r.ok()) {
      ++rejected;
      if (r.issues().empty() || r.message().empty()) fail("rejected without a message: " + tag);
      for (const Issue& i : r.issues())
        if (i.path.rfind("points", 0) != 0 || i.message.empty())
          fail("issue path/message: '" + i.path + "' " + tag);
      continue;
    }
    ++accepted;
    const Polytope& poly = r.value();
    bool sane = poly.vertices.size() >= 4 && poly.faces.size() >= 4 && std::isfinite(poly.scale) &&
                poly.scale > 0;
    for (const Vec3& v : poly.vertices) sane = sane && v.allFinite();
    for (const Plane& f : poly.faces)
      sane = sane && f.normal.allFinite() && std::isfinite(f.offset) &&
             std::abs(f.normal.norm() - 1) < 1e-9;
    if (!sane) {
      fail("accepted polytope is not sane: " + tag);
      continue;
    }
    // Queries: vertices, centroid, points around at the shape's scale, points
    // far away (up to 1e15 m) with an infinite radius, and enormous points with
    // a wheel-sized radius.
    std::vector<std::pair<Vec3, double>> queries;
    for (const Vec3& v : poly.vertices) queries.emplace_back(v, kInf);
    queries.emplace_back(poly.centroid, kInf);
    for (int k = 0; k < 10; ++k)
      queries.emplace_back(
          poly.centroid + shapes::uniform(rng, 0, 2) * poly.scale * shapes::unitVector(rng), kInf);
    queries.emplace_back(1e15 * shapes::unitVector(rng), kInf);
    queries.emplace_back(1e100 * shapes::unitVector(rng), 0.19);
    for (const auto& [p, radius] : queries) {
      const PointDistance d = pointDistance(poly, p, radius);
      const bool far = d.feature == Feature::Far;
      if (std::isnan(d.distance) || (!far && (!std::isfinite(d.distance) ||
                                              !d.closest.allFinite() || !d.normal.allFinite()))) {
        std::ostringstream o;
        o << "non-finite query result at (" << p.transpose() << "): " << tag << " d=" << d.distance;
        fail(o.str());
      }
      if (!far && std::isfinite(d.distance) && std::abs(d.normal.norm() - 1) > 1e-9)
        fail("normal not unit: " + tag);
      if (radius < kInf && !far && d.distance > radius) fail("beyond radius but not Far: " + tag);
    }
  }
  INFO(bad << " failures; " << accepted << " accepted, " << rejected << " rejected\n" << first);
  CHECK(bad == 0);
  // The fuzz must reach both outcomes, or it tests nothing.
  CHECK(accepted > 500);
  CHECK(rejected > 500);
}
