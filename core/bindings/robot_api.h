// Robots brought into the app: a URDF and the mesh files it names, read into
// a robot description (robots/description.h) that a scenario then holds
// inline as robot.model, so Save, autosave and share links carry the whole
// robot (its collision meshes as convex hulls of points).
#pragma once

#include "bindings/js_values.h"

namespace roverlab {

/// Reads URDF text with its mesh files, `files` an object of Uint8Arrays by
/// name ("meshes/wheel.stl", as a folder or .zip holds them): { ok: true,
/// model, warnings } with `model` the description's JSON form
/// (docs/robot-format.md) and `warnings` what the reader did not use or
/// approximated ([{ path, message }], the message beginning with its line),
/// or { ok: false, issues }. A mesh is looked up by the name the URDF gives
/// it (relative to the URDF, or its package:// path), else by its file name
/// alone when exactly one file has it. Sizes are bounded as the command-line
/// tool bounds them (kMaxUrdfBytes, kMaxUrdfMeshBytes) before anything is copied.
val importRobotJs(val urdf, val files);

}  // namespace roverlab
