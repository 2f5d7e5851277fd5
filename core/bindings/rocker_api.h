// [KJ2025]'s kinematic positioning of the rocker8 rover along Track1, for the
// app's Rover stance tab.
#pragma once

#include "bindings/js_values.h"

namespace roverlab {

/// The rover positioned along Track1 of a scenario (JSON text), every `step`
/// metres of arc length: { ok: true, length, geometry, poses: [{ s, stance,
/// reason, iterations, and with a stance: position, quaternion, yaw, pitch,
/// roll, tilt, pivots, rockerAngles, pivotGaps, wheels: [{ centre, contact:
/// [x, y, z] | null, clearance }], centreLines: { left, right }, tracks: {
/// left, right } (segment pairs) }] } or { ok: false, issues }.
val rockerPlaybackJs(val json, double step);

}  // namespace roverlab
