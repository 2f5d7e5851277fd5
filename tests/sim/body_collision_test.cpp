// Body boxes collide with the terrain by default (contact/body_contact.h):
// rocker8's body stops at a block between its wheel tracks and passes through
// it with `simulation.chassis_contact` off; the wheel-walker's body never
// sinks into the ground.
#include <catch2/catch.hpp>

#include "geometry/gjk.h"
#include "support/scenario_files.h"

using namespace roverlab;
using testing::runUntil;
using testing::simulationOf;

namespace {

int bodyContacts(const Simulation& sim) {
  int n = 0;
  for (const BoxResult& b : sim.data.boxes) n += static_cast<int>(b.contacts.size());
  return n;
}

// Deepest corner of any body box inside any terrain piece (m, 0 when none is
// inside): an oracle independent of the separating-axis code. For a box on
// the ground or on a step's top its lowest corner is its lowest point.
double deepestCorner(const Simulation& sim) {
  double deepest = 0;
  for (const ContactBox& box : sim.model.boxes) {
    const Mat3 r = worldRotation(sim.data.bodies, box.body);
    const Vec3 o = worldPoint(sim.data.bodies, box.body, Vec3::Zero());
    for (int i = 0; i < 8; ++i) {
      const Vec3 local(i & 1 ? box.half.x() : -box.half.x(), i & 2 ? box.half.y() : -box.half.y(),
                       i & 4 ? box.half.z() : -box.half.z());
      const Vec3 p = o + r * (box.centre + local);
      for (const TerrainPiece& piece : sim.model.terrain->pieces) {
        const PointDistance d = pointDistance(piece.shape, p, 0.0);
        if (d.feature == Feature::Inside) deepest = std::max(deepest, -d.distance);
      }
    }
  }
  return deepest;
}

// Deepest body corner over a whole run, sampled every 10 ms (m).
double deepestOverRun(const std::string& name, bool bodyContact) {
  Simulation sim = simulationOf(
      name, {std::string("simulation.chassis_contact=") + (bodyContact ? "true" : "false")});
  double deepest = 0;
  while (sim.state.bodies.time < sim.duration - 1e-9) {
    runUntil(sim, sim.state.bodies.time + 0.01);
    deepest = std::max(deepest, deepestCorner(sim));
  }
  return deepest;
}

}  // namespace

TEST_CASE("body contact stops rocker8's body at a block between the wheel tracks", "[sim][body]") {
  // Block 0.4 m long from x = 2.8, 0.6 m wide (the wheels run at y = ±0.7,
  // 0.2 m wide), 0.6 m high; the body's front face is 0.8 m ahead of the
  // base and its bottom 0.35 m above the ground. Driving at 2 rad/s × 0.25 m
  // the body reaches the block after about 2 s.
  const std::vector<std::string> block = {
      "terrain.boxes[1]={\"centre\": [3.0, 0, 0.3], \"size\": [0.4, 0.6, 0.6]}"};
  Simulation with = simulationOf("flat-rocker8.json", block);
  REQUIRE(with.model.bodyContact.enabled);  // the default
  int touching = 0;
  for (double t = 0.5; t <= 5.0; t += 0.5) {
    runUntil(with, t);
    touching = std::max(touching, bodyContacts(with));
  }
  const double x = worldPoint(with.data.bodies, with.model.robot.base, Vec3::Zero()).x();
  CHECK(touching > 0);
  CHECK(x < 2.8 - 0.8 + 0.01);  // stopped with the body face at the block (1 cm of penetration)
  CHECK(x > 2.8 - 0.8 - 0.1);   // and it did get there

  std::vector<std::string> off = block;
  off.push_back("simulation.chassis_contact=false");
  Simulation without = simulationOf("flat-rocker8.json", off);
  REQUIRE_FALSE(without.model.bodyContact.enabled);
  runUntil(without, 5.0);
  CHECK(bodyContacts(without) == 0);
  CHECK(worldPoint(without.data.bodies, without.model.robot.base, Vec3::Zero()).x() >
        2.8 - 0.8 + 0.3);  // drove on into it
}

TEST_CASE("the wheel-walker's body boxes stay out of the ground", "[sim][body]") {
  // Over the whole run of both scenarios no corner of any body box (body and
  // legs) is more than 2 cm inside the terrain. The penalty contact lets a
  // box sink until its springs carry the load: k = m ω² on the box's own
  // mass m with ω = 200 rad/s sinks a face 0.25 mm under the box's own
  // weight, a 3 kg leg 2 cm only under 2400 N, more than the whole robot's
  // 1000 N weight.
  for (const char* name : {"step-wheel-walker.json", "flat-wheel-walker.json"}) {
    const double on = deepestOverRun(name, true);
    INFO(name << ": deepest body corner " << on << " m inside the terrain");
    CHECK(on < 0.02);
  }
  // The oracle does see boxes in the ground: without body contact the legs
  // dip into the step's edge as they are lifted onto it (2.3 cm measured).
  CHECK(deepestOverRun("step-wheel-walker.json", false) > 0.01);
}

TEST_CASE("the wheel-walker with its legs folded up lies on its body", "[sim][body]") {
  // All four legs swung up (±1.9 rad): nothing but the body can hold it. With
  // body contact it rests on the ground, the 80 kg body 0.3 mm deep
  // (k = m ω² carries its own weight at g/ω² = 0.25 mm); without it the body
  // sinks until the raised wheels catch the ground, 8 cm below the surface.
  const std::string folded =
      "control={\"wheel_speed\": 0, \"joints\": {\"leg_1\": 1.9, \"leg_2\": 1.9, "
      "\"leg_3\": -1.9, \"leg_4\": -1.9}}";
  Simulation on = simulationOf("flat-wheel-walker.json", {folded});
  runUntil(on, on.duration);
  CHECK(deepestCorner(on) < 0.002);
  CHECK(bodyContacts(on) > 0);
  Simulation off =
      simulationOf("flat-wheel-walker.json", {folded, "simulation.chassis_contact=false"});
  runUntil(off, off.duration);
  CHECK(deepestCorner(off) > 0.05);
}
