#include "control/observation.h"

#include <algorithm>
#include <limits>

namespace roverlab {

bool isObservedJoint(const Robot& robot, int body) {
  const Body& b = robot.bodies.bodies[body];
  if (b.joint != JointType::Revolute && b.joint != JointType::Prismatic) return false;
  for (const WheelModel& w : robot.wheels)
    if (w.body == body) return false;
  return true;
}

void observe(const WorldModel& model, const WorldState& state, const WorldData& data,
             Observation& out) {
  const Robot& robot = model.robot;
  const std::vector<Body>& bodies = robot.bodies.bodies;
  const MultibodyData& d = data.bodies;
  out.time_s = state.bodies.time;

  out.links.resize(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    LinkObservation& l = out.links[i];
    const int b = static_cast<int>(i);
    l.body = b;
    l.position_m = worldPoint(d, b, Vec3::Zero());
    l.rotation = worldRotationWithSpin(robot.bodies, state.bodies, d, b);
    l.velocity_m_s = worldPointVelocity(d, b, Vec3::Zero());
    l.angular_velocity_rad_s = worldAngularVelocity(d, b);
  }

  size_t j = 0;
  for (size_t i = 0; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    if (!isObservedJoint(robot, static_cast<int>(i))) continue;
    if (j == out.joints.size()) out.joints.emplace_back();
    JointObservation& o = out.joints[j++];
    o.body = static_cast<int>(i);
    o.prismatic = b.joint == JointType::Prismatic;
    o.position = state.bodies.q[b.qIndex];
    o.velocity = state.bodies.v[b.vIndex];
    o.effort = d.tau[b.vIndex];
  }
  out.joints.resize(j);

  out.wheels.resize(robot.wheels.size());
  // The probe's most pieces: all of them (sized once, so later updates allocate nothing).
  if (out.near.capacity() < model.terrain->pieces.size())
    out.near.reserve(model.terrain->pieces.size());
  for (size_t w = 0; w < robot.wheels.size(); ++w) {
    const int body = robot.wheels[w].body;
    const WheelResult& r = data.wheels[w];
    WheelObservation& o = out.wheels[w];
    o.body = body;
    o.centre_m = worldPoint(d, body, Vec3::Zero());
    o.spin_rad_s = state.bodies.v[bodies[body].vIndex];
    if (!groundUnder(*model.terrain, o.centre_m.x(), o.centre_m.y(), o.centre_m.z(), o.ground_z_m,
                     out.near))
      o.ground_z_m = std::numeric_limits<double>::quiet_NaN();
    o.normal_N = r.normalLoad;
    o.tangential_N = 0;
    o.slip = 0;
    if (o.touches.capacity() < r.contacts.capacity()) o.touches.reserve(r.contacts.capacity());
    o.touches.resize(r.contacts.size());
    for (size_t c = 0; c < r.contacts.size(); ++c) {
      TouchObservation& t = o.touches[c];
      t.point_m = r.contacts[c].surfacePoint;
      t.normal = r.contacts[c].normal;
      const bool forced = c < r.forces.size();  // forces are evaluated with the contacts
      t.normal_N = forced ? r.forces[c].normal : 0.0;
      t.tangential_N = forced ? (r.forces[c].force - r.forces[c].normalForce).norm() : 0.0;
      t.slip = forced ? r.forces[c].slip : 0.0;
      o.tangential_N += t.tangential_N;
      o.slip = std::max(o.slip, t.slip);
    }
  }

  out.boxes.resize(data.boxes.size());
  for (size_t b = 0; b < data.boxes.size(); ++b) {
    const BoxResult& r = data.boxes[b];
    BoxObservation& o = out.boxes[b];
    o.contacts = static_cast<int>(r.contacts.size());
    o.normal_N = r.normalLoad;
    o.tangential_N = 0;
    for (const BodyContact& c : r.contacts) o.tangential_N += c.tangentialForce.norm();
  }
}

int actuatorIndex(const Robot& robot, const std::string& name) {
  for (size_t a = 0; a < robot.actuators.size(); ++a)
    if (robot.actuators[a].name == name) return static_cast<int>(a);
  return -1;
}

}  // namespace roverlab
