// The terrain editor's calls: what a scenario's terrain and Track1 look like
// while they are being edited, and Track1 nodes moved along their lines.
#pragma once

#include "bindings/js_values.h"

namespace roverlab {

/// What the terrain editor shows of a scenario document (JSON text): { ok,
/// issues (of its terrain and Track1, paths as the validator's), quads: {
/// left, right } (the quad of every segment that can be built, null where
/// not: { corners, sideAB, sideAM, normal, offset, color }), track1 (nodes:
/// { point, linePoint, lineDir, edgeLength, normal }), terrain (the meshes
/// when those parts are valid, else null) }. Never throws.
val inspectTerrainJs(val json);

/// Moves Track1 node `index` of the scenario (JSON text) so that its
/// coordinate `axis` (0 = x, 1 = y, 2 = z) is `value`; the node stays on the
/// intersection line of the adjacent left-row planes, so the other two follow.
/// { ok: true, point } or { ok: false, issues } (off the left row, a line
/// perpendicular to the axis, a non-finite value, an invalid terrain).
val moveTrack1NodeJs(val json, int index, int axis, double value);

}  // namespace roverlab
