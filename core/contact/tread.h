// Tread elasticity for the tangential tire force in time-stepped dynamics.
//
// Seed 000's law R_xy = φ_s(s)·R_z has, near standstill, a slope dR/dV_sk of
// about 2·φ_max·R_z / (s0·v_floor): a damper far too stiff for an explicit
// step of 0.4 ms unless the slip floor v_floor is large, and a large floor
// lets a braked robot creep down a slope at v ≈ g·dt·tan θ or more. A tread
// deflection z (a bristle, as in the LuGre friction model of Canudas de Wit
// et al. 1995) carries the force instead:
//   ż = V_sk − σ0 |V_sk| z / g,   g = φ_s(s)·R_z,   R_xy = −(σ0 z + σ1 ż).
// In steady sliding ż = 0 and |R_xy| = g: exactly seed 000's law. At rest
// z stops changing and the tread spring holds the robot: it creeps only as
// fast as φ_s(s(V)) = tan θ requires, micrometres per second with the
// default floor. The relaxation term is integrated implicitly, so the step
// is stable for any floor.
#pragma once

#include "common/types.h"

namespace roverlab {

struct TreadParams {
  double stiffness = 2.0e5;  ///< σ0: tangential tread stiffness (N/m)
  double damping = 2.0e3;    ///< σ1: tangential tread damping (N·s/m)
};

/// One step of the tread state. `z` is the deflection at the start of the
/// step (m), `slipVelocity` V_sk (m/s) and `normal` the unit contact normal
/// (z is projected onto the contact plane first), `limit` g = φ_s(s)·R_z (N),
/// `cap` the largest force the tread may hold (N). Writes the new deflection
/// to `zNext` and returns the tangential force on the wheel (N).
Vec3 treadForce(const TreadParams& p, const Vec3& z, const Vec3& slipVelocity, const Vec3& normal,
                double limit, double cap, double dt, Vec3& zNext);

}  // namespace roverlab
