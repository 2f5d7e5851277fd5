// The step (world/world.h): one force evaluation per stage of
// world/stages.h, the integration, then the blow-up check.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "world/stages.h"

namespace roverlab {
namespace {

// Speeds beyond this (m/s or rad/s) mean the integration has blown up.
constexpr double kExplodedSpeed = 1e4;

// Capacity given to the per-step buffers up front, so that the step does not
// allocate: contacts of one wheel or one box (one per piece touched: one on a
// face, two at a seam or crease, three at a corner), and pieces near one
// wheel or box (those whose bounds it reaches). Every scenario in terrains/
// stays within them (tests/world/allocation_test.cpp); a terrain beyond them
// grows a buffer once, then reuses it.
constexpr size_t kContactsReserved = 16;
constexpr size_t kNearReserved = 64;
constexpr size_t kPieceListReserved = 256;  // pieces within a wheel's grown reach
// A mesh's grid lists a feature in every cell its bounds meet, and a wheel
// reaches a few dozen cells: the near list before duplicates are removed.
constexpr size_t kMeshFeaturesReserved = 2048;
// Items of a near list (contact/surface_contact.h): 1024 triangles of a
// heightfield (a 0.25 m wheel on 0.05 m cells lists about 22), with
// kNearListPlanes numbers each, or 2048 mesh features; a list that would not
// fit is not kept and the query searches.
constexpr size_t kNearListReserved = 2048;
// Manifold points of one box (contact/box_union.h): up to kMaxManifoldPoints
// per feature, a box over a few hundred triangles, and the hull chains after
// them; union groups (planes under one box).
constexpr size_t kBoxPointsReserved = 8192;
constexpr size_t kBoxGroupsReserved = 256;

void reserveWheel(WheelResult& r) {
  r.contacts.reserve(kContactsReserved);
  r.forces.reserve(kContactsReserved);
  r.tread.reserve(kContactsReserved);
}

void reserveState(WorldState& s) {
  for (std::vector<TreadState>& t : s.tread) t.reserve(kContactsReserved);
}

// Whether every q is finite and every |v| within kExplodedSpeed: the check of
// every step, one pass over q and one over v, each coordinate tested on its
// own (no chain of additions from one to the next), without branches: x − x
// is 0 for a finite x and NaN otherwise, and a NaN fails every comparison.
bool stateFine(const WorldState& state) {
  const Eigen::VectorXd& q = state.bodies.q;
  const Eigen::VectorXd& v = state.bodies.v;
  bool fine = true;
  for (Eigen::Index i = 0; i < q.size(); ++i) fine &= q[i] - q[i] == 0.0;
  for (Eigen::Index i = 0; i < v.size(); ++i) fine &= std::abs(v[i]) <= kExplodedSpeed;
  return fine;
}

// The body that failed stateFine, in words.
std::string blowUpMessage(const WorldModel& model, const WorldState& state) {
  for (const Body& b : model.robot.bodies.bodies) {
    const int nq = jointCoords(b.joint), nv = jointDofs(b.joint);
    const bool finite = state.bodies.q.segment(b.qIndex, nq).allFinite() &&
                        state.bodies.v.segment(b.vIndex, nv).allFinite();
    const bool exploded =
        finite && nv > 0 &&
        state.bodies.v.segment(b.vIndex, nv).cwiseAbs().maxCoeff() > kExplodedSpeed;
    if (!finite || exploded) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "simulation blew up at t = %.4f s: body '%s' %s",
                    state.bodies.time, b.name.c_str(),
                    finite ? "exceeds 1e4 m/s or rad/s" : "has a non-finite state");
      return buf;
    }
  }
  return {};
}

}  // namespace

WorldState initialState(const WorldModel& model) {
  WorldState s;
  s.bodies = neutralState(model.robot.bodies);
  s.targets.assign(model.robot.actuators.size(), 0.0);
  s.integrals.assign(model.robot.actuators.size(), 0.0);
  s.tread.resize(model.robot.wheels.size());
  // Followers start where their leaders (at 0) put them.
  for (const JointMimic& m : model.robot.mimics)
    s.bodies.q[model.robot.bodies.bodies[m.body].qIndex] =
        m.multiplier * s.bodies.q[model.robot.bodies.bodies[m.leader].qIndex] + m.offset;
  reserveState(s);
  return s;
}

WorldData makeWorldData(const WorldModel& model) {
  // Every buffer the step uses, sized here: the step itself allocates nothing.
  const Multibody& bodies = model.robot.bodies;
  WorldData d;
  d.bodies = makeData(bodies);
  d.integrals.assign(model.robot.actuators.size(), 0.0);
  d.wheels.resize(model.robot.wheels.size());
  for (WheelResult& r : d.wheels) reserveWheel(r);
  const Eigen::Index mimics = static_cast<Eigen::Index>(model.robot.mimics.size());
  d.mimic.response = Eigen::MatrixXd::Zero(bodies.nv, mimics);
  d.mimic.coupling = Eigen::MatrixXd::Zero(mimics, mimics);
  d.mimic.unit = Eigen::VectorXd::Zero(bodies.nv);
  d.mimic.rhs = d.mimic.lambda = Eigen::VectorXd::Zero(mimics);
  d.mimic.solver = Eigen::LLT<Eigen::MatrixXd>(mimics);
  d.boxes.resize(model.boxes.size());
  for (BoxResult& r : d.boxes) r.contacts.reserve(kContactsReserved);
  d.wheelScratch.near.reserve(kNearReserved);
  d.wheelScratch.pieceLists.resize(model.robot.wheels.size());
  for (PieceList& l : d.wheelScratch.pieceLists) l.pieces.reserve(kPieceListReserved);
  d.wheelScratch.candidates.reserve(kNearReserved);
  reserveUnion(d.wheelScratch.shares, kContactsReserved);
  d.wheelScratch.surface.features.reserve(kMeshFeaturesReserved);
  d.wheelScratch.surface.hits.reserve(kNearReserved);
  d.wheelScratch.surface.order.reserve(kNearReserved);
  d.wheelScratch.surface.lists.resize(kNearListsPerWheel * model.robot.wheels.size());
  for (NearList& l : d.wheelScratch.surface.lists) {
    l.items.reserve(kNearListReserved);
    l.planes.reserve(kNearListPlanes / 2 * kNearListReserved);
  }
  d.wheelScratch.hits.reserve(kNearReserved);
  BodyContactScratch& body = d.bodyScratch;
  body.near.resize(model.boxes.size());
  for (NearPieces& n : body.near) n.pieces.reserve(kNearReserved);
  body.candidates.reserve(kNearReserved);
  body.polygon.reserve(kNearReserved);
  body.clipped.reserve(kNearReserved);
  body.meshFeatures.reserve(kMeshFeaturesReserved);
  body.box.points.reserve(kBoxPointsReserved);
  body.box.groups.reserve(kBoxGroupsReserved);
  body.box.order.reserve(2 * kBoxPointsReserved);
  body.box.hull.reserve(kBoxPointsReserved);
  if (model.bodyContact.enabled && !model.boxes.empty()) {
    body.features.resize(model.terrain->pieces.size());
    for (size_t i = 0; i < model.terrain->pieces.size(); ++i)
      pieceFeatures(*model.terrain, static_cast<int>(i), body.features[i]);
  }
  d.previous = neutralState(bodies);
  d.stage = initialState(model);
  Rk4Scratch& k = d.rk4;
  for (Eigen::VectorXd* x : {&k.q0, &k.mean}) x->setZero(bodies.nq);
  for (Eigen::VectorXd* x : {&k.v0, &k.v2, &k.v3, &k.v4, &k.a1, &k.a2, &k.a3, &k.a4})
    x->setZero(bodies.nv);
  k.first.resize(d.wheels.size());
  for (WheelResult& r : k.first) reserveWheel(r);
  k.firstBoxes.resize(d.boxes.size());
  for (BoxResult& r : k.firstBoxes) r.contacts.reserve(kContactsReserved);
  k.integrals = d.integrals;
  return d;
}

void evaluate(const WorldModel& model, const WorldState& state, WorldData& data) {
  forwardKinematics(model.robot.bodies, state.bodies, data.bodies);  // 1. kinematics
  wheelContactStage(model, data);                                    // 2. wheel contacts
  tireForceStage(model, state, data);                                // 3. tire forces
  bodyContactStage(model, data);                                     // 4. body contacts
  jointForceStage(model, state, data);                               // 5. joint forces
  abaFromKinematics(model.robot.bodies, data.bodies);                // 6. articulated-body dynamics
  mimicStage(model, state, data);                                    //    and mimic constraints
}

bool step(const WorldModel& model, WorldState& state, WorldData& data) {
  if (!data.error.empty()) return false;
  MultibodyState& previous = data.previous;
  // A copy into the buffers of the last step (its sizes do not change): a
  // block copy, where Eigen's assignment copies one coordinate at a time.
  previous.q.resize(state.bodies.q.size());
  previous.v.resize(state.bodies.v.size());
  std::copy_n(state.bodies.q.data(), state.bodies.q.size(), previous.q.data());
  std::copy_n(state.bodies.v.data(), state.bodies.v.size(), previous.v.data());
  previous.time = state.bodies.time;
  integrate(model, state, data);  // 7. integrate (evaluating 1–6 once, or four times for RK4)
  if (!stateFine(state)) {
    data.error = blowUpMessage(model, state);
    state.bodies = previous;
    return false;
  }
  for (size_t w = 0; w < model.robot.wheels.size(); ++w)
    copyInto(data.wheels[w].tread, state.tread[w]);
  copyInto(data.integrals, state.integrals);
  return true;
}

}  // namespace roverlab
