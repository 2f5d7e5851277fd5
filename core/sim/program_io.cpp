#include "sim/program_io.h"

#include <cmath>
#include <limits>

#include "common/elementary.h"
#include "sim/telemetry.h"
#include "sim/tilt.h"

namespace roverlab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::string& bodyName(const Simulation& sim, int body) {
  return sim.model.robot.bodies.bodies[body].name;
}

}  // namespace

std::vector<std::string> observationColumns(const Simulation& sim) {
  std::vector<std::string> c = {"time_s"};
  for (const char* k : {"x_m", "y_m", "z_m", "yaw_rad", "pitch_rad", "roll_rad", "vx_m_s", "vy_m_s",
                        "vz_m_s", "wx_rad_s", "wy_rad_s", "wz_rad_s"})
    c.push_back(std::string("base.") + k);
  for (size_t s = 1; s < sim.model.robot.sections.size(); ++s)
    c.push_back("sections." + bodyName(sim, sim.model.robot.sections[s]) + ".pitch_rad");
  const std::vector<Body>& bodies = sim.model.robot.bodies.bodies;
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (!isObservedJoint(sim.model.robot, static_cast<int>(i))) continue;
    const std::string p = "joints." + bodies[i].name + ".";
    if (bodies[i].joint == JointType::Prismatic)
      for (const char* k : {"position_m", "speed_m_s", "force_N"}) c.push_back(p + k);
    else
      for (const char* k : {"position_rad", "speed_rad_s", "torque_Nm"}) c.push_back(p + k);
  }
  for (const WheelModel& w : sim.model.robot.wheels) {
    const std::string p = "wheels." + bodyName(sim, w.body) + ".";
    for (const char* k : {"x_m", "y_m", "z_m", "spin_rad_s", "contacts", "normal_N", "tangential_N",
                          "slip", "ground_z_m"})
      c.push_back(p + k);
    for (int t = 0; t < kObservedTouches; ++t)
      for (const char* k : {"x_m", "y_m", "z_m", "nx", "ny", "nz", "normal_N"})
        c.push_back(p + "touches." + std::to_string(t) + "." + k);
  }
  for (size_t b = 0; b < sim.model.boxes.size(); ++b)
    for (const char* k : {"contacts", "normal_N", "tangential_N"})
      c.push_back("boxes." + boxName(sim, b) + "." + k);
  return c;
}

void observationRow(const Simulation& sim, std::vector<double>& row) {
  const Observation& o = sim.observation;
  row.clear();
  row.push_back(o.time_s);
  const LinkObservation& base = o.links[sim.model.robot.base];
  const Tilt tilt = tiltOf(base.rotation);
  const Vec3 x = base.rotation.col(0);
  row.insert(row.end(), {base.position_m.x(), base.position_m.y(), base.position_m.z(),
                         elementary::atan2(x.y(), x.x()), tilt.pitch, tilt.roll});
  for (int k = 0; k < 3; ++k) row.push_back(base.velocity_m_s[k]);
  for (int k = 0; k < 3; ++k) row.push_back(base.angular_velocity_rad_s[k]);
  for (size_t s = 1; s < sim.model.robot.sections.size(); ++s)
    row.push_back(tiltOf(o.links[sim.model.robot.sections[s]].rotation).pitch);
  for (const JointObservation& j : o.joints)
    row.insert(row.end(), {j.position, j.velocity, j.effort});
  for (const WheelObservation& w : o.wheels) {
    row.insert(row.end(), {w.centre_m.x(), w.centre_m.y(), w.centre_m.z(), w.spin_rad_s,
                           static_cast<double>(w.touches.size()), w.normal_N, w.tangential_N,
                           w.slip, w.ground_z_m});
    for (size_t t = 0; t < static_cast<size_t>(kObservedTouches); ++t) {
      if (t < w.touches.size()) {
        const TouchObservation& c = w.touches[t];
        row.insert(row.end(), {c.point_m.x(), c.point_m.y(), c.point_m.z(), c.normal.x(),
                               c.normal.y(), c.normal.z(), c.normal_N});
      } else {
        row.insert(row.end(), 7, kNaN);
      }
    }
  }
  for (const BoxObservation& b : o.boxes)
    row.insert(row.end(), {static_cast<double>(b.contacts), b.normal_N, b.tangential_N});
}

std::vector<std::string> commandColumns(const Simulation& sim) {
  std::vector<std::string> c = {"wheel_speed", "left_speed", "right_speed"};
  for (const Actuator& a : sim.model.robot.actuators) c.push_back("actuators." + a.name);
  return c;
}

void commandFromRow(const Simulation& sim, const double* row, size_t size, Command& out) {
  out.clear(sim.model.robot.actuators.size());
  auto at = [&](size_t k) { return k < size ? row[k] : kNaN; };
  out.wheel_speed_rad_s = at(0);
  out.left_speed_rad_s = at(1);
  out.right_speed_rad_s = at(2);
  for (size_t a = 0; a < out.actuators.size(); ++a) out.actuators[a] = at(3 + a);
}

}  // namespace roverlab
