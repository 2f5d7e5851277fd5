// A frame: everything a view needs to draw one instant of a running
// simulation, flat in one array of doubles so that the browser reads it
// through a single typed-array view (no per-body calls, no allocation).
//
//   [0]               time (s)
//   [1]               steps taken
//   [2]               1 when the simulation has stopped on an error, else 0
//   poses             per body: position (m) x, y, z, then orientation as a
//                     unit quaternion w, x, y, z (body → world)       (7 × bodies)
//   contacts          per wheel: contact count, then kContactSlots slots of
//                     point (m, 3), normal force (N, 3), tangential force (N, 3),
//                     depth (m: the tire's deflection Z), the terrain feature's
//                     id (Terrain: a piece, a heightfield's or mesh's triangle or
//                     wall) and slip (s, or S in m/s, per the preset's definition)
//                                                   ((1 + 12·slots) × wheels)
//   box contacts      per body box (WorldModel::boxes): count of touching box
//                     faces, then kContactSlots slots of the centre of pressure
//                     (m, 3), normal force (N, 3), tangential force (N, 3),
//                     deepest penetration (m), the feature id of the deepest
//                     point and NaN (no slip)       ((1 + 12·slots) × boxes)
//   telemetry         the telemetry row (sim/telemetry.h)           (columns)
#pragma once

#include <vector>

#include "sim/simulation.h"

namespace roverlab {

/// Contact slots per wheel in a frame; a wheel touching more pieces reports
/// the first ones (the count still says how many there are).
constexpr int kContactSlots = 4;

struct FrameLayout {
  int bodies = 0, wheels = 0, boxes = 0, telemetry = 0;
  int poses = 3;        ///< offset of the body poses
  int contacts = 0;     ///< offset of the wheel contacts
  int boxContacts = 0;  ///< offset of the body box contacts (kWheel doubles each)
  int row = 0;          ///< offset of the telemetry row
  int size = 0;         ///< total doubles
  static constexpr int kPose = 7;
  static constexpr int kSlot = 12;
  /// Offsets within a slot.
  static constexpr int kPoint = 0, kNormalForce = 3, kTangentialForce = 6, kDepth = 9,
                       kFeature = 10, kSlip = 11;
  static constexpr int kWheel = 1 + kContactSlots * kSlot;
};

FrameLayout frameLayout(const Simulation& sim);

/// Writes the frame of the current state (runs updateKinematics first).
/// `frame` must have layout.size elements.
void writeFrame(Simulation& sim, const FrameLayout& layout, std::vector<double>& frame);

}  // namespace roverlab
