#include "scenario/scenario.h"

#include "common/size_optimized.h"
#include "control/controller.h"
#include "robots/compile.h"
#include "scenario/robot_reader.h"
#include "scenario/terrain_reader.h"
#include "scenario/urdf_reader.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

// The folder part of a file name ("robots/" of "robots/leo.urdf"; "" for none).
std::string folderOf(const std::string& name) {
  const size_t slash = name.rfind('/');
  return slash == std::string::npos ? std::string() : name.substr(0, slash + 1);
}

// The robot's description from its one source (RobotSpec).
void readRobotSource(Reader& r, const json& rj, const ScenarioFiles& files, Scenario& s) {
  RobotSpec& robot = s.robot;
  const size_t before = r.issues.size();
  const char* keys[] = {"preset", "model", "file", "urdf"};
  int sources = 0;
  for (const char* k : keys) sources += rj.contains(k);
  if (sources != 1) {
    r.add("robot", sources == 0 ? "needs one of \"preset\" (one of: " + join(presetNames()) +
                                      "), \"model\", \"file\" or \"urdf\""
                                : "gives several robots: keep one of \"preset\", \"model\", "
                                  "\"file\" and \"urdf\"");
    return;
  }
  if (rj.contains("params") && !rj.contains("preset"))
    r.add("robot.params", "sets a preset's parameters; a model's are set in the model itself");
  if (rj.contains("preset")) {
    robot.source = RobotSource::Preset;
    robot.preset = r.string(rj, "robot", "preset", "", presetNames());
    if (rj.contains("params")) {
      const json& pj = rj["params"];
      if (!pj.is_object()) {
        r.add("robot.params", "must be an object of parameter values");
      } else {
        for (const auto& [name, v] : pj.items()) {
          const std::string p = Reader::at("robot.params", name);
          if (!v.is_number())
            r.add(p, "must be a number, got " + typeName(v));
          else
            robot.params[name] = v.get<double>();
        }
      }
    }
    if (robot.preset.empty() || r.issues.size() != before) return;
    Expected<RobotDescription> d = describePreset(robot.preset, robot.params);
    if (!d) return r.addAll("robot", d.issues());
    robot.description = std::move(d).value();
    return;
  }
  if (rj.contains("model")) {
    robot.source = RobotSource::Model;
    Expected<RobotDescription> d = readRobotDescription(rj["model"], "robot.model");
    if (!d) return r.addAll("", d.issues());
    robot.description = std::move(d).value();
    return;
  }
  const bool urdfText = rj.contains("urdf");
  const std::string key = urdfText ? "urdf" : "file";
  const std::string p = Reader::at("robot", key);
  if (!rj[key].is_string()) return r.add(p, "must be a string, got " + typeName(rj[key]));
  const std::string value = rj[key].get<std::string>();
  std::string text = value, folder;
  const auto endsWith = [&](const char* ext) {
    const std::string e = ext;
    return value.size() >= e.size() && value.compare(value.size() - e.size(), e.size(), e) == 0;
  };
  const bool urdf = urdfText || endsWith(".urdf") || endsWith(".URDF");
  if (!urdf && !endsWith(".json"))
    return r.add(p, "names '" + clipped(value) +
                        "': a robot file is a description (.json) or a URDF (.urdf)");
  if (!urdfText) {
    robot.source = RobotSource::File;
    robot.file = value;
    if (!files)
      return r.add(p,
                   "names a file, which only the command-line tool reads; give the robot "
                   "inline as \"model\" or \"urdf\"");
    std::string error;
    std::optional<std::string> bytes = files(value, error);
    if (!bytes) return r.add(p, "cannot read '" + clipped(value) + "': " + error);
    text = std::move(*bytes);
    folder = folderOf(value);
  } else {
    robot.source = RobotSource::Urdf;
  }
  if (urdf) {
    // Meshes are named relative to the URDF's own folder.
    const ScenarioFiles beside =
        !files ? ScenarioFiles()
               : ScenarioFiles([files, folder](const std::string& name, std::string& error) {
                   return files(folder + name, error);
                 });
    Expected<UrdfRobot> read = readUrdf(text, beside, p);
    if (!read) return r.addAll("", read.issues());
    robot.description = std::move(read.value().description);
    robot.warnings = std::move(read.value().warnings);
  } else {
    Expected<json> doc = readJson(text);
    if (!doc) return r.addAll(p, doc.issues());
    Expected<RobotDescription> d = readRobotDescription(doc.value(), p);
    if (!d) return r.addAll("", d.issues());
    robot.description = std::move(d).value();
  }
}

void readRobot(Reader& r, const json& doc, const ScenarioFiles& files, Scenario& s) {
  if (!doc.contains("robot")) return r.add("robot", "is required: {\"preset\": ...}");
  const json& rj = doc["robot"];
  if (!r.object(rj, "robot", {"preset", "params", "pose", "model", "file", "urdf"})) return;
  readRobotSource(r, rj, files, s);
  if (rj.contains("pose")) {
    const json& pj = rj["pose"];
    if (r.object(pj, "robot.pose", {"position", "yaw", "pitch", "roll"})) {
      if (pj.contains("position")) {
        if (std::optional<Vec3> v = r.vec3(pj["position"], "robot.pose.position", 2)) {
          s.robot.pose.position = *v;
          s.robot.placeOnGround = pj["position"].size() == 2;
        }
      }
      NumberSpec yaw = within(-10.0, 10.0, "rad");
      NumberSpec tilt = within(-M_PI, M_PI, "rad");  // pitch and roll
      s.robot.pose.yaw = r.number(pj, "robot.pose", "yaw", yaw);
      s.robot.pose.pitch = r.number(pj, "robot.pose", "pitch", tilt);
      s.robot.pose.roll = r.number(pj, "robot.pose", "roll", tilt);
    }
  }
}

std::map<std::string, double> readJoints(Reader& r, const json& obj, const std::string& path) {
  std::map<std::string, double> out;
  if (!obj.contains("joints")) return out;
  const json& j = obj["joints"];
  const std::string p = Reader::at(path, "joints");
  if (!j.is_object()) {
    r.add(p, "must be an object of joint targets (rad or m)");
    return out;
  }
  NumberSpec target = within(-1e3, 1e3, "rad or m");
  for (const auto& [name, v] : j.items()) out[name] = r.numberValue(v, Reader::at(p, name), target);
  return out;
}

// Wheel speeds: "wheel_speed" sets both sides; "left_speed"/"right_speed" one side each.
void readSpeeds(Reader& r, const json& obj, const std::string& path, std::optional<double>& left,
                std::optional<double>& right) {
  NumberSpec speed = within(-1e3, 1e3, "rad/s");
  if (obj.contains("wheel_speed")) left = right = r.number(obj, path, "wheel_speed", speed);
  if (obj.contains("left_speed")) left = r.number(obj, path, "left_speed", speed);
  if (obj.contains("right_speed")) right = r.number(obj, path, "right_speed", speed);
}

void readControl(Reader& r, const json& doc, Scenario& s) {
  if (!doc.contains("control")) return;
  const json& cj = doc["control"];
  if (!r.object(cj, "control",
                {"wheel_speed", "left_speed", "right_speed", "joints", "script", "controller",
                 "program"}))
    return;
  std::optional<double> left, right;
  readSpeeds(r, cj, "control", left, right);
  s.control.leftSpeed = left.value_or(0.0);
  s.control.rightSpeed = right.value_or(0.0);
  s.control.joints = readJoints(r, cj, "control");
  s.control.controller = r.string(cj, "control", "controller", "none", controllerNames());
  if (cj.contains("program") &&
      r.object(cj["program"], "control.program", {"language", "source", "params"})) {
    const json& pj = cj["program"];
    ProgramSpec& p = s.control.program;
    std::vector<std::string> languages;
    for (const ProgramLanguage& l : programLanguages()) languages.push_back(l.name);
    p.language = r.string(pj, "control.program", "language", "", languages);
    if (!pj.contains("language"))
      r.add("control.program.language", "is required (javascript or python)");
    // A Python program is handed to the package as an object (docs/controllers.md):
    // its scenario may carry only its params.
    if (!pj.contains("source") && p.language != "python")
      r.add("control.program.source", "is required (the program's text)");
    p.source = r.string(pj, "control.program", "source", "");
    if (p.source.size() > kMaxProgramBytes)
      r.add("control.program.source", "is " + std::to_string(p.source.size()) +
                                          " bytes; a program may have at most " +
                                          std::to_string(kMaxProgramBytes));
    const json* params = pj.contains("params") ? &pj["params"] : nullptr;
    if (params && !params->is_object()) {
      r.add("control.program.params",
            "must be an object of named numbers, got " + typeName(*params));
    } else if (params) {
      if (params->size() > kMaxProgramParams)
        r.add("control.program.params", "has " + std::to_string(params->size()) +
                                            " entries; a program may have at most " +
                                            std::to_string(kMaxProgramParams));
      else
        for (const auto& [name, value] : params->items()) {
          if (name.empty() || name.size() > 64)
            r.add("control.program.params", "a parameter's name has 1 to 64 characters");
          else
            p.params[name] = r.numberValue(value, Reader::at("control.program.params", name), {});
        }
    }
    if (s.control.controller != "none")
      r.add("control.program",
            "a scenario has one automatic controller: leave out control.controller ('" +
                s.control.controller + "') or the program");
  }
  if (const json* script = r.array(cj, "control", "script")) {
    NumberSpec time = within(0.0, 1e6, "s");
    time.required = true;
    double last = -1;
    for (size_t i = 0; i < script->size(); ++i) {
      const std::string p = Reader::at("control.script", i);
      const json& e = (*script)[i];
      if (!r.object(e, p, {"t", "wheel_speed", "left_speed", "right_speed", "joints"})) continue;
      ScriptEntry entry;
      entry.time = r.number(e, p, "t", time);
      if (entry.time < last)
        r.add(p + ".t", "must not be earlier than the previous entry (" + format(last) + " s)");
      last = std::max(last, entry.time);
      readSpeeds(r, e, p, entry.leftSpeed, entry.rightSpeed);
      entry.joints = readJoints(r, e, p);
      s.control.script.push_back(entry);
    }
  }
}

void readSimulation(Reader& r, const json& doc, Scenario& s) {
  if (!doc.contains("simulation")) return;
  const json& sj = doc["simulation"];
  if (!r.object(sj, "simulation",
                {"dt", "duration", "mode", "slip", "integrator", "chassis_contact"}))
    return;
  SimulationSpec& sim = s.simulation;
  NumberSpec dt = within(1e-6, 0.01, "s", sim.dt);
  sim.dt = r.number(sj, "simulation", "dt", dt);
  NumberSpec duration = within(0.0, 1e5, "s", sim.duration);
  sim.duration = r.number(sj, "simulation", "duration", duration);
  sim.planar = r.string(sj, "simulation", "mode", "3d", {"3d", "planar"}) == "planar";
  sim.slip = r.string(sj, "simulation", "slip", "relative", {"relative", "absolute"}) == "absolute"
                 ? SlipDefinition::Absolute
                 : SlipDefinition::Relative;
  sim.integrator =
      r.string(sj, "simulation", "integrator", "semi-implicit", {"semi-implicit", "rk4"}) == "rk4"
          ? Integrator::RungeKutta4
          : Integrator::SemiImplicitEuler;
  sim.chassisContact = r.boolean(sj, "simulation", "chassis_contact", true);
}

// Compiles the robot (once: RobotSpec::compiled) and checks that the joint
// names in the control section exist on it.
void compileAndCheck(Reader& r, Scenario& s) {
  CompileOptions options;
  options.path = descriptionPath(s.robot);
  options.planar = s.simulation.planar;
  std::vector<Issue> warnings;
  Expected<Robot> robot = compileRobot(s.robot.description, options, &warnings);
  if (!robot) return r.addAll("robot", robot.issues());
  for (const Issue& w : prefixed("robot", warnings)) s.robot.warnings.push_back(w);
  std::vector<std::string> known;
  for (const auto& [name, i] : robot.value().joints) known.push_back(name);
  const std::string list =
      known.empty() ? "this robot has no joint drives" : "known: " + join(known);
  auto check = [&](const std::map<std::string, double>& joints, const std::string& path) {
    for (const auto& [name, v] : joints)
      if (!robot.value().joints.count(name))
        r.add(Reader::at(path + ".joints", name), "unknown joint drive (" + list + ")");
  };
  check(s.control.joints, "control");
  for (size_t i = 0; i < s.control.script.size(); ++i)
    check(s.control.script[i].joints, Reader::at("control.script", i));
  s.robot.compiled = std::make_shared<const Robot>(std::move(robot).value());
}

}  // namespace

std::string robotSourceName(RobotSource source) {
  switch (source) {
    case RobotSource::Preset:
      return "preset";
    case RobotSource::Model:
      return "model";
    case RobotSource::File:
      return "file";
    case RobotSource::Urdf:
      return "urdf";
  }
  return "";
}

std::string descriptionPath(const RobotSpec& robot) {
  return robot.source == RobotSource::Preset ? "" : robotSourceName(robot.source);
}

TerrainInspection inspectTerrain(const std::string& text) {
  TerrainInspection out;
  Expected<json> parsed = readJson(text);
  if (!parsed) {
    out.issues = parsed.issues();
    return out;
  }
  const json& doc = parsed.value();
  if (!doc.is_object()) {
    out.issues.push_back({"", "must be a JSON object"});
    return out;
  }
  Reader r;
  TerrainContext t;
  readTerrain(r, doc, t);
  readTrack1(r, doc, t);
  out.leftSegments = t.segments[0];
  out.rightSegments = t.segments[1];
  out.track1 = t.track1;
  out.issues = capped(r.issues);
  if (!out.issues.empty()) return out;
  Expected<Terrain> terrain = std::move(t.builder).build();
  if (!terrain)
    out.issues = capped(terrainIssues(terrain.issues(), t.piecePaths));
  else
    out.terrain = std::move(terrain).value();
  return out;
}

Expected<Scenario> parseScenario(const std::string& text, const ScenarioFiles& files) {
  Expected<json> parsed = readJson(text);
  if (!parsed) return parsed.issues();
  const json& doc = parsed.value();
  Reader r;
  if (!r.object(doc, "",
                {"format", "version", "name", "description", "terrain", "track1", "robot",
                 "control", "simulation"}))
    return capped(r.issues);
  const std::string format = r.string(doc, "", "format", "");
  if (format != kScenarioFormat)
    r.add("format", std::string("must be \"") + kScenarioFormat + "\"");
  // Compared as the 64-bit integer it is: 2^32 + 1 is not 1.
  if (!doc.contains("version") || !doc["version"].is_number_integer() ||
      doc["version"] != kScenarioVersion) {
    const std::string got = doc.contains("version") ? clipped(dumpJson(doc["version"])) : "nothing";
    r.add("version", "unsupported scenario version " + got + "; this build reads version " +
                         std::to_string(kScenarioVersion));
    return r.issues;  // the rest may mean something else in another version
  }
  Scenario s;
  s.name = r.string(doc, "", "name", "");
  s.description = r.string(doc, "", "description", "");

  TerrainContext t;
  t.files = files;
  readTerrain(r, doc, t);
  readTrack1(r, doc, t);
  s.track1 = t.track1;
  s.leftRow = t.rows[0];
  s.rightRow = t.rows[1];
  const size_t before = r.issues.size();
  readRobot(r, doc, files, s);
  const bool robotRead = r.issues.size() == before;
  readControl(r, doc, s);
  readSimulation(r, doc, s);
  if (robotRead) compileAndCheck(r, s);  // alongside other issues
  if (!r.issues.empty()) return capped(r.issues);
  Expected<Terrain> terrain = std::move(t.builder).build();
  if (!terrain) return capped(terrainIssues(terrain.issues(), t.piecePaths));
  s.terrain = std::make_shared<const Terrain>(std::move(terrain).value());
  return s;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
