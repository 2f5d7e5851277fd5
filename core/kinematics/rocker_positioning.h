// Kinematic positioning of the 8-wheel rocker rover on a quad terrain ([KJ2025]
// §§2, 4, 5): rigid disc wheels in the two wheel planes, rigid polygonal ground.
// Wheel 1's contact point and its direction along Track1 fix yaw; the roll is
// iterated until one right rocker pivot lies on the right suspension-centre
// line and the other on or above it; for each roll the left side is a planar
// problem ([KJ2025] ref. [11]) that gives the pitch.
//
// Per roll angle φ (rotation of the left wheel plane about Track1's direction):
//   left wheel plane through wheel 1's contact → left track (plane ∩ quads)
//   → wheel 1's centre, rocker 1 (wheel 2 touching), pitch (rocker 2's pivot
//   on the left suspension-centre line) → right wheel plane (the left one
//   moved by the track width along the body's y axis) → right track → right
//   suspension-centre line → heights of pivots 3 and 4 above it.
// Details, robustness rules and the comparison with the dynamics in
// docs/rocker-positioning.md.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "dynamics/spatial.h"
#include "scenario/scenario.h"

namespace roverlab {

/// The rover's geometry as the kinematic model sees it (rocker8 preset).
struct RockerGeometry {
  double wheelRadius = 0.25;   ///< r: rigid disc radius (m)
  double wheelWidth = 0.2;     ///< tread width, for drawing only (m)
  double rockerArm = 0.35;     ///< axle to pivot along the rocker, half the axle spacing (m)
  double pivotHeight = 0.2;    ///< H_p: pivot above its two axles' line (m)
  double pivotSpacing = 1.1;   ///< front to rear pivot of one side (m)
  double trackWidth = 1.4;     ///< between the left and right wheel planes (m)
  double pivotLateral = 0.58;  ///< pivot centres at y = ±pivotLateral in the body frame (m)
  double rockerRange = 0.7;    ///< rocker swing ±range relative to the body (rad)
  Vec3 bodySize = Vec3(1.6, 1.0, 0.4);  ///< body box (m)
  Vec3 bodyCentre = Vec3(0, 0, 0.1);    ///< body box centre in the base frame (m)
};

/// A Track1 node and how far along Track1 it lies.
struct Track1Station {
  Vec3 point = Vec3::Zero();  ///< node position (m)
  double arc = 0.0;           ///< arc length from the first node (m)
};

/// Everything positioning needs, built once from a scenario: the geometry,
/// the ground (both quad rows) and Track1 with its arc length.
struct RockerModel {
  RockerGeometry geometry;
  std::vector<Quad> quads;            ///< left row, then right row
  std::vector<Track1Station> track1;  ///< Track1's nodes, first to last
};

/// Iteration controls. Every loop is bounded by these numbers.
struct RockerSettings {
  double tolerance = 1e-9;         ///< pivot to suspension-centre line at convergence (m)
  double contactTolerance = 1e-6;  ///< a wheel closer than this to the ground touches (m)
  double firstRollStep = 0.02;     ///< first change of the roll when bracketing (rad)
  double maxTilt = 1.2;            ///< bound of |roll|, |pitch| and |rocker angle| searched (rad)
  int scanSamples = 24;            ///< samples of a bounded 1-D search before refining it
  int maxRollIterations = 80;      ///< roll evaluations (bracketing + refinement)
  int maxRefine = 80;              ///< refinement steps of each inner 1-D search
};

/// One wheel of a pose.
struct RockerWheel {
  Vec3 centre = Vec3::Zero();        ///< disc centre (m)
  bool contact = false;              ///< touches the ground
  Vec3 contactPoint = Vec3::Zero();  ///< on a quad, when `contact` (m)
  double clearance = 0.0;            ///< gap to the ground within the wheel plane (m), ≥ 0
  bool ground = true;                ///< there is ground under the wheel (its track is not empty)
};

/// The rover placed with wheel 1's contact at Track1 arc length s.
struct RockerPose {
  double s = 0.0;                    ///< Track1 arc length of wheel 1's contact (m)
  bool stance = false;               ///< a stance was found (the fields below are valid)
  std::string reason;                ///< why there is no stance, when !stance
  Vec3 position = Vec3::Zero();      ///< base frame: midway between the four pivots (m)
  Mat3 rotation = Mat3::Identity();  ///< body axes as columns: x forward, y left, z up
  double yaw = 0.0, pitch = 0.0,
         roll = 0.0;  ///< (rad) as robot.pose: nose-up, left side up positive
  double tilt = 0.0;  ///< iterated angle: wheel planes turned about Track1's direction (rad)
  std::array<Vec3, 4> pivots{};          ///< rocker pivot centres, rockers 1-4 (m)
  std::array<double, 4> rockerAngles{};  ///< relative to the body, nose-up positive (rad)
  std::array<double, 4> pivotGaps{};     ///< pivot above its side's suspension-centre line (m)
  std::array<RockerWheel, 8> wheels{};   ///< wheels 1-4 left (1 in front), 5-8 right
  std::array<std::vector<Vec3>, 2> centreLines;  ///< suspension-centre lines, left and right (m)
  std::array<std::vector<Vec3>, 2>
      tracks;          ///< wheel-plane ∩ ground, left and right, as segment pairs (m)
  int iterations = 0;  ///< roll evaluations used
};

/// The kinematic model of a scenario: rocker8 parameters (defaults merged
/// with robot.params), both quad rows, Track1. Issues when the robot is not
/// rocker8 or a quad row or Track1 is missing.
Expected<RockerModel> makeRockerModel(const Scenario& scenario);

/// Total Track1 length (m).
double track1Length(const RockerModel& model);

/// Places the rover with wheel 1's contact at Track1 arc length `s`, starting
/// the roll iteration at `rollGuess` (the previous step's tilt). An issue
/// when s is outside Track1; a pose with stance = false and the reason when
/// no stance exists there.
Expected<RockerPose> positionRocker(const RockerModel& model, double s, double rollGuess = 0.0,
                                    const RockerSettings& settings = {});

/// Kinematic playback: poses at s = 0, step, 2·step, ... and Track1's end,
/// each iteration started from the previous pose's tilt. Issue when step is
/// not positive or would give more than `maxPoses` poses.
Expected<std::vector<RockerPose>> rockerPlayback(const RockerModel& model, double step,
                                                 const RockerSettings& settings = {},
                                                 int maxPoses = 10000);

}  // namespace roverlab
