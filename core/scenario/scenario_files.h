// Files a scenario names beside itself (heightmap images): read by the
// command-line tool relative to the scenario's directory; the app embeds them.
#pragma once

#include <algorithm>
#include <functional>
#include <optional>
#include <string>

namespace roverlab {

/// Reads a file named in a scenario: its bytes, or nullopt with `error` set.
using ScenarioFiles =
    std::function<std::optional<std::string>(const std::string& name, std::string& error)>;

/// What a reader says of a name that leaves the folder (staysInFolder false).
constexpr const char* kLeavesFolder =
    "a file named in a scenario stays inside the scenario's folder (a relative name without "
    "'..')";

/// True when `name` stays inside the folder it is named from: relative, with
/// no ".." part, no backslash and no URL scheme. A file named in a scenario
/// must; a reader refuses any other.
inline bool staysInFolder(const std::string& name) {
  if (name.empty() || name[0] == '/' || name.find('\\') != std::string::npos ||
      name.find(':') != std::string::npos)
    return false;
  size_t start = 0;
  while (start <= name.size()) {
    const size_t end = std::min(name.find('/', start), name.size());
    if (name.compare(start, end - start, "..") == 0 && end - start == 2) return false;
    start = end + 1;
  }
  return true;
}

}  // namespace roverlab
