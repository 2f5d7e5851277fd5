// `roverlab study STUDY.json [--jobs N] [--out results.csv] [--json]`: runs a
// study's rows on this machine's cores (docs/study-format.md, docs/cli.md).
#pragma once

#include <string>
#include <vector>

namespace roverlab {

/// The command's exit status: 0 done, 1 refused study or options, 2 an
/// error, 130 interrupted (the rows finished so far are kept).
int studyCommand(const std::vector<std::string>& args);

}  // namespace roverlab
