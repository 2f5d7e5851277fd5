#include "sim/describe.h"

#include <cmath>

#include "common/elementary.h"
#include "common/size_optimized.h"
#include "robots/robot.h"
#include "scenario/robot_reader.h"
#include "sim/frame.h"
#include "world/state_hash.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

using json = nlohmann::json;

double round6(double v) { return std::round(v * 1e6) / 1e6; }

json vec3(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

json rounded(const Vec3& v) { return {round6(v.x()), round6(v.y()), round6(v.z())}; }

json layoutOf(const FrameLayout& l) {
  return {{"bodies", l.bodies},
          {"wheels", l.wheels},
          {"poses", l.poses},
          {"contacts", l.contacts},
          {"boxes", l.boxes},
          {"boxContacts", l.boxContacts},
          {"row", l.row},
          {"size", l.size},
          {"pose", FrameLayout::kPose},
          {"slot", FrameLayout::kSlot},
          {"slotFields",
           {{"point", FrameLayout::kPoint},
            {"normalForce", FrameLayout::kNormalForce},
            {"tangentialForce", FrameLayout::kTangentialForce},
            {"depth", FrameLayout::kDepth},
            {"feature", FrameLayout::kFeature},
            {"slip", FrameLayout::kSlip}}},
          {"wheel", FrameLayout::kWheel},
          {"slots", kContactSlots}};
}

}  // namespace

json describeIssues(const std::vector<Issue>& issues) {
  json list = json::array();
  for (const Issue& i : issues) list.push_back({{"path", i.path}, {"message", i.message}});
  return list;
}

json describePresets() {
  json out = json::array();
  for (const std::string& name : presetNames()) {
    json params = json::array();
    for (const ParamSpec& p : presetParams(name))
      params.push_back({{"name", p.name},
                        {"value", p.value},
                        {"min", p.min},
                        {"max", p.max},
                        {"unit", p.unit},
                        {"description", p.description}});
    out.push_back({{"preset", name}, {"description", presetDescription(name)}, {"params", params}});
  }
  return out;
}

json describeModel(const Simulation& sim, const Scenario& scenario) {
  const std::vector<Body>& bodyList = sim.model.robot.bodies.bodies;
  json bodies = json::array();
  for (const Body& b : bodyList)
    bodies.push_back({{"name", b.name}, {"parent", b.parent}, {"boxes", json::array()}});
  for (const BodyBox& box : sim.model.robot.boxes)
    bodies[box.body]["boxes"].push_back({{"centre", vec3(box.centre)}, {"size", vec3(box.size)}});
  json wheels = json::array();
  for (const WheelModel& w : sim.model.robot.wheels)
    wheels.push_back({{"body", w.body},
                      {"name", bodyList[w.body].name},
                      {"radius", w.shape.radius},
                      {"width", w.shape.width}});
  json track1 = json::array();
  for (const Track1Node& n : scenario.track1) track1.push_back(vec3(n.point));
  json joints = json::array();
  for (const auto& [name, index] : sim.model.robot.joints) {
    const int body = sim.model.robot.actuators[index].body;
    json joint = {{"name", name}, {"prismatic", bodyList[body].joint == JointType::Prismatic}};
    for (const JointLimit& l : sim.model.robot.limits)
      if (l.body == body) {
        joint["lower"] = l.lower;
        joint["upper"] = l.upper;
      }
    joints.push_back(joint);
  }
  double mass = 0;
  for (const Body& b : bodyList) mass += b.mass;
  json m;
  // The body of each contact box (the frame's box contacts, in this order).
  json boxBodies = json::array();
  for (const ContactBox& box : sim.model.boxes) boxBodies.push_back(box.body);
  m["bodies"] = bodies;
  m["boxBodies"] = boxBodies;
  m["wheels"] = wheels;
  m["track1"] = track1;
  m["joints"] = joints;
  m["sections"] = sim.model.robot.sections;
  m["columns"] = telemetryColumns(sim);
  m["layout"] = layoutOf(frameLayout(sim));
  m["robot"] = sim.model.robot.name;
  m["programParams"] = json::object();
  for (const auto& [name, value] : scenario.control.program.params)
    m["programParams"][name] = value;
  m["source"] = robotSourceName(scenario.robot.source);
  m["preset"] =
      scenario.robot.source == RobotSource::Preset ? json(scenario.robot.preset) : json(nullptr);
  m["robotDescription"] = writeRobotDescription(scenario.robot.description);
  m["controller"] = sim.controllerKind ? sim.controllerKind->name : std::string("none");
  // names of the controller's phases, by its telemetry value
  m["phases"] = sim.controllerKind ? json(sim.controllerKind->phases) : json::array();
  // the telemetry column that carries the phase; null without a controller
  m["phaseColumn"] = sim.controllerKind ? json(sim.controllerKind->phaseColumn) : json(nullptr);
  m["planar"] = sim.model.robot.planar;
  m["base"] = sim.model.robot.base;
  m["maxWheelSpeed"] = sim.model.robot.maxWheelSpeed;
  m["mass"] = mass;
  m["dt"] = sim.model.dt;
  m["duration"] = sim.duration;
  m["warnings"] = describeIssues(sim.warnings);
  m["name"] = scenario.name;
  m["description"] = scenario.description;
  return m;
}

json describeRun(const Simulation& sim, const RunStats& stats, double wallSeconds) {
  const MultibodyData& d = sim.data.bodies;
  const int base = sim.model.robot.base;
  const Vec3 x = worldRotation(d, base).col(0);
  const Tilt tilt = bodyTilt(sim, base);
  json out;
  out["ok"] = sim.outcome == RunOutcome::Ok;
  out["outcome"] = outcomeName(sim.outcome);
  if (!sim.data.error.empty()) out["error"] = sim.data.error;
  out["robot"] = sim.model.robot.name;
  out["time_s"] = round6(sim.state.bodies.time);
  out["base"] = {{"position_m", rounded(worldPoint(d, base, Vec3::Zero()))},
                 {"yaw_rad", round6(elementary::atan2(x.y(), x.x()))},
                 {"pitch_rad", round6(tilt.pitch)},
                 {"roll_rad", round6(tilt.roll)},
                 {"upside_down", tilt.upsideDown}};
  json wheels = json::array();
  const std::vector<Body>& bodies = sim.model.robot.bodies.bodies;
  for (size_t w = 0; w < sim.model.robot.wheels.size(); ++w) {
    const WheelResult& r = sim.data.wheels[w];
    wheels.push_back(
        {{"name", bodies[sim.model.robot.wheels[w].body].name},
         {"in_contact", !r.contacts.empty()},
         {"contacts", r.contacts.size()},
         {"normal_N", round6(r.normalLoad)},
         {"centre_m", rounded(worldPoint(d, sim.model.robot.wheels[w].body, Vec3::Zero()))}});
  }
  out["wheels"] = wheels;
  json pitch = json::object();
  for (size_t s = 0; s < sim.model.robot.sections.size() && s < stats.maxAbsPitch.size(); ++s)
    pitch[bodies[sim.model.robot.sections[s]].name] = round6(stats.maxAbsPitch[s]);
  out["max_abs_pitch_rad"] = pitch;
  out["flipped"] = stats.flippedAt >= 0;
  out["flipped_at_s"] = stats.flippedAt >= 0 ? json(round6(stats.flippedAt)) : json(nullptr);
  out["warnings"] = describeIssues(sim.warnings);
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
  return out;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
