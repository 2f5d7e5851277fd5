#include "bindings/study_api.h"

#include <cmath>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/size_optimized.h"
#include "scenario/json_input.h"
#include "scenario/scenario.h"
#include "sim/describe.h"
#include "sim/simulation.h"
#include "study/study.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {

using nlohmann::json;

struct ParsedStudy {
  std::string text;
  std::vector<Issue> issues;  ///< empty when the study is one
  Study study;
  std::vector<StudyRun> grid;
  double runs = 0;  ///< the most runs it may take
};

namespace {

/// Studies parsed lately, newest last: a worker runs many rows of one study,
/// the page asks of the same one.
constexpr std::size_t kKeptStudies = 2;
/// Deepest nesting of a value given from JS (a parameter's value).
constexpr int kMaxValueDepth = 32;
/// Most entries of an array or keys of an object given from JS.
constexpr double kMaxValueEntries = 100'000;

std::deque<std::shared_ptr<const ParsedStudy>>& kept() {
  static std::deque<std::shared_ptr<const ParsedStudy>> studies;
  return studies;
}

std::string typeOf(const val& v) {
  if (v.isNull()) return "null";
  if (val::global("Array").call<bool>("isArray", v)) return "an array";
  return v.typeOf().as<std::string>();
}

// The study of a JS text: from those kept, or parsed now and kept.
std::shared_ptr<const ParsedStudy> studyOf(const val& text) {
  if (!text.isString()) {
    auto refused = std::make_shared<ParsedStudy>();
    refused->issues.push_back(
        {"", "must be the study's JSON text (a string), got " + typeOf(text)});
    return refused;
  }
  if (!(text["length"].as<double>() <= static_cast<double>(kMaxDocumentBytes))) {
    auto refused = std::make_shared<ParsedStudy>();
    refused->issues.push_back({"", "the study is longer than " + std::to_string(kMaxDocumentBytes) +
                                       " bytes (16 MiB), the limit"});
    return refused;
  }
  const Expected<std::string> checked = jsonText(text);  // no lone surrogates
  if (!checked) {
    auto refused = std::make_shared<ParsedStudy>();
    refused->issues = checked.issues();
    return refused;
  }
  const std::string& source = checked.value();
  auto& studies = kept();
  for (auto it = studies.begin(); it != studies.end(); ++it)
    if ((*it)->text == source) {
      auto found = *it;
      studies.erase(it);
      studies.push_back(found);
      return found;
    }
  auto parsed = std::make_shared<ParsedStudy>();
  parsed->text = source;
  // No files: the browser's scenarios are inline.
  Expected<Study> study = parseStudy(source, ScenarioFiles());
  if (!study) {
    parsed->issues = study.issues();
  } else {
    parsed->study = std::move(study.value());
    const Study& s = parsed->study;
    double runs = s.repeats;
    for (const StudyParameter& p : s.parameters) runs *= static_cast<double>(p.values.size());
    if (s.threshold) runs *= s.threshold->maxRuns;
    parsed->runs = runs;
    if (runs > static_cast<double>(kMaxBrowserStudyRuns))
      parsed->issues.push_back(
          {"parameters", "the study asks for " + std::to_string(static_cast<long long>(runs)) +
                             " runs; the app runs at most " + std::to_string(kMaxBrowserStudyRuns) +
                             " (the command line's `roverlab study` runs up to " +
                             std::to_string(kMaxStudyRuns) + ")"});
    else
      parsed->grid = studyGrid(s);
  }
  studies.push_back(parsed);
  if (studies.size() > kKeptStudies) studies.pop_front();
  return parsed;
}

// A JS value as JSON: whole numbers as integers (as a JSON reader gives them),
// arrays and objects within kMaxValueDepth and kMaxValueEntries.
std::optional<json> jsonOf(const val& v, int depth = 0) {
  if (v.isNull() || v.isUndefined()) return json(nullptr);
  if (v.isTrue()) return json(true);
  if (v.isFalse()) return json(false);
  if (v.isString()) return json(v.as<std::string>());
  if (v.isNumber()) {
    const double x = v.as<double>();
    if (!std::isfinite(x)) return std::nullopt;
    if (std::trunc(x) == x && std::abs(x) < 9007199254740992.0)
      return json(static_cast<long long>(x));
    return json(x);
  }
  if (depth >= kMaxValueDepth || v.typeOf().as<std::string>() != "object") return std::nullopt;
  const bool array = val::global("Array").call<bool>("isArray", v);
  const val keys = array ? val::null() : val::global("Object").call<val>("keys", v);
  const double n = (array ? v : keys)["length"].as<double>();
  if (!(n <= kMaxValueEntries)) return std::nullopt;
  json out = array ? json::array() : json::object();
  for (std::size_t k = 0; k < static_cast<std::size_t>(n); ++k) {
    const std::optional<json> item = jsonOf(array ? v[k] : v[keys[k].as<std::string>()], depth + 1);
    if (!item) return std::nullopt;
    if (array)
      out.push_back(*item);
    else
      out[keys[k].as<std::string>()] = *item;
  }
  return out;
}

// A number as the study gives it: one of `values` equal to x keeps its JSON
// type (1 stays 1, 1.0 stays 1.0); any other is a double.
json numberAs(double x, const std::vector<json>* values) {
  if (values)
    for (const json& v : *values)
      if (v.is_number() && v.get<double>() == x) return v;
  return json(x);
}

// A run's value from JS for position k (a parameter's, or the searched one past them).
std::optional<json> valueOf(const Study& study, std::size_t k, const val& v) {
  if (v.isNumber()) {
    const double x = v.as<double>();
    if (!std::isfinite(x)) return std::nullopt;
    return numberAs(x, k < study.parameters.size() ? &study.parameters[k].values : nullptr);
  }
  return jsonOf(v);
}

// A run of the study given from JS: its grid index, or { values, repeat }.
// `withSearched`: a threshold study's run may give the searched value last.
std::optional<StudyRun> runOf(const ParsedStudy& parsed, const val& run, const std::string& at,
                              bool withSearched, std::vector<Issue>& issues) {
  const Study& study = parsed.study;
  const std::size_t count = parsed.grid.size();
  if (run.isNumber()) {
    const double i = run.as<double>();
    if (!(i >= 0 && i < static_cast<double>(count) && std::trunc(i) == i)) {
      issues.push_back({at, "must be an index of the study's grid, a whole number in [0, " +
                                std::to_string(count) + ")"});
      return std::nullopt;
    }
    return parsed.grid[static_cast<std::size_t>(i)];
  }
  const std::string form =
      "must be an index of the study's grid or { values: [...], repeat } (a value per "
      "parameter" +
      std::string(withSearched && study.threshold ? ", then the searched one)" : ")");
  if (run.typeOf().as<std::string>() != "object" || run.isNull()) {
    issues.push_back({at, form + ", got " + typeOf(run)});
    return std::nullopt;
  }
  const val values = run["values"];
  if (!val::global("Array").call<bool>("isArray", values)) {
    issues.push_back({at + ".values", form});
    return std::nullopt;
  }
  const std::size_t n = study.parameters.size();
  const double given = values["length"].as<double>();
  const bool searched = withSearched && study.threshold;
  if (!(given == static_cast<double>(n) || (searched && given == static_cast<double>(n + 1)))) {
    issues.push_back({at + ".values", "must hold " + std::to_string(n) +
                                          (searched ? " or " + std::to_string(n + 1) : "") +
                                          " values (one per parameter" +
                                          (searched ? ", then the searched one" : "") + ")"});
    return std::nullopt;
  }
  StudyRun out;
  for (std::size_t k = 0; k < static_cast<std::size_t>(given); ++k) {
    const std::optional<json> v = valueOf(study, k, values[k]);
    if (!v) {
      issues.push_back({at + ".values[" + std::to_string(k) + "]",
                        "must be a JSON value (finite numbers, at most " +
                            std::to_string(kMaxValueDepth) + " levels deep)"});
      return std::nullopt;
    }
    if (k == n && !v->is_number()) {
      issues.push_back({at + ".values[" + std::to_string(k) + "]",
                        "must be a number: the searched parameter's value"});
      return std::nullopt;
    }
    out.values.push_back(*v);
  }
  const val repeat = run["repeat"];
  if (!repeat.isUndefined() && !repeat.isNull()) {
    const double r = repeat.isNumber() ? repeat.as<double>() : -1;
    if (!(r >= 0 && r < study.repeats && std::trunc(r) == r)) {
      issues.push_back(
          {at + ".repeat", "must be a whole number in [0, " + std::to_string(study.repeats) + ")"});
      return std::nullopt;
    }
    out.repeat = static_cast<int>(r);
  }
  return out;
}

val predicatesToJs(const Study& study) {
  json list = json::array();
  for (const StudyPredicate& p : study.predicates) {
    const char* test = "flipped";
    switch (p.kind) {
      case StudyPredicate::Kind::BaseXPast:
        test = "base_x_past";
        break;
      case StudyPredicate::Kind::BaseZAbove:
        test = "base_z_above";
        break;
      case StudyPredicate::Kind::ReachedX:
        test = "reached_x";
        break;
      case StudyPredicate::Kind::Flipped:
        test = "flipped";
        break;
      case StudyPredicate::Kind::LeftTerrain:
        test = "left_terrain";
        break;
    }
    json item = {{"name", p.name}, {"test", test}};
    const bool valued = p.kind == StudyPredicate::Kind::BaseXPast ||
                        p.kind == StudyPredicate::Kind::BaseZAbove ||
                        p.kind == StudyPredicate::Kind::ReachedX;
    item["value"] = valued ? json(p.value) : json(nullptr);
    item["within_s"] = std::isfinite(p.within) ? json(p.within) : json(nullptr);
    list.push_back(item);
  }
  return jsonToJs(list);
}

json alsoToJson(const std::vector<LinkedPath>& also) {
  json list = json::array();
  for (const LinkedPath& l : also)
    list.push_back({{"path", l.path}, {"scale", l.scale}, {"offset", l.offset}});
  return list;
}

// A large JSON value (a grid of thousands of runs) as JS: one JSON.parse of its text
// instead of a call into JS per value (the text keeps every double exactly).
val bulkToJs(const json& j) { return val::global("JSON").call<val>("parse", dumpJson(j)); }

val stringsToJs(const std::vector<std::string>& strings) {
  val list = val::array();
  for (const std::string& s : strings) list.call<void>("push", s);
  return list;
}

}  // namespace

val parseStudyJs(val text) {
  const auto parsed = studyOf(text);
  if (!parsed->issues.empty()) return issuesResult(parsed->issues);
  const Study& study = parsed->study;
  val out = val::object();
  out.set("ok", true);
  out.set("name", study.name);
  out.set("description", study.description);
  out.set("columns", stringsToJs(studyColumns(study)));
  out.set("thresholdColumns",
          study.threshold ? stringsToJs(thresholdColumns(study)) : val::array());
  out.set("isThreshold", study.threshold.has_value());
  out.set("runs", parsed->runs);
  out.set("repeats", study.repeats);
  out.set("scenario", study.scenario);
  json grid = json::array();
  for (const StudyRun& run : parsed->grid)
    grid.push_back({{"values", run.values}, {"repeat", run.repeat}});
  out.set("grid", bulkToJs(grid));
  json parameters = json::array();
  for (const StudyParameter& p : study.parameters)
    parameters.push_back({{"path", p.path}, {"values", p.values}, {"also", alsoToJson(p.also)}});
  out.set("parameters", bulkToJs(parameters));
  out.set("predicates", predicatesToJs(study));
  if (study.threshold) {
    const ThresholdSearch& t = *study.threshold;
    out.set("threshold", jsonToJs({{"path", t.path},
                                   {"also", alsoToJson(t.also)},
                                   {"from", t.from},
                                   {"to", t.to},
                                   {"tolerance", t.tolerance},
                                   {"predicate", t.predicate},
                                   {"maxRuns", t.maxRuns}}));
  } else {
    out.set("threshold", val::null());
  }
  out.set("issues", val::array());
  return out;
}

val runStudyRowJs(val text, val run) {
  const auto parsed = studyOf(text);
  if (!parsed->issues.empty()) return issuesResult(parsed->issues);
  std::vector<Issue> issues;
  const std::optional<StudyRun> r = runOf(*parsed, run, "run", true, issues);
  if (!r) return issuesResult(issues);
  return jsonToJs(runStudyRow(parsed->study, *r));
}

val searchThresholdRowsJs(val text, val combination, val onRow) {
  const auto parsed = studyOf(text);
  if (!parsed->issues.empty()) return issuesResult(parsed->issues);
  if (!parsed->study.threshold)
    return issuesResult({{"threshold", "the study has no threshold search"}});
  std::vector<Issue> issues;
  const std::optional<StudyRun> c = runOf(*parsed, combination, "combination", false, issues);
  if (!c) return issuesResult(issues);
  const bool hear = onRow.typeOf().as<std::string>() == "function";
  const Study& study = parsed->study;
  return jsonToJs(searchThreshold(study, *c, [&](const StudyRun& run) {
    json row = runStudyRow(study, run);
    if (hear) onRow(jsonToJs(row));
    return row;
  }));
}

val searchThresholdHostedJs(val text, val combination, val onRow, val runRow) {
  const auto parsed = studyOf(text);
  if (!parsed->issues.empty()) return issuesResult(parsed->issues);
  if (!parsed->study.threshold)
    return issuesResult({{"threshold", "the study has no threshold search"}});
  if (runRow.typeOf().as<std::string>() != "function")
    return issuesResult({{"runRow", "must be a function ({ values, repeat }) => row"}});
  std::vector<Issue> issues;
  const std::optional<StudyRun> c = runOf(*parsed, combination, "combination", false, issues);
  if (!c) return issuesResult(issues);
  const bool hear = onRow.typeOf().as<std::string>() == "function";
  return jsonToJs(searchThreshold(parsed->study, *c, [&](const StudyRun& run) {
    const val row = runRow(jsonToJs({{"values", run.values}, {"repeat", run.repeat}}));
    const Expected<std::string> text = jsonText(val::global("JSON").call<val>("stringify", row));
    json out = text ? json::parse(text.value(), nullptr, false) : json();
    if (!out.is_object())
      out = {{"ok", false}, {"outcome", "program_error"}, {"message", "runRow gave no row"}};
    if (hear) onRow(jsonToJs(out));
    return out;
  }));
}

StudyRow::StudyRow(val text, val run) : parsed_(studyOf(text)) {
  if (!parsed_->issues.empty()) {
    issues_ = parsed_->issues;
    return;
  }
  const std::optional<StudyRun> r = runOf(*parsed_, run, "run", true, issues_);
  if (r) row_.emplace(parsed_->study, *r, true);
}

StudyRow::~StudyRow() = default;

val StudyRow::program() const {
  const Scenario* s = row_ ? row_->scenario() : nullptr;
  if (!s || s->control.program.language.empty()) return val::null();
  val p = val::object();
  p.set("language", s->control.program.language);
  p.set("source", s->control.program.source);
  return p;
}

double StudyRow::time() const {
  const Simulation* sim = row_ ? row_->simulation() : nullptr;
  return sim ? sim->state.bodies.time : 0.0;
}

val StudyRow::model() const {
  const Simulation* sim = row_ ? row_->simulation() : nullptr;
  return sim ? jsonToJs(describeModel(*sim, *row_->scenario())) : val::null();
}

bool StudyRow::attachProgram(double period) {
  Simulation* sim = row_ ? row_->simulation() : nullptr;
  return sim && roverlab::attachProgram(*sim, period);
}

bool StudyRow::programDue() const {
  const Simulation* sim = row_ ? row_->simulation() : nullptr;
  return sim && running() && roverlab::programDue(*sim);
}

val StudyRow::observationColumns() const {
  const Simulation* sim = row_ ? row_->simulation() : nullptr;
  return sim ? ProgramPort::observationColumns(*sim) : val::array();
}

val StudyRow::observation() {
  Simulation* sim = row_ ? row_->simulation() : nullptr;
  return sim ? port_.observe(*sim) : val::null();
}

val StudyRow::commandColumns() const {
  const Simulation* sim = row_ ? row_->simulation() : nullptr;
  return sim ? ProgramPort::commandColumns(*sim) : val::array();
}

int StudyRow::command(val row) {
  Simulation* sim = row_ ? row_->simulation() : nullptr;
  return sim ? port_.command(*sim, row) : 0;
}

int StudyRow::step(int n) { return row_ ? static_cast<int>(row_->step(std::max(0, n))) : 0; }

void StudyRow::failProgram(const std::string& message) {
  if (row_) row_->failProgram(message);
}

val StudyRow::finish() { return row_ ? jsonToJs(row_->finish()) : issuesResult(issues_); }

val searchThresholdJs(val text, val combination) {
  return searchThresholdRowsJs(text, combination, val::undefined());
}

val studyScenarioJs(val text, val run) {
  const auto parsed = studyOf(text);
  if (!parsed->issues.empty()) return issuesResult(parsed->issues);
  std::vector<Issue> issues;
  const std::optional<StudyRun> r = runOf(*parsed, run, "run", true, issues);
  if (!r) return issuesResult(issues);
  const std::vector<std::string> assignments = studyAssignments(parsed->study, *r);
  Expected<std::string> scenario = applyOverrides(parsed->study.scenario, assignments);
  if (!scenario) return issuesResult(scenario.issues());
  val out = val::object();
  out.set("ok", true);
  out.set("scenario", scenario.value());
  out.set("assignments", stringsToJs(assignments));
  return out;
}

val studyCsvJs(val text, val rows, val which) {
  const auto parsed = studyOf(text);
  if (!parsed->issues.empty()) return issuesResult(parsed->issues);
  const Study& study = parsed->study;
  const std::string kind = which.isString() ? which.as<std::string>() : "";
  if (kind != "rows" && kind != "thresholds")
    return issuesResult({{"which", "must be \"rows\" or \"thresholds\""}});
  if (kind == "thresholds" && !study.threshold)
    return issuesResult({{"which", "the study has no threshold search"}});
  if (!val::global("Array").call<bool>("isArray", rows) ||
      !(rows["length"].as<double>() <= static_cast<double>(kMaxBrowserStudyRuns) * 4))
    return issuesResult({{"rows", "must be a list of the study's rows"}});
  const std::vector<std::string> columns =
      kind == "rows" ? studyColumns(study) : thresholdColumns(study);
  // Each column's parameter (its values give a number its JSON type), or none.
  std::vector<const std::vector<json>*> valuesOf(columns.size(), nullptr);
  std::vector<bool> whole(columns.size(), false);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    for (const StudyParameter& p : study.parameters)
      if (p.path == columns[c]) valuesOf[c] = &p.values;
    whole[c] = columns[c] == "steps" || columns[c] == "repeat" || columns[c] == "runs";
  }
  std::string csv;
  for (std::size_t c = 0; c < columns.size(); ++c) csv += (c ? "," : "") + columns[c];
  csv += "\n";
  const std::size_t n = rows["length"].as<std::size_t>();
  for (std::size_t r = 0; r < n; ++r) {
    const val row = rows[r];
    if (row.typeOf().as<std::string>() != "object" || row.isNull())
      return issuesResult({{"rows[" + std::to_string(r) + "]", "must be a row (an object)"}});
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const val v = row[columns[c]];
      json value;
      if (v.isNumber() && std::isfinite(v.as<double>()))
        value = whole[c] ? json(static_cast<long long>(v.as<double>()))
                         : numberAs(v.as<double>(), valuesOf[c]);
      else
        value = jsonOf(v).value_or(json(nullptr));
      csv += (c ? "," : "") + csvField(value);
    }
    csv += "\n";
  }
  return val(csv);
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
