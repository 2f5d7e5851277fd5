// Tire forces as pure functions.
//
// 3-D model: [GKS2025] eqs. 2-12 (spring-damper normal reaction, non-holding;
// tangential reaction φ_s(s)·R_z opposite the sliding velocity; slip ratio s;
// rolling-resistance moment M_ky about the axle; remaining moment and force to
// the axle). Planar model: [SP2017] (absolute slip speed S, δ̇ = n_p·V_K).
#pragma once

#include "common/types.h"
#include "terrain/material.h"

namespace roverlab {

/// How slip enters the adhesion curve.
enum class SlipDefinition : unsigned char {
  Relative,  ///< [GKS2025] eq. 9: s = |V_sk| / max(|V_O|, |ω × OP|) (-)
  Absolute,  ///< [SP2017]: S = |V_tK| (m/s)
};

/// Tire parameters of one wheel.
struct TireParams {
  double stiffness = 2.0e5;          ///< c_t: radial stiffness (N/m)
  double damping = 2.0e3;            ///< b_t: radial damping (N·s/m)
  double rollingRadiusRatio = 0.97;  ///< r0 / r: free rolling radius over free radius (-)
  double slipSpeedFloor = 0.001;     ///< (m/s) floor of the slip-ratio denominator, so s
                                     ///< stays finite at standstill (regularises eq. 9)
};

/// Kinematics of one contact point of one wheel (world frame).
struct ContactKinematics {
  Vec3 op = Vec3::Zero();              ///< OP: from wheel centre O to contact point P (m)
  Vec3 centreVelocity = Vec3::Zero();  ///< V_O (m/s)
  Vec3 omega = Vec3::Zero();           ///< ω_k: absolute angular velocity of the wheel (rad/s)
  Vec3 axle = Vec3::Zero();            ///< n_k: unit axle direction
  double spinRate =
      0.0;  ///< wheel spin relative to its axle about n_k (rad/s), sign(ω_k) of eq. 11
  double deflection = 0.0;  ///< Z = r − d (m)
  double radius = 0.19;     ///< free radius r (m)
  double share = 1.0;       ///< the part of R_z this contact carries (contact/union_law.h), 0…1
};

/// Forces of one contact (world frame).
struct TireForces {
  Vec3 force = Vec3::Zero();            ///< R = R_z + R_xy on the wheel at P (N), goes to the axle
  Vec3 normalForce = Vec3::Zero();      ///< R_z vector, from P towards O (N)
  Vec3 tangentialForce = Vec3::Zero();  ///< R_xy vector, opposite V_sk (N)
  double normal = 0.0;                  ///< R_z ≥ 0 (N)
  double spinMoment = 0.0;  ///< M_ky (N·m): moment on the wheel about n_k, eq. 11 (tangential
                            ///< force at arm r0, rolling resistance against the spin);
                            ///< the drivetrain and brakes react it
  Vec3 axleMoment = Vec3::Zero();    ///< M_k ⟂ n_k (N·m), to the axle, eq. 12
  Vec3 slipVelocity = Vec3::Zero();  ///< V_sk (m/s)
  double slip = 0.0;                 ///< s (-) or S (m/s), per SlipDefinition
  double adhesion = 0.0;             ///< φ_s(s) (-)
};

/// [GKS2025] eqs. 2-12 for one contact point (numbered in the order the paper gives
/// them: 1 OP, 2 V_P, 3 V_Z, 4 V_sk, 5 Z, 6 R_z, 7 R_xy, 8 φ_s, 9 s, 10 R_xy vector,
/// 11 M_ky, 12 R and M_k).
TireForces tireForces(const TireParams& tire, const Material& ground, const ContactKinematics& k,
                      SlipDefinition slip = SlipDefinition::Relative);

/// The part of tireForces before the tangential force (eqs. 2-6, 8-9): the
/// normal force, slip velocity, slip and adhesion; the tangential force and
/// the moments are left zero for setTangentialForce (the step's tread model
/// gives them, contact/tread.h).
TireForces normalAndSlip(const TireParams& tire, const Material& ground, const ContactKinematics& k,
                         SlipDefinition slip = SlipDefinition::Relative);

/// Replaces the tangential force of `f` and the rolling-resistance moment about
/// the axle (N·m, the −f·R_z·r0·sign ω_k term of eq. 11) and recomputes the
/// total force R, M_ky and M_k from them (eqs. 11-12); used when both come from
/// a model with memory (see contact/tread.h).
void setTangentialForce(const TireParams& tire, const ContactKinematics& k, const Vec3& tangential,
                        double rollingMoment, TireForces& f);

/// Planar contact (x–z plane, moments about +y), [SP2017].
struct PlanarContactKinematics {
  Vec2 rp =
      Vec2::Zero();  ///< r_p: from wheel centre C to contact point K (m), |r_p| = rolling radius
  Vec2 centreVelocity = Vec2::Zero();  ///< V_C (m/s)
  double omega = 0.0;                  ///< ω_K: wheel angular velocity about +y (rad/s)
  double radius = 0.19;                ///< free radius r (m)
};

struct PlanarTireForces {
  Vec2 normalForce = Vec2::Zero();      ///< F_n = −|F_n| n_p (N)
  Vec2 tangentialForce = Vec2::Zero();  ///< F_t (N)
  double normal = 0.0;                  ///< |F_n| (N)
  double contactMoment = 0.0;           ///< M_t = r_p × F_t about +y (N·m)
  double rollingMoment = 0.0;           ///< M_f = f r_roll |F_n| (−sign ω) (N·m)
  double slipSpeed = 0.0;               ///< S = |V_tK| (m/s)
  double adhesion = 0.0;                ///< μ(S) (-)
};

/// [SP2017]: |F_n| = k_u δ + k_d δ̇ with δ = r − |r_p|, δ̇ = n_p·V_K (non-holding);
/// F_t = −μ(S)|F_n| V_tK/|V_tK|. Uses tire.stiffness as k_u and tire.damping as k_d.
PlanarTireForces planarTireForces(const TireParams& tire, const Material& ground,
                                  const PlanarContactKinematics& k);

}  // namespace roverlab
