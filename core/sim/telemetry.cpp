#include "sim/telemetry.h"

#include <cmath>

#include "common/elementary.h"
#include "sim/tilt.h"
#include "world/stages.h"

namespace roverlab {
namespace {

bool isJoint(const Body& b) {
  return b.joint == JointType::Revolute || b.joint == JointType::Prismatic;
}

bool isWheel(const Simulation& sim, int body) {
  for (const WheelModel& w : sim.model.robot.wheels)
    if (w.body == body) return true;
  return false;
}

}  // namespace

std::string boxName(const Simulation& sim, size_t box) {
  const int body = sim.model.boxes[box].body;
  int index = 0, count = 0;
  for (size_t b = 0; b < sim.model.boxes.size(); ++b)
    if (sim.model.boxes[b].body == body) index += b < box, ++count;
  const std::string& name = sim.model.robot.bodies.bodies[body].name;
  return count > 1 ? name + "_" + std::to_string(index) : name;
}

int bodyContactCount(const Simulation& sim) {
  int n = 0;
  for (const BoxResult& b : sim.data.boxes) n += static_cast<int>(b.contacts.size());
  return n;
}

std::vector<std::string> telemetryColumns(const Simulation& sim) {
  std::vector<std::string> c = {"time_s",        "base_x_m",        "base_y_m",
                                "base_z_m",      "base_yaw_rad",    "base_pitch_rad",
                                "base_roll_rad", "base_upside_down"};
  const std::vector<Body>& bodies = sim.model.robot.bodies.bodies;
  for (size_t i = 0; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    if (!isJoint(b) || isWheel(sim, static_cast<int>(i)) || b.name.rfind("base", 0) == 0) continue;
    c.push_back(b.name + (b.joint == JointType::Revolute ? "_rad" : "_m"));
  }
  for (size_t s = 1; s < sim.model.robot.sections.size(); ++s)
    c.push_back(bodies[sim.model.robot.sections[s]].name + "_pitch_rad");
  for (const WheelModel& w : sim.model.robot.wheels) {
    const std::string n = bodies[w.body].name;
    for (const char* k : {"_x_m", "_y_m", "_z_m", "_speed_rad_s", "_contacts", "_normal_N",
                          "_tangential_N", "_slip"})
      c.push_back(n + k);
  }
  for (size_t b = 0; b < sim.model.boxes.size(); ++b)
    for (const char* k : {"_contacts", "_normal_N", "_tangential_N"})
      c.push_back("box_" + boxName(sim, b) + k);
  for (const Body& b : bodies)
    if (isJoint(b) && b.name.rfind("base", 0) != 0)
      c.push_back(b.name + (b.joint == JointType::Revolute ? "_torque_Nm" : "_force_N"));
  if (sim.controller) c.push_back(sim.controllerKind->phaseColumn);
  return c;
}

namespace {

// The row of `sim` with the forces and contacts of `data` (the last step's,
// or those evaluated at the start).
void rowOf(const Simulation& sim, const WorldData& data, std::vector<double>& row) {
  row.clear();
  const MultibodyData& d = data.bodies;
  const int base = sim.model.robot.base;
  const Vec3 p = worldPoint(d, base, Vec3::Zero());
  const Vec3 x = worldRotation(d, base).col(0);
  const Tilt tilt = tiltOf(worldRotation(d, base));
  row.insert(row.end(),
             {sim.state.bodies.time, p.x(), p.y(), p.z(), elementary::atan2(x.y(), x.x()),
              tilt.pitch, tilt.roll, tilt.upsideDown ? 1.0 : 0.0});
  const std::vector<Body>& bodies = sim.model.robot.bodies.bodies;
  for (size_t i = 0; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    if (!isJoint(b) || isWheel(sim, static_cast<int>(i)) || b.name.rfind("base", 0) == 0) continue;
    row.push_back(sim.state.bodies.q[b.qIndex]);
  }
  for (size_t s = 1; s < sim.model.robot.sections.size(); ++s)
    row.push_back(tiltOf(worldRotationWithSpin(sim.model.robot.bodies, sim.state.bodies, d,
                                               sim.model.robot.sections[s]))
                      .pitch);
  for (size_t w = 0; w < sim.model.robot.wheels.size(); ++w) {
    const WheelModel& wheel = sim.model.robot.wheels[w];
    const WheelResult& r = data.wheels[w];
    const Vec3 c = worldPoint(d, wheel.body, Vec3::Zero());
    double tangential = 0, slip = 0;
    for (const TireForces& f : r.forces) {
      tangential += (f.force - f.normalForce).norm();
      slip = std::max(slip, f.slip);
    }
    row.insert(row.end(), {c.x(), c.y(), c.z(), sim.state.bodies.v[bodies[wheel.body].vIndex],
                           static_cast<double>(r.contacts.size()), r.normalLoad, tangential, slip});
  }
  for (const BoxResult& b : data.boxes) {
    double tangential = 0;
    for (const BodyContact& c : b.contacts) tangential += c.tangentialForce.norm();
    row.insert(row.end(), {static_cast<double>(b.contacts.size()), b.normalLoad, tangential});
  }
  for (const Body& b : bodies)
    if (isJoint(b) && b.name.rfind("base", 0) != 0) row.push_back(d.tau[b.vIndex]);
  if (sim.controller) row.push_back(static_cast<double>(sim.controller->phase()));
}

}  // namespace

void telemetryRow(const Simulation& sim, std::vector<double>& row) { rowOf(sim, sim.data, row); }

void startRow(const Simulation& sim, std::vector<double>& row) {
  WorldData data = sim.data;  // the step's own data stays as it is (caches, law counters)
  evaluate(sim.model, sim.state, data);
  rowOf(sim, data, row);
}

void RunStats::sample(const Simulation& sim) {
  maxAbsPitch.resize(sim.model.robot.sections.size(), 0.0);
  for (size_t s = 0; s < sim.model.robot.sections.size(); ++s)
    maxAbsPitch[s] =
        std::max(maxAbsPitch[s], std::abs(bodyPitch(sim, sim.model.robot.sections[s])));
  if (flippedAt < 0 && bodyTilt(sim, sim.model.robot.base).flippedOver)
    flippedAt = sim.state.bodies.time;
  maxBodyContacts = std::max(maxBodyContacts, bodyContactCount(sim));
}

}  // namespace roverlab
