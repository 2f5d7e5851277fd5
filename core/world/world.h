// A robot on a terrain: the robot and the terrain (immutable WorldModel), the
// changing WorldState, the per-run WorldData (results and scratch), and the
// step that advances them (world/step.cpp), stage by stage, each stage in the
// file named after it:
//   kinematics (dynamics/multibody) → wheel contacts (world/wheel_contacts)
//   → tire forces (world/tire_forces) → body contacts (world/body_contacts)
//   → joint forces (world/joint_forces) → articulated-body dynamics
//   (dynamics/multibody) → integrate (world/integrate).
#pragma once

#include <Eigen/Cholesky>
#include <memory>
#include <string>
#include <vector>

#include "contact/body_contact.h"
#include "contact/tire_model.h"
#include "contact/tread.h"
#include "contact/wheel_contact.h"
#include "dynamics/multibody.h"
#include "robots/robot.h"
#include "terrain/terrain.h"

namespace roverlab {

enum class Integrator : unsigned char {
  SemiImplicitEuler,  ///< v += dt·a, then q += dt·v (default, one force evaluation per step)
  RungeKutta4,        ///< classical RK4 on (q, v), four force evaluations per step
};

struct WorldModel {
  Robot robot;  ///< bodies, wheels, actuators, limits, springs and how the controls map to them
  /// The terrain, shared with the scenario it was read from: a world and its
  /// resets never copy it (a 2049² heightmap is 34 MB).
  std::shared_ptr<const Terrain> terrain;
  std::vector<ContactBox>
      boxes;  ///< robot.boxes in the form body contact uses (when bodyContact.enabled)
  BodyContactSettings bodyContact;
  SlipDefinition slip = SlipDefinition::Relative;
  Integrator integrator = Integrator::SemiImplicitEuler;
  double dt = 4e-4;  ///< fixed step (s), [GKS2025]
};

/// Tread state of one wheel against one terrain piece (contact/tread.h). A
/// contact that moves onto another piece of the same surface (a seam) keeps
/// the state of the contact it continues: the one with the closest normal.
struct TreadState {
  int piece = -1;
  Vec3 normal = Vec3::Zero();      ///< contact normal when it was last updated (unit)
  Vec3 deflection = Vec3::Zero();  ///< z: tangential tread deflection (m)
  double rolling = 0.0;            ///< θ: rolling-resistance deflection (rad)
};

struct WorldState {
  MultibodyState bodies;
  std::vector<double> targets;    ///< per actuator: speed, position or torque target
  std::vector<double> integrals;  ///< per actuator: ∫(target − v) dt of speed control (rad or m)
  std::vector<std::vector<TreadState>> tread;  ///< per wheel: one per touching piece
};

/// Per-step results (what telemetry and views read).
struct WheelResult {
  Vec3 centre = Vec3::Zero();  ///< wheel centre O (m), world frame
  Vec3 axle = Vec3::Zero();    ///< unit axle direction n_k, world frame
  std::vector<WheelContact> contacts;
  std::vector<TireForces> forces;  ///< one per contact
  std::vector<TreadState> tread;   ///< tread state after this step, one per contact
  Vec3 force = Vec3::Zero();       ///< sum of contact forces on the wheel (N)
  double normalLoad = 0.0;         ///< sum of R_z (N)
};

/// The contact laws checked at every force evaluation (RK4 stages included),
/// accumulated over the run: what the tests and the run summary report.
struct ContactLawStats {
  long contacts = 0;  ///< wheel contacts evaluated
  long frictionViolations =
      0;  ///< contacts with |R_xy| > max_s φ_s(s)·R_z (relative 1e-9 for rounding)
  double maxFrictionRatio = 0;  ///< largest |R_xy| / (max_s φ_s(s)·R_z) (-), ≤ 1 when the law holds
  long centresInside = 0;       ///< contacts with the wheel centre inside a terrain piece
  double maxDeflectionRatio = 0;  ///< largest tire deflection Z / r (-)
  long bodyContacts = 0;          ///< body contacts (box–piece pairs) evaluated
  long bodyFrictionViolations =
      0;                    ///< body contacts with |F_t| > μ·|F_n| (relative 1e-9 for rounding)
  double maxBodyDepth = 0;  ///< deepest penetration of a body box into a piece (m)
};

/// Per-step contacts of one body box (model.boxes).
struct BoxResult {
  std::vector<BodyContact> contacts;  ///< one per touching terrain piece
  double normalLoad = 0.0;            ///< sum of the normal force magnitudes (N)
};

/// Buffers of the mimic constraints (world/mimic_constraints.cpp), sized once.
struct MimicScratch {
  Eigen::MatrixXd response;  ///< nv × K: M⁻¹ Jᵀ, one column per mimic
  Eigen::MatrixXd coupling;  ///< K × K: J M⁻¹ Jᵀ
  Eigen::VectorXd unit, rhs, lambda;
  Eigen::LLT<Eigen::MatrixXd> solver;
};

/// Buffers of the RK4 step, kept between steps so that it allocates nothing.
struct Rk4Scratch {
  Eigen::VectorXd q0, v0, v2, v3, v4, a1, a2, a3, a4,
      mean;  ///< start, stage velocities and accelerations
  std::vector<WheelResult>
      first;  ///< wheel results at the start of the step (tread state, telemetry)
  std::vector<BoxResult> firstBoxes;
  std::vector<double> integrals;  ///< controller state, advanced once per step
};

/// What the steps so far found: the laws checked, the last step's contacts
/// (telemetry, views and controllers read them), a stop's message. Part of
/// the run's state: a checkpoint copies it whole (sim/checkpoint.h).
struct StepResults {
  ContactLawStats law;
  std::vector<WheelResult> wheels;
  std::vector<BoxResult> boxes;  ///< per model.boxes
  std::string error;  ///< set when the state became non-finite; the step refuses to go on
};

/// The step's results and its buffers.
struct WorldData : StepResults {
  MultibodyData bodies;
  std::vector<double> integrals;     ///< actuator integrals at the end of the step being taken
  WheelContactScratch wheelScratch;  ///< buffers of the wheel contact queries
  BodyContactScratch bodyScratch;    ///< buffers of the body contact queries
  MimicScratch mimic;                ///< buffers of the mimic constraints
  MultibodyState previous;           ///< scratch: the state at the start of the step being taken
  WorldState stage;                  ///< scratch: the state at an RK4 stage
  Rk4Scratch rk4;
};

WorldState initialState(const WorldModel& model);
WorldData makeWorldData(const WorldModel& model);

/// Advances one step of model.dt. Returns false (and sets data.error, naming the
/// body and the time) if the state is not finite afterwards; the state is then
/// left at its last finite value.
bool step(const WorldModel& model, WorldState& state, WorldData& data);

}  // namespace roverlab
