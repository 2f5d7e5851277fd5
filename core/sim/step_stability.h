// What the explicit step can resolve: every stiffness k and damping c of the
// model (tires, treads, wheel speed controllers, servos, joint limits and
// springs) against the smallest effective mass m it acts on, for the fixed
// step dt (docs/dynamics.md, "Step stability").
//
// Semi-implicit Euler on m ẍ = −k x − c ẋ is stable when (ω dt)² + 2 (c/m) dt
// < 4, ω = √(k/m) (from the trace and determinant of its step matrix,
// Jury's criterion). The checks keep a factor of two or more from that
// boundary, since the effective mass changes with the configuration:
//   stiffness: ω·dt ≤ 0.5          damping: c·dt / m ≤ 1
// (together (0.5)² + 2·1 < 4).
#pragma once

#include <string>
#include <vector>

#include "robots/robot.h"

namespace roverlab {

/// One coefficient of the model and the mass it moves.
struct StepLimit {
  std::string
      param;  ///< where it is set, below `robot` (robots/parts.h CoefficientParams); "" when fixed
  std::string what;      ///< e.g. "tire damping of wheel 'wheel_1'"
  bool damping = false;  ///< true: a damping c (c·dt/m ≤ 1); false: a stiffness k (ω·dt ≤ 0.5)
  double coefficient = 0.0;  ///< c (N·s/m or N·m·s/rad) or k (N/m or N·m/rad)
  double scale = 1.0;    ///< coefficient / parameter value (e.g. 50 for a servo's limit stiffness)
  double mass = 0.0;     ///< effective mass (kg) or moment of inertia (kg·m²) it acts on
  bool angular = false;  ///< a revolute joint's torque on an inertia, not a force on a mass

  /// Largest step (s) that resolves it (infinite for a zero coefficient).
  double maxDt() const;
  /// Largest coefficient resolved at step dt, in the coefficient's units.
  double maxCoefficient(double dt) const;
};

/// Stiffness ω·dt and damping c·dt/m bounds (see above).
constexpr double kMaxOmegaDt = 0.5;
constexpr double kMaxDampingDt = 1.0;

/// Every stiffness and damping of the robot with its effective mass in the
/// configuration `state` (joint space: 1 / (M⁻¹)ᵢᵢ; at a wheel's lowest
/// point: from J M⁻¹ Jᵀ, normal and tangential). The tire stiffness is taken
/// against the robot's mass shared among its wheels (all wheels carry it
/// together).
std::vector<StepLimit> stepLimits(const Robot& robot, const MultibodyState& state);

/// Sets each joint friction's band v_s (robots/parts.h, JointFriction) for
/// step dt in the configuration `state`: F·dt / v_s ≤ kMaxDampingDt/2 of the
/// joint's inertia, and v_s ≥ kFrictionSlipFloor.
void setFrictionBands(Robot& robot, const MultibodyState& state, double dt);

}  // namespace roverlab
