#include "scenario/folder_files.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "common/size_optimized.h"
#include "scenario/json_input.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {

namespace {

// The canonical absolute path (links followed), or "" when it does not exist.
std::string realPath(const std::string& path) {
  char buffer[PATH_MAX];
  return ::realpath(path.empty() ? "." : path.c_str(), buffer) ? std::string(buffer) : "";
}

// Up to `limit` + one chunk of the stream: more than `limit` means too large.
std::string readUpTo(std::ifstream& in, std::size_t limit) {
  std::string bytes;
  char chunk[1 << 16];
  while (bytes.size() <= limit && in.read(chunk, sizeof chunk)) bytes.append(chunk, sizeof chunk);
  if (bytes.size() <= limit) bytes.append(chunk, static_cast<std::size_t>(in.gcount()));
  return bytes;
}

}  // namespace

std::string folderOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

Expected<std::string> readDocument(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Expected<std::string>::failure("", "cannot read " + path + ": " + std::strerror(errno));
  std::string content = readUpTo(in, kMaxDocumentBytes);
  if (in.bad())
    return Expected<std::string>::failure("", "cannot read " + path + ": " + std::strerror(errno));
  if (content.size() > kMaxDocumentBytes)
    return Expected<std::string>::failure("", "the file is larger than the limit of " +
                                                  std::to_string(kMaxDocumentBytes) +
                                                  " bytes (16 MiB)");
  return content;
}

ScenarioFiles filesInFolder(const std::string& folder) {
  return [folder](const std::string& name, std::string& error) -> std::optional<std::string> {
    if (!staysInFolder(name)) {
      error = kLeavesFolder;
      return std::nullopt;
    }
    const std::string root = realPath(folder), real = realPath(folder + name);
    if (real.empty()) {
      error = std::strerror(errno);
      return std::nullopt;
    }
    if (root.empty() || real.compare(0, root.size() + 1, root + "/") != 0) {
      error =
          "a symbolic link leads out of the scenario's folder; a file named in a scenario "
          "stays inside it";
      return std::nullopt;
    }
    std::ifstream f(real, std::ios::binary);
    if (!f) {
      error = std::strerror(errno);
      return std::nullopt;
    }
    std::string bytes = readUpTo(f, kMaxNamedFileBytes);
    if (bytes.size() > kMaxNamedFileBytes) {
      error = "larger than " + std::to_string(kMaxNamedFileBytes >> 20) + " MiB";
      return std::nullopt;
    }
    return bytes;
  };
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
