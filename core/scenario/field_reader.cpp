#include "scenario/field_reader.h"

#include "common/size_optimized.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {

std::uint32_t colour(Reader& r, const json& obj, const std::string& path, std::uint32_t fallback) {
  const std::string s = r.string(obj, path, "color", "");
  if (s.empty()) return fallback;
  if (s.size() != 7 || s[0] != '#' ||
      s.find_first_not_of("0123456789abcdefABCDEF", 1) != std::string::npos) {
    r.add(Reader::at(path, "color"), "must be a colour '#rrggbb', got '" + clipped(s) + "'");
    return fallback;
  }
  return static_cast<std::uint32_t>(std::stoul(s.substr(1), nullptr, 16));
}

std::vector<Issue> capped(std::vector<Issue> issues) {
  if (issues.size() <= kMaxIssues) return issues;
  const size_t more = issues.size() - kMaxIssues;
  issues.resize(kMaxIssues);
  issues.push_back({"", "and " + std::to_string(more) + " more issues"});
  return issues;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
