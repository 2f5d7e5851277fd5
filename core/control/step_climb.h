// Automatic step climbing for the `articulated6` robot ([GKS2025], Fig. 9-11).
//
// The paper climbs its 0.65 m step with a controller published elsewhere; this
// is our own: a state machine over what the wheels touch (contact normals per
// wheel group) and the section pitch angles, run once per control period. It
// lifts the front section onto the step, pushes the middle section up the face
// with the fold drives, lifts the rear section and stops on top:
//
//   approach → lift-front → climb-middle → lift-rear → done
//
// with a recovery (back off, straighten, try again) when a phase makes no
// progress. Rules and measured figures: docs/step-climb.md.
#pragma once

#include <string>

#include "control/controller.h"
#include "robots/robot.h"
#include "world/world.h"

namespace roverlab {

enum class ClimbPhase : unsigned char {
  Approach,   ///< front section folded up and extended, drive to the step face
  LiftFront,  ///< front wheels at the edge: rear fold pitches the middle up, front wheels onto the
              ///< top
  ClimbMiddle,  ///< front on top: the fold drives push the middle section up the face
  LiftRear,     ///< middle on top: rear section folded up, rear wheels over the edge
  Done,         ///< all six wheels on top: sections straight, wheels braked
  Recover,  ///< no progress: back off with the front raised and the rear straight, approach again
};

/// Name of a phase as shown in telemetry and the summary, e.g. "climb-middle".
const char* climbPhaseName(ClimbPhase phase);

/// Tunable settings of the controller (defaults chosen for [GKS2025]'s robot).
struct StepClimbParams {
  double period = 0.01;        ///< control period (s of simulated time)
  double driveSpeed = 3.0;     ///< wheel speed while approaching and driving on top (rad/s)
  double pushSpeed = 2.0;      ///< wheel speed while pressing against the step (rad/s)
  double foldRate = 1.0;       ///< largest rate of change of a fold target (rad/s)
  double extendRate = 0.15;    ///< largest rate of change of an extension target (m/s)
  double liftFold = 1.5;       ///< fold of a section lifted over the edge (rad)
  double pitchUpFold = 0.9;    ///< rear fold that pitches the middle up in lift-front (rad)
  double maxLiftPitch = 0.6;   ///< middle pitch above which lift-front stops folding the rear (rad)
  double maxClimbPitch = 1.4;  ///< middle pitch above which climb-middle stops pressing (rad)
  double pressFold = 0.5;      ///< the front fold's target below level in climb-middle (rad)
  double overEdgeFold =
      0.2;  ///< the front fold's target below level once the middle is over the edge (rad)
  double climbPitch = 1.0;  ///< middle pitch the rear fold holds in climb-middle (rad): steep
                            ///< enough that the middle's box stays off the face above its wheels
  double pitchGain = 2.0;   ///< rear fold step per radian of pitch error per update (-)
  double raisedHeight =
      0.06;                 ///< a wheel this far above the ground (below the top) is up (down) (m)
  double wallNormal = 0.5;  ///< a contact whose normal points back by more than this is the face
  double topNormal = 0.8;   ///< a contact whose normal z exceeds this is a top surface
  double crestPitch = 1.5708;   ///< lift-rear: middle pitch the rear fold holds until the tip (rad)
  double crestHeight = 0.02;    ///< the middle tips forward once its wheel centres are this close
                                ///< to their height on the top (m) ...
  double tipRearPitch = 0.5;    ///< ... and its rear wheels press on the face, or its rear section
                                ///< is flatter than this and cannot push it higher (rad)
  double tipRate = 0.3;         ///< rate at which the rear fold tips the middle forward (rad/s)
  double edgeSpeed = 1.0;       ///< front and middle wheel speed while the middle's box is below
                                ///< the top (rad/s)
  double boxMargin = 0.003;     ///< the front and middle wheels stop when the middle's box comes
                                ///< this close to the step (m)
  double tailClearance = 0.02;  ///< the middle's box counts as above the top this far above it (m)
  double phaseTimeout = 10.0;   ///< a phase longer than this (s) starts a recovery
  double recoverTime = 3.0;     ///< duration of the back-off (s)
  int maxRetries = 2;           ///< recoveries; after them a phase goes on without a time limit
};

/// What the controller reads: per wheel group (0 front, 1 middle, 2 rear), the
/// two wheels of the group.
struct ClimbSensors {
  double time = 0.0;         ///< (s)
  double pitch[3] = {};      ///< section pitch, nose-up positive (rad): front, middle, rear
  double roll = 0.0;         ///< middle section roll (rad)
  double fold[2] = {};       ///< fold joint positions (rad): front, rear
  double extend[2] = {};     ///< extension joint positions (m): front, rear
  double wheelZ[3][2] = {};  ///< wheel centre heights (m)
  bool wall[3][2] = {};      ///< a wheel touches a face in front of it (normal against the heading)
  bool top[3][2] = {};       ///< a wheel touches an upward-facing surface
  bool contact[3][2] = {};   ///< a wheel touches anything
  double faceAt[3][2] = {};  ///< where a wheel's face contact is, along the heading (m), when wall
  double middleX = 0.0;      ///< middle axle centre along the heading (m)
  double middleZ = 0.0;      ///< middle axle centre height (m)
};

/// What the controller commands.
struct ClimbCommand {
  double wheelSpeed[3] = {};  ///< per group (rad/s): front, middle, rear
  double fold[2] = {};        ///< fold targets (rad): front, rear
  double extend[2] = {};      ///< extension targets (m): front, rear
};

/// The controller's changing state.
struct StepClimbState {
  ClimbPhase phase = ClimbPhase::Approach;
  double phaseStart = 0.0;  ///< time the phase began (s)
  double groundZ = 0.0;     ///< wheel centre height on the ground before the step (m)
  double topZ = 0.0;        ///< wheel centre height on top of the step, once seen (m)
  double faceX = 1e300;     ///< the step's face along the heading, from the first face contact (m)
  int retries = 0;
  bool tipping = false;  ///< lift-rear: the rear fold tips the middle forward over the edge
  ClimbCommand command;  ///< last command (targets move from it at the rate limits)
};

/// The robot's indices the controller reads and drives, found once from the preset.
struct StepClimbRig {
  int wheelBody[3][2] = {};
  int wheelActuator[3][2] = {};
  int sectionBody[3] = {};  ///< front, middle (the base), rear
  int foldActuator[2] = {}, extendActuator[2] = {};
  int foldBody[2] = {}, extendBody[2] = {};  ///< the bodies whose joints those drive
  double wheelRadius = 0.0;                  ///< (m)
  double maxWheelSpeed = 0.0;                ///< (rad/s)
  double maxFold = 0.0;                      ///< (rad)
  double maxExtension = 0.0;                 ///< (m)
  Vec2 middleCorners[4];  ///< the middle section's body box in its frame, (x, z) corners (m)
};

/// A step-climbing controller attached to a simulation.
struct StepClimb {
  StepClimbParams params;
  StepClimbRig rig;
  StepClimbState state;
};

/// Finds the wheels, sections and drives of an articulated6 robot; an issue at
/// `control.controller` for any other robot.
Expected<StepClimbRig> makeStepClimbRig(const Robot& robot);

/// One control update: the state machine on the sensors, then the rate-limited
/// targets in state.command.
void updateStepClimb(const StepClimbParams& params, const StepClimbRig& rig,
                     const ClimbSensors& sensors, StepClimbState& state);

/// Reads the sensors from the observation (control/observation.h), runs one
/// update and writes the wheel speed and joint targets into `out`.
void runStepClimb(StepClimb& climb, const Observation& obs, Command& out);

/// The controller's entry in the registry (control/controller.h): name
/// "step-climb", phases by ClimbPhase, telemetry column "climb_phase".
ControllerKind stepClimbKind();

}  // namespace roverlab
