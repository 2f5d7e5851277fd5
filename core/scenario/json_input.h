// JSON from other people: scenario files, share links and --set values are
// read here before anything interprets them. The reader never throws, never
// recurses deeper than kMaxJsonDepth, and refuses what JSON parsers commonly
// let through silently: invalid UTF-8, duplicate keys, numbers that overflow a
// double. Every refusal is an Issue with the JSON path it concerns and, for
// syntax and encoding, the byte offset. Limits: docs/scenario-format.md,
// "Limits".
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "common/types.h"

namespace roverlab {

/// Largest document read (bytes).
constexpr std::size_t kMaxDocumentBytes = std::size_t{16} << 20;
/// Deepest nesting of arrays and objects (a scenario needs 5).
constexpr int kMaxJsonDepth = 64;
/// Most values (numbers, strings, literals, arrays, objects) in one document:
/// a 1000 × 1000 grid of heights fits, and the parsed document stays under
/// about 130 MB whatever the values are (an empty object costs ~120 bytes).
constexpr std::size_t kMaxJsonValues = std::size_t{1} << 20;
/// Most keys in one object (a scenario's largest maps, materials and joint
/// targets, hold a few dozen).
constexpr std::size_t kMaxObjectKeys = 4096;
/// Characters of a user's text quoted in a message; longer text is cut.
constexpr std::size_t kMaxQuotedChars = 80;

/// Offset of the first byte that is not well-formed UTF-8 (overlong forms,
/// surrogates and code points above U+10FFFF count as ill-formed), or npos.
std::size_t invalidUtf8Offset(const std::string& text);

/// Parses one JSON document within the limits above.
Expected<nlohmann::json> readJson(const std::string& text);

/// `text` for a message: cut after kMaxQuotedChars characters (on a UTF-8
/// boundary) with "…" and the full length in bytes.
std::string clipped(const std::string& text);

/// JSON text of `value` (indent as nlohmann's dump); never throws: invalid
/// UTF-8 in strings is replaced by U+FFFD.
std::string dumpJson(const nlohmann::json& value, int indent = -1);

}  // namespace roverlab
