// Body–terrain contact (contact/body_contact.h): separating-axis test and
// clipped manifold of a box against convex pieces, checked on exact cases and
// against GJK (geometry/gjk.h) as an oracle; the force law; flush seams.
#include "contact/body_contact.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "geometry/gjk.h"
#include "support/random_shapes.h"
#include "terrain/builders.h"

using namespace roverlab;

namespace {

constexpr double kPi = 3.14159265358979323846;

Polytope boxFromTo(const Vec3& lo, const Vec3& hi) {
  return makeBox(0.5 * (lo + hi), hi - lo, 0).value();
}

Terrain terrainOf(const std::vector<Polytope>& pieces, const Material& m = Material{}) {
  TerrainBuilder tb;
  tb.addMaterial(m);
  for (const Polytope& p : pieces) tb.addPiece(p, 0);
  Expected<Terrain> built = std::move(tb).build();
  REQUIRE(built.ok());
  return std::move(built).value();
}

OrientedBox orientedBox(const Vec3& centre, const Vec3& size,
                        const Eigen::Matrix3d& axes = Eigen::Matrix3d::Identity()) {
  OrientedBox b;
  b.centre = centre;
  b.axes = axes;
  b.half = 0.5 * size;
  return b;
}

std::vector<Vec3> corners(const OrientedBox& b) {
  std::vector<Vec3> out;
  for (int i = 0; i < 8; ++i)
    out.push_back(b.centre + b.axes * Vec3((i & 1 ? 1 : -1) * b.half.x(),
                                           (i & 2 ? 1 : -1) * b.half.y(),
                                           (i & 4 ? 1 : -1) * b.half.z()));
  return out;
}

Polytope hullOf(const OrientedBox& b) { return makeHull(corners(b)).value(); }

bool manifold(const OrientedBox& box, const Polytope& poly, BodyContactScratch& scratch,
              BoxManifold& m) {
  PieceFeatures features;
  pieceFeatures(poly, features);
  return boxPolytopeManifold(box, poly, features, scratch, m);
}

// Contacts of a box (identity rotation) on a terrain, with a fresh cache.
std::vector<BodyContact> contactsOf(const Terrain& t, const ContactBox& box,
                                    const BodyMotion& motion, BodyContactScratch& scratch) {
  const OrientedBox placed = worldBox(box, motion.origin, Eigen::Matrix3d::Identity());
  NearPieces near;
  nearPieces(t, box, motion.origin, Eigen::Matrix3d::Identity(), near);
  candidatePieces(t, placed, near, scratch.candidates);
  std::vector<BodyContact> out;
  boxContacts(t, box, placed, scratch.candidates, motion, scratch, out);
  return out;
}

Eigen::Matrix3d rotationY(double a) {
  return Eigen::AngleAxisd(a, Vec3::UnitY()).toRotationMatrix();
}

// The ground: a 10 × 10 m slab with its top at z = 0.
const Polytope kGround = boxFromTo(Vec3(-5, -5, -1), Vec3(5, 5, 0));

}  // namespace

TEST_CASE("a box resting flat on the ground has its four bottom corners as contacts",
          "[contact][body]") {
  BodyContactScratch scratch;
  BoxManifold m;
  const double d = 0.003;
  const OrientedBox box = orientedBox(Vec3(0.2, -0.1, 0.1 - d), Vec3(0.5, 0.4, 0.2));
  REQUIRE(manifold(box, kGround, scratch, m));
  CHECK(m.axis == ContactAxis::PieceFace);
  CHECK(m.normal.isApprox(Vec3::UnitZ(), 1e-12));
  CHECK(m.depth == Approx(d).margin(1e-12));
  REQUIRE(m.count == 4);
  for (int k = 0; k < m.count; ++k) {
    CHECK(m.depths[k] == Approx(d).margin(1e-12));
    CHECK(m.points[k].z() == Approx(-d / 2).margin(1e-12));  // midway between the two surfaces
    CHECK(std::abs(std::abs(m.points[k].x() - 0.2) - 0.25) < 1e-12);
    CHECK(std::abs(std::abs(m.points[k].y() + 0.1) - 0.2) < 1e-12);
  }
  // 1 mm above the ground: no contact.
  REQUIRE_FALSE(manifold(orientedBox(Vec3(0, 0, 0.101), Vec3(0.5, 0.4, 0.2)), kGround, scratch, m));
}

TEST_CASE("a step edge pressed into the middle of a box face is a contact no corner sees",
          "[contact][body]") {
  // The step's top edge runs along y at x = 1, z = 0.65. A box pitched 45°
  // nose-up leans its bottom face on that edge, 4 mm into it, across the
  // middle of the face; every corner stays outside the step.
  const Polytope step = boxFromTo(Vec3(1, -3, -1), Vec3(7, 3, 0.65));
  const double pitch = kPi / 4, d = 0.004;
  const Eigen::Matrix3d axes = rotationY(-pitch);  // nose up: x axis rotated towards +z
  const Vec3 up = axes.col(2), edge(1, 0, 0.65);
  const Vec3 size(0.6, 0.4, 0.15);
  const OrientedBox box = orientedBox(edge + (0.5 * size.z() - d) * up, size, axes);
  for (const Vec3& c : corners(box)) CHECK_FALSE(contains(step, c));
  BodyContactScratch scratch;
  BoxManifold m;
  REQUIRE(manifold(box, step, scratch, m));
  CHECK(m.axis == ContactAxis::BoxFace);
  CHECK(m.normal.isApprox(up, 1e-9));  // pushes the box off the edge, along its own up axis
  CHECK(m.depth == Approx(d).margin(1e-9));
  // The step's top face clipped to the box face: two points on the edge line,
  // where it enters and leaves the box (y = ±0.2), and two outside the box.
  REQUIRE(m.count == 4);
  int below = 0;
  for (int k = 0; k < m.count; ++k) {
    if (m.depths[k] <= 0) continue;
    ++below;
    CHECK(m.depths[k] == Approx(d).margin(1e-9));
    const Vec3 onEdge = m.points[k] + 0.5 * d * up;  // the point is midway into the box
    CHECK(onEdge.x() == Approx(1.0).margin(1e-9));
    CHECK(onEdge.z() == Approx(0.65).margin(1e-9));
    CHECK(std::abs(onEdge.y()) == Approx(0.2).margin(1e-9));
  }
  CHECK(below == 2);
}

TEST_CASE("a box polytope has three edge directions and its size along each face normal",
          "[contact][body]") {
  PieceFeatures features;
  pieceFeatures(makeBox(Vec3::Zero(), Vec3(1, 2, 3), 0.4).value(), features);
  const std::vector<EdgeDirection>& directions = features.directions;
  REQUIRE(directions.size() == 3);
  REQUIRE(features.faceLow.size() == 6);
  // Centred at the origin: the lowest projection on each face normal is minus
  // the half size across that face (0.5, 1 or 1.5 m).
  std::vector<double> lows;
  for (const double low : features.faceLow) lows.push_back(std::round(-low * 1e9) / 1e9);
  std::sort(lows.begin(), lows.end());
  CHECK(lows == std::vector<double>{0.5, 0.5, 1.0, 1.0, 1.5, 1.5});
  for (size_t a = 0; a < 3; ++a)
    for (size_t b = a + 1; b < 3; ++b)
      CHECK(std::abs(directions[a].direction.dot(directions[b].direction)) < 1e-12);
}

TEST_CASE("a parallelepiped piece is known by its centre and half edges, and only it",
          "[contact][body]") {
  // Its extent along an axis, centre·l ± Σ|halfEdges·l|, is its vertices' to
  // their rounding (1e-12 of its size): a box turned about all three axes and
  // a sheared box, along random unit axes.
  const Eigen::Matrix3d turned =
      (Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(0.7, Vec3::UnitX()) *
       Eigen::AngleAxisd(-0.2, Vec3::UnitY()))
          .toRotationMatrix();
  const Vec3 c(1.5, -2, 0.4), g0(0.6, 0, 0), g1(0.3, 0.5, 0), g2(-0.1, 0.2, 0.35);
  std::vector<Vec3> sheared;
  for (int k = 0; k < 8; ++k)
    sheared.push_back(c + (k & 1 ? 1 : -1) * g0 + (k & 2 ? 1 : -1) * g1 + (k & 4 ? 1 : -1) * g2);
  const Polytope pieces[2] = {hullOf(orientedBox(c, Vec3(1.2, 0.4, 2.0), turned)),
                              makeHull(sheared).value()};
  shapes::Rng rng(11);
  for (const Polytope& poly : pieces) {
    PieceFeatures features;
    pieceFeatures(poly, features);
    REQUIRE(features.parallelepiped);
    for (int n = 0; n < 200; ++n) {
      const Vec3 l = shapes::unitVector(rng);
      double lo = INFINITY, hi = -INFINITY;
      for (const Vec3& v : poly.vertices) lo = std::min(lo, v.dot(l)), hi = std::max(hi, v.dot(l));
      double reach = 0;
      for (const Vec3& g : features.halfEdges) reach += std::abs(g.dot(l));
      CHECK(std::abs(features.centre.dot(l) + reach - hi) <= 1e-12 * poly.scale);
      CHECK(std::abs(features.centre.dot(l) - reach - lo) <= 1e-12 * poly.scale);
    }
  }
  // Not parallelepipeds: a wedge (6 vertices) and a frustum (8 vertices, the
  // top face smaller than the bottom).
  PieceFeatures features;
  pieceFeatures(makeHull({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, 0, 1),
                          Vec3(0, 1, 1)})
                    .value(),
                features);
  CHECK_FALSE(features.parallelepiped);
  pieceFeatures(
      makeHull({Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(2, 2, 0), Vec3(0, 2, 0), Vec3(0.5, 0.5, 1),
                Vec3(1.5, 0.5, 1), Vec3(1.5, 1.5, 1), Vec3(0.5, 1.5, 1)})
          .value(),
      features);
  CHECK_FALSE(features.parallelepiped);
}

TEST_CASE("two crossing edges give one contact between them", "[contact][body]") {
  // A box turned 45° about x and then 30° about z hangs its lowest edge
  // across the step's top edge (along y at x = 1, z = 0.65).
  const Polytope step = boxFromTo(Vec3(1, -3, -1), Vec3(7, 3, 0.65));
  const Eigen::Matrix3d axes =
      (Eigen::AngleAxisd(kPi / 6, Vec3::UnitZ()) * Eigen::AngleAxisd(kPi / 4, Vec3::UnitX()) *
       Eigen::AngleAxisd(kPi / 4, Vec3::UnitY()))
          .toRotationMatrix();
  const Vec3 size(0.4, 0.4, 0.4);
  // The lowest edge of the box: put its midpoint 3 mm below the step edge at x = 1.
  OrientedBox box = orientedBox(Vec3::Zero(), size, axes);
  std::vector<Vec3> cs = corners(box);
  std::sort(cs.begin(), cs.end(), [](const Vec3& a, const Vec3& b) { return a.z() < b.z(); });
  const Vec3 low = 0.5 * (cs[0] + cs[1]);
  box.centre = Vec3(1, 0, 0.65 - 0.003) - low;
  BodyContactScratch scratch;
  BoxManifold m;
  REQUIRE(manifold(box, step, scratch, m));
  CHECK(m.count == 1);
  CHECK(m.axis == ContactAxis::Edges);
  // Moving the box out by the depth along the normal separates it (GJK).
  OrientedBox moved = box;
  moved.centre += (m.depth + 1e-9) * m.normal;
  CHECK_FALSE(convexDistance(hullOf(moved), step).intersecting);
  CHECK(m.depth < 0.003 + 1e-9);
  CHECK(m.points[0].x() == Approx(1.0).margin(0.003));
  CHECK(m.points[0].z() == Approx(0.65).margin(0.003));
}

TEST_CASE("separating axes agree with GJK on random boxes and polytopes", "[contact][body]") {
  // Oracle: GJK says whether the two overlap. When they do, moving the box by
  // the reported depth along the normal separates them, and the depth is at
  // most 5 % (the edge bias) above the least translation that does: moving by
  // 0.95 of it in that direction still overlaps. (A box face lying within a
  // crease of a terrain face takes the terrain face's normal, kCreaseSine
  // off the least translation's: those only separate.)
  shapes::Rng rng(20261201);
  BodyContactScratch scratch;
  int overlapping = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Polytope poly = makeHull(shapes::randomCloud(rng)).value();
    const Vec3 size = shapes::uniformBox(rng, Vec3::Constant(0.05), Vec3::Constant(2.0));
    const Vec3 centre =
        poly.centroid + shapes::uniformBox(rng, Vec3::Constant(-3), Vec3::Constant(3));
    const OrientedBox box = orientedBox(centre, size, shapes::randomRotation(rng));
    const ConvexDistance g = convexDistance(hullOf(box), poly);
    BoxManifold m;
    const bool hit = manifold(box, poly, scratch, m);
    INFO("trial " << trial << ", GJK distance " << g.distance);
    // Shapes within 1e-9 m of touching may go either way.
    if (g.distance > 1e-9) CHECK_FALSE(hit);
    if (!hit) continue;
    if (m.depth < 1e-9) continue;
    ++overlapping;
    CHECK(g.intersecting);
    CHECK(m.normal.norm() == Approx(1.0));
    REQUIRE(m.count >= 1);
    REQUIRE(m.count <= kMaxManifoldPoints);
    double deepest = -1;
    for (int k = 0; k < m.count; ++k) deepest = std::max(deepest, m.depths[k]);
    CHECK(deepest == m.depth);
    OrientedBox out = box;
    out.centre += (m.depth * (1 + 1e-9) + 1e-9) * m.normal;
    CHECK_FALSE(convexDistance(hullOf(out), poly).intersecting);
    bool faceOnFace = false;
    for (int i = 0; i < 3; ++i)
      faceOnFace = faceOnFace || box.axes.col(i).cross(m.normal).norm() <= kCreaseSine;
    if (faceOnFace) continue;
    OrientedBox in = box;
    in.centre += 0.95 * m.depth / 1.05 * m.normal;
    CHECK(convexDistance(hullOf(in), poly).intersecting);
  }
  CHECK(overlapping > 200);  // the sample does exercise overlaps (292 of 3000)
}

TEST_CASE("body contact force: penalty spring-damper and friction never above mu times N",
          "[contact][body]") {
  Material grip;
  grip.phiMax = 0.6;
  const Terrain ground = terrainOf({kGround}, grip);
  BodyContactSettings settings;
  const double mass = 80.0, dt = 4e-4;
  const ContactBox box = makeContactBox(0, Vec3::Zero(), Vec3(1.4, 0.4, 0.2), mass, settings, dt);
  CHECK(box.stiffness == Approx(mass * 200.0 * 200.0));
  CHECK(box.damping == Approx(2 * mass * 200.0));
  BodyContactScratch scratch;
  std::vector<BodyContact> out;
  const double d = 0.002;
  BodyMotion motion;
  motion.origin = Vec3(0, 0, 0.1 - d);

  // At rest: F_n = k d whatever the number of points, at the face's centre.
  out = contactsOf(ground, box, motion, scratch);
  REQUIRE(out.size() == 1);
  CHECK(out[0].points == 4);
  CHECK(out[0].normalForce.isApprox(Vec3(0, 0, box.stiffness * d), 1e-12));
  CHECK(out[0].tangentialForce.norm() == 0);
  CHECK(out[0].point.head<2>().norm() < 1e-12);
  CHECK(out[0].moment.isApprox(out[0].point.cross(out[0].normalForce), 1e-9));

  // Sinking at 1 cm/s adds c·v; rising faster than k d / c holds nothing.
  motion.velocity = Vec3(0, 0, -0.01);
  out = contactsOf(ground, box, motion, scratch);
  REQUIRE(out.size() == 1);
  CHECK(out[0].normalForce.z() == Approx(box.stiffness * d + box.damping * 0.01));
  motion.velocity = Vec3(0, 0, 1.01 * box.stiffness * d / box.damping);
  out = contactsOf(ground, box, motion, scratch);
  CHECK(out.empty());

  // Sliding: below μ F_n / c the friction is viscous, above it is μ F_n, opposite the slip.
  for (const double spin : {0.0, 0.5}) {
    for (const double speed : {1e-4, 1e-3, 0.01, 0.1, 1.0, 10.0}) {
      motion.velocity = Vec3(speed * std::cos(0.3), speed * std::sin(0.3), 0);
      motion.omega = Vec3(0, 0, spin);  // spinning: each point slides its own way
      out = contactsOf(ground, box, motion, scratch);
      REQUIRE(out.size() == 1);
      const double n = out[0].normalForce.norm(), t = out[0].tangentialForce.norm();
      INFO("speed " << speed << " m/s, spin " << spin << " rad/s: |F_t| = " << t
                    << " N, μ|F_n| = " << grip.phiMax * n << " N");
      CHECK(t <= grip.phiMax * n * (1 + 1e-12));
      CHECK(out[0].tangentialForce.dot(motion.velocity) < 0);
      // Without spin every point slides alike: viscous (c·v) below μ k d / c = 0.12 m/s, at
      // the Coulomb limit above.
      if (spin == 0 && speed <= 0.1) CHECK(t == Approx(box.damping * speed).epsilon(1e-9));
      if (spin == 0 && speed >= 1.0) CHECK(t == Approx(grip.phiMax * n).epsilon(1e-9));
    }
  }
}

TEST_CASE("the contact frequency drops for a coarse step", "[contact][body]") {
  BodyContactSettings settings;
  // dt = 1 ms: the damping bound 2ζω·6·dt ≤ 1 caps ω at 1 / (12 ms) = 83 rad/s.
  const ContactBox box = makeContactBox(0, Vec3::Zero(), Vec3::Ones(), 10.0, settings, 1e-3);
  const double omega = std::sqrt(box.stiffness / 10.0);
  CHECK(omega == Approx(1.0 / 12e-3));
  CHECK(box.damping * 1e-3 / (10.0 / 6) == Approx(1.0));
}

TEST_CASE("a box sliding over a flush seam gets no push from the neighbour's side face",
          "[contact][body]") {
  // Two slabs meet at x = 0 with their tops flush at z = 0. A box resting
  // 2 mm deep and sliding across the seam must feel only upward forces. While
  // its front is less than the depth past the seam, the least overlap with the
  // second slab is through that slab's side face (flush with the first): the
  // contact is the first slab's. Beyond, each slab's manifold is the part of
  // the box over it; the union joins them into the whole face: k·d throughout.
  const Terrain ground = terrainOf(
      {boxFromTo(Vec3(-5, -2, -1), Vec3(0, 2, 0)), boxFromTo(Vec3(0, -2, -1), Vec3(5, 2, 0))});
  const ContactBox box =
      makeContactBox(0, Vec3::Zero(), Vec3(0.5, 0.4, 0.2), 20.0, BodyContactSettings{}, 4e-4);
  BodyContactScratch scratch;
  std::vector<BodyContact> out;
  for (const double front : {-0.01, 0.0005, 0.001, 0.0019, 0.01, 0.3, 0.5, 0.6}) {
    BodyMotion motion;
    motion.origin = Vec3(front - 0.25, 0, 0.1 - 0.002);
    out = contactsOf(ground, box, motion, scratch);
    Vec3 total = Vec3::Zero();
    for (const BodyContact& c : out) total += c.normalForce + c.tangentialForce;
    INFO("box front at x = " << front << " m");
    CHECK(std::abs(total.x()) < 1e-9 * total.z());
    CHECK(total.z() == Approx(box.stiffness * 0.002).epsilon(1e-9));
    REQUIRE(out.size() == 1);
    CHECK(out[0].points == 4);
  }
}

TEST_CASE("the cached broadphase of a moving box finds the pieces a fresh query finds",
          "[contact][body]") {
  // A field of 20 × 20 small blocks; a box tumbles across it. At every step
  // the candidates from the kept query equal those of a query made afresh.
  std::vector<Polytope> blocks;
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 20; ++j)
      blocks.push_back(
          makeBox(Vec3(0.6 * i, 0.6 * j, 0.1 * ((i + j) % 3)), Vec3(0.4, 0.4, 0.3), 0.3 * i)
              .value());
  const Terrain field = terrainOf(blocks);
  const ContactBox box =
      makeContactBox(0, Vec3(0.1, 0, 0), Vec3(0.6, 0.3, 0.2), 10.0, BodyContactSettings{}, 4e-4);
  NearPieces kept;
  std::vector<int> cached, fresh;
  int refreshed = 0, seen = 0;
  Vec3 anchor = Vec3::Constant(1e9);
  for (int k = 0; k <= 2000; ++k) {
    const double t = k * 0.005;
    const Vec3 origin(0.9 * t, 0.4 * t + 0.3 * std::sin(t), 0.25 + 0.2 * std::sin(3 * t));
    const Eigen::Matrix3d r =
        (Eigen::AngleAxisd(2 * t, Vec3::UnitZ()) * Eigen::AngleAxisd(1.3 * t, Vec3::UnitX()))
            .toRotationMatrix();
    const OrientedBox placed = worldBox(box, origin, r);
    nearPieces(field, box, origin, r, kept);
    candidatePieces(field, placed, kept, cached);
    NearPieces once;
    nearPieces(field, box, origin, r, once);
    candidatePieces(field, placed, once, fresh);
    INFO("t = " << t << " s");
    REQUIRE(cached == fresh);
    refreshed += kept.anchor != anchor;
    anchor = kept.anchor;
    seen += !fresh.empty();
  }
  CHECK(refreshed < 2000 / 4);  // the query is kept for several steps (box speed ~5 mm per step)
  CHECK(seen > 500);            // and the path does cross the blocks
}
