#include "cli/study_command.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "scenario/folder_files.h"
#include "scenario/json_input.h"
#include "sim/describe.h"
#include "study/study.h"

namespace roverlab {

using nlohmann::json;

namespace {

std::atomic<bool> stopRequested{false};  // lock-free: safe to set from a signal handler
extern "C" void onStudyInterrupt(int) { stopRequested = true; }

int studyUsage(const std::string& message) {
  std::cerr << "roverlab: " << message
            << "\nusage: roverlab study STUDY.json [--jobs N] [--out RESULTS.csv] [--json]\n";
  return 2;
}

std::string joined(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t k = 0; k < fields.size(); ++k) line += (k ? "," : "") + fields[k];
  return line;
}

std::string csvLine(const std::vector<std::string>& columns, const json& row) {
  std::vector<std::string> fields;
  for (const std::string& c : columns) fields.push_back(csvField(row.value(c, json())));
  return joined(fields);
}

// The fields of one CSV line (quotes as csvField writes them).
std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// A field back as a value: empty is null, true/false, a JSON number, else text.
json fieldValue(const std::string& column, const std::string& field) {
  if (field.empty()) return nullptr;
  if (column == "state_hash" || column == "outcome" || column == "message") return field;
  if (field == "true" || field == "false") return field == "true";
  Expected<json> number = readJson(field);
  if (number && number.value().is_number()) return number.value();
  return field;
}

// The key of a run as its row's first fields say it: the values, then the repeat.
std::string keyOf(const StudyRun& run) {
  std::vector<std::string> fields;
  for (const json& v : run.values) fields.push_back(csvField(v));
  return joined(fields) + "|" + std::to_string(run.repeat);
}

std::string keyOfFields(const Study& study, const std::vector<std::string>& columns,
                        const std::vector<std::string>& fields) {
  const std::size_t values = study.parameters.size() + (study.threshold ? 1 : 0);
  std::vector<std::string> head(fields.begin(), fields.begin() + static_cast<long>(values));
  std::string repeat = "0";
  for (std::size_t k = 0; k < columns.size(); ++k)
    if (columns[k] == "repeat") repeat = fields[k];
  return joined(head) + "|" + repeat;
}

// Beside RESULTS.csv: RESULTS.runs.csv.
std::string runsFileOf(const std::string& out) {
  const bool csv = out.size() >= 4 && out.compare(out.size() - 4, 4, ".csv") == 0;
  return (csv ? out.substr(0, out.size() - 4) : out) + ".runs.csv";
}

std::string minutes(double seconds) {
  char b[32];
  const long s = static_cast<long>(seconds + 0.5);
  std::snprintf(b, sizeof b, "%ld:%02ld", s / 60, s % 60);
  return b;
}

}  // namespace

int studyCommand(const std::vector<std::string>& args) {
  std::string file, out;
  bool asJson = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--jobs" || a == "--out") {
      if (i + 1 >= args.size()) return studyUsage(a + " needs a value");
      const std::string& v = args[++i];
      if (a == "--out") {
        out = v;
      } else {
        char* end = nullptr;
        const long n = std::strtol(v.c_str(), &end, 10);
        if (end == v.c_str() || *end || n < 1 || n > 1024)
          return studyUsage("--jobs must be a whole number in [1, 1024]");
        jobs = static_cast<unsigned>(n);
      }
    } else if (a == "--json") {
      asJson = true;
    } else if (a.rfind("--", 0) == 0) {
      return studyUsage("unknown option " + a);
    } else if (file.empty()) {
      file = a;
    } else {
      return studyUsage("more than one study file");
    }
  }
  if (file.empty()) return studyUsage("no study file");
  const auto refuse = [](const std::vector<Issue>& issues) {
    std::cout << dumpJson(json{{"ok", false}, {"issues", describeIssues(issues)}}, 2) << "\n";
    return 1;
  };
  if (!std::ifstream(file)) {
    std::cerr << "roverlab: cannot read " << file << ": " << std::strerror(errno) << "\n";
    return 2;
  }
  Expected<std::string> text = readDocument(file);  // refuses a file over the size limit
  if (!text) return refuse(text.issues());
  Expected<Study> parsed = parseStudy(text.value(), filesInFolder(folderOf(file)));
  if (!parsed) return refuse(parsed.issues());
  const Study& study = parsed.value();
  if (const std::optional<Issue> program = unhostedProgram(study)) return refuse({*program});
  const std::vector<StudyRun> grid = studyGrid(study);
  const std::vector<std::string> columns = studyColumns(study);
  const std::string header = joined(columns);
  const bool threshold = study.threshold.has_value();
  // Every run's row goes to the runs file as it finishes (a threshold
  // study's answers go to --out, its runs beside it).
  const std::string runsPath = out.empty() || !threshold ? out : runsFileOf(out);

  // Rows already run (an earlier, interrupted or finished, run of this study).
  std::map<std::string, json> done;
  std::map<std::string, std::string> doneLines;
  if (!runsPath.empty()) {
    std::ifstream previous(runsPath);
    std::string line;
    if (previous && std::getline(previous, line)) {
      if (line != header) {
        std::cerr << "roverlab: " << runsPath
                  << " holds other results (its header is not this study's columns); remove it "
                     "or name another --out\n";
        return 1;
      }
      while (std::getline(previous, line)) {
        const std::vector<std::string> fields = splitCsv(line);
        if (fields.size() != columns.size()) continue;  // a line cut by an interrupted write
        json row = json::object();
        for (std::size_t k = 0; k < columns.size(); ++k)
          row[columns[k]] = fieldValue(columns[k], fields[k]);
        const std::string key = keyOfFields(study, columns, fields);
        done[key] = row;
        doneLines[key] = line;
      }
    }
  }
  const std::size_t kept = done.size();

  std::ofstream runsFile;
  if (!runsPath.empty()) {
    // Rewritten whole: the kept rows, then each new one as it finishes.
    runsFile.open(runsPath, std::ios::trunc);
    if (!runsFile) {
      std::cerr << "roverlab: cannot write " << runsPath << ": " << std::strerror(errno) << "\n";
      return 2;
    }
    runsFile << header << "\n";
    for (const auto& [key, line] : doneLines) runsFile << line << "\n";
    runsFile.flush();
  }

  std::mutex lock;
  std::vector<json> rows(grid.size()), answers(threshold ? grid.size() : 0);
  std::size_t ran = 0, finished = 0;
  const std::size_t tasks = grid.size();
  std::atomic<std::size_t> next{0};
  const bool tty = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  auto lastReport = start;
  const auto cancelled = [] { return stopRequested.load(); };

  // A run's row: from the kept rows, or run now and written out.
  const auto rowOf = [&](const StudyRun& run) -> json {
    const std::string key = keyOf(run);
    {
      std::lock_guard<std::mutex> guard(lock);
      const auto it = done.find(key);
      if (it != done.end()) return it->second;
    }
    json row = runStudyRow(study, run, cancelled);
    if (row["outcome"] == "cancelled") return row;
    std::lock_guard<std::mutex> guard(lock);
    done[key] = row;
    ++ran;
    if (runsFile.is_open()) runsFile << csvLine(columns, row) << "\n" << std::flush;
    return row;
  };
  const auto report = [&](bool last) {
    const auto now = std::chrono::steady_clock::now();
    if (!last && now - lastReport < std::chrono::seconds(tty ? 1 : 10)) return;
    lastReport = now;
    const double elapsed = std::chrono::duration<double>(now - start).count();
    const double left = finished ? elapsed * static_cast<double>(tasks - finished) / finished : 0;
    std::fprintf(stderr, "%sroverlab: study: %zu of %zu %s, %zu runs, %s elapsed%s%s",
                 tty ? "\r" : "", finished, tasks, threshold ? "searches" : "rows", ran,
                 minutes(elapsed).c_str(),
                 finished && finished < tasks ? (", ~" + minutes(left) + " left").c_str() : "",
                 tty && !last ? "" : "\n");
  };

  stopRequested = false;
  std::signal(SIGINT, onStudyInterrupt);
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < std::min<std::size_t>(jobs, std::max<std::size_t>(tasks, 1)); ++w)
    workers.emplace_back([&] {
      for (std::size_t i; !stopRequested && (i = next++) < tasks;) {
        json result = threshold ? searchThreshold(study, grid[i], rowOf) : rowOf(grid[i]);
        if (stopRequested) break;
        std::lock_guard<std::mutex> guard(lock);
        (threshold ? answers[i] : rows[i]) = std::move(result);
        ++finished;
        report(false);
      }
    });
  for (std::thread& t : workers) t.join();
  std::signal(SIGINT, SIG_DFL);
  report(true);
  if (stopRequested) {
    std::cerr << "roverlab: interrupted; " << done.size() << " rows are kept"
              << (runsPath.empty() ? " nowhere (no --out)" : " in " + runsPath)
              << ": the same command goes on from there\n";
    return 130;
  }

  // In the grid's order: the runs file rewritten, the answers.
  if (runsFile.is_open() && !threshold) {
    runsFile.close();
    runsFile.open(runsPath, std::ios::trunc);
    runsFile << header << "\n";
    for (const json& row : rows) runsFile << csvLine(columns, row) << "\n";
  }
  if (runsFile.is_open()) {
    runsFile.close();
    if (runsFile.fail()) {
      std::cerr << "roverlab: cannot write " << runsPath << ": " << std::strerror(errno) << "\n";
      return 2;
    }
  }
  const std::vector<std::string> answerColumns = threshold ? thresholdColumns(study) : columns;
  const std::vector<json>& answerRows = threshold ? answers : rows;
  if (threshold && !out.empty()) {
    std::ofstream f(out, std::ios::trunc);
    f << joined(answerColumns) << "\n";
    for (const json& a : answerRows) f << csvLine(answerColumns, a) << "\n";
    f.close();
    if (f.fail()) {
      std::cerr << "roverlab: cannot write " << out << ": " << std::strerror(errno) << "\n";
      return 2;
    }
  }
  if (asJson) {
    json doc = {{"columns", columns}, {"rows", json::array()}};
    if (threshold) {
      for (const auto& [key, row] : done) doc["rows"].push_back(row);
      doc["threshold_columns"] = answerColumns;
      doc["thresholds"] = answerRows;
    } else {
      doc["rows"] = rows;
    }
    std::cout << dumpJson(doc) << "\n";
  } else if (out.empty()) {
    std::cout << joined(answerColumns) << "\n";
    for (const json& a : answerRows) std::cout << csvLine(answerColumns, a) << "\n";
  }
  std::cerr << "roverlab: study: " << ran << " runs, " << kept << " kept from an earlier run"
            << (out.empty() ? "" : "; results in " + out) << "\n";
  return 0;
}

}  // namespace roverlab
