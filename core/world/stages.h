// The stages of one force evaluation of the step (world/step.cpp), in order.
// Kinematics and the articulated-body algorithm are dynamics/multibody's;
// the others each have the file named after them in world/. Each reads the
// model and what the stages before it left in WorldData, and writes its own
// part of WorldData.
#pragma once

#include <algorithm>
#include <vector>

#include "world/world.h"

namespace roverlab {

/// `to` = `from`, copied into to's buffer where the copy is inlined (the
/// step's vectors keep their sizes, or stay within what they reserved, so it
/// does not allocate): libc++'s vector assignment is a call in WebAssembly,
/// of 75 to 85 instructions, and a step makes several.
template <class T>
void copyInto(const std::vector<T>& from, std::vector<T>& to) {
  to.resize(from.size());
  std::copy_n(from.data(), from.size(), to.data());
}

/// Wheel contacts ([GKS2025] §2, eq. 1): each wheel's centre and axle from the
/// kinematics, and its contacts with the pieces near it (point-GJK, seams
/// and creases; contact/wheel_contact.h). Fills data.wheels[w].centre, .axle
/// and .contacts.
void wheelContactStage(const WorldModel& model, WorldData& data);

/// Tire forces at every wheel contact: the normal force ([GKS2025] eq. 6) and
/// the tangential force and rolling resistance through the tread element
/// (eqs. 8–11, contact/tread.h), their wrench on the wheel (eqs. 11–12), and
/// the contact law checks. Clears data.bodies.externalForce first, then adds
/// the wheels' wrenches; fills data.wheels[w].forces, .tread, .force and
/// .normalLoad.
void tireForceStage(const WorldModel& model, const WorldState& state, WorldData& data);

/// Body contacts: each body box against the pieces near it (separating axes,
/// contact/body_contact.h). Fills data.boxes and adds the forces to
/// data.bodies.externalForce.
void bodyContactStage(const WorldModel& model, WorldData& data);

/// Joint forces of actuators (PI speed, servo, torque), joint limits and
/// passive springs into data.bodies.tau; the speed controllers' integrals
/// for the end of the step into data.integrals.
void jointForceStage(const WorldModel& model, const WorldState& state, WorldData& data);

/// Mimic constraints after the articulated-body algorithm: each following
/// joint's acceleration made to keep q = multiplier · q_leader + offset, by
/// the constraint forces λ (a K × K solve over the responses M⁻¹ Jᵀ of the
/// K mimics; the drift of q and v pulled back critically damped in
/// kMimicTime). Adds Jᵀ λ to data.bodies.tau and M⁻¹ Jᵀ λ to
/// data.bodies.acceleration.
void mimicStage(const WorldModel& model, const WorldState& state, WorldData& data);

/// Integration of the accelerations over model.dt: semi-implicit Euler from
/// the evaluation already made, or classical RK4 (which evaluates the
/// stages itself through `evaluate`). Leaves data.wheels, data.boxes and
/// data.integrals as evaluated at the start of the step.
void integrate(const WorldModel& model, WorldState& state, WorldData& data);

/// One force evaluation: every stage from kinematics to the articulated-body
/// algorithm; data.bodies.acceleration holds the result.
void evaluate(const WorldModel& model, const WorldState& state, WorldData& data);

}  // namespace roverlab
