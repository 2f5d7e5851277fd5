#include "world/world.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace roverlab {
namespace {

// Speeds beyond this (m/s or rad/s) mean the integration has blown up.
constexpr double kExplodedSpeed = 1e4;

double clampAbs(double v, double limit) { return std::clamp(v, -limit, limit); }

// Joint forces of actuators, limits and passive springs for 1-DOF joints.
// Writes the speed controllers' integrals for the end of the step to
// `integrals` (conditional integration: not while the torque saturates and
// the error would drive it further).
void jointForces(const WorldModel& model, const WorldState& state, Eigen::VectorXd& tau,
                 std::vector<double>& integrals) {
  tau.setZero();
  const Eigen::VectorXd& q = state.bodies.q;
  const Eigen::VectorXd& v = state.bodies.v;
  integrals = state.integrals;
  for (size_t a = 0; a < model.actuators.size(); ++a) {
    const Actuator& act = model.actuators[a];
    const Body& b = model.bodies.bodies[act.body];
    const double target = state.targets[a];
    double t = 0;
    switch (act.mode) {
      case ActuatorMode::Speed: {
        const double e = target - v[b.vIndex];
        t = act.gain * e + act.integralGain * state.integrals[a];
        const bool saturated = std::abs(t) >= act.limit && t * e > 0;
        if (act.integralGain > 0 && !saturated) integrals[a] += e * model.dt;
        break;
      }
      case ActuatorMode::Position: t = act.gain * (target - q[b.qIndex]) - act.damping * v[b.vIndex]; break;
      case ActuatorMode::Torque: t = target; break;
    }
    tau[b.vIndex] += clampAbs(t, act.limit);
  }
  for (const JointLimit& lim : model.limits) {
    const Body& b = model.bodies.bodies[lim.body];
    const double x = q[b.qIndex], xd = v[b.vIndex];
    // A non-holding spring-damper, like the tire's normal force: it damps in
    // both directions (no bounce, no chatter against a servo pushing into the
    // limit) but never pulls the joint back into the limit.
    if (x > lim.upper) tau[b.vIndex] -= std::max(0.0, lim.stiffness * (x - lim.upper) + lim.damping * xd);
    if (x < lim.lower) tau[b.vIndex] += std::max(0.0, lim.stiffness * (lim.lower - x) - lim.damping * xd);
  }
  for (const JointSpring& s : model.springs) {
    const Body& b = model.bodies.bodies[s.body];
    const double e = q[b.qIndex] - s.rest;
    tau[b.vIndex] -= (s.stiffness + s.cubic * e * e) * e + s.damping * v[b.vIndex];
  }
}

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

// Seed 000's laws at one contact: the tangential force within the adhesion
// curve (contact/tread.h bounds it by the curve's peak), the centre outside
// the ground, the deflection.
void checkContactLaw(const TireForces& f, double peak, const WheelContact& c, double radius, ContactLawStats& law) {
  ++law.contacts;
  const double limit = peak * f.normal;
  const double tangential = f.tangentialForce.norm();
  if (tangential > limit * (1 + 1e-9)) ++law.frictionViolations;
  if (limit > 0) law.maxFrictionRatio = std::max(law.maxFrictionRatio, tangential / limit);
  if (c.distance < 0) ++law.centresInside;
  law.maxDeflectionRatio = std::max(law.maxDeflectionRatio, c.deflection / radius);
}

// The body contact's laws: Coulomb friction within μ·F_n summed over the
// manifold, and the penetration depth (docs/contact.md, "Body contact").
void checkBodyContactLaw(const BodyContact& c, double mu, ContactLawStats& law) {
  ++law.bodyContacts;
  if (c.tangentialForce.norm() > mu * c.normalForce.norm() * (1 + 1e-9)) ++law.bodyFrictionViolations;
  law.maxBodyDepth = std::max(law.maxBodyDepth, c.depth);
}

// Spin inertia of a wheel about its axle (kg·m²).
double spinInertia(const Body& b) { return b.axis.dot(b.inertia * b.axis); }

std::string blowUpMessage(const WorldModel& model, const WorldState& state) {
  // The common case in one pass over q and v; the body is looked up only on failure.
  if (state.bodies.q.allFinite() && state.bodies.v.allFinite() &&
      (state.bodies.v.size() == 0 || state.bodies.v.cwiseAbs().maxCoeff() <= kExplodedSpeed))
    return {};
  for (const Body& b : model.bodies.bodies) {
    const int nq = jointCoords(b.joint), nv = jointDofs(b.joint);
    const bool finite = state.bodies.q.segment(b.qIndex, nq).allFinite() &&
                        state.bodies.v.segment(b.vIndex, nv).allFinite();
    const bool exploded = finite && nv > 0 && state.bodies.v.segment(b.vIndex, nv).cwiseAbs().maxCoeff() > kExplodedSpeed;
    if (!finite || exploded) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "simulation blew up at t = %.4f s: body '%s' %s", state.bodies.time,
                    b.name.c_str(), finite ? "exceeds 1e4 m/s or rad/s" : "has a non-finite state");
      return buf;
    }
  }
  return {};
}

// Accelerations for the state: contacts, joint forces, articulated-body algorithm.
void evaluate(const WorldModel& model, const WorldState& state, WorldData& data) {
  computeContactForces(model, state, data);
  bodyContactForces(model, data);
  jointForces(model, state, data.bodies.tau, data.integrals);
  abaFromKinematics(model.bodies, data.bodies);  // computeContactForces ran the kinematics
}

void stepRk4(const WorldModel& model, WorldState& state, WorldData& data) {
  const double dt = model.dt;
  Rk4Scratch& k = data.rk4;  // every assignment below reuses its buffer
  WorldState& stage = data.stage;
  k.q0 = state.bodies.q;
  k.v0 = state.bodies.v;
  stage = state;
  evaluate(model, state, data);
  k.first = data.wheels;
  k.firstBoxes = data.boxes;
  k.integrals = data.integrals;
  k.a1 = data.bodies.acceleration;
  auto at = [&](const Eigen::VectorXd& v, double h, const Eigen::VectorXd& dv) {
    stage.bodies.q = k.q0;
    integratePositions(model.bodies, stage.bodies.q, v, h);
    stage.bodies.v = k.v0 + h * dv;
    stage.bodies.time = state.bodies.time + h;
    evaluate(model, stage, data);
  };
  at(k.v0, dt / 2, k.a1);
  k.v2 = stage.bodies.v;
  k.a2 = data.bodies.acceleration;
  at(k.v2, dt / 2, k.a2);
  k.v3 = stage.bodies.v;
  k.a3 = data.bodies.acceleration;
  at(k.v3, dt, k.a3);
  k.v4 = stage.bodies.v;
  k.a4 = data.bodies.acceleration;
  state.bodies.v = k.v0 + dt / 6 * (k.a1 + 2 * k.a2 + 2 * k.a3 + k.a4);
  k.mean = (k.v0 + 2 * k.v2 + 2 * k.v3 + k.v4) / 6;
  integratePositions(model.bodies, state.bodies.q, k.mean, dt);
  state.bodies.time += dt;
  data.wheels = k.first;
  data.boxes = k.firstBoxes;
  data.integrals = k.integrals;
}

}  // namespace

WorldState initialState(const WorldModel& model) {
  WorldState s;
  s.bodies = neutralState(model.bodies);
  s.targets.assign(model.actuators.size(), 0.0);
  s.integrals.assign(model.actuators.size(), 0.0);
  s.tread.resize(model.wheels.size());
  return s;
}

WorldData makeWorldData(const WorldModel& model) {
  WorldData d;
  d.bodies = makeData(model.bodies);
  d.wheels.resize(model.wheels.size());
  d.boxes.resize(model.boxes.size());
  return d;
}

void computeContactForces(const WorldModel& model, const WorldState& state, WorldData& data) {
  forwardKinematics(model.bodies, state.bodies, data.bodies);
  for (Vec6& f : data.bodies.externalForce) f.setZero();
  for (size_t w = 0; w < model.wheels.size(); ++w) {
    const WheelModel& wheel = model.wheels[w];
    const Body& body = model.bodies.bodies[wheel.body];
    WheelResult& res = data.wheels[w];
    const Vec3 centre = worldPoint(data.bodies, wheel.body, Vec3::Zero());
    const Vec3 axle = worldRotation(data.bodies, wheel.body) * body.axis;
    wheelContacts(model.terrain, wheel.shape, centre, axle, res.contacts);
    res.forces.clear();
    res.force.setZero();
    res.normalLoad = 0;
    ContactKinematics k;
    k.centreVelocity = worldPointVelocity(data.bodies, wheel.body, Vec3::Zero());
    k.omega = worldAngularVelocity(data.bodies, wheel.body);
    k.axle = axle;
    k.spinRate = state.bodies.v[body.vIndex];
    k.radius = wheel.shape.radius;
    Vec3 moment = Vec3::Zero();
    res.tread.clear();
    const double r0 = wheel.tire.rollingRadiusRatio * wheel.shape.radius;
    for (const WheelContact& c : res.contacts) {
      k.op = c.point - centre;
      k.deflection = c.deflection;
      const int material = model.terrain.pieces[c.piece].material;
      const Material& ground = model.terrain.materials[material];
      TireForces f = tireForces(wheel.tire, ground, k, model.slip);
      // The tangential force and the rolling resistance go through the tread
      // element: seed 000's laws in steady slip and rolling, springs at rest,
      // the force never beyond the adhesion curve's peak (contact/tread.h).
      const double peak = model.terrain.peakAdhesion[material];
      const TreadState before = previousTread(state.tread[w], c);
      TreadState next{c.piece, c.normal, Vec3::Zero(), 0.0};
      const Vec3 tangential = treadForce(wheel.tread, before.deflection, f.slipVelocity, c.normal,
                                         f.adhesion * f.normal, peak * f.normal, model.dt, next.deflection);
      const double rolling = rollingResistance(wheel.tread, before.rolling, k.spinRate, ground.rolling * f.normal * r0,
                                               spinInertia(body), model.dt, next.rolling);
      setTangentialForce(wheel.tire, k, tangential, rolling, f);
      checkContactLaw(f, peak, c, wheel.shape.radius, data.law);
      res.tread.push_back(next);
      res.forces.push_back(f);
      res.force += f.force;
      res.normalLoad += f.normal;
      moment += f.axleMoment + f.spinMoment * axle;  // eqs. 11-12: about the centre O
    }
    Vec6& ext = data.bodies.externalForce[wheel.body];
    ext.head<3>() += centre.cross(res.force) + moment;
    ext.tail<3>() += res.force;
  }
}

void bodyContactForces(const WorldModel& model, WorldData& data) {
  BodyContactScratch& scratch = data.bodyScratch;
  scratch.near.resize(model.boxes.size());
  for (size_t b = 0; b < model.boxes.size(); ++b) {
    BoxResult& res = data.boxes[b];
    res.contacts.clear();
    res.normalLoad = 0;
    if (!model.bodyContact.enabled) continue;
    const ContactBox& box = model.boxes[b];
    BodyMotion motion;
    motion.origin = worldPoint(data.bodies, box.body, Vec3::Zero());
    const Mat3 rotation = worldRotation(data.bodies, box.body);
    if (!nearPieces(model.terrain, box, motion.origin, rotation, scratch.near[b])) continue;
    const OrientedBox placed = worldBox(box, motion.origin, rotation);
    candidatePieces(model.terrain, placed, scratch.near[b], scratch.candidates);
    if (scratch.candidates.empty()) continue;
    motion.velocity = worldPointVelocity(data.bodies, box.body, Vec3::Zero());
    motion.omega = worldAngularVelocity(data.bodies, box.body);
    boxContacts(model.terrain, box, placed, scratch.candidates, motion, scratch, res.contacts);
    Vec6& ext = data.bodies.externalForce[box.body];
    for (const BodyContact& c : res.contacts) {
      checkBodyContactLaw(c, model.terrain.materials[model.terrain.pieces[c.piece].material].phiMax, data.law);
      ext.head<3>() += c.moment;
      ext.tail<3>() += c.normalForce + c.tangentialForce;
      res.normalLoad += c.normalForce.norm();
    }
  }
}

bool step(const WorldModel& model, WorldState& state, WorldData& data) {
  if (!data.error.empty()) return false;
  MultibodyState& previous = data.previous;
  previous = state.bodies;  // reuses the buffers of the last step
  if (model.integrator == Integrator::RungeKutta4) {
    stepRk4(model, state, data);
  } else {
    evaluate(model, state, data);
    integrateSemiImplicit(model.bodies, state.bodies, data.bodies, model.dt);
  }
  data.error = blowUpMessage(model, state);
  if (!data.error.empty()) {
    state.bodies = previous;
    return false;
  }
  for (size_t w = 0; w < model.wheels.size(); ++w) state.tread[w] = data.wheels[w].tread;
  state.integrals = data.integrals;
  return true;
}

}  // namespace roverlab
