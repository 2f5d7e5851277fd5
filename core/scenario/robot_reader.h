// A robot description (robots/description.h) as JSON, read and written
// exactly: every field with its unit, specified field by field in
// docs/robot-format.md and by the JSON Schema docs/robot.schema.json. The
// reader checks what one document can show on its own (required fields,
// types, finite numbers within their ranges, names, unique link, joint and
// actuator names, the size limits below) and reports every problem as an
// Issue with its path; whether the names refer to each other correctly (the
// tree, the wheels' joints, the controls' actuators) is the compile step's to
// check. Writing then reading gives back the same description, every double
// bit for bit.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "common/types.h"
#include "robots/description.h"

namespace roverlab {

/// Most links, joints, wheels, actuators, collision shapes of one link,
/// names in each list of `controls`, and sections of one description.
constexpr int kMaxRobotParts = 1000;
/// Most points of one hull collision shape.
constexpr int kMaxRobotHullPointsPerShape = 10000;
/// Most hull points of one description in all.
constexpr int kMaxRobotHullPoints = 100000;
/// Longest name (characters, i.e. Unicode code points).
constexpr int kMaxRobotNameChars = 200;

/// Reads a description from its JSON form. `path` prefixes every issue's path
/// ("robot.model" gives `robot.model.links[2].mass: …`); every problem found
/// is reported, at most kMaxIssues of them (scenario/field_reader.h).
Expected<RobotDescription> readRobotDescription(const nlohmann::json& j, const std::string& path);

/// The JSON form of a description: every field, but `limit` and `mimic` only
/// when present and `colour` only when not empty; a collision shape has the
/// fields of its type only. The `line` and `params` fields are not written.
nlohmann::json writeRobotDescription(const RobotDescription& d);

}  // namespace roverlab
