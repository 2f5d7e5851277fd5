#include "bindings/js_files.h"

#include <string>

#include "common/size_optimized.h"
#include "scenario/folder_files.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {

ScenarioFiles filesFromJs(val readFile) {
  if (readFile.typeOf().as<std::string>() != "function") return {};
  return [readFile](const std::string& name, std::string& error) -> std::optional<std::string> {
    if (!staysInFolder(name)) {
      error = kLeavesFolder;
      return std::nullopt;
    }
    const val got = readFile(name);
    if (got.isString()) {
      error = got.as<std::string>();
      return std::nullopt;
    }
    if (!got.instanceof (val::global("Uint8Array"))) {
      error = "cannot be read";
      return std::nullopt;
    }
    const std::size_t size = got["length"].as<std::size_t>();
    if (size > kMaxNamedFileBytes) {
      error = "larger than " + std::to_string(kMaxNamedFileBytes >> 20) + " MiB";
      return std::nullopt;
    }
    std::string bytes(size, '\0');
    val(emscripten::typed_memory_view(size, reinterpret_cast<unsigned char*>(bytes.data())))
        .call<void>("set", got);
    return bytes;
  };
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
