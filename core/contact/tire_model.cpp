#include "contact/tire_model.h"

#include <algorithm>
#include <cmath>

namespace roverlab {
namespace {

double sign(double v) { return (v > 0) - (v < 0); }

}  // namespace

TireForces normalAndSlip(const TireParams& tire, const Material& ground, const ContactKinematics& k,
                         SlipDefinition slipDef) {
  TireForces f;
  if (!(k.deflection > 0)) return f;  // non-holding: no contact, no force
  const double opLen = k.op.norm();
  const Vec3 e = k.op / opLen;  // from O into the ground
  const Vec3 omegaCrossOp = k.omega.cross(k.op);
  const Vec3 vp = k.centreVelocity + omegaCrossOp;  // eq. 2: V_P = V_O + ω × OP
  const double vz = vp.dot(e);                      // eq. 3: V_Z = (V_P·e) e, compression rate
  f.slipVelocity = vp - vz * e;                     // eq. 4: V_sk = V_P − V_Z
  // eqs. 5-6: Z = r − d, R_z = c_t Z + b_t V_z, clamped so the ground never
  // pulls, times the contact's share under the union law.
  f.normal = k.share * std::max(0.0, tire.stiffness * k.deflection + tire.damping * vz);
  f.normalForce = -f.normal * e;

  const double vs = f.slipVelocity.norm();
  if (slipDef == SlipDefinition::Relative) {
    // eq. 9, with a speed floor so s stays finite at standstill.
    const double ref =
        std::max({k.centreVelocity.norm(), omegaCrossOp.norm(), tire.slipSpeedFloor});
    f.slip = vs / ref;
  } else {
    f.slip = vs;  // [SP2017]: absolute slip speed S
  }
  f.adhesion = adhesion(ground, f.slip);
  return f;
}

TireForces tireForces(const TireParams& tire, const Material& ground, const ContactKinematics& k,
                      SlipDefinition slipDef) {
  TireForces f = normalAndSlip(tire, ground, k, slipDef);
  if (!(k.deflection > 0)) return f;
  const double vs = f.slipVelocity.norm();
  // eqs. 7, 10: R_xy = φ_s(s) R_z along −V_sk
  const Vec3 tangential =
      vs > 0 ? Vec3(-(f.adhesion * f.normal / vs) * f.slipVelocity) : Vec3::Zero();
  // eq. 11: rolling resistance f R_z r0 opposing the spin.
  const double rolling =
      -ground.rolling * f.normal * tire.rollingRadiusRatio * k.radius * sign(k.spinRate);
  setTangentialForce(tire, k, tangential, rolling, f);
  return f;
}

void setTangentialForce(const TireParams& tire, const ContactKinematics& k, const Vec3& tangential,
                        double rollingMoment, TireForces& f) {
  f.tangentialForce = tangential;
  f.force = f.normalForce + f.tangentialForce;  // eq. 12: R = R_xy + R_z
  // eq. 11: M_ky = (R_x + f R_z sign ω) r0 about the axle: the tangential
  // force's moment at the free rolling radius r0, and rolling resistance
  // opposing the spin.
  const double opLen = k.op.norm();
  const double r0 = tire.rollingRadiusRatio * k.radius;
  f.spinMoment = (r0 / opLen) * k.op.cross(f.tangentialForce).dot(k.axle) + rollingMoment;
  // eq. 12: the rest of the moment about O goes to the axle.
  const Vec3 moment = k.op.cross(f.force);
  f.axleMoment = moment - moment.dot(k.axle) * k.axle;
}

PlanarTireForces planarTireForces(const TireParams& tire, const Material& ground,
                                  const PlanarContactKinematics& k) {
  PlanarTireForces f;
  const double rollRadius = k.rp.norm();
  const double delta = k.radius - rollRadius;
  if (!(delta > 0) || !(rollRadius > 0)) return f;
  const Vec2 np = k.rp / rollRadius;
  // V_K = V_C + ω × r_p, with ω along +y in the x–z plane: ω ŷ × (x, z) = (ω z, −ω x).
  const Vec2 vk = k.centreVelocity + k.omega * Vec2(k.rp.y(), -k.rp.x());
  const double deltaDot = np.dot(vk);  // δ̇ = n_p·V_K, not a finite difference
  f.normal = std::max(0.0, tire.stiffness * delta + tire.damping * deltaDot);
  f.normalForce = -f.normal * np;
  const Vec2 vt = vk - vk.dot(np) * np;
  f.slipSpeed = vt.norm();
  f.adhesion = adhesion(ground, f.slipSpeed);
  if (f.slipSpeed > 0) f.tangentialForce = -(f.adhesion * f.normal / f.slipSpeed) * vt;
  // Moment about +y of force F at arm r: (r × F)_y = r_z F_x − r_x F_z.
  f.contactMoment = k.rp.y() * f.tangentialForce.x() - k.rp.x() * f.tangentialForce.y();
  f.rollingMoment = ground.rolling * rollRadius * f.normal * (-sign(k.omega));
  return f;
}

}  // namespace roverlab
