// What the front ends print or hand to JavaScript about presets, a built
// simulation and a finished run, as JSON values: one describer per thing, so
// that the command-line tool and the WebAssembly module use the same keys
// (the module converts these values to JS objects as they are).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "common/types.h"
#include "scenario/scenario.h"
#include "sim/simulation.h"
#include "sim/telemetry.h"

namespace roverlab {

/// Issues as [{ path, message }].
nlohmann::json describeIssues(const std::vector<Issue>& issues);

/// Every preset with its parameters: [{ preset, description, params: [{ name,
/// value (the default), min, max, unit, description }] }].
nlohmann::json describePresets();

/// What a view needs to build the scene of a simulation once, except the
/// terrain meshes (binary, added by the front end): bodies and their boxes
/// (`boxes`: [{ centre, size }] in the body frame), wheels, Track1 of the
/// scenario, joint drives (with `lower` and `upper` when limited), sections,
/// telemetry columns, the frame layout (sim/frame.h); the robot's name
/// (`robot`), its source (`source`: "preset", "model", "file" or "urdf"),
/// `preset` (null for another source) and its whole description
/// (`robotDescription`, the JSON form of docs/robot-format.md); controller, its
/// phase names and the column of its phase (`phaseColumn`), planar, base, maxWheelSpeed, mass, dt,
/// duration, warnings, name and description.
nlohmann::json describeModel(const Simulation& sim, const Scenario& scenario);

/// The end-of-run summary: "ok" (true only when the outcome is "ok"),
/// "outcome" (outcomeName) and "error" (the message) when it stopped, the
/// final base pose, each wheel's contact state, max |pitch| per section,
/// "flipped" and "flipped_at_s" (null if never), "body_contacts" (box–piece
/// pairs at the end and the most at one sample), "contact_law", steps,
/// "state_hash" (the end state's fingerprint, world/state_hash.h), wall
/// time, steps/s and real-time factor, "warnings" ([{path, message}]) and the
/// controller's "phase" name when one runs.
nlohmann::json describeRun(const Simulation& sim, const RunStats& stats, double wallSeconds);

}  // namespace roverlab
