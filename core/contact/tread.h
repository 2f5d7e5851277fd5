// Tread elasticity for the tangential tire force and the rolling-resistance
// moment in time-stepped dynamics.
//
// Tangential force. [GKS2025]'s law R_xy = φ_s(s)·R_z (eqs. 7-10) has, near
// standstill, a slope dR/dV_sk of about 2·φ_max·R_z / (s0·v_floor): a damper
// far too stiff for an explicit step of 0.4 ms unless the slip floor v_floor
// is large, and a large floor lets a braked robot creep down a slope at
// v ≈ g·dt·tan θ or more. A tread deflection z (a bristle, as in the LuGre
// friction model of Canudas de Wit et al. 1995) carries the force instead:
//   ż = V_sk − σ0 |V_sk| z / g,   R_xy = −(σ0 z + σ1 ż),
//   g = max(φ_s(s)·R_z, φ_peak·R_z·e^{−(|V_sk|/v_s)²}).
// In steady sliding ż = 0 and |R_xy| = g: [GKS2025]'s law φ_s(s)·R_z once the
// slip speed is a few v_s (at 3 v_s the Stribeck term is 1e-4 of the peak).
// Below v_s, g rises to the curve's peak φ_peak = max_s φ_s(s) as in LuGre's
// Stribeck curve: the relaxation rate σ0|V_sk|/g vanishes at rest, so the
// tread spring holds any force up to the peak without creeping (φ_s(s) alone
// tends to 0 with the slip, and a held contact would creep at micrometres per
// second). The relaxation term is integrated implicitly, so the step is
// stable for any slip floor.
//
// The force is bounded. The damping term σ1·ż has no bound of its own: when
// the load drops within a step (a wheel leaving the ground, a contact moving
// to another piece) the bristle must relax at once and ż is huge. So the
// total |R_xy| is capped by the curve's peak, max_s φ_s(s)·R_z, and the
// deflection by the same force over σ0: the tread holds at most the highest
// grip the adhesion curve has (its static value), never more, whatever the
// transient. In steady sliding the cap is not reached and the law is exact.
//
// Rolling resistance. [GKS2025] eq. 11's −f·R_z·r0·sign ω_k switches sign
// with the spin, so a free wheel on a slope with tan α < f creeps and a
// braked wheel chatters. The same spring-and-slider idea removes both: a
// rolling deflection θ (rad) winds up with the spin and holds the moment
// −(k_r θ + c_r ω) while it is below the breakaway moment f·R_z·r0; beyond
// it the moment is f·R_z·r0 against the spin, the paper's value.
//   θ_next = clamp(θ + ω·dt, ±θ_b),  k_r = f·R_z·r0 / θ_b,  c_r = k_r·τ_r.
// At rest the wheel moves at most θ_b (its rolling travel r·θ_b) and stops.
#pragma once

#include "common/types.h"

namespace roverlab {

struct TreadParams {
  double stiffness = 2.0e5;       ///< σ0: tangential tread stiffness (N/m)
  double damping = 2.0e3;         ///< σ1: tangential tread damping (N·s/m)
  double stictionSpeed = 1.0e-3;  ///< v_s: slip speed below which the tread sticks (m/s)
  double rollingBreakaway =
      2.0e-3;  ///< θ_b: spin angle at which rolling resistance breaks away (rad)
  double rollingDampingTime = 0.02;  ///< τ_r: c_r / k_r of the rolling-resistance spring (s)
};

/// One step of the tread state. `z` is the deflection at the start of the
/// step (m), `slipVelocity` V_sk (m/s) and `normal` the unit contact normal
/// (z is projected onto the contact plane first), `limit` g = φ_s(s)·R_z (N),
/// `bound` the largest force the tread may hold, max_s φ_s(s)·R_z (N).
/// Writes the new deflection to `zNext` and returns the tangential force on
/// the wheel (N), |force| ≤ bound.
Vec3 treadForce(const TreadParams& p, const Vec3& z, const Vec3& slipVelocity, const Vec3& normal,
                double limit, double bound, double dt, Vec3& zNext);

/// One step of the rolling-resistance state. `theta` is the rolling
/// deflection at the start of the step (rad), `spinRate` the wheel's spin
/// about its axle (rad/s), `breakaway` the sliding moment f·R_z·r0 (N·m),
/// `spinInertia` the wheel's inertia about its axle (kg·m²), which bounds
/// the spring and damper so the explicit step stays stable. Writes the new
/// deflection to `thetaNext` and returns the moment on the wheel about its
/// axle (N·m), |moment| ≤ breakaway.
double rollingResistance(const TreadParams& p, double theta, double spinRate, double breakaway,
                         double spinInertia, double dt, double& thetaNext);

}  // namespace roverlab
