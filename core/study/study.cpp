#include "study/study.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <set>

#include "common/size_optimized.h"
#include "control/controller.h"
#include "scenario/json_input.h"
#include "scenario/scenario.h"
#include "sim/describe.h"
#include "sim/run.h"
#include "sim/simulation.h"
#include "sim/telemetry.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {

using nlohmann::json;

namespace {

/// Most values one parameter may list or a range may step through.
constexpr int kMaxParameterValues = 100'000;
/// Most bisection steps of a threshold search (2⁻⁶⁰ of the range is below a double's precision).
constexpr int kMaxBisections = 60;

class StudyReader {
 public:
  explicit StudyReader(const ScenarioFiles& files) : files_(files) {}

  Expected<Study> read(const std::string& text) {
    Expected<json> parsed = readJson(text);
    if (!parsed) return parsed.issues();
    const json& doc = parsed.value();
    if (!doc.is_object()) return Expected<Study>::failure("", "a study is a JSON object");
    static const std::set<std::string> keys = {"format",      "version",    "name",
                                               "description", "scenario",   "parameters",
                                               "repeats",     "predicates", "threshold"};
    for (const auto& [key, value] : doc.items())
      if (!keys.count(key))
        issue(key,
              "not a study field (format, version, name, description, scenario, "
              "parameters, repeats, predicates, threshold)");
    if (doc.value("format", json()) != kStudyFormat)
      issue("format", std::string("must be \"") + kStudyFormat + "\"");
    if (!doc.contains("version") || !doc["version"].is_number_integer() ||
        doc["version"].get<long long>() != kStudyVersion)
      issue("version", "must be " + std::to_string(kStudyVersion));
    Study study;
    study.name = text_(doc, "name");
    study.description = text_(doc, "description");
    readScenario(doc, study);
    scenario_ = study.scenario;
    readParameters(doc, study);
    if (doc.contains("repeats")) {
      const json& r = doc["repeats"];
      if (!r.is_number_integer() || r.get<long long>() < 1 || r.get<long long>() > 1000)
        issue("repeats", "must be a whole number in [1, 1000]");
      else
        study.repeats = r.get<int>();
    }
    readPredicates(doc, study);
    readThreshold(doc, study);
    if (issues_.empty()) {
      double runs = study.repeats;
      for (const StudyParameter& p : study.parameters) runs *= static_cast<double>(p.values.size());
      if (study.threshold) runs *= study.threshold->maxRuns;
      if (runs > static_cast<double>(kMaxStudyRuns))
        issue("parameters", "the study asks for " + std::to_string(static_cast<long long>(runs)) +
                                " runs; the limit is " + std::to_string(kMaxStudyRuns));
    }
    if (!issues_.empty()) return issues_;
    return study;
  }

 private:
  void issue(const std::string& path, const std::string& message) {
    issues_.push_back({path, message});
  }

  std::string text_(const json& doc, const char* key) {
    if (!doc.contains(key)) return "";
    if (!doc[key].is_string()) {
      issue(key, "must be text");
      return "";
    }
    return doc[key].get<std::string>();
  }

  void readScenario(const json& doc, Study& study) {
    if (!doc.contains("scenario"))
      return issue("scenario", "required: a scenario object or a file name");
    const json& s = doc["scenario"];
    if (s.is_object()) {
      study.scenario = s.dump();
      study.files = files_;
      return;
    }
    if (!s.is_string()) return issue("scenario", "must be a scenario object or a file name");
    const std::string name = s.get<std::string>();
    std::string error;
    if (!files_) return issue("scenario", "files cannot be read here; give the scenario inline");
    std::optional<std::string> text = files_(name, error);
    if (!text) return issue("scenario", "cannot read '" + name + "': " + error);
    study.scenario = *text;
    // The scenario's files are named from its own folder, inside the study's.
    const std::size_t slash = name.rfind('/');
    const std::string dir = slash == std::string::npos ? "" : name.substr(0, slash + 1);
    const ScenarioFiles files = files_;
    study.files = [files, dir](const std::string& n, std::string& e) -> std::optional<std::string> {
      if (!staysInFolder(n)) {
        e = "a file named in a scenario stays inside the scenario's folder (a relative name "
            "without '..')";
        return std::nullopt;
      }
      return files(dir + n, e);
    };
  }

  // A number at `path`, finite.
  std::optional<double> number(const json& v, const std::string& path) {
    if (!v.is_number() || !std::isfinite(v.get<double>())) {
      issue(path, "must be a finite number");
      return std::nullopt;
    }
    return v.get<double>();
  }

  bool pathOk(const json& p, const std::string& at) {
    if (!p.is_string() || p.get<std::string>().empty()) {
      issue(at, "must be a scenario path, e.g. \"robot.params.wheel_radius\"");
      return false;
    }
    const std::string path = p.get<std::string>();
    if (path.find('=') != std::string::npos) {
      issue(at, "a path has no '='");
      return false;
    }
    // The path, as --set checks it on the base scenario.
    Expected<std::string> applied =
        applyOverrides(scenario_.empty() ? "{}" : scenario_, {path + "=0"});
    if (!applied) {
      issue(at, applied.issues().front().message);
      return false;
    }
    return true;
  }

  // "also": [{path, scale, offset}], numbers only; paths unlike `own` and each other.
  std::vector<LinkedPath> readAlso(const json& p, const std::string& at, const std::string& own,
                                   std::set<std::string>& seen) {
    std::vector<LinkedPath> out;
    if (!p.contains("also")) return out;
    const json& also = p["also"];
    if (!also.is_array() || also.size() > 16)
      return issue(at + ".also", "must be a list of at most 16 {path, scale, offset}"), out;
    for (std::size_t k = 0; k < also.size(); ++k) {
      const std::string a = at + ".also[" + std::to_string(k) + "]";
      const json& l = also[k];
      if (!l.is_object() || !l.contains("path")) {
        issue(a, "must be {path, scale, offset}");
        continue;
      }
      for (const auto& [key, value] : l.items())
        if (key != "path" && key != "scale" && key != "offset")
          issue(a + "." + key, "not a field of a linked path (path, scale, offset)");
      if (!pathOk(l["path"], a + ".path")) continue;
      LinkedPath link;
      link.path = l["path"].get<std::string>();
      if (link.path == own || !seen.insert(link.path).second)
        issue(a + ".path", "is set already by another parameter");
      if (l.contains("scale"))
        if (const auto v = number(l["scale"], a + ".scale")) link.scale = *v;
      if (l.contains("offset"))
        if (const auto v = number(l["offset"], a + ".offset")) link.offset = *v;
      out.push_back(link);
    }
    return out;
  }

  void readParameters(const json& doc, Study& study) {
    if (!doc.contains("parameters")) return;
    const json& ps = doc["parameters"];
    if (!ps.is_array()) return issue("parameters", "must be a list of parameters");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < ps.size(); ++i) {
      const std::string at = "parameters[" + std::to_string(i) + "]";
      const json& p = ps[i];
      if (!p.is_object()) {
        issue(at, "must be an object with a path and values, a range or random samples");
        continue;
      }
      for (const auto& [key, value] : p.items())
        if (key != "path" && key != "values" && key != "from" && key != "to" && key != "steps" &&
            key != "random" && key != "also")
          issue(at + "." + key,
                "not a parameter field (path, values, from, to, steps, random, also)");
      if (!p.contains("path") || !pathOk(p["path"], at + ".path")) continue;
      StudyParameter param;
      param.path = p["path"].get<std::string>();
      if (!seen.insert(param.path).second)
        issue(at + ".path", "is set already by another parameter");
      param.also = readAlso(p, at, param.path, seen);
      const int forms = p.contains("values") + p.contains("from") + p.contains("random");
      if (forms != 1) {
        issue(at, "needs exactly one of: values, a range (from, to, steps) or random samples");
        continue;
      }
      if (p.contains("values")) {
        const json& vs = p["values"];
        if (!vs.is_array() || vs.empty() || vs.size() > kMaxParameterValues) {
          issue(at + ".values",
                "must be a list of 1 to " + std::to_string(kMaxParameterValues) + " values");
          continue;
        }
        for (std::size_t k = 0; k < vs.size(); ++k) {
          if (vs[k].is_number() && !std::isfinite(vs[k].get<double>()))
            issue(at + ".values[" + std::to_string(k) + "]", "must be a finite number");
          param.values.push_back(vs[k]);
        }
      } else if (p.contains("from")) {
        const auto from = number(p["from"], at + ".from");
        const auto to = p.contains("to") ? number(p["to"], at + ".to") : std::nullopt;
        if (!p.contains("to")) issue(at + ".to", "required with from");
        const json steps = p.value("steps", json());
        if (!steps.is_number_integer() || steps.get<long long>() < 1 ||
            steps.get<long long>() > kMaxParameterValues) {
          issue(at + ".steps", "must be a whole number of values in [1, " +
                                   std::to_string(kMaxParameterValues) + "]");
          continue;
        }
        if (!from || !to) continue;
        const double a = from.value_or(0), b = to.value_or(0);
        const int n = steps.get<int>();
        for (int k = 0; k < n; ++k)
          param.values.push_back(n == 1 ? a : k == n - 1 ? b : a + (b - a) * k / (n - 1));
      } else {
        const json& r = p["random"];
        const std::string rat = at + ".random";
        if (!r.is_object()) {
          issue(rat, "must be an object: from, to, count, seed");
          continue;
        }
        const auto from = r.contains("from") ? number(r["from"], rat + ".from") : std::nullopt;
        const auto to = r.contains("to") ? number(r["to"], rat + ".to") : std::nullopt;
        if (!r.contains("from")) issue(rat + ".from", "required");
        if (!r.contains("to")) issue(rat + ".to", "required");
        const json count = r.value("count", json()), seed = r.value("seed", json(0));
        if (!count.is_number_integer() || count.get<long long>() < 1 ||
            count.get<long long>() > kMaxParameterValues) {
          issue(rat + ".count",
                "must be a whole number in [1, " + std::to_string(kMaxParameterValues) + "]");
          continue;
        }
        if (!seed.is_number_unsigned()) {
          issue(rat + ".seed", "must be a whole number ≥ 0");
          continue;
        }
        if (!from || !to) continue;
        for (double v : studySamples(*from, *to, count.get<int>(), seed.get<std::uint64_t>()))
          param.values.push_back(v);
      }
      if (!param.also.empty())
        for (std::size_t k = 0; k < param.values.size(); ++k)
          if (!param.values[k].is_number())
            issue(at + ".values[" + std::to_string(k) + "]",
                  "must be a number: also sets linked paths from it");
      study.parameters.push_back(std::move(param));
    }
    seen_ = seen;
  }

  void readPredicates(const json& doc, Study& study) {
    using Kind = StudyPredicate::Kind;
    // Built in: asked of every run.
    study.predicates.push_back({"flipped", Kind::Flipped});
    study.predicates.push_back({"left_terrain", Kind::LeftTerrain});
    if (!doc.contains("predicates")) return;
    const json& ps = doc["predicates"];
    if (!ps.is_object()) return issue("predicates", "must be an object: {NAME: {test: value}}");
    for (const auto& [name, p] : ps.items()) {
      const std::string at = "predicates." + name;
      if (name.empty() || name.size() > 64 || !std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
          })) {
        issue(at, "a predicate's name is 1 to 64 letters, digits or '_'");
        continue;
      }
      if (name == "flipped" || name == "left_terrain") {
        issue(at, "'" + name + "' is built in (asked of every run)");
        continue;
      }
      if (!p.is_object() || p.empty()) {
        issue(at, "must be an object with one test: base_x_past, base_z_above or reached_x");
        continue;
      }
      StudyPredicate pred;
      pred.name = name;
      int tests = 0;
      for (const auto& [key, value] : p.items()) {
        const std::optional<double> v = number(value, at + "." + key);
        if (!v) continue;
        if (key == "base_x_past")
          pred.kind = Kind::BaseXPast, pred.value = *v, ++tests;
        else if (key == "base_z_above")
          pred.kind = Kind::BaseZAbove, pred.value = *v, ++tests;
        else if (key == "reached_x")
          pred.kind = Kind::ReachedX, pred.value = *v, ++tests;
        else if (key == "within_s")
          pred.within = *v;
        else
          issue(at + "." + key, "not a test (base_x_past, base_z_above, reached_x, within_s)");
      }
      if (tests != 1)
        issue(at, "must have exactly one test: base_x_past, base_z_above or reached_x");
      if (p.contains("within_s") && pred.kind != Kind::ReachedX)
        issue(at + ".within_s", "goes with reached_x");
      study.predicates.push_back(pred);
    }
  }

  void readThreshold(const json& doc, Study& study) {
    if (!doc.contains("threshold")) return;
    const json& t = doc["threshold"];
    if (!t.is_object())
      return issue("threshold", "must be an object: path, from, to, tolerance, predicate");
    for (const auto& [key, value] : t.items())
      if (key != "path" && key != "from" && key != "to" && key != "tolerance" &&
          key != "predicate" && key != "also")
        issue("threshold." + key,
              "not a threshold field (path, from, to, tolerance, predicate, also)");
    ThresholdSearch s;
    if (!t.contains("path") || !pathOk(t["path"], "threshold.path")) {
      if (!t.contains("path")) issue("threshold.path", "required");
      return;
    }
    s.path = t["path"].get<std::string>();
    if (seen_.count(s.path))
      issue("threshold.path", "is set already by a parameter; search it or list it");
    s.also = readAlso(t, "threshold", s.path, seen_);
    const auto req = [&](const char* key) -> std::optional<double> {
      if (!t.contains(key)) {
        issue(std::string("threshold.") + key, "required");
        return std::nullopt;
      }
      return number(t[key], std::string("threshold.") + key);
    };
    const auto from = req("from"), to = req("to"), tol = req("tolerance");
    if (!from || !to || !tol) return;
    if (*from == *to) return issue("threshold.to", "must differ from from");
    if (!(*tol > 0) || *tol >= std::abs(*to - *from))
      return issue("threshold.tolerance", "must be > 0 and below |to − from|");
    s.from = *from, s.to = *to, s.tolerance = *tol;
    const std::string pred =
        t.value("predicate", json()).is_string() ? t["predicate"].get<std::string>() : "";
    if (std::none_of(study.predicates.begin(), study.predicates.end(),
                     [&](const StudyPredicate& p) { return p.name == pred; }))
      return issue("threshold.predicate",
                   "must name a predicate (flipped, left_terrain, or one of predicates)");
    s.predicate = pred;
    // ceil(log2(ratio)) from the ratio's binary exponent, exact on every
    // platform; a range of 1e300 over a tolerance of 1e-300 is infinite.
    const double ratio = std::abs(*to - *from) / *tol;
    int exponent = 0;
    const double mantissa = std::frexp(ratio, &exponent);  // ratio = mantissa 2^exponent
    const int steps = mantissa == 0.5 ? exponent - 1 : exponent;
    if (!std::isfinite(ratio) || steps > kMaxBisections)
      return issue("threshold.tolerance", "needs more than " + std::to_string(kMaxBisections) +
                                              " bisections; make it larger");
    s.maxRuns = 2 + std::max(0, steps);
    study.threshold = s;
  }

  ScenarioFiles files_;
  std::vector<Issue> issues_;
  std::set<std::string> seen_;  // paths the parameters set
  std::string scenario_;        // the base scenario's text, once read
};

// What a study measures of a run, sampled every kSampleInterval.
struct Measures {
  double driveEnergy = 0, peakWheelTorque = 0, slipSum = 0;
  long slipCount = 0;
  std::vector<double> reachedAt;  // per predicate: first time of ReachedX, −1 if never
  double lastTime = 0;

  void sample(const Simulation& sim, const Study& study) {
    const Robot& robot = sim.model.robot;
    const std::vector<Body>& bodies = robot.bodies.bodies;
    const Eigen::VectorXd &q = sim.state.bodies.q, &v = sim.state.bodies.v;
    const double t = sim.state.bodies.time, dt = t - lastTime;
    lastTime = t;
    for (std::size_t a = 0; a < robot.actuators.size(); ++a) {
      const Actuator& act = robot.actuators[a];
      const Body& b = bodies[act.body];
      const double tau = std::clamp(
          act.demand(sim.state.targets[a], q[b.qIndex], v[b.vIndex], sim.state.integrals[a]),
          -act.limit, act.limit);
      driveEnergy += std::max(0.0, tau * v[b.vIndex]) * dt;
      if (std::any_of(robot.wheels.begin(), robot.wheels.end(),
                      [&](const WheelModel& w) { return w.body == act.body; }))
        peakWheelTorque = std::max(peakWheelTorque, std::abs(tau));
    }
    for (const WheelResult& r : sim.data.wheels) {
      if (r.forces.empty()) continue;
      double slip = 0;
      for (const TireForces& f : r.forces) slip = std::max(slip, std::abs(f.slip));
      slipSum += slip;
      ++slipCount;
    }
    reachedAt.resize(study.predicates.size(), -1.0);
    const double x = worldPoint(sim.data.bodies, robot.base, Vec3::Zero()).x();
    for (std::size_t k = 0; k < study.predicates.size(); ++k)
      if (study.predicates[k].kind == StudyPredicate::Kind::ReachedX && reachedAt[k] < 0 &&
          x >= study.predicates[k].value)
        reachedAt[k] = t;
  }
};

// Every column set to null, then the run's values.
json emptyRow(const Study& study, const StudyRun& run) {
  json row = json::object();
  for (const std::string& c : studyColumns(study)) row[c] = nullptr;
  for (std::size_t k = 0; k < study.parameters.size(); ++k)
    row[study.parameters[k].path] = run.values[k];
  if (study.threshold && run.values.size() > study.parameters.size())
    row[study.threshold->path] = run.values.back();
  if (study.repeats > 1) row["repeat"] = run.repeat;
  return row;
}

json refused(json row, const std::vector<Issue>& issues) {
  row["ok"] = false;
  row["outcome"] = "refused";
  std::string message;
  for (const Issue& i : issues)
    message += (message.empty() ? "" : "; ") + i.path + ": " + i.message;
  row["message"] = message;
  return row;
}

// The shortest text that reads back as exactly v.
std::string exact(double v) { return json(v).dump(); }

}  // namespace

Expected<Study> parseStudy(const std::string& json, const ScenarioFiles& files) {
  return StudyReader(files).read(json);
}

std::vector<double> studySamples(double from, double to, int count, std::uint64_t seed) {
  std::vector<double> out;
  std::uint64_t state = seed;
  for (int k = 0; k < count; ++k) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    const double u = static_cast<double>(z >> 11) * 0x1.0p-53;  // [0, 1)
    out.push_back(from + (to - from) * u);
  }
  return out;
}

std::vector<StudyRun> studyGrid(const Study& study) {
  std::vector<StudyRun> runs;
  std::vector<std::size_t> index(study.parameters.size(), 0);
  while (true) {
    StudyRun run;
    for (std::size_t k = 0; k < index.size(); ++k)
      run.values.push_back(study.parameters[k].values[index[k]]);
    for (int r = 0; r < study.repeats; ++r) {
      run.repeat = r;
      runs.push_back(run);
    }
    std::size_t k = index.size();
    while (k > 0 && ++index[k - 1] == study.parameters[k - 1].values.size()) index[--k] = 0;
    if (k == 0) break;
  }
  return runs;
}

std::vector<std::string> studyColumns(const Study& study) {
  std::vector<std::string> c;
  for (const StudyParameter& p : study.parameters) c.push_back(p.path);
  if (study.threshold) c.push_back(study.threshold->path);
  if (study.repeats > 1) c.push_back("repeat");
  for (const char* k : {"ok", "outcome", "message", "state_hash"}) c.push_back(k);
  for (const StudyPredicate& p : study.predicates) c.push_back(p.name);
  for (const StudyPredicate& p : study.predicates)
    if (p.kind == StudyPredicate::Kind::ReachedX) c.push_back(p.name + "_time_s");
  for (const char* k : {"max_pitch_rad", "drive_energy_J", "peak_wheel_torque_Nm", "mean_slip",
                        "base_x_m", "base_z_m", "steps", "wall_s"})
    c.push_back(k);
  return c;
}

std::vector<std::string> studyAssignments(const Study& study, const StudyRun& run) {
  std::vector<std::string> sets;
  const auto value = [](const json& v) {
    return v.is_number_float() ? exact(v.get<double>()) : v.dump();
  };
  const auto set = [&](const std::string& path, const std::vector<LinkedPath>& also,
                       const json& v) {
    sets.push_back(path + "=" + value(v));
    for (const LinkedPath& l : also)
      sets.push_back(l.path + "=" + exact(l.scale * v.get<double>() + l.offset));
  };
  for (std::size_t k = 0; k < study.parameters.size() && k < run.values.size(); ++k)
    set(study.parameters[k].path, study.parameters[k].also, run.values[k]);
  if (study.threshold && run.values.size() > study.parameters.size())
    set(study.threshold->path, study.threshold->also, run.values.back());
  return sets;
}

std::string studyRunKey(const StudyRun& run) {
  json key = json::array();
  for (const json& v : run.values) key.push_back(v);
  key.push_back(run.repeat);
  return key.dump();
}

struct StudyRowRun::State {
  const Study& study;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  json row;
  std::optional<Scenario> scenario;
  std::optional<Simulation> sim;
  RunStats stats;
  Measures measures;
  long long every = 1, remaining = 0;
  bool ended = false, cancelled = false, sampled = false;
  std::string programError;

  State(const Study& s, const StudyRun& run) : study(s), row(emptyRow(s, run)) {}
};

StudyRowRun::StudyRowRun(const Study& study, const StudyRun& run, bool hostsProgram)
    : s_(std::make_unique<State>(study, run)) {
  State& s = *s_;
  Expected<std::string> doc = applyOverrides(study.scenario, studyAssignments(study, run));
  if (!doc) {
    s.row = refused(s.row, doc.issues());
    return;
  }
  Expected<Scenario> scenario = parseScenario(doc.value(), study.files);
  if (!scenario) {
    s.row = refused(s.row, scenario.issues());
    return;
  }
  s.scenario.emplace(std::move(scenario).value());
  Expected<Simulation> made =
      hostsProgram ? makeSimulation(*s.scenario) : makeUnattendedSimulation(*s.scenario);
  if (!made) {
    s.row = refused(s.row, made.issues());
    return;
  }
  s.sim.emplace(std::move(made).value());
  Simulation& sim = *s.sim;
  s.every = std::max(1LL, stepsIn(kSampleInterval, sim.model.dt));
  s.remaining = stepsIn(sim.duration, sim.model.dt);
}

StudyRowRun::~StudyRowRun() = default;
StudyRowRun::StudyRowRun(StudyRowRun&&) noexcept = default;
StudyRowRun& StudyRowRun::operator=(StudyRowRun&&) noexcept = default;

Simulation* StudyRowRun::simulation() { return s_->sim ? &*s_->sim : nullptr; }
const Simulation* StudyRowRun::simulation() const { return s_->sim ? &*s_->sim : nullptr; }
const Scenario* StudyRowRun::scenario() const { return s_->sim ? &*s_->scenario : nullptr; }

bool StudyRowRun::running() const {
  return s_->sim && !s_->ended && !s_->cancelled && s_->programError.empty() && s_->remaining > 0;
}

long long StudyRowRun::step(long long steps, const std::function<bool()>& cancelled) {
  State& s = *s_;
  if (!running()) return 0;
  if (!s.sampled) {  // the start, with the command a program gave at t = 0
    s.sampled = true;
    updateKinematics(*s.sim);
    s.measures.sample(*s.sim, s.study);
  }
  const long long asked = std::min(steps, s.remaining);
  const long long taken = runSteps(*s.sim, asked, s.every, [&](Simulation& sim) {
    s.stats.sample(sim);
    s.measures.sample(sim, s.study);
    s.cancelled = cancelled && cancelled();
    return !s.cancelled;
  });
  s.remaining -= taken;
  // Fewer steps than asked, and not for the program: the run stopped.
  if (taken < asked && !programDue(*s.sim) && !s.cancelled) s.ended = true;
  return taken;
}

void StudyRowRun::failProgram(const std::string& message) {
  if (s_->programError.empty()) s_->programError = message.empty() ? "the program failed" : message;
}

json StudyRowRun::finish() {
  State& s = *s_;
  json& row = s.row;
  if (!s.sim) return row;
  if (s.cancelled) {
    row["ok"] = false;
    row["outcome"] = "cancelled";
    return row;
  }
  Simulation& sim = *s.sim;
  const Study& study = s.study;
  updateKinematics(sim);
  s.stats.sample(sim);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - s.start).count();
  const json summary = describeRun(sim, s.stats, wall);
  const bool failed = !s.programError.empty();
  row["ok"] = failed ? json(false) : summary["ok"];
  row["outcome"] = failed ? json("program_error") : summary["outcome"];
  row["message"] = failed ? s.programError : summary.value("error", "");
  row["state_hash"] = summary["state_hash"];
  const Vec3 base = worldPoint(sim.data.bodies, sim.model.robot.base, Vec3::Zero());
  for (std::size_t k = 0; k < study.predicates.size(); ++k) {
    const StudyPredicate& p = study.predicates[k];
    bool yes = false;
    switch (p.kind) {
      case StudyPredicate::Kind::BaseXPast:
        yes = base.x() > p.value;
        break;
      case StudyPredicate::Kind::BaseZAbove:
        yes = base.z() > p.value;
        break;
      case StudyPredicate::Kind::ReachedX: {
        const double at = s.measures.reachedAt.size() > k ? s.measures.reachedAt[k] : -1.0;
        yes = at >= 0 && at <= p.within;
        row[p.name + "_time_s"] = at >= 0 ? json(at) : json(nullptr);
        break;
      }
      case StudyPredicate::Kind::Flipped:
        yes = s.stats.flippedAt >= 0;
        break;
      case StudyPredicate::Kind::LeftTerrain:
        yes = sim.outcome == RunOutcome::LeftTerrain;
        break;
    }
    row[p.name] = yes;
  }
  const Measures& m = s.measures;
  row["max_pitch_rad"] = s.stats.maxAbsPitch.empty() ? 0.0 : s.stats.maxAbsPitch[0];
  row["drive_energy_J"] = m.driveEnergy;
  row["peak_wheel_torque_Nm"] = m.peakWheelTorque;
  row["mean_slip"] = m.slipCount ? m.slipSum / static_cast<double>(m.slipCount) : 0.0;
  row["base_x_m"] = base.x();
  row["base_z_m"] = base.z();
  row["steps"] = sim.steps;
  row["wall_s"] = wall;
  return row;
}

std::optional<Issue> unhostedProgram(const Study& study) {
  const json doc = json::parse(study.scenario, nullptr, false);
  const json* control = doc.is_object() && doc.contains("control") ? &doc["control"] : nullptr;
  if (!control || !control->is_object() || !control->contains("program")) return std::nullopt;
  const json& program = (*control)["program"];
  const std::string language =
      program.is_object() && program.contains("language") && program["language"].is_string()
          ? program["language"].get<std::string>()
          : "";
  for (const ProgramLanguage& l : programLanguages())
    if (l.name == language)
      return Issue{"scenario.control.program",
                   "the base scenario carries a " + language + " controller program: " + l.host +
                       " run it in a study's rows; this tool runs none (docs/controllers.md)"};
  return std::nullopt;
}

json runStudyRow(const Study& study, const StudyRun& run, const std::function<bool()>& cancelled) {
  StudyRowRun row(study, run, false);
  while (row.running()) row.step(std::numeric_limits<long long>::max(), cancelled);
  return row.finish();
}

std::vector<std::string> thresholdColumns(const Study& study) {
  std::vector<std::string> c;
  for (const StudyParameter& p : study.parameters) c.push_back(p.path);
  if (study.repeats > 1) c.push_back("repeat");
  for (const char* k : {"found", "threshold", "lower", "upper", "at_from", "runs", "message"})
    c.push_back(k);
  return c;
}

json searchThreshold(const Study& study, const StudyRun& combination,
                     const std::function<json(const StudyRun&)>& runRow) {
  const ThresholdSearch& s = *study.threshold;
  json out = json::object();
  for (std::size_t k = 0; k < study.parameters.size(); ++k)
    out[study.parameters[k].path] = combination.values[k];
  if (study.repeats > 1) out["repeat"] = combination.repeat;
  int runs = 0;
  // The predicate at value v; nullopt (with out.message) when the run is not ok.
  const auto ask = [&](double v) -> std::optional<bool> {
    StudyRun run = combination;
    run.values.resize(study.parameters.size());
    run.values.push_back(v);
    const json row = runRow(run);
    ++runs;
    // A run that left the terrain still answers (a robot that tipped over
    // and fell off has flipped); a refused or blown-up one does not.
    const std::string outcome = row.value("outcome", std::string());
    if (outcome != "ok" && outcome != "left_terrain") {
      out["message"] = "the run at " + s.path + " = " + exact(v) + " is not ok (" +
                       row.value("outcome", std::string()) +
                       "): " + row.value("message", std::string());
      return std::nullopt;
    }
    return row.at(s.predicate).get<bool>();
  };
  out["found"] = false;
  for (const char* k : {"threshold", "lower", "upper", "at_from"}) out[k] = nullptr;
  out["message"] = "";
  const std::optional<bool> atFrom = ask(s.from);
  std::optional<bool> atTo;
  if (atFrom) atTo = ask(s.to);
  if (atFrom) out["at_from"] = *atFrom;
  if (atFrom && atTo && *atFrom == *atTo)
    out["message"] = s.predicate + " is " + (*atFrom ? "true" : "false") + " at both ends";
  if (atFrom && atTo && *atFrom != *atTo) {
    // Invariant: the predicate is *atFrom at lo and not at hi.
    double lo = s.from, hi = s.to;
    bool ok = true;
    while (std::abs(hi - lo) > s.tolerance) {
      const double mid = lo + (hi - lo) / 2;
      const std::optional<bool> m = ask(mid);
      if (!m) {
        ok = false;
        break;
      }
      (*m == *atFrom ? lo : hi) = mid;
    }
    if (ok) {
      out["found"] = true;
      out["lower"] = std::min(lo, hi);
      out["upper"] = std::max(lo, hi);
      out["threshold"] = lo + (hi - lo) / 2;
    }
  }
  out["runs"] = runs;
  return out;
}

std::string csvField(const json& value) {
  if (value.is_null()) return "";
  if (value.is_number_float()) return exact(value.get<double>());
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (!value.is_string()) return csvField(json(value.dump()));
  const std::string s = value.get<std::string>();
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
