#include "common/size_optimized.h"
#include "scenario/field_reader.h"
#include "scenario/scenario.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

// One step of a --set path: an object key or an array index.
struct PathStep {
  bool isIndex = false;
  std::string key;
  std::size_t index = 0;
};

// Splits "a.b[2].c" into keys and indices.
std::optional<std::vector<PathStep>> splitPath(const std::string& path) {
  std::vector<PathStep> steps;
  std::string token;
  auto flush = [&]() {
    if (token.empty()) return false;
    steps.push_back({false, token, 0});
    token.clear();
    return true;
  };
  for (size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == '.') {
      if (!flush()) return std::nullopt;
    } else if (c == '[') {
      if (!token.empty())
        flush();
      else if (steps.empty())
        return std::nullopt;
      const size_t close = path.find(']', i);
      if (close == std::string::npos) return std::nullopt;
      const std::string index = path.substr(i + 1, close - i - 1);
      // Up to 9 digits: no array a scenario may hold comes near 10^9 elements.
      if (index.empty() || index.size() > 9 ||
          index.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
      steps.push_back({true, "", static_cast<std::size_t>(std::stoul(index))});
      i = close;
      if (i + 1 < path.size() && path[i + 1] == '.') ++i;
    } else {
      token += c;
    }
  }
  if (!token.empty()) flush();
  // No scenario field lies deeper than a few levels; the limit keeps a path
  // from building a document deeper than the reader accepts.
  if (steps.empty() || steps.size() > static_cast<size_t>(kMaxJsonDepth)) return std::nullopt;
  return steps;
}

// Sets the value at `steps` in `doc`, creating missing objects and arrays; an
// index may address an element or the one just past the end (appending).
std::optional<Issue> setAt(json& doc, const std::vector<PathStep>& steps, const std::string& path,
                           json value) {
  json* node = &doc;
  for (const PathStep& step : steps) {
    if (step.isIndex) {
      if (node->is_null()) *node = json::array();
      if (!node->is_array())
        return Issue{
            path, "cannot be set: [" + std::to_string(step.index) + "] indexes " + typeName(*node)};
      if (step.index > node->size())
        return Issue{path, "cannot be set: index " + std::to_string(step.index) +
                               " is past the end of an array of " + std::to_string(node->size()) +
                               " (an index up to " + std::to_string(node->size()) +
                               " sets or appends)"};
      if (step.index == node->size()) node->push_back(nullptr);
      node = &(*node)[step.index];
    } else {
      if (node->is_null()) *node = json::object();
      if (!node->is_object())
        return Issue{
            path, "cannot be set: ." + clipped(step.key) + " names a field of " + typeName(*node)};
      node = &(*node)[step.key];
    }
  }
  *node = std::move(value);
  return std::nullopt;
}

}  // namespace

Expected<std::string> applyOverrides(const std::string& text,
                                     const std::vector<std::string>& assignments) {
  if (assignments.empty()) return text;  // read as it is: nothing re-serialized
  Expected<json> parsed = readJson(text);
  if (!parsed) return parsed.issues();
  json& doc = parsed.value();
  std::vector<Issue> issues;
  for (const std::string& a : assignments) {
    const std::string shown = "--set " + clipped(a);
    if (const size_t bad = invalidUtf8Offset(a); bad != std::string::npos) {
      issues.push_back(
          {"--set", "not UTF-8 at byte " + std::to_string(bad) + " of the assignment"});
      continue;
    }
    const size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      issues.push_back({shown, "must be PATH=VALUE, e.g. robot.params.wheel_radius=0.2"});
      continue;
    }
    const std::string path = a.substr(0, eq), value = a.substr(eq + 1);
    const std::optional<std::vector<PathStep>> steps = splitPath(path);
    if (!steps) {
      issues.push_back({clipped(path),
                        "is not a field path (use dots and [index] with up to 9 digits, e.g. "
                        "terrain.boxes[0].size[2])"});
      continue;
    }
    // VALUE is JSON when it parses; text that cannot be anything but JSON
    // (an array, an object, a quoted string, a number) and does not parse is
    // an issue, anything else is a string.
    Expected<json> v = readJson(value);
    if (!v) {
      const size_t first = value.find_first_not_of(" \t");
      if (first != std::string::npos &&
          std::string("[{\"-0123456789").find(value[first]) != std::string::npos) {
        issues.push_back({clipped(path), "the value: " + v.issues().front().message});
        continue;
      }
      v = json(value);
    }
    if (std::optional<Issue> problem = setAt(doc, *steps, clipped(path), std::move(v).value()))
      issues.push_back(*problem);
  }
  if (!issues.empty()) return issues;
  return dumpJson(doc);
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
