// Scenario: terrain, Track1, robot, control and simulation settings in one
// versioned JSON document shared by the browser, the tests and the command
// line. The format is specified field by field in docs/scenario-format.md and
// by the JSON Schema in docs/scenario.schema.json.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "robots/robot.h"
#include "scenario/scenario_files.h"
#include "terrain/track1.h"
#include "world/world.h"

namespace roverlab {

/// Versions of the scenario format this build reads.
constexpr int kScenarioVersion = 1;
constexpr const char* kScenarioFormat = "roverlab-scenario";

/// Where a scenario's robot comes from: one of robot.preset (with
/// robot.params), robot.model (a description inline), robot.file (a
/// description or a URDF beside the scenario) or robot.urdf (URDF text).
enum class RobotSource : unsigned char { Preset, Model, File, Urdf };

/// The source's key in the scenario: "preset", "model", "file" or "urdf".
std::string robotSourceName(RobotSource source);

struct RobotSpec {
  RobotSource source = RobotSource::Preset;
  std::string preset;                    ///< source Preset: its name
  std::map<std::string, double> params;  ///< source Preset: overrides of its parameters
  std::string file;                      ///< source File: the name as written
  /// The robot, whatever its source (a preset's with its parameters): what
  /// the simulation compiles (robots/compile.h).
  RobotDescription description;
  /// The description compiled (robots/compile.h, with simulation.planar)
  /// once, when the scenario is read: what every world made from it starts from.
  std::shared_ptr<const Robot> compiled;
  /// What reading and compiling the robot approximated or did not use (full paths).
  std::vector<Issue> warnings;
  Pose pose;
  bool placeOnGround = true;  ///< pose.position has no z: lower the robot until a wheel touches
};

/// The issue path of a robot's description as compileRobot names it below
/// `robot` ("model", "file", "urdf"; "" for a preset).
std::string descriptionPath(const RobotSpec& robot);

/// A timed change of the control inputs (applied once simulated time ≥ time).
struct ScriptEntry {
  double time = 0.0;                            ///< (s)
  std::optional<double> leftSpeed, rightSpeed;  ///< wheel speed commands (rad/s)
  std::map<std::string, double> joints;         ///< joint targets (rad or m) by actuator name
};

/// A controller program the scenario carries (docs/controllers.md). The core
/// never runs it: the app and `node tools/roverlab.mjs` run a JavaScript one,
/// the Python package a Python one, each through a program's control loop
/// (sim/simulation.h, attachProgram).
struct ProgramSpec {
  std::string language;  ///< "javascript" or "python"; empty: no program
  std::string source;    ///< its text (at most kMaxProgramBytes)
  /// Named numbers handed to the program's init (model.params): what a study
  /// sweeps (`control.program.params.NAME`). At most kMaxProgramParams.
  std::map<std::string, double> params;
};

/// Most named parameters a program may be given.
constexpr size_t kMaxProgramParams = 256;

/// Longest program text a scenario may carry (bytes).
constexpr size_t kMaxProgramBytes = 256 * 1024;

struct ControlSpec {
  double leftSpeed = 0.0, rightSpeed = 0.0;  ///< initial wheel speed commands (rad/s)
  std::map<std::string, double> joints;      ///< initial joint targets (rad or m)
  std::vector<ScriptEntry> script;           ///< sorted by time
  std::string controller = "none";           ///< named automatic controller
  ProgramSpec program;                       ///< a user's controller program
};

struct SimulationSpec {
  double dt = 4e-4;        ///< fixed step (s), [GKS2025]
  double duration = 10.0;  ///< (s)
  bool planar = false;     ///< force the planar base (x, z, pitch) on a 3-D preset
  SlipDefinition slip = SlipDefinition::Relative;
  Integrator integrator = Integrator::SemiImplicitEuler;
  bool chassisContact = true;  ///< body boxes collide with the terrain (contact/body_contact.h)
};

/// A scenario as read (parseScenario): read-only from then on. Its terrain is
/// built and its robot compiled from what was read, so a change is made to
/// the JSON, which is read again.
struct Scenario {
  std::string name, description;
  /// Built once when the scenario is read, then shared by every world made
  /// from it (makeSimulation) and never copied.
  std::shared_ptr<const Terrain> terrain;
  std::vector<Quad> leftRow,
      rightRow;                    ///< terrain.quads rows as quads ([KJ2025] editor); may be empty
  std::vector<Track1Node> track1;  ///< empty when the terrain has no left quad row
  RobotSpec robot;
  ControlSpec control;
  SimulationSpec simulation;
};

/// Parses and validates a scenario. Every problem found is returned as
/// {path, message}, e.g. `robot.params.wheel_radius: must be in [0.02, 2] m`.
/// Heightmap files (`terrain.heightmaps[i].file`) are read through `files`;
/// without it they are refused.
Expected<Scenario> parseScenario(const std::string& json, const ScenarioFiles& files = {});

/// The terrain and Track1 of a scenario document as an editor needs them,
/// whether or not the rest of the document is valid: every issue of those
/// parts (the same paths as parseScenario), each quad segment that could be
/// built on its own, Track1, and the terrain itself when those parts are valid.
struct TerrainInspection {
  std::vector<Issue> issues;
  std::vector<std::optional<Quad>> leftSegments, rightSegments;  ///< one per segment in the file
  std::vector<Track1Node> track1;
  std::optional<Terrain> terrain;
};
TerrainInspection inspectTerrain(const std::string& json);

/// Applies `PATH=VALUE` assignments (dotted paths with [i] indices, e.g.
/// `robot.params.wheel_radius=0.2`, `terrain.boxes[0].size[2]=0.5`) to the
/// JSON text. VALUE is read as JSON when it parses, else as a string.
Expected<std::string> applyOverrides(const std::string& json,
                                     const std::vector<std::string>& assignments);

}  // namespace roverlab
