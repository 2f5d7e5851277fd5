#include "control/controller.h"

#include "control/step_climb.h"

namespace roverlab {

const std::vector<ControllerKind>& controllerKinds() {
  static const std::vector<ControllerKind> kinds = {
      stepClimbKind(),
  };
  return kinds;
}

const ControllerKind* findControllerKind(const std::string& name) {
  for (const ControllerKind& k : controllerKinds())
    if (k.name == name) return &k;
  return nullptr;
}

const std::vector<ProgramLanguage>& programLanguages() {
  static const std::vector<ProgramLanguage> languages = {
      {"javascript",
       "the app (its simulation worker and Study tab) and `node tools/roverlab.mjs run` or "
       "`study`"},
      {"python",
       "the Python package (roverlab.World, roverlab.Env and roverlab.study with a controller "
       "given as an object)"},
  };
  return languages;
}

std::vector<std::string> controllerNames() {
  std::vector<std::string> names{"none"};
  for (const ControllerKind& k : controllerKinds()) names.push_back(k.name);
  return names;
}

}  // namespace roverlab
