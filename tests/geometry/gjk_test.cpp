// pointDistance and convexDistance against the brute-force oracle
// (tests/support/oracle.h) on thousands of seeded random polytopes and on the
// inputs that classically break GJK.
#include "geometry/gjk.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "support/oracle.h"
#include "support/random_shapes.h"

using namespace roverlab;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Default agreement with the oracle (m). Coordinates in these tests stay
// below ~10 m, where one ulp is ~2e-15 m; GJK stops when ‖v‖² − v·w ≤ 1e-15‖v‖²,
// i.e. within ~5e-16·‖v‖ of the optimum. 1e-9 m leaves six orders of magnitude
// for rounding while any wrong feature (a wrong face, edge or vertex) is off by
// far more on these shapes.
constexpr double kTol = 1e-9;

// Collects violations so that a sweep of 100k queries reports the first few
// instead of flooding the output.
struct Failures {
  int count = 0;
  std::string first;
  void add(const std::string& what) {
    if (count++ < 8) first += what + "\n";
  }
};

std::string str(const Vec3& v) {
  std::ostringstream o;
  o.precision(17);
  o << "(" << v.x() << ", " << v.y() << ", " << v.z() << ")";
  return o.str();
}

bool finite(const PointDistance& r) {
  return std::isfinite(r.distance) && r.closest.allFinite() && r.normal.allFinite();
}

// Checks one exact query (radius = ∞) against the oracle. `expected` is the
// oracle's signed distance; `tol` the allowed error (m).
void checkQuery(const Polytope& poly, const oracle::BruteHull& brute, const Vec3& p,
                double expected, double tol, Failures& fails, const std::string& tag) {
  const PointDistance r = pointDistance(poly, p, kInf);
  std::ostringstream ctx;
  ctx.precision(17);
  ctx << tag << " p=" << str(p) << " expected " << expected << " got " << r.distance << " feature "
      << static_cast<int>(r.feature) << " face " << r.face << " iters " << r.iterations;
  const std::string c = ctx.str();
  if (!finite(r)) return fails.add("non-finite result: " + c);
  if (!r.converged || r.iterations >= kGjkMaxIterations) fails.add("not converged: " + c);
  if (r.feature == Feature::Far) return fails.add("Far with infinite radius: " + c);
  if (std::abs(r.distance - expected) > tol) fails.add("distance: " + c);
  if (std::abs(r.normal.norm() - 1) > 1e-12) fails.add("normal not unit: " + c);
  // The closest point is on the boundary and at |d| from p.
  if (brute.boundaryDistance(r.closest) > tol)
    fails.add("closest not on boundary " + str(r.closest) + ": " + c);
  if (std::abs((p - r.closest).norm() - std::abs(r.distance)) > tol)
    fails.add("|p - closest| != |d|: " + c);
  if (expected > tol) {
    if (r.feature == Feature::Inside) fails.add("outside point reported Inside: " + c);
    // n = (p − closest)/d; the division amplifies the closest point's error by
    // 1/d, so check it where d is not tiny, and the supporting-plane property
    // (all vertices behind the plane through `closest` with normal n) always.
    if (expected > 1e-6 && (r.normal - (p - r.closest) / r.distance).norm() > tol / expected)
      fails.add("normal != (p - closest)/d: normal " + str(r.normal) + ": " + c);
  }
  if (expected < -tol) {
    if (r.feature != Feature::Inside) fails.add("inside point not reported Inside: " + c);
    if ((r.closest - (p - r.distance * r.normal)).norm() > tol)
      fails.add("closest != p + |d| n: " + c);
  }
  // Outside, inside or touching: the normal is an outward normal of a supporting
  // plane at the closest point (the exit face inside, the contact normal outside).
  // A face normal is exact up to rounding. A normal from GJK is (p − closest)/d,
  // and closest carries a few ulps (~1e-15·|p|) of error, so its direction is
  // only known to ~1e-14·|p|/d rad, which tilts the plane by that angle times
  // the polytope's size.
  const bool faceNormal =
      r.feature == Feature::Face || r.feature == Feature::Inside || r.distance == 0;
  const double angle =
      faceNormal ? 0.0 : std::min(2.0, 1e-14 * (1 + p.norm()) / std::abs(r.distance));
  if (!brute.supportsAt(r.normal, r.closest, tol + angle * 2 * brute.scale))
    fails.add("normal does not support the polytope at closest: normal " + str(r.normal) + ": " +
              c);
  if (r.feature == Feature::Face || r.feature == Feature::Inside) {
    if (r.face < 0 || r.face >= static_cast<int>(poly.faces.size()))
      fails.add("Face/Inside without a face index: " + c);
    else if ((poly.faces[r.face].normal - r.normal).norm() > 1e-9)
      fails.add("normal is not faces[face].normal: " + c);
  }
}

oracle::BruteHull bruteOf(const Polytope& poly) { return oracle::BruteHull(poly.vertices); }

// Queries with a known answer: p = q + t·u with q on a face, an edge or at a
// vertex and u in that feature's normal cone. For a convex body the nearest
// point of such a p is q and the distance is t exactly (projection theorem).
enum class Near { Face, Edge, Vertex };

struct Probe {
  Near kind;
  Vec3 q, u;
  bool wellConditioned;  // u well inside the cone: the feature kind is unambiguous
};

bool pickProbe(shapes::Rng& rng, const oracle::BruteHull& h, Near kind, Probe& out) {
  const auto& P = h.points;
  out.kind = kind;
  if (kind == Near::Face) {
    const size_t t = rng() % h.tris.size();
    const auto& tr = h.tris[t];
    double w[3] = {shapes::uniform(rng, 0.1, 1), shapes::uniform(rng, 0.1, 1),
                   shapes::uniform(rng, 0.1, 1)};
    const double s = w[0] + w[1] + w[2];
    out.q = (w[0] * P[tr[0]] + w[1] * P[tr[1]] + w[2] * P[tr[2]]) / s;
    out.u = h.normal[t];
    out.wellConditioned = true;
    return true;
  }
  if (kind == Near::Edge) {
    const auto& tr = h.tris[rng() % h.tris.size()];
    const int k = static_cast<int>(rng() % 3);
    const int i = tr[k], j = tr[(k + 1) % 3];
    const std::vector<Vec3> ns = h.normalsAt(i, j);
    if (ns.size() != 2) return false;  // a diagonal of a flat face, not an edge
    const double s = shapes::uniform(rng, 0.1, 0.9);
    out.q = (1 - s) * P[i] + s * P[j];
    out.u = shapes::randomConeDirection(rng, ns);
    out.wellConditioned = ns[0].dot(ns[1]) < std::cos(0.05);
    return true;
  }
  const auto& tr = h.tris[rng() % h.tris.size()];
  const int i = tr[rng() % 3];
  const std::vector<Vec3> ns = h.normalsAt(i);
  out.q = P[i];
  out.u = shapes::randomConeDirection(rng, ns);
  bool spread = ns.size() >= 3;
  for (size_t a = 0; a < ns.size(); ++a)
    for (size_t b = a + 1; b < ns.size(); ++b) spread = spread && ns[a].dot(ns[b]) < std::cos(0.05);
  out.wellConditioned = spread;
  return true;
}

Feature featureOf(Near k) {
  return k == Near::Face ? Feature::Face : k == Near::Edge ? Feature::Edge : Feature::Vertex;
}

}  // namespace

TEST_CASE("pointDistance agrees with the brute-force oracle on 5000 random polytopes", "[gjk]") {
  shapes::Rng rng(0x5eed0001);
  Failures fails;
  int queries = 0, gjkQueries = 0, edgeRegionQueries = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const Expected<Polytope> built = makeHull(shapes::randomCloud(rng));
    REQUIRE(built.ok());
    const Polytope& poly = built.value();
    const oracle::BruteHull h = bruteOf(poly);
    REQUIRE(!h.tris.empty());
    const std::string tag = "trial " + std::to_string(trial);

    // Known-answer probes: outside near faces, edges, vertices at distances t
    // from 0 (exactly on the feature) through 1e-9 (nearly touching) to ~scale.
    for (Near kind : {Near::Face, Near::Edge, Near::Vertex}) {
      for (int rep = 0; rep < 3; ++rep) {
        Probe pr;
        if (!pickProbe(rng, h, kind, pr)) continue;
        for (double t : {0.0, 1e-9, shapes::uniform(rng, 1e-6, 1e-3) * poly.scale,
                         shapes::uniform(rng, 0.01, 1.0) * poly.scale}) {
          const Vec3 p = pr.q + t * pr.u;
          ++queries;
          // The oracle and the analytic value agree up to the rounding of p.
          checkQuery(poly, h, p, t, kTol, fails, tag);
          const PointDistance r = pointDistance(poly, p, kInf);
          gjkQueries += r.iterations > 0;
          edgeRegionQueries += r.iterations == 0 && r.feature == Feature::Edge;
          if (t == 0.0) {
            // On the boundary: |d| is rounding only. Coordinates ≤ 10 m carry
            // ≤ 2e-15 m error per operation; 1e-12 m allows ~500 such errors.
            if (std::abs(r.distance) > 1e-12)
              fails.add("on-boundary point not at 0: " + tag + " d=" + std::to_string(r.distance));
          } else if (t == 1e-9) {
            // Nearly touching: the sign must be right and the value accurate
            // to 0.1 % (1e-12 m, the same rounding budget as above).
            if (!(r.distance > 0) || std::abs(r.distance - t) > 1e-12)
              fails.add("nearly touching: " + tag + " d=" + std::to_string(r.distance));
          } else {
            if ((r.closest - pr.q).norm() > kTol)
              fails.add("closest != analytic nearest point: " + tag);
            if (t > 1e-3 * poly.scale && pr.wellConditioned && r.feature != featureOf(pr.kind))
              fails.add("feature " + std::to_string(static_cast<int>(r.feature)) + " expected " +
                        std::to_string(static_cast<int>(featureOf(pr.kind))) + ": " + tag +
                        " p=" + str(p));
          }
        }
      }
    }
    // Inside: the oracle's signed distance (minus the nearest face-plane distance).
    for (int rep = 0; rep < 3; ++rep) {
      const Vec3 p = shapes::randomInterior(rng, poly.vertices);
      ++queries;
      checkQuery(poly, h, p, h.signedDistance(p), kTol, fails, tag + " inside");
    }
    // Random points around the polytope (any feature).
    for (int rep = 0; rep < 4; ++rep) {
      const Vec3 p =
          poly.centroid + shapes::uniform(rng, 0, 1.5) * poly.scale * shapes::unitVector(rng);
      ++queries;
      checkQuery(poly, h, p, h.signedDistance(p), kTol, fails, tag + " around");
    }
    // Far: with a finite radius, a point beyond it is reported Far with a
    // lower bound in (radius, true distance].
    for (int rep = 0; rep < 2; ++rep) {
      const Vec3 p =
          poly.centroid + shapes::uniform(rng, 1, 4) * poly.scale * shapes::unitVector(rng);
      const double exact = h.signedDistance(p);
      const double radius = shapes::uniform(rng, 0.1, 0.9) * exact;
      const PointDistance r = pointDistance(poly, p, radius);
      ++queries;
      if (!std::isfinite(r.distance)) fails.add("far: non-finite " + tag);
      if (r.feature == Feature::Far) {
        if (!(r.distance > radius) || r.distance > exact + kTol)
          fails.add("far lower bound outside (radius, exact]: " + tag);
      } else {
        fails.add("point beyond the radius not reported Far: " + tag);
      }
      // Very far (100× the size) must be Far: the face-plane bound alone rules it out.
      const Vec3 q = poly.centroid + 100 * poly.scale * shapes::unitVector(rng);
      const PointDistance rq = pointDistance(poly, q, 2 * poly.scale);
      if (rq.feature != Feature::Far || !(rq.distance > 2 * poly.scale) ||
          rq.distance > h.signedDistance(q) + kTol)
        fails.add("very far point not Far with a valid lower bound: " + tag);
    }
  }
  INFO(fails.count << " failures in " << queries << " queries (" << gjkQueries
                   << " went through GJK, " << edgeRegionQueries
                   << " answered by an edge's region):\n"
                   << fails.first);
  CHECK(fails.count == 0);
  // The sweep really exercises both the GJK path and an edge's region test,
  // not only the face pass.
  CHECK(gjkQueries > 1000);
  CHECK(edgeRegionQueries > 1000);
}

TEST_CASE("point on the axis of a regular prism: collinear and coplanar simplices", "[gjk]") {
  Failures fails;
  shapes::Rng rng(42);
  for (int n : {3, 4, 5, 6, 8, 12, 32, 64}) {
    const std::vector<Vec3> pts = shapes::regularPrism(n, 1.0, 2.0);
    const Expected<Polytope> built = makeHull(pts);
    REQUIRE(built.ok());
    const Polytope& poly = built.value();
    const oracle::BruteHull h(pts);
    const std::string tag = "prism n=" + std::to_string(n);
    const double inradius = std::cos(M_PI / n);
    // On the axis above, below and inside: distances known in closed form.
    for (double t : {0.0, 1e-9, 1e-3, 0.5, 3.0}) {
      checkQuery(poly, h, Vec3(0, 0, 2 + t), t, kTol, fails, tag + " above");
      checkQuery(poly, h, Vec3(0, 0, -t), t, kTol, fails, tag + " below");
    }
    for (double z : {0.1, 0.5, 1.0, 1.7}) {
      const double expect = -std::min({z, 2 - z, inradius});
      checkQuery(poly, h, Vec3(0, 0, z), expect, kTol, fails, tag + " inside on axis");
    }
    // On the extension of the vertical edges: the top vertex is nearest (+z is
    // in its normal cone), distance t.
    for (int k = 0; k < n; ++k) {
      const Vec3 top = pts[2 * k + 1];
      for (double t : {1e-9, 0.25})
        checkQuery(poly, h, top + Vec3(0, 0, t), t, kTol, fails, tag + " vertical edge extension");
      // On the extension of a top-polygon edge and of random vertex pairs
      // (collinear simplex with the query point): oracle.
      const Vec3 next = pts[(2 * k + 3) % (2 * n)];
      for (double t : {1e-9, 1e-4, 0.3}) {
        const Vec3 p = next + t * (next - top).normalized();
        checkQuery(poly, h, p, h.signedDistance(p), kTol, fails, tag + " top edge extension");
      }
      const Vec3& a = pts[rng() % pts.size()];
      const Vec3& b = pts[rng() % pts.size()];
      if ((a - b).norm() > 0) {
        const Vec3 p = a + shapes::uniform(rng, 1e-6, 0.5) * (a - b).normalized();
        checkQuery(poly, h, p, h.signedDistance(p), kTol, fails, tag + " vertex-pair extension");
      }
    }
    // The same prism turned and shifted: the axis is no longer a coordinate axis.
    const Eigen::Matrix3d rot = shapes::randomRotation(rng);
    const Vec3 shift(0.3, -1.2, 2.5);
    std::vector<Vec3> moved;
    for (const Vec3& p : pts) moved.push_back(rot * p + shift);
    const Expected<Polytope> mb = makeHull(moved);
    REQUIRE(mb.ok());
    const oracle::BruteHull mh(moved);
    for (double t : {0.0, 1e-9, 0.5}) {
      checkQuery(mb.value(), mh, rot * Vec3(0, 0, 2 + t) + shift, t, kTol, fails,
                 tag + " turned above");
      checkQuery(mb.value(), mh, rot * Vec3(0, 0, -t) + shift, t, kTol, fails,
                 tag + " turned below");
    }
  }
  INFO(fails.first);
  CHECK(fails.count == 0);
}

TEST_CASE("flat polytopes: slabs 1e-6 thick", "[gjk]") {
  Failures fails;
  shapes::Rng rng(1234);
  for (int trial = 0; trial < 200; ++trial) {
    const double thick = 1e-6;
    const Eigen::Matrix3d rot =
        trial == 0 ? Eigen::Matrix3d::Identity() : shapes::randomRotation(rng);
    const Vec3 shift =
        trial == 0 ? Vec3::Zero() : shapes::uniformBox(rng, Vec3::Constant(-3), Vec3::Constant(3));
    std::vector<Vec3> pts;
    if (trial % 2 == 0) {
      for (const Vec3& c : shapes::boxCorners(Vec3(-1, -0.5, 0), Vec3(1, 0.5, thick)))
        pts.push_back(rot * c + shift);
    } else {
      // Random flat cloud: a random polygon outline on z = 0 and z = thick.
      for (int k = 0; k < 5; ++k) {
        const Vec3 q(shapes::uniform(rng, -1, 1), shapes::uniform(rng, -1, 1), 0);
        pts.push_back(rot * q + shift);
        pts.push_back(rot * (q + Vec3(0, 0, thick)) + shift);
      }
    }
    const Expected<Polytope> built = makeHull(pts);
    REQUIRE(built.ok());
    const oracle::BruteHull h(pts);
    const std::string tag = "slab " + std::to_string(trial);
    for (int rep = 0; rep < 30; ++rep) {
      // Points near the slab: in plane, a little above or below, or inside it.
      const double z = rep % 3 == 0 ? shapes::uniform(rng, 0, thick)
                                    : shapes::uniform(rng, -2e-6, 2e-6) +
                                          (rep % 3 == 1 ? 0.0 : shapes::uniform(rng, -0.5, 0.5));
      const Vec3 p =
          rot * Vec3(shapes::uniform(rng, -1.5, 1.5), shapes::uniform(rng, -1, 1), z) + shift;
      checkQuery(built.value(), h, p, h.signedDistance(p), kTol, fails, tag);
    }
    // A point exactly mid-slab at its centre: inside, thick/2 from both faces.
    if (trial % 2 == 0)
      checkQuery(built.value(), h, rot * Vec3(0, 0, thick / 2) + shift, -thick / 2, kTol, fails,
                 tag + " mid");
  }
  INFO(fails.first);
  CHECK(fails.count == 0);
}

TEST_CASE("query point exactly at a vertex gives distance 0", "[gjk]") {
  Failures fails;
  shapes::Rng rng(99);
  for (int trial = 0; trial < 500; ++trial) {
    const Expected<Polytope> built = makeHull(shapes::randomCloud(rng));
    REQUIRE(built.ok());
    const Polytope& poly = built.value();
    const oracle::BruteHull h = bruteOf(poly);
    for (const Vec3& v : poly.vertices) {
      const PointDistance r = pointDistance(poly, v, kInf);
      // The query equals a vertex exactly; the face pass evaluates n·v − offset
      // with ~1e-15 m rounding (|v| ≤ 10 m), so 1e-12 m is ~500 ulps.
      if (!finite(r) || std::abs(r.distance) > 1e-12 || (r.closest - v).norm() > 1e-12 ||
          std::abs(r.normal.norm() - 1) > 1e-12 || !h.supportsAt(r.normal, v, 1e-12) ||
          !r.converged)
        fails.add("vertex " + str(v) + " trial " + std::to_string(trial) +
                  " d=" + std::to_string(r.distance));
    }
  }
  INFO(fails.first);
  CHECK(fails.count == 0);
}

TEST_CASE("coordinates around 1e5 m give the same distances", "[gjk]") {
  // Polytope and query moved by T = (1e5, −1e5, 1e5). One ulp at 1.7e5 m is
  // 2.9e-11 m, and translating the input rounds every point by up to half that.
  // The query, the polytope and the oracle each see such rounding, and the
  // face-plane offsets (n·x ≈ 1.7e5) lose a few ulps more: 1e-9 m allows ~35
  // ulps of the coordinates, while any wrong feature is off by ≥ 1e-6 here.
  const Vec3 T(1e5, -1e5, 1e5);
  const double tolBig = 1e-9;
  Failures fails;
  shapes::Rng rng(555);
  for (int trial = 0; trial < 1000; ++trial) {
    const std::vector<Vec3> pts = shapes::randomCloud(rng);
    std::vector<Vec3> far;
    for (const Vec3& p : pts) far.push_back(p + T);
    const Expected<Polytope> near = makeHull(pts), big = makeHull(far);
    REQUIRE(near.ok());
    REQUIRE(big.ok());
    const oracle::BruteHull h(far);
    for (int rep = 0; rep < 8; ++rep) {
      Vec3 p;
      if (rep < 2)
        p = shapes::randomInterior(rng, pts);
      else
        p = near.value().centroid +
            shapes::uniform(rng, 0, 1.5) * near.value().scale * shapes::unitVector(rng);
      const Vec3 pf = p + T;
      const std::string tag = "trial " + std::to_string(trial) + " rep " + std::to_string(rep);
      checkQuery(big.value(), h, pf, h.signedDistance(pf), tolBig, fails, tag);
      const double d0 = pointDistance(near.value(), p, kInf).distance;
      const double d1 = pointDistance(big.value(), pf, kInf).distance;
      if (std::abs(d0 - d1) > tolBig)
        fails.add("translated distance differs: " + tag + " " + std::to_string(d0 - d1));
    }
  }
  INFO(fails.first);
  CHECK(fails.count == 0);
}

TEST_CASE("pointDistance of a point inside gives the exit face", "[gjk]") {
  const Expected<Polytope> built = makeHull(shapes::boxCorners(Vec3(0, 0, 0), Vec3(4, 2, 1)));
  REQUIRE(built.ok());
  const Polytope& box = built.value();
  // Nearest face is z = 1 (0.2 away) before x = 4 (0.3) and y = 0 (0.5).
  const PointDistance r = pointDistance(box, Vec3(3.7, 0.5, 0.8), kInf);
  CHECK(r.feature == Feature::Inside);
  CHECK(r.distance == Approx(-0.2).margin(1e-15));
  CHECK((r.normal - Vec3(0, 0, 1)).norm() < 1e-15);
  CHECK((r.closest - Vec3(3.7, 0.5, 1.0)).norm() < 1e-15);
  REQUIRE(r.face >= 0);
  CHECK((box.faces[r.face].normal - Vec3(0, 0, 1)).norm() < 1e-15);
  // Beyond a corner: the corner is nearest, distance √(0.1² + 0.2² + 0.3²).
  const PointDistance c = pointDistance(box, Vec3(4.1, -0.2, 1.3), kInf);
  CHECK(c.feature == Feature::Vertex);
  CHECK(c.distance == Approx(std::sqrt(0.14)).epsilon(1e-14));
  CHECK((c.closest - Vec3(4, 0, 1)).norm() < 1e-14);
  // The face-plane lower bound of that corner point is 0.3 < 0.35 < √0.14 ≈ 0.374;
  // with radius 0.35 the point is beyond reach: Far, or else the exact value.
  const PointDistance f = pointDistance(box, Vec3(4.1, -0.2, 1.3), 0.35);
  if (f.feature == Feature::Far)
    CHECK((f.distance > 0.35 && f.distance <= std::sqrt(0.14) + 1e-15));
  else
    CHECK(f.distance == Approx(std::sqrt(0.14)).epsilon(1e-14));
}

TEST_CASE("convexDistance agrees with the brute-force oracle", "[gjk]") {
  shapes::Rng rng(0xc0ffee);
  Failures fails;
  for (int trial = 0; trial < 1500; ++trial) {
    const std::vector<Vec3> pa = shapes::randomCloud(rng);
    std::vector<Vec3> pb = shapes::randomCloud(rng);
    const Expected<Polytope> a = makeHull(pa);
    REQUIRE(a.ok());
    const std::string tag = "trial " + std::to_string(trial);
    if (trial % 3 != 2) {
      // Separated: shift B along u until the slabs of A and B along u are
      // `gap` apart (so they are disjoint), then compare with the oracle.
      const Vec3 u = shapes::unitVector(rng);
      double maxA = -kInf, minB = kInf;
      for (const Vec3& p : pa) maxA = std::max(maxA, u.dot(p));
      for (const Vec3& p : pb) minB = std::min(minB, u.dot(p));
      const double gap = trial % 3 == 0 ? shapes::uniform(rng, 1e-3, 2.0) : 1e-9;
      for (Vec3& p : pb) p += (maxA - minB + gap) * u;
      const Expected<Polytope> b = makeHull(pb);
      REQUIRE(b.ok());
      const double expect = oracle::separatedDistance(oracle::BruteHull(pa), oracle::BruteHull(pb));
      const ConvexDistance r = convexDistance(a.value(), b.value());
      std::ostringstream c;
      c.precision(17);
      c << tag << " expected " << expect << " got " << r.distance;
      // The same rounding budget as pointDistance (coordinates ≤ ~20 m here).
      if (!std::isfinite(r.distance) || std::abs(r.distance - expect) > kTol)
        fails.add("distance: " + c.str());
      if (r.intersecting) fails.add("separated reported intersecting: " + c.str());
      if (!r.converged || r.iterations >= kGjkMaxIterations) fails.add("not converged: " + c.str());
      if (std::abs((r.pointA - r.pointB).norm() - r.distance) > kTol)
        fails.add("|A - B| != distance: " + c.str());
      if (!contains(a.value(), r.pointA, kTol) || !contains(b.value(), r.pointB, kTol))
        fails.add("witness points not on the polytopes: " + c.str());
    } else {
      // Overlapping: B's vertex mean placed at an interior point of A.
      Vec3 mean = Vec3::Zero();
      for (const Vec3& p : pb) mean += p;
      mean /= static_cast<double>(pb.size());
      const Vec3 target = shapes::randomInterior(rng, pa);
      for (Vec3& p : pb) p += target - mean;
      const Expected<Polytope> b = makeHull(pb);
      REQUIRE(b.ok());
      const ConvexDistance r = convexDistance(a.value(), b.value());
      if (!r.intersecting || r.distance != 0.0 || !r.converged)
        fails.add("overlap not detected: " + tag);
    }
  }
  INFO(fails.first);
  CHECK(fails.count == 0);
}

TEST_CASE("convexDistance of touching and nearly touching boxes", "[gjk]") {
  const Polytope a = makeHull(shapes::boxCorners(Vec3(0, 0, 0), Vec3(1, 1, 1))).value();
  // Face to face contact: distance 0, intersecting (touching counts).
  const Polytope b = makeHull(shapes::boxCorners(Vec3(1, 0.2, 0.3), Vec3(2, 0.8, 0.9))).value();
  const ConvexDistance touch = convexDistance(a, b);
  CHECK(touch.distance == Approx(0).margin(1e-12));
  CHECK(touch.intersecting);
  // 1e-9 apart: distance 1e-9 to 1e-12 (rounding of unit-sized coordinates is 1e-16).
  const Polytope c =
      makeHull(shapes::boxCorners(Vec3(1 + 1e-9, 0.2, 0.3), Vec3(2, 0.8, 0.9))).value();
  const ConvexDistance near = convexDistance(a, c);
  CHECK(near.distance == Approx(1e-9).margin(1e-12));
  CHECK_FALSE(near.intersecting);
  // Edge to edge across a diagonal gap: boxes meeting corner-to-corner 0.1 apart
  // along (1, 1, 0)/√2 in the xy plane: distance 0.1.
  const double s = 0.1 / std::sqrt(2.0);
  const Polytope d =
      makeHull(shapes::boxCorners(Vec3(1 + s, 1 + s, 0.25), Vec3(2, 2, 0.75))).value();
  const ConvexDistance edge = convexDistance(a, d);
  CHECK(edge.distance == Approx(0.1).epsilon(1e-12));
  CHECK((edge.pointA - Vec3(1, 1, edge.pointA.z())).norm() < 1e-12);
  // The same polytope against itself overlaps.
  CHECK(convexDistance(a, a).intersecting);
}
