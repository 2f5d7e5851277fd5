// Stage 3 of the step: tire forces at the wheel contacts (world/stages.h).
#include <algorithm>

#include "world/stages.h"

namespace roverlab {
namespace {

// The tread state a contact continues: the same piece's, else (the contact
// crossed a seam onto another piece of the same surface) the one whose
// normal is within about 8° of it, the closest; none for a new contact.
TreadState previousTread(const std::vector<TreadState>& tread, const WheelContact& c) {
  const TreadState* best = nullptr;
  double bestDot = 0.99;
  for (const TreadState& t : tread) {
    if (t.piece == c.piece) return t;
    const double d = t.normal.dot(c.normal);
    if (d > bestDot) bestDot = d, best = &t;
  }
  return best ? *best : TreadState{};
}

// [GKS2025]'s laws at one contact: the tangential force within the adhesion
// curve (contact/tread.h bounds it by the curve's peak), the centre outside
// the ground, the deflection.
void checkContactLaw(const TireForces& f, double peak, const WheelContact& c, double radius,
                     ContactLawStats& law) {
  ++law.contacts;
  const double limit = peak * f.normal;
  const double tangential = f.tangentialForce.norm();
  if (tangential > limit * (1 + 1e-9)) ++law.frictionViolations;
  if (limit > 0) law.maxFrictionRatio = std::max(law.maxFrictionRatio, tangential / limit);
  if (c.distance < 0) ++law.centresInside;
  law.maxDeflectionRatio = std::max(law.maxDeflectionRatio, c.deflection / radius);
}

// Spin inertia of a wheel about its axle (kg·m²).
double spinInertia(const Body& b) { return b.axis.dot(b.inertia * b.axis); }

}  // namespace

void tireForceStage(const WorldModel& model, const WorldState& state, WorldData& data) {
  for (Vec6& f : data.bodies.externalForce) f.setZero();
  for (size_t w = 0; w < model.robot.wheels.size(); ++w) {
    const WheelModel& wheel = model.robot.wheels[w];
    const Body& body = model.robot.bodies.bodies[wheel.body];
    WheelResult& res = data.wheels[w];
    res.forces.clear();
    res.tread.clear();
    res.force.setZero();
    res.normalLoad = 0;
    ContactKinematics k;
    k.centreVelocity = worldPointVelocity(data.bodies, wheel.body, Vec3::Zero());
    k.omega = worldAngularVelocity(data.bodies, wheel.body);
    k.axle = res.axle;
    k.spinRate = state.bodies.v[body.vIndex];
    k.radius = wheel.shape.radius;
    Vec3 moment = Vec3::Zero();
    const double r0 = wheel.tire.rollingRadiusRatio * wheel.shape.radius;
    for (const WheelContact& c : res.contacts) {
      k.op = c.point - res.centre;
      k.deflection = c.deflection;
      k.share = c.share;
      const int material = model.terrain->materialOf(c.piece);
      const Material& ground = model.terrain->materials[material];
      TireForces f = normalAndSlip(wheel.tire, ground, k, model.slip);
      // The tangential force and the rolling resistance go through the tread
      // element: [GKS2025]'s laws in steady slip and rolling, springs at rest,
      // the force never beyond the adhesion curve's peak (contact/tread.h).
      const double peak = model.terrain->peakAdhesion[material];
      const TreadState before = previousTread(state.tread[w], c);
      TreadState next{c.piece, c.normal, Vec3::Zero(), 0.0};
      const Vec3 tangential =
          treadForce(wheel.tread, before.deflection, f.slipVelocity, c.normal,
                     f.adhesion * f.normal, peak * f.normal, model.dt, next.deflection);
      const double rolling =
          rollingResistance(wheel.tread, before.rolling, k.spinRate, ground.rolling * f.normal * r0,
                            spinInertia(body), model.dt, next.rolling);
      setTangentialForce(wheel.tire, k, tangential, rolling, f);
      checkContactLaw(f, peak, c, wheel.shape.radius, data.law);
      res.tread.push_back(next);
      res.forces.push_back(f);
      res.force += f.force;
      res.normalLoad += f.normal;
      moment += f.axleMoment + f.spinMoment * res.axle;  // eqs. 11-12: about the centre O
    }
    Vec6& ext = data.bodies.externalForce[wheel.body];
    ext.head<3>() += res.centre.cross(res.force) + moment;
    ext.tail<3>() += res.force;
  }
}

}  // namespace roverlab
