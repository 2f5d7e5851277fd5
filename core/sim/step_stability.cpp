#include "sim/step_stability.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

#include "common/elementary.h"

namespace roverlab {
namespace {

// Unit loads on a model without gravity, at rest: accelerations are M⁻¹ times
// the load (RBDA: the articulated-body algorithm with zero velocity and no
// gravity solves M q̈ = τ + Jᵀ f).
struct UnitLoads {
  Multibody model;
  MultibodyState state;
  MultibodyData data;

  UnitLoads(const Multibody& bodies, const MultibodyState& at) : model(bodies), state(at) {
    model.gravity.setZero();
    state.v.setZero();
    data = makeData(model);
  }

  const Eigen::VectorXd& solve() {
    aba(model, state, data);
    return data.acceleration;
  }

  // 1 / (M⁻¹)ᵢᵢ for velocity coordinate i: the inertia a joint force meets
  // when the rest of the robot is free to move.
  double jointInertia(int i) {
    for (Vec6& f : data.externalForce) f.setZero();
    data.tau.setZero();
    data.tau[i] = 1.0;
    const double a = solve()[i];
    return a > 0 ? 1.0 / a : std::numeric_limits<double>::infinity();
  }

  // J M⁻¹ Jᵀ at world point p of `body` (1/kg): column k is the acceleration
  // of the point under a unit force along axis k there. Needs the kinematics
  // of `state` in `data`.
  Mat3 pointMobility(int body, const Vec3& p) {
    Mat3 out;
    const Transform& x = data.worldToBody[body];
    const Vec3 local = x.rot * (p - x.pos);
    data.tau.setZero();
    for (int k = 0; k < 3; ++k) {
      for (Vec6& f : data.externalForce) f.setZero();
      data.externalForce[body] = worldForceAt(p, Vec3::Unit(k));
      MultibodyState moving = state;
      moving.v = solve();  // at rest the point acceleration is J q̈: the point velocity for v = q̈
      forwardKinematics(model, moving, data);
      out.col(k) = worldPointVelocity(data, body, local);
    }
    return out;
  }
};

double massFrom(double mobility) {
  return mobility > 0 ? 1.0 / mobility : std::numeric_limits<double>::infinity();
}

}  // namespace

double StepLimit::maxDt() const {
  if (!(coefficient > 0)) return std::numeric_limits<double>::infinity();
  return damping ? kMaxDampingDt * mass / coefficient : kMaxOmegaDt / std::sqrt(coefficient / mass);
}

double StepLimit::maxCoefficient(double dt) const {
  return damping ? kMaxDampingDt * mass / dt : mass * (kMaxOmegaDt / dt) * (kMaxOmegaDt / dt);
}

std::vector<StepLimit> stepLimits(const Robot& robot, const MultibodyState& state) {
  std::vector<StepLimit> out;
  const std::vector<Body>& bodies = robot.bodies.bodies;
  UnitLoads loads(robot.bodies, state);
  double total = 0;
  for (const Body& b : bodies) total += b.mass;

  for (const WheelModel& w : robot.wheels) {
    const std::string name = "'" + bodies[w.body].name + "'";
    // The lowest point of the wheel, where a flat ground would touch it.
    forwardKinematics(loads.model, loads.state, loads.data);
    const Vec3 point =
        worldPoint(loads.data, w.body, Vec3::Zero()) - w.shape.radius * Vec3::UnitZ();
    const Mat3 mobility = loads.pointMobility(w.body, point);
    const double normal = massFrom(mobility(2, 2));
    // The lightest direction in the ground plane: the largest eigenvalue of the 2×2 block.
    const Eigen::Matrix2d planar =
        0.5 * (mobility.topLeftCorner<2, 2>() + mobility.topLeftCorner<2, 2>().transpose());
    const double tangential =
        massFrom(Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(planar).eigenvalues()(1));
    out.push_back({w.tireParams.stiffness, "tire stiffness of wheel " + name, false,
                   w.tire.stiffness, 1.0, total / robot.wheels.size(), false});
    out.push_back({w.tireParams.damping, "tire damping of wheel " + name, true, w.tire.damping, 1.0,
                   normal, false});
    out.push_back({w.treadParams.stiffness, "tread stiffness of wheel " + name, false,
                   w.tread.stiffness, 1.0, tangential, false});
    out.push_back({w.treadParams.damping, "tread damping of wheel " + name, true, w.tread.damping,
                   1.0, tangential, false});
  }
  for (const Actuator& a : robot.actuators) {
    const Body& b = bodies[a.body];
    const double inertia = loads.jointInertia(b.vIndex);
    const bool angular = b.joint == JointType::Revolute;
    const CoefficientParams& p = a.params;
    const std::string name = "'" + a.name + "'";
    if (a.mode == ActuatorMode::Speed) {
      out.push_back(
          {p.damping, "speed controller gain of " + name, true, a.gain, 1.0, inertia, angular});
      out.push_back({p.stiffness, "speed controller integral gain of " + name, false,
                     a.integralGain, 1.0, inertia, angular});
    } else if (a.mode == ActuatorMode::Position) {
      out.push_back({p.stiffness, "servo gain of " + name, false, a.gain, 1.0, inertia, angular});
      out.push_back(
          {p.damping, "servo damping of " + name, true, a.damping, 1.0, inertia, angular});
    }
  }
  for (const JointLimit& l : robot.limits) {
    const double inertia = loads.jointInertia(bodies[l.body].vIndex);
    const bool angular = bodies[l.body].joint == JointType::Revolute;
    const CoefficientParams& p = l.params;
    const std::string name = "'" + bodies[l.body].name + "'";
    // A servo's limit is 50× its gain and 2× its damping (robots/robot.cpp addServo).
    const Actuator* servo = nullptr;
    for (const Actuator& a : robot.actuators)
      if (a.body == l.body && a.mode == ActuatorMode::Position) servo = &a;
    const double kScale = servo && servo->gain > 0 ? l.stiffness / servo->gain : 1.0;
    const double cScale = servo && servo->damping > 0 ? l.damping / servo->damping : 1.0;
    out.push_back({p.stiffness, "joint limit stiffness of " + name, false, l.stiffness, kScale,
                   inertia, angular});
    out.push_back(
        {p.damping, "joint limit damping of " + name, true, l.damping, cScale, inertia, angular});
  }
  for (const JointFriction& f : robot.frictions) {
    if (!(f.slipSpeed > 0)) continue;  // its band is set for the step (setFrictionBands)
    const double inertia = loads.jointInertia(bodies[f.body].vIndex);
    out.push_back({"", "friction band of '" + bodies[f.body].name + "'", true,
                   f.force / f.slipSpeed, 1.0, inertia,
                   bodies[f.body].joint == JointType::Revolute});
  }
  for (const JointSpring& s : robot.springs) {
    const double inertia = loads.jointInertia(bodies[s.body].vIndex);
    const bool angular = bodies[s.body].joint == JointType::Revolute;
    const CoefficientParams& p = s.params;
    const std::string name = "'" + bodies[s.body].name + "'";
    // A progressive spring is stiffest at the far end of the joint's range:
    // k + 3 k3 e² with e the largest distance from rest to a limit.
    double reach = 0;
    for (const JointLimit& l : robot.limits)
      if (l.body == s.body)
        reach = std::max(std::abs(l.lower - s.rest), std::abs(l.upper - s.rest));
    const double stiffness = s.stiffness + 3 * s.cubic * reach * reach;
    out.push_back({p.stiffness, "spring stiffness of " + name, false, stiffness,
                   s.stiffness > 0 ? stiffness / s.stiffness : 1.0, inertia, angular});
    out.push_back({p.damping, "spring damping of " + name, true, s.damping, 1.0, inertia, angular});
  }
  return out;
}

void setFrictionBands(Robot& robot, const MultibodyState& state, double dt) {
  if (robot.frictions.empty()) return;
  UnitLoads loads(robot.bodies, state);
  for (JointFriction& f : robot.frictions) {
    const double inertia = loads.jointInertia(robot.bodies.bodies[f.body].vIndex);
    f.slipSpeed = std::max(kFrictionSlipFloor, 2 * f.force * dt / (kMaxDampingDt * inertia));
  }
}

}  // namespace roverlab
