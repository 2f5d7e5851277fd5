// One body-box law for every terrain kind (contact/box_union.h): a box meets
// a step given as boxes, as a heightmap and as a mesh with the same forces,
// at random poses and when dropped onto it.
#include "contact/box_union.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "contact/body_contact.h"
#include "support/surface_terrains.h"
#include "terrain/builders.h"

using namespace roverlab;

namespace {

// The step: the ground at z = 0 for x < −kCell, the top at z = kRise from
// x = 0, a ramp between (a heightmap's rise is one cell wide), over
// [−1, 1] × [−1, 1].
constexpr double kRise = 0.125;  // a float heightmap holds it exactly
constexpr double kCell = 0.04;

// As boxes: the ground, the ramp's wedge, and the top cut into four blocks
// with seams at x = 0.3 and y = 0.1.
Terrain stepAsBoxes() {
  TerrainBuilder tb;
  tb.addPiece(makeBox(Vec3(-0.5, 0, -0.5), Vec3(1, 2, 1), 0).value());
  tb.addPiece(makeHull({Vec3(-kCell, -1, 0), Vec3(-kCell, 1, 0), Vec3(0, -1, 0), Vec3(0, 1, 0),
                        Vec3(0, -1, kRise), Vec3(0, 1, kRise)})
                  .value());
  const double z = -0.5 + 0.5 * kRise, h = 1 + kRise;
  for (const double y0 : {-1.0, 0.1}) {
    const double y1 = y0 < 0 ? 0.1 : 1.0;
    tb.addPiece(makeBox(Vec3(0.15, 0.5 * (y0 + y1), z), Vec3(0.3, y1 - y0, h), 0).value());
    tb.addPiece(makeBox(Vec3(0.65, 0.5 * (y0 + y1), z), Vec3(0.7, y1 - y0, h), 0).value());
  }
  return std::move(tb).build().value();
}

// Samples every kCell m (50 cells a side).
Terrain stepAsHeightmap(double cell = kCell) {
  const int n = static_cast<int>(std::lround(2 / cell));
  HeightfieldSpec spec;
  spec.originX = spec.originY = -1;
  spec.dx = spec.dy = cell;
  spec.nx = spec.ny = n + 1;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) spec.heights.push_back(-1 + i * cell > -1e-9 ? float(kRise) : 0.f);
  spec.base = -1;
  TerrainBuilder tb;
  tb.addHeightfield(makeHeightfield(std::move(spec)).value());
  return std::move(tb).build().value();
}

// An irregular mesh: vertices jittered in plan off the ramp's columns, each
// square split along a random diagonal.
Terrain stepAsMesh(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.3, 0.3);
  const int n = 50;
  const double cell = 0.04;
  std::vector<Vec3> v;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const bool edge = i == 0 || i == n || j == 0 || j == n || i == 24 || i == 25;
      const double x = -1 + (i + (edge ? 0 : jitter(rng))) * cell;
      const double y = -1 + (j + (j == 0 || j == n ? 0 : jitter(rng))) * cell;
      v.emplace_back(x, y, i >= 25 ? kRise : 0.0);
    }
  TerrainBuilder tb;
  tb.addMesh(makeTriMesh(std::move(v), testing::randomDiagonals(n, rng), -1).value());
  return std::move(tb).build().value();
}

struct Wrench {
  Vec3 force = Vec3::Zero();   // (N)
  Vec3 moment = Vec3::Zero();  // about the world origin (N·m)
  int contacts = 0;
};

Wrench wrenchOn(const Terrain& t, const ContactBox& box, const Vec3& origin,
                const Eigen::Matrix3d& r, const BodyMotion& motion, BodyContactScratch& scratch) {
  const OrientedBox placed = worldBox(box, origin, r);
  NearPieces near;
  nearPieces(t, box, origin, r, near);
  candidatePieces(t, placed, near, scratch.candidates);
  std::vector<BodyContact> out;
  boxContacts(t, box, placed, scratch.candidates, motion, scratch, out);
  Wrench w;
  for (const BodyContact& c : out) {
    w.force += c.normalForce + c.tangentialForce;
    w.moment += c.moment;
    CHECK(c.tangentialForce.norm() <= c.frictionLimit * (1 + 1e-12));
  }
  w.contacts = static_cast<int>(out.size());
  return w;
}

Eigen::Matrix3d turned(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY()) *
          Eigen::AngleAxisd(roll, Vec3::UnitX()))
      .toRotationMatrix();
}

// A rigid box dropped on a terrain, integrated by semi-implicit Euler (dt =
// 0.1 ms: ω·dt = 0.02 for the contact's 200 rad/s): the force on it at each
// step and its end pose.
struct Drop {
  std::vector<Vec3> force;
  Vec3 position = Vec3::Zero();
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
};

Drop drop(const Terrain& t, const Vec3& start, const Eigen::Matrix3d& turn, const Vec3& spin,
          double seconds) {
  const double mass = 10, dt = 1e-4;
  const Vec3 size(0.4, 0.3, 0.15);
  const ContactBox box = makeContactBox(0, Vec3::Zero(), size, mass, BodyContactSettings{}, dt);
  const Vec3 inertia =
      mass / 12 *
      Vec3(size.y() * size.y() + size.z() * size.z(), size.x() * size.x() + size.z() * size.z(),
           size.x() * size.x() + size.y() * size.y());
  BodyContactScratch scratch;
  Drop d;
  Vec3 x = start, v = Vec3::Zero(), w = spin;
  Eigen::Matrix3d r = turn;
  for (int k = 0; k * dt < seconds; ++k) {
    BodyMotion motion;
    motion.origin = x;
    motion.velocity = v;
    motion.omega = w;
    const Wrench f = wrenchOn(t, box, x, r, motion, scratch);
    d.force.push_back(f.force);
    const Vec3 torque = f.moment - x.cross(f.force);  // about the centre
    const Eigen::Matrix3d iw = r * inertia.asDiagonal() * r.transpose();
    v += dt * (f.force / mass + Vec3(0, 0, -9.81));
    w += dt * iw.inverse() * (torque - w.cross(iw * w));
    x += dt * v;
    const double angle = w.norm() * dt;
    if (angle > 0) r = Eigen::AngleAxisd(angle, w.normalized()).toRotationMatrix() * r;
    const Eigen::Quaterniond q(r);
    r = q.normalized().toRotationMatrix();
  }
  d.position = x;
  d.rotation = r;
  return d;
}

}  // namespace

TEST_CASE("a box at random poses over a step feels the same forces from boxes, heightmap and mesh",
          "[contact][body][union]") {
  // Poses with the box's lowest corner up to 5 mm into the top or the ground,
  // turned up to 0.4 rad about each axis, with the box's plan wholly over the
  // top (across its seams) or over the ground, away from the ramp; moving and
  // spinning. Forces, moments and contact counts agree with the boxes' to
  // round-off (1e-9 of the force): the union gives a face cut into any
  // pieces, cells or triangles the points of the uncut face. (At the step's
  // convex crease the kinds still differ: a piece's separating axes push a
  // box lying across it along the box's normal, a triangle along its own;
  // docs/contact.md.)
  const Terrain boxes = stepAsBoxes(), field = stepAsHeightmap(), mesh = stepAsMesh(7);
  const ContactBox box =
      makeContactBox(0, Vec3::Zero(), Vec3(0.4, 0.3, 0.15), 10, BodyContactSettings{}, 1e-4);
  std::mt19937 rng(28);
  std::uniform_real_distribution<double> u(-1, 1);
  BodyContactScratch a, b, c;
  int touching = 0, overEdge = 0, corners = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Eigen::Matrix3d r = turned(0.4 * u(rng), 0.4 * u(rng), 3 * u(rng));
    const Vec3 extent = r.cwiseAbs() * 0.5 * Vec3(0.4, 0.3, 0.15);
    Vec3 origin(0.6 * u(rng), 0.5 * u(rng), 0);
    const bool onTop = origin.x() - extent.x() >= 0;
    const bool across = onTop && (std::abs(origin.x() - 0.3) < extent.x() ||
                                  std::abs(origin.y() - 0.1) < extent.y());
    if (!onTop && origin.x() + extent.x() > -0.05) continue;  // near the ramp
    origin.z() = (onTop ? kRise : 0) + extent.z() - 0.005 * (0.5 + 0.5 * u(rng));
    BodyMotion motion;
    motion.origin = origin;
    motion.velocity = 0.3 * Vec3(u(rng), u(rng), u(rng));
    motion.omega = 2 * Vec3(u(rng), u(rng), u(rng));
    const Wrench wb = wrenchOn(boxes, box, origin, r, motion, a);
    const Wrench wf = wrenchOn(field, box, origin, r, motion, b);
    const Wrench wm = wrenchOn(mesh, box, origin, r, motion, c);
    INFO("trial " << trial << ": box at " << origin.transpose() << ", forces "
                  << wb.force.transpose() << " | " << wf.force.transpose() << " | "
                  << wm.force.transpose());
    const double scale = 1e-9 * std::max(1.0, wb.force.norm());
    CHECK((wf.force - wb.force).norm() <= scale);
    CHECK((wm.force - wb.force).norm() <= scale);
    CHECK((wf.moment - wb.moment).norm() <= scale);
    CHECK((wm.moment - wb.moment).norm() <= scale);
    CHECK(wf.contacts == wb.contacts);
    CHECK(wm.contacts == wb.contacts);
    touching += wb.contacts > 0;
    overEdge += wb.contacts > 0 && across;
    corners += wb.contacts > 0 && std::abs(r(2, 2)) < 0.99;
  }
  // The sample exercises contacts, boxes across the top's edge and tilted boxes.
  INFO(touching << " touching, " << overEdge << " across a seam of the top, " << corners
                << " tilted");
  CHECK(touching > 1000);
  CHECK(overEdge > 300);
  CHECK(corners > 800);
}

TEST_CASE("boxes dropped on a step feel the same forces from boxes, heightmap and mesh",
          "[contact][body][union]") {
  // A 10 kg box, 0.4 × 0.3 × 0.15 m, dropped from 3 cm: flat onto the top,
  // flat onto the ground, tilted onto a corner, and tilted and spinning
  // across the seams of the top's blocks. Over
  // 0.6 s the force on it at every step agrees with the boxes' within 2 % of
  // its peak (2 %; the union gives the same points, so the runs agree to
  // round-off), and it ends within 1 mm of the same place.
  const Terrain boxes = stepAsBoxes(), field = stepAsHeightmap(), mesh = stepAsMesh(11);
  struct Case {
    const char* name;
    Vec3 start;
    Eigen::Matrix3d turn;
    Vec3 spin;
  };
  const double lift = 0.03 + 0.075;
  const Case cases[] = {
      {"flat on the top", Vec3(0.5, 0.1, kRise + lift), Eigen::Matrix3d::Identity(), Vec3::Zero()},
      {"flat on the ground", Vec3(-0.5, -0.2, lift), turned(0, 0, 0.7), Vec3::Zero()},
      {"corner first", Vec3(0.4, 0, kRise + lift + 0.08), turned(0.35, 0.25, 0.3),
       Vec3(0.5, -1, 0)},
      {"across the seams", Vec3(0.3, 0.1, kRise + lift + 0.05), turned(0.2, -0.15, 0.4),
       Vec3(0.3, 0.2, 1)},
  };
  for (const Case& c : cases) {
    const Drop b = drop(boxes, c.start, c.turn, c.spin, 0.6);
    double peak = 0;
    for (const Vec3& f : b.force) peak = std::max(peak, f.norm());
    REQUIRE(peak > 10 * 9.81);  // it did land
    for (const Terrain* t : {&field, &mesh}) {
      const Drop other = drop(*t, c.start, c.turn, c.spin, 0.6);
      double worst = 0;
      for (size_t k = 0; k < b.force.size(); ++k) {
        worst = std::max(worst, (other.force[k] - b.force[k]).norm());
      }
      INFO(c.name << (t == &field ? " on the heightmap" : " on the mesh") << ": peak " << peak
                  << " N, largest difference " << worst << " N");
      CHECK(worst <= 0.02 * peak);
      CHECK((other.position - b.position).norm() < 1e-3);
    }
  }
}

TEST_CASE("a box that comes in under a surface's edge is pushed back out through its wall",
          "[contact][body][union]") {
  // A box beside the step's outer side (east, north or south of its top),
  // wholly below the top, crossing the side by up to 5 mm and turned about
  // the vertical: the heightmap's and the mesh's walls push it back out as
  // the blocks' sides do, horizontally and with the same force (1e-9), and
  // not up through the whole surface (a triangle's top is k·d with d the
  // depth below the top, decimetres here).
  const Terrain boxes = stepAsBoxes(), field = stepAsHeightmap(), mesh = stepAsMesh(5);
  const ContactBox box =
      makeContactBox(0, Vec3::Zero(), Vec3(0.4, 0.3, 0.15), 10, BodyContactSettings{}, 1e-4);
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(-1, 1);
  BodyContactScratch a, b, c;
  int touching = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Eigen::Matrix3d r = turned(0, 0, 0.6 * u(rng));
    const Vec3 extent = r.cwiseAbs() * 0.5 * Vec3(0.4, 0.3, 0.15);
    const double cross = 0.005 * (0.5 + 0.5 * u(rng));
    const double z = -0.4 + 0.3 * u(rng);  // the box's top below the step's (kRise)
    const int side = trial % 3;            // east, north, south
    const Vec3 outward = side == 0 ? Vec3(1, 0, 0) : Vec3(0, side == 1 ? 1 : -1, 0);
    Vec3 origin = side == 0 ? Vec3(1 + extent.x() - cross, 0.6 * u(rng), z)
                            : Vec3(0.6 + 0.15 * u(rng), outward.y() * (1 + extent.y() - cross), z);
    BodyMotion motion;
    motion.origin = origin;
    // Moving in: the damper adds to the spring (moving out, it may cancel it).
    motion.velocity = 0.1 * (Vec3(u(rng), u(rng), u(rng)) - 2 * outward);
    motion.omega = 0.2 * Vec3(u(rng), u(rng), u(rng));
    const Wrench wb = wrenchOn(boxes, box, origin, r, motion, a);
    const Wrench wf = wrenchOn(field, box, origin, r, motion, b);
    const Wrench wm = wrenchOn(mesh, box, origin, r, motion, c);
    INFO("trial " << trial << ": box at " << origin.transpose() << ", forces "
                  << wb.force.transpose() << " | " << wf.force.transpose() << " | "
                  << wm.force.transpose());
    REQUIRE(wb.contacts == 1);
    const double scale = 1e-9 * std::max(1.0, wb.force.norm());
    CHECK((wf.force - wb.force).norm() <= scale);
    CHECK((wm.force - wb.force).norm() <= scale);
    CHECK((wf.moment - wb.moment).norm() <= scale);
    CHECK((wm.moment - wb.moment).norm() <= scale);
    CHECK(wf.contacts == 1);
    CHECK(wm.contacts == 1);
    // Pushed outward: the normal force is along the side's normal, at most
    // k·5 mm plus damping (the friction along the side is at most μ of it).
    CHECK(wf.force.dot(outward) > 0);
    touching += wb.force.dot(outward) > 0;
  }
  CHECK(touching == 600);
}
