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
      {"javascript", "the app's simulation worker and `node tools/roverlab.mjs run`"},
      {"python", "the Python package: roverlab.World(scenario, controller=...)"},
  };
  return languages;
}

std::vector<std::string> controllerNames() {
  std::vector<std::string> names{"none"};
  for (const ControllerKind& k : controllerKinds()) names.push_back(k.name);
  return names;
}

}  // namespace roverlab
