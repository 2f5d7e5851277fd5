// Files a scenario names beside itself (heightmap images): read by the
// command-line tool relative to the scenario's directory; the app embeds them.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace roverlab {

/// Reads a file named in a scenario: its bytes, or nullopt with `error` set.
using ScenarioFiles =
    std::function<std::optional<std::string>(const std::string& name, std::string& error)>;

}  // namespace roverlab
