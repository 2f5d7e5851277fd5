// Wheel-terrain contacts ([GKS2025] §2, eq. 1): one contact per piece within
// reach, tread band of the truncated sphere, and no ghost contacts at flush
// seams between abutting pieces.
#include "contact/wheel_contact.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "geometry/gjk.h"
#include "support/oracle.h"
#include "terrain/builders.h"

using namespace roverlab;

namespace {

const WheelShape kWheel{0.19, 0.12};
const Vec3 kAxleY(0, 1, 0);

Polytope boxFromTo(const Vec3& lo, const Vec3& hi) {
  return makeBox(0.5 * (lo + hi), hi - lo, 0).value();
}

Terrain terrainOf(const std::vector<Polytope>& pieces) {
  TerrainBuilder tb;
  for (const Polytope& p : pieces) tb.addPiece(p);
  return std::move(tb).build().value();
}

std::vector<WheelContact> contactsAt(const Terrain& t, const Vec3& centre,
                                     const Vec3& axle = kAxleY, const WheelShape& w = kWheel) {
  std::vector<WheelContact> out;
  const int n = wheelContacts(t, w, centre, axle, out);
  REQUIRE(n == static_cast<int>(out.size()));
  return out;
}

// The touches (geometry before the union law): nearest points less ghosts.
std::vector<WheelContact> touchesAt(const Terrain& t, const Vec3& centre) {
  std::vector<WheelContact> out;
  WheelContactScratch scratch;
  wheelTouches(t, kWheel, centre, kAxleY, scratch, out);
  return out;
}

// Σ share·deflection·normal over the contacts: the spring force direction per
// unit stiffness, what the dynamics sees.
Vec3 deflectionSum(const std::vector<WheelContact>& cs) {
  Vec3 s = Vec3::Zero();
  for (const WheelContact& c : cs) s += c.share * c.deflection * c.normal;
  return s;
}

const WheelContact* onPiece(const std::vector<WheelContact>& cs, int piece) {
  for (const WheelContact& c : cs)
    if (c.piece == piece) return &c;
  return nullptr;
}

// Rolls a wheel at height h (above the top z = 0) along `dir` from −0.5 to
// 0.5 m around `origin`, plus points at and within 1e-12..1e-6 m of the seam
// at s = 0, and compares Σ deflection·normal with the single-piece value
// (r − h)·ẑ. Exact up to rounding: deflection = r − h is computed from
// coordinates ≤ ~3 m, so 1e-9 leaves a margin of ~1e5 ulps, while one ghost
// contact would add a term of order r − h ≥ 5e-3.
void rollAcross(const Terrain& t, const Vec3& origin, const Vec3& dir, const Vec3& axle, double h) {
  std::vector<double> ss;
  for (int i = 0; i <= 200; ++i) ss.push_back(-0.5 + i * (1.0 / 200));
  for (double e : {0.0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6}) ss.push_back(e);
  for (double s : ss) {
    const Vec3 centre = origin + s * dir + Vec3(0, 0, h);
    const std::vector<WheelContact> cs = contactsAt(t, centre, axle);
    INFO("h " << h << " s " << s << " contacts " << cs.size());
    const Vec3 sum = deflectionSum(cs);
    CHECK(std::abs(sum.z() - (kWheel.radius - h)) < 1e-9);
    // Within the seam's tolerance band (|s| ≤ 1e-9·size) the contact may come
    // from the other piece's edge, tilting the normal by ≤ |s|/h ≈ 1e-7: a
    // horizontal term ≤ 2e-8. A ghost contact would add ~(r − h)·|s|/d ≫ 1e-7.
    CHECK(sum.head<2>().norm() < 1e-7);
    CHECK(cs.size() >= 1);
  }
}

}  // namespace

TEST_CASE("wheel on a flat box: one contact straight down", "[wheel_contact]") {
  const Terrain t = terrainOf({boxFromTo(Vec3(-5, -5, -1), Vec3(5, 5, 0))});
  for (double h : {0.01, 0.1, 0.15, 0.189}) {
    const Vec3 centre(0.3, -0.2, h);
    const std::vector<WheelContact> cs = contactsAt(t, centre);
    REQUIRE(cs.size() == 1);
    const WheelContact& c = cs[0];
    // Face pass: d = n·x − offset with unit-sized data, exact to ~1e-16.
    CHECK(c.piece == 0);
    CHECK(c.distance == Approx(h).margin(1e-15));
    CHECK(c.deflection == Approx(kWheel.radius - h).margin(1e-15));
    CHECK((c.normal - Vec3(0, 0, 1)).norm() < 1e-15);
    CHECK((c.point - (centre - kWheel.radius * Vec3::UnitZ())).norm() < 1e-15);  // [GKS2025] eq. 1
    CHECK((c.surfacePoint - Vec3(0.3, -0.2, 0)).norm() < 1e-15);
  }
}

TEST_CASE("wheel above a piece beyond its radius has no contact", "[wheel_contact]") {
  const Terrain t = terrainOf({boxFromTo(Vec3(-5, -5, -1), Vec3(5, 5, 0))});
  CHECK(contactsAt(t, Vec3(0, 0, 0.25)).empty());
  CHECK(contactsAt(t, Vec3(0, 0, kWheel.radius)).empty());  // touching: Z = 0, non-holding
  CHECK(contactsAt(t, Vec3(0, 0, 0.19 + 1e-12)).empty());
  CHECK(contactsAt(t, Vec3(5.2, 0, -0.5)).size() == 0);   // beside the box, 0.2 m away
  CHECK(contactsAt(t, Vec3(5.18, 0, -0.5)).size() == 1);  // beside the box, 0.18 m away
}

TEST_CASE("wheel in the concave corner of a step touches both pieces", "[wheel_contact]") {
  // Ground box, and a 0.3 m step box standing on it (flush on z = 0).
  const Terrain t = terrainOf(
      {boxFromTo(Vec3(-3, -2, -1), Vec3(3, 2, 0)), boxFromTo(Vec3(0, -2, 0), Vec3(3, 2, 0.3))});
  const Vec3 centre(-0.12, 0.4, 0.15);
  const std::vector<WheelContact> cs = contactsAt(t, centre);
  REQUIRE(cs.size() == 2);
  const WheelContact* ground = onPiece(cs, 0);
  const WheelContact* step = onPiece(cs, 1);
  REQUIRE(ground);
  REQUIRE(step);
  CHECK((ground->normal - Vec3(0, 0, 1)).norm() < 1e-15);
  CHECK(ground->deflection == Approx(0.19 - 0.15).margin(1e-15));
  CHECK((step->normal - Vec3(-1, 0, 0)).norm() < 1e-15);
  CHECK(step->deflection == Approx(0.19 - 0.12).margin(1e-15));
  CHECK((step->surfacePoint - Vec3(0, 0.4, 0.15)).norm() < 1e-15);
}

TEST_CASE("wheel at a convex step edge has one slanted contact", "[wheel_contact]") {
  const Terrain t = terrainOf(
      {boxFromTo(Vec3(-3, -2, -1), Vec3(3, 2, 0)), boxFromTo(Vec3(0, -2, 0), Vec3(3, 2, 0.3))});
  // Centre 0.1 m before and 0.1 m above the step's top edge (x = 0, z = 0.3).
  const Vec3 centre(-0.1, 0, 0.4);
  const std::vector<WheelContact> cs = contactsAt(t, centre);
  REQUIRE(cs.size() == 1);
  const WheelContact& c = cs[0];
  CHECK(c.piece == 1);
  // GJK on a vertex/edge: distance to ~1e-15 (see the gjk tests), checked to 1e-12.
  CHECK(c.distance == Approx(std::sqrt(0.02)).epsilon(1e-12));
  CHECK(c.deflection == Approx(0.19 - std::sqrt(0.02)).epsilon(1e-12));
  CHECK((c.normal - Vec3(-1, 0, 1).normalized()).norm() < 1e-12);
  CHECK((c.surfacePoint - Vec3(0, 0, 0.3)).norm() < 1e-12);
  CHECK((c.point - (centre - 0.19 * c.normal)).norm() < 1e-12);
}

TEST_CASE("wheel centre inside a piece: exit normal and deflection beyond the radius",
          "[wheel_contact]") {
  const Terrain t = terrainOf({boxFromTo(Vec3(-5, -5, -1), Vec3(5, 5, 0))});
  const std::vector<WheelContact> cs = contactsAt(t, Vec3(0.1, 0.1, -0.05));
  REQUIRE(cs.size() == 1);
  CHECK((cs[0].normal - Vec3(0, 0, 1)).norm() < 1e-15);
  CHECK(cs[0].distance == Approx(-0.05).margin(1e-15));
  CHECK(cs[0].deflection == Approx(0.24).margin(1e-15));
  CHECK(cs[0].deflection > kWheel.radius);
  CHECK((cs[0].point - Vec3(0.1, 0.1, -0.05 - 0.19)).norm() < 1e-15);
}

TEST_CASE("beyond the tread band the wheel bears on the rim of its cut", "[wheel_contact]") {
  // A wall x ≥ 0; the wheel 0.1 m in front of it.
  const Terrain t = terrainOf({boxFromTo(Vec3(0, -5, -1), Vec3(1, 5, 2))});
  const Vec3 centre(-0.1, 0, 0.5);
  const double halfWidth = 0.5 * kWheel.width, rim = std::sqrt(0.19 * 0.19 - halfWidth * halfWidth);
  // Axle along y: the wall touches the tread. Control case.
  REQUIRE(contactsAt(t, centre, kAxleY).size() == 1);
  // Axle pointing at the wall: the nearest rim point is at x = −0.1 + 0.06 < 0,
  // clear of the wall: no contact (only a flat side cap could touch).
  CHECK(contactsAt(t, centre, Vec3(1, 0, 0)).empty());
  CHECK(contactsAt(t, centre, Vec3(-1, 0, 0)).empty());
  // Axle tilted by s = sin θ towards the wall. Inside the band
  // |e·axle| ≤ width/(2r) ≈ 0.316 the tread point centre − r·e touches (0.09 m
  // deep); beyond it the rim point centre + 0.06·axle − ρ·u does, with
  // u = unit(e − (e·axle)·axle), ρ = √(r² − 0.06²): its depth is its x.
  for (double s : {0.30, 0.33, 0.5}) {
    const Vec3 axle(s, std::sqrt(1 - s * s), 0);
    const std::vector<WheelContact> cs = contactsAt(t, centre, axle);
    REQUIRE(cs.size() == 1u);
    CHECK((cs[0].normal - Vec3(-1, 0, 0)).norm() < 1e-12);
    if (s < halfWidth / 0.19) {
      CHECK(cs[0].deflection == Approx(0.09).margin(1e-12));
    } else {
      const Vec3 e(-1, 0, 0);
      const Vec3 u = (e - e.dot(axle) * axle).normalized();
      const Vec3 point = centre + halfWidth * axle - rim * u;
      CHECK((cs[0].point - point).norm() < 1e-12);
      CHECK(cs[0].deflection == Approx(point.x()).margin(1e-12));
      CHECK(cs[0].deflection < 0.09);  // the rim reaches less far than the sphere would
    }
  }
  // Continuity at the band edge: the two rules give the same contact.
  const double edge = halfWidth / 0.19;
  const std::vector<WheelContact> in =
      contactsAt(t, centre, Vec3(edge - 1e-9, std::sqrt(1 - (edge - 1e-9) * (edge - 1e-9)), 0));
  const std::vector<WheelContact> out =
      contactsAt(t, centre, Vec3(edge + 1e-9, std::sqrt(1 - (edge + 1e-9) * (edge + 1e-9)), 0));
  REQUIRE(in.size() == 1u);
  REQUIRE(out.size() == 1u);
  CHECK(std::abs(in[0].deflection - out[0].deflection) < 1e-8);
  CHECK((in[0].point - out[0].point).norm() < 1e-8);
}

TEST_CASE("seam: a wheel rolled across abutting coplanar boxes feels one flat surface",
          "[wheel_contact][seam]") {
  const Terrain single = terrainOf({boxFromTo(Vec3(-2, -1, -1), Vec3(2, 1, 0))});
  const Terrain split = terrainOf(
      {boxFromTo(Vec3(-2, -1, -1), Vec3(0, 1, 0)), boxFromTo(Vec3(0, -1, -1), Vec3(2, 1, 0))});
  // Neighbours of different depth: the shared patch is only part of each face.
  const Terrain uneven = terrainOf({boxFromTo(Vec3(-2, -1, -1), Vec3(0, 1, 0)),
                                    boxFromTo(Vec3(0, -1.5, -0.4), Vec3(2, 0.7, 0))});
  REQUIRE(split.pieces[0].shared.size() == 1);
  for (double h : {0.03, 0.1, 0.15, 0.185}) {
    rollAcross(single, Vec3::Zero(), Vec3::UnitX(), kAxleY, h);
    rollAcross(split, Vec3::Zero(), Vec3::UnitX(), kAxleY, h);
    rollAcross(uneven, Vec3::Zero(), Vec3::UnitX(), kAxleY, h);
  }
  // The same with the pieces in the other order (the lower index on +x).
  const Terrain swapped = terrainOf(
      {boxFromTo(Vec3(0, -1, -1), Vec3(2, 1, 0)), boxFromTo(Vec3(-2, -1, -1), Vec3(0, 1, 0))});
  rollAcross(swapped, Vec3::Zero(), Vec3::UnitX(), kAxleY, 0.1);
  // Along the seam line y = 0 too: the wheel rolls along x, seam under its middle.
  const Terrain sideBySide = terrainOf(
      {boxFromTo(Vec3(-2, -1, -1), Vec3(2, 0, 0)), boxFromTo(Vec3(-2, 0, -1), Vec3(2, 1, 0))});
  rollAcross(sideBySide, Vec3(0.1, 0, 0), Vec3::UnitY(), Vec3::UnitX(), 0.12);
}

TEST_CASE("seam: turned boxes abutting at a rotated joint", "[wheel_contact][seam]") {
  const double yaw = 0.3;
  const Vec3 fwd(std::cos(yaw), std::sin(yaw), 0), left(-std::sin(yaw), std::cos(yaw), 0);
  const Terrain t = terrainOf({makeBox(Vec3(0, 0, -0.5) - fwd, Vec3(2, 2, 1), yaw).value(),
                               makeBox(Vec3(0, 0, -0.5) + fwd, Vec3(2, 2, 1), yaw).value()});
  REQUIRE(t.pieces[0].shared.size() == 1);
  for (double h : {0.05, 0.15}) rollAcross(t, Vec3::Zero(), fwd, left, h);
}

TEST_CASE("seam: a wheel rolled across two coplanar quad prisms of a row",
          "[wheel_contact][seam]") {
  const std::vector<Quad> row = makeQuadRow({{Vec3(-1, -1, 0), Vec3(-1, 1, 0), Vec3(0, 0, 0)},
                                             {Vec3(0, -1, 0), Vec3(0, 1, 0), Vec3(1, 0, 0)}})
                                    .value();
  const Terrain t = terrainOf({quadPrism(row[0], -0.5).value(), quadPrism(row[1], -0.5).value()});
  REQUIRE(t.pieces[0].shared.size() == 1);
  for (double h : {0.05, 0.1, 0.15, 0.185}) rollAcross(t, Vec3::Zero(), Vec3::UnitX(), kAxleY, h);
}

TEST_CASE("seam: a real step built from abutting boxes still gives two contacts",
          "[wheel_contact][seam]") {
  // Low box and a taller box side by side: they share the lower part of the
  // x = 0 face (z in [-1, 0]); the step face above z = 0 is real.
  const Terrain t = terrainOf(
      {boxFromTo(Vec3(-2, -1, -1), Vec3(0, 1, 0)), boxFromTo(Vec3(0, -1, -1), Vec3(2, 1, 0.3))});
  REQUIRE(t.pieces[0].shared.size() == 1);
  const std::vector<WheelContact> cs = contactsAt(t, Vec3(-0.15, 0, 0.15));
  REQUIRE(cs.size() == 2);
  CHECK((onPiece(cs, 0)->normal - Vec3(0, 0, 1)).norm() < 1e-15);
  CHECK(onPiece(cs, 0)->deflection == Approx(0.04).margin(1e-15));
  CHECK((onPiece(cs, 1)->normal - Vec3(-1, 0, 0)).norm() < 1e-15);
  CHECK(onPiece(cs, 1)->deflection == Approx(0.04).margin(1e-15));
  // Low in the corner, the tall box's nearest point approaches the top of the
  // shared patch (z = 0) but stays on the real step face.
  const std::vector<WheelContact> low = touchesAt(t, Vec3(-0.1, 0, 0.02));
  CHECK(low.size() == 2);
  // On top of the tall box, near its edge: only the tall box.
  const std::vector<WheelContact> top = contactsAt(t, Vec3(0.05, 0, 0.4));
  REQUIRE(top.size() == 1);
  CHECK(top[0].piece == 1);
}

TEST_CASE("seam: a valley between two quads keeps both contacts", "[wheel_contact][seam]") {
  // Flat quad, then one rising at 45°: a concave kink at x = 0.
  const std::vector<Quad> row = makeQuadRow({{Vec3(-1, -1, 0), Vec3(-1, 1, 0), Vec3(0, 0, 0)},
                                             {Vec3(0, -1, 0), Vec3(0, 1, 0), Vec3(1, 0, 1)}})
                                    .value();
  const Terrain t = terrainOf({quadPrism(row[0], -1).value(), quadPrism(row[1], -1).value()});
  // Centre above the kink, 0.1 m up: the flat quad is 0.1 away (straight
  // down), the ramp 0.1/√2 away along its normal (−1, 0, 1)/√2.
  const std::vector<WheelContact> cs = touchesAt(t, Vec3(0, 0, 0.1));
  REQUIRE(cs.size() == 2);
  const Vec3 sum = deflectionSum(cs);
  const double rampDefl = 0.19 - 0.1 / std::sqrt(2.0);
  // Face-pass distances on unit-sized data: 1e-14.
  CHECK((sum - (0.09 * Vec3(0, 0, 1) + rampDefl * Vec3(-1, 0, 1).normalized())).norm() < 1e-14);
}

TEST_CASE("seam: a wheel rolled through a concave kink keeps the contact with the flat piece",
          "[wheel_contact][seam]") {
  // Flat quad then a 45° ramp, and a V-shaped valley from makeProfile. Only
  // the vertical faces below the kink line are shared, so neither piece's top
  // surface continues the other's, and a wheel near the kink really overlaps
  // both pieces: both touch, and the union law shares the tread between them.
  const std::vector<Quad> row = makeQuadRow({{Vec3(-1, -1, 0), Vec3(-1, 1, 0), Vec3(0, 0, 0)},
                                             {Vec3(0, -1, 0), Vec3(0, 1, 0), Vec3(1, 0, 1)}})
                                    .value();
  const Terrain quads = terrainOf({quadPrism(row[0], -1).value(), quadPrism(row[1], -1).value()});
  const Terrain profile = terrainOf(makeProfile({{-1, 1}, {0, 0}, {1, 1}}, 2.0, -1.0).value());
  const double h = 0.12, dx = 0.001;
  for (const Terrain* t : {&quads, &profile}) {
    REQUIRE(t->pieces[0].shared.size() == 1);
    Vec3 previous = Vec3::Zero();
    for (int i = 0; i <= 300; ++i) {
      const double x = -0.15 + i * dx;
      const Vec3 centre(x, 0, h);
      // Oracle: the union law (by trying every active set) over the pieces
      // with d_i < r, by pointDistance per piece.
      std::vector<Vec3> normals;
      std::vector<double> depths;
      for (const TerrainPiece& p : t->pieces) {
        const PointDistance d = pointDistance(p.shape, centre, kWheel.radius);
        if (d.feature != Feature::Far && d.distance < kWheel.radius)
          normals.push_back(d.normal), depths.push_back(kWheel.radius - d.distance);
      }
      const Vec3 expected = oracle::unionForce(normals, depths, kWheel.radius);
      const std::vector<WheelContact> cs = contactsAt(*t, centre);
      const Vec3 sum = deflectionSum(cs);
      INFO((t == &quads ? "quads" : "profile")
           << " x " << x << " contacts " << cs.size() << " sum (" << sum.transpose()
           << ") expected (" << expected.transpose() << ")");
      // Same per-piece distances as the oracle: only rounding (1e-12).
      CHECK((sum - expected).norm() < 1e-12);
      // Whatever the model, the spring force must not jump: per contact,
      // |Δ((r − d) n)| ≤ |Δd| + (r − d)|Δn| ≤ dx + (r − d)·dx/d = dx·r/d, and
      // d ≥ h/√2 ≈ 0.085 here, so two contacts change by ≤ 2·dx·0.19/0.085 < 5·dx.
      if (i > 0) CHECK((sum - previous).norm() < 5 * dx);
      previous = sum;
    }
  }
}

TEST_CASE("a wheel's piece list gives the grid's pieces at every step of a path",
          "[wheel_contact][piece_list]") {
  // Stairs of 0.04 m treads (narrower than the list's margin, so that pieces
  // enter and leave the kept list while it is in use), crossed by a wheel that
  // also rises, drifts sideways and jumps once by more than the margin.
  std::vector<Polytope> pieces{boxFromTo(Vec3(-2, -2, -1), Vec3(4, 2, 0))};
  for (int i = 0; i < 40; ++i)
    pieces.push_back(boxFromTo(Vec3(0.04 * i, -0.5 + 0.02 * (i % 3), 0),
                               Vec3(0.04 * (i + 1), 0.5, 0.005 * (i + 1))));
  const Terrain t = terrainOf(pieces);
  WheelContactScratch kept;
  kept.pieceLists.resize(1);
  int compared = 0, listed = 0;
  for (int k = 0; k <= 2000; ++k) {
    const double s = k * 1e-3 + (k > 1000 ? 0.3 : 0.0);
    const Vec3 centre(-0.3 + s, 0.4 * std::sin(3 * s), 0.12 + 0.1 * s);
    std::vector<WheelContact> fromList, fromGrid;
    useWheelNearLists(kept, 0);
    wheelTouches(t, kWheel, centre, kAxleY, kept, fromList);
    listed += kept.pieceLists[0].valid;
    WheelContactScratch fresh;  // no list: the grid every time
    wheelTouches(t, kWheel, centre, kAxleY, fresh, fromGrid);
    REQUIRE(fromList.size() == fromGrid.size());
    for (size_t c = 0; c < fromList.size(); ++c) {
      INFO("step " << k << " contact " << c);
      CHECK(fromList[c].piece == fromGrid[c].piece);
      CHECK(fromList[c].point == fromGrid[c].point);
      CHECK(fromList[c].deflection == fromGrid[c].deflection);
    }
    CHECK(kept.near == fresh.near);
    compared += static_cast<int>(fromList.size());
  }
  CHECK(listed == 2001);
  CHECK(compared > 2000);  // the path touches pieces all along
}
