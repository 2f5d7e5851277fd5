#include "sim/telemetry.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "world/state_hash.h"

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

double round6(double v) { return std::round(v * 1e6) / 1e6; }

// "box_" + the body's name, with the box's index among the body's boxes when it has several.
std::string boxName(const Simulation& sim, size_t box) {
  const int body = sim.model.boxes[box].body;
  int index = 0, count = 0;
  for (size_t b = 0; b < sim.model.boxes.size(); ++b)
    if (sim.model.boxes[b].body == body) index += b < box, ++count;
  const std::string name = "box_" + sim.model.robot.bodies.bodies[body].name;
  return count > 1 ? name + "_" + std::to_string(index) : name;
}

int bodyContactCount(const Simulation& sim) {
  int n = 0;
  for (const BoxResult& b : sim.data.boxes) n += static_cast<int>(b.contacts.size());
  return n;
}

}  // namespace

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
      c.push_back(boxName(sim, b) + k);
  if (sim.controller) c.push_back(sim.controllerKind->phaseColumn);
  return c;
}

void telemetryRow(const Simulation& sim, std::vector<double>& row) {
  row.clear();
  const MultibodyData& d = sim.data.bodies;
  const int base = sim.model.robot.base;
  const Vec3 p = worldPoint(d, base, Vec3::Zero());
  const Vec3 x = worldRotation(d, base).col(0);
  const Tilt tilt = bodyTilt(sim, base);
  row.insert(row.end(), {sim.state.bodies.time, p.x(), p.y(), p.z(), std::atan2(x.y(), x.x()),
                         tilt.pitch, tilt.roll, tilt.upsideDown ? 1.0 : 0.0});
  const std::vector<Body>& bodies = sim.model.robot.bodies.bodies;
  for (size_t i = 0; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    if (!isJoint(b) || isWheel(sim, static_cast<int>(i)) || b.name.rfind("base", 0) == 0) continue;
    row.push_back(sim.state.bodies.q[b.qIndex]);
  }
  for (size_t s = 1; s < sim.model.robot.sections.size(); ++s)
    row.push_back(bodyPitch(sim, sim.model.robot.sections[s]));
  for (size_t w = 0; w < sim.model.robot.wheels.size(); ++w) {
    const WheelModel& wheel = sim.model.robot.wheels[w];
    const WheelResult& r = sim.data.wheels[w];
    const Vec3 c = worldPoint(d, wheel.body, Vec3::Zero());
    double tangential = 0, slip = 0;
    for (const TireForces& f : r.forces) {
      tangential += (f.force - f.normalForce).norm();
      slip = std::max(slip, f.slip);
    }
    row.insert(row.end(), {c.x(), c.y(), c.z(), sim.state.bodies.v[bodies[wheel.body].vIndex],
                           static_cast<double>(r.contacts.size()), r.normalLoad, tangential, slip});
  }
  for (const BoxResult& b : sim.data.boxes) {
    double tangential = 0;
    for (const BodyContact& c : b.contacts) tangential += c.tangentialForce.norm();
    row.insert(row.end(), {static_cast<double>(b.contacts.size()), b.normalLoad, tangential});
  }
  if (sim.controller) row.push_back(static_cast<double>(sim.controller->phase()));
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

std::string summaryJson(const Simulation& sim, const RunStats& stats, double wallSeconds) {
  using json = nlohmann::json;
  const MultibodyData& d = sim.data.bodies;
  const int base = sim.model.robot.base;
  const Vec3 p = worldPoint(d, base, Vec3::Zero());
  const Vec3 x = worldRotation(d, base).col(0);
  const Tilt tilt = bodyTilt(sim, base);
  json out;
  out["ok"] = sim.outcome == RunOutcome::Ok;
  out["outcome"] = outcomeName(sim.outcome);
  if (!sim.data.error.empty()) out["error"] = sim.data.error;
  out["preset"] = sim.model.robot.preset;
  out["time_s"] = round6(sim.state.bodies.time);
  out["base"] = {{"position_m", {round6(p.x()), round6(p.y()), round6(p.z())}},
                 {"yaw_rad", round6(std::atan2(x.y(), x.x()))},
                 {"pitch_rad", round6(tilt.pitch)},
                 {"roll_rad", round6(tilt.roll)},
                 {"upside_down", tilt.upsideDown}};
  json wheels = json::array();
  const std::vector<Body>& bodies = sim.model.robot.bodies.bodies;
  for (size_t w = 0; w < sim.model.robot.wheels.size(); ++w) {
    const WheelResult& r = sim.data.wheels[w];
    const Vec3 c = worldPoint(d, sim.model.robot.wheels[w].body, Vec3::Zero());
    wheels.push_back({{"name", bodies[sim.model.robot.wheels[w].body].name},
                      {"in_contact", !r.contacts.empty()},
                      {"contacts", r.contacts.size()},
                      {"normal_N", round6(r.normalLoad)},
                      {"centre_m", {round6(c.x()), round6(c.y()), round6(c.z())}}});
  }
  out["wheels"] = wheels;
  json pitch = json::object();
  for (size_t s = 0; s < sim.model.robot.sections.size() && s < stats.maxAbsPitch.size(); ++s)
    pitch[bodies[sim.model.robot.sections[s]].name] = round6(stats.maxAbsPitch[s]);
  out["max_abs_pitch_rad"] = pitch;
  out["flipped"] = stats.flippedAt >= 0;
  out["flipped_at_s"] = stats.flippedAt >= 0 ? json(round6(stats.flippedAt)) : json(nullptr);
  json warnings = json::array();
  for (const Issue& w : sim.warnings)
    warnings.push_back({{"path", w.path}, {"message", w.message}});
  out["warnings"] = warnings;
  out["body_contacts"] = {{"end", bodyContactCount(sim)}, {"max", stats.maxBodyContacts}};
  if (sim.controller) out["phase"] = sim.controllerKind->phases[sim.controller->phase()];
  const ContactLawStats& law = sim.data.law;
  out["contact_law"] = {{"contacts", law.contacts},
                        {"friction_violations", law.frictionViolations},
                        {"max_friction_ratio", round6(law.maxFrictionRatio)},
                        {"centres_inside", law.centresInside},
                        {"max_deflection_ratio", round6(law.maxDeflectionRatio)},
                        {"body_contacts", law.bodyContacts},
                        {"body_friction_violations", law.bodyFrictionViolations},
                        {"max_body_depth_m", round6(law.maxBodyDepth)}};
  out["steps"] = sim.steps;
  out["state_hash"] = stateHashHex(sim.state);
  out["wall_s"] = round6(wallSeconds);
  const double sps = wallSeconds > 0 ? sim.steps / wallSeconds : 0.0;
  out["steps_per_s"] = std::round(sps);
  out["real_time_factor"] = round6(wallSeconds > 0 ? sim.state.bodies.time / wallSeconds : 0.0);
  return out.dump();
}

}  // namespace roverlab
