// Files on disk for the native front ends (the command-line tool, the Python
// package, study workers): a scenario's or a study's document, and the files
// it names, read only from inside its own folder.
#pragma once

#include <cstddef>
#include <string>

#include "common/types.h"
#include "scenario/scenario_files.h"

namespace roverlab {

/// Largest file a scenario names (a heightmap image, a mesh, a robot), bytes: a
/// 2049 × 2049 16-bit PNG is at most about 8.4 MB.
constexpr std::size_t kMaxNamedFileBytes = std::size_t{64} << 20;

/// The folder part of a path, with its trailing '/' ("" for a bare name).
std::string folderOf(const std::string& path);

/// A document (scenario, study) at most kMaxDocumentBytes long, read without
/// reading more than one chunk past that limit. Issues at "" otherwise.
Expected<std::string> readDocument(const std::string& path);

/// The files named from `folder` ("" or ending in '/'): only a relative name
/// that stays inside it (staysInFolder) and whose real path, symbolic links
/// followed, is inside the folder's real path; at most kMaxNamedFileBytes.
ScenarioFiles filesInFolder(const std::string& folder);

}  // namespace roverlab
