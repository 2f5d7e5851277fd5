// The parts a robot model is built from besides its bodies: wheels,
// actuators, joint limits and joint springs. Presets (robots/) assemble them;
// the world (sim/world.h) steps them.
#pragma once

#include <string>

#include "contact/tire_model.h"
#include "contact/tread.h"
#include "contact/wheel_contact.h"

namespace roverlab {

/// Where a stiffness and a damping of the model are set, as paths below the
/// scenario's `robot` (a preset's "params.fold_gain", a description's
/// "model.actuators[2].gain"; empty where a preset fixes the value). The
/// validator names them when the step cannot resolve a coefficient.
struct CoefficientParams {
  std::string stiffness;  ///< e.g. "params.fold_gain"; for a speed controller its integral gain
  std::string damping;    ///< e.g. "params.fold_damping"; for a speed controller its gain
};

/// A wheel: a body attached to its carrier by a revolute spin joint. Its frame
/// origin is the wheel centre O and the joint axis is the axle n_k.
struct WheelModel {
  int body = -1;  ///< the wheel's body (its joint must be Revolute)
  WheelShape shape;
  TireParams tire;
  TreadParams tread;
  CoefficientParams tireParams,
      treadParams;  ///< where tire and tread stiffness and damping are set
};

enum class ActuatorMode : unsigned char {
  Speed,  ///< wheel motor, PI: τ = clamp(gain·e + integralGain·∫e dt, ±limit), e = target − v,
          ///< target in rad/s or m/s; the integral stops while the torque is saturated
  Position,  ///< servo: τ = clamp(gain·(target − q) − damping·v, ±limit), target in rad or m
  Torque,    ///< direct input: τ = clamp(target, ±limit)
};

struct Actuator {
  std::string name;
  int body = -1;  ///< body whose 1-DOF joint is driven
  ActuatorMode mode = ActuatorMode::Speed;
  double gain = 100.0;        ///< Speed: N·m·s/rad (N·s/m); Position: N·m/rad (N/m)
  double integralGain = 0.0;  ///< Speed only: N·m/rad (N/m); holds a braked wheel without creep
  double damping = 0.0;       ///< Position only: N·m·s/rad (N·s/m)
  double limit = 100.0;       ///< torque (N·m) or force (N) limit
  CoefficientParams params = {};  ///< the preset parameters that set its gains

  /// Its torque (N·m) or force (N) before the limit, from the target, the
  /// joint's position q and velocity v, and the speed loop's integral ∫e dt.
  double demand(double target, double q, double v, double integral) const {
    switch (mode) {
      case ActuatorMode::Speed:
        return gain * (target - v) + integralGain * integral;
      case ActuatorMode::Position:
        return gain * (target - q) - damping * v;
      case ActuatorMode::Torque:
        return target;
    }
    return 0.0;
  }
};

/// Joint range kept by a stiff non-holding spring-damper outside [lower, upper].
struct JointLimit {
  int body = -1;
  double lower = -1e300, upper = 1e300;  ///< (rad or m)
  double stiffness = 1e5;                ///< N·m/rad (N/m) beyond the limit
  double damping = 1e3;                  ///< N·m·s/rad (N·s/m) beyond the limit
  CoefficientParams params = {};         ///< the preset parameters that set stiffness, damping
};

/// Passive spring-damper on a 1-DOF joint (a rocker, a suspension slider):
/// τ = −(k e + k3 e³) − c v with e = q − rest.
struct JointSpring {
  int body = -1;
  double stiffness = 0.0;  ///< k: N·m/rad (N/m)
  double damping = 0.0;    ///< c: N·m·s/rad (N·s/m)
  double rest = 0.0;       ///< rad (m)
  double cubic = 0.0;      ///< k3: N·m/rad³ (N/m³), the progressive part of a nonlinear spring
  CoefficientParams params = {};  ///< the preset parameters that set stiffness, damping
};

/// Coulomb friction on a 1-DOF joint: τ = −F · clamp(v / v_s, −1, 1), the
/// full F once the joint slides faster than v_s, proportional below it (a
/// joint under a torque smaller than F creeps at most at v_s·τ/F). makeSimulation
/// sets v_s for the step: the band's damping F/v_s is at most half of what
/// the step resolves on the joint's inertia (sim/step_stability.h), and v_s is
/// at least kFrictionSlipFloor.
struct JointFriction {
  int body = -1;
  double force = 0.0;      ///< F: N·m (N)
  double slipSpeed = 0.0;  ///< v_s: rad/s (m/s), set for the step (setFrictionBands)
};

/// The smallest friction band v_s (rad/s or m/s).
constexpr double kFrictionSlipFloor = 1e-3;

/// A joint that follows another (URDF <mimic>, a rocker differential):
/// q = multiplier · q_leader + offset, held by a constraint force
/// (world/mimic_constraints.cpp) at every force evaluation.
struct JointMimic {
  int body = -1;            ///< the following joint's body
  int leader = -1;          ///< the leading joint's body
  double multiplier = 1.0;  ///< (-; m/rad or rad/m between kinds)
  double offset = 0.0;      ///< rad (m)
};

}  // namespace roverlab
