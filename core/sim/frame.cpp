#include "sim/frame.h"

#include <Eigen/Geometry>
#include <limits>

#include "sim/telemetry.h"

namespace roverlab {

FrameLayout frameLayout(const Simulation& sim) {
  FrameLayout l;
  l.bodies = static_cast<int>(sim.model.robot.bodies.bodies.size());
  l.wheels = static_cast<int>(sim.model.robot.wheels.size());
  l.boxes = static_cast<int>(sim.model.boxes.size());
  l.telemetry = static_cast<int>(telemetryColumns(sim).size());
  l.contacts = l.poses + FrameLayout::kPose * l.bodies;
  l.boxContacts = l.contacts + FrameLayout::kWheel * l.wheels;
  l.row = l.boxContacts + FrameLayout::kWheel * l.boxes;
  l.size = l.row + l.telemetry;
  return l;
}

void writeFrame(Simulation& sim, const FrameLayout& layout, std::vector<double>& frame) {
  updateKinematics(sim);
  frame.assign(layout.size, 0.0);
  frame[0] = sim.state.bodies.time;
  frame[1] = static_cast<double>(sim.steps);
  frame[2] = sim.data.error.empty() ? 0.0 : 1.0;
  for (int b = 0; b < layout.bodies; ++b) {
    double* out = &frame[layout.poses + FrameLayout::kPose * b];
    const Vec3 p = worldPoint(sim.data.bodies, b, Vec3::Zero());
    const Eigen::Quaterniond q(
        worldRotationWithSpin(sim.model.robot.bodies, sim.state.bodies, sim.data.bodies, b));
    out[0] = p.x(), out[1] = p.y(), out[2] = p.z();
    out[3] = q.w(), out[4] = q.x(), out[5] = q.y(), out[6] = q.z();
  }
  for (int w = 0; w < layout.wheels; ++w) {
    const WheelResult& r = sim.data.wheels[w];
    double* out = &frame[layout.contacts + FrameLayout::kWheel * w];
    out[0] = static_cast<double>(r.contacts.size());
    for (int k = 0; k < kContactSlots && k < static_cast<int>(r.contacts.size()); ++k) {
      double* slot = out + 1 + FrameLayout::kSlot * k;
      const WheelContact& c = r.contacts[k];
      const TireForces& f = r.forces[k];
      const Vec3 t = f.force - f.normalForce;
      for (int i = 0; i < 3; ++i) {
        slot[FrameLayout::kPoint + i] = c.point[i];
        slot[FrameLayout::kNormalForce + i] = f.normalForce[i];
        slot[FrameLayout::kTangentialForce + i] = t[i];
      }
      slot[FrameLayout::kDepth] = c.deflection;
      slot[FrameLayout::kFeature] = c.piece;
      slot[FrameLayout::kSlip] = f.slip;
    }
  }
  for (int b = 0; b < layout.boxes; ++b) {
    const std::vector<BodyContact>& cs = sim.data.boxes[b].contacts;
    double* out = &frame[layout.boxContacts + FrameLayout::kWheel * b];
    out[0] = static_cast<double>(cs.size());
    for (int k = 0; k < kContactSlots && k < static_cast<int>(cs.size()); ++k) {
      double* slot = out + 1 + FrameLayout::kSlot * k;
      for (int i = 0; i < 3; ++i) {
        slot[FrameLayout::kPoint + i] = cs[k].point[i];
        slot[FrameLayout::kNormalForce + i] = cs[k].normalForce[i];
        slot[FrameLayout::kTangentialForce + i] = cs[k].tangentialForce[i];
      }
      slot[FrameLayout::kDepth] = cs[k].depth;
      slot[FrameLayout::kFeature] = cs[k].piece;
      slot[FrameLayout::kSlip] = std::numeric_limits<double>::quiet_NaN();
    }
  }
  telemetryRow(sim, sim.row);  // sim.row is reused: no allocation per frame
  std::copy(sim.row.begin(), sim.row.end(), frame.begin() + layout.row);
}

}  // namespace roverlab
