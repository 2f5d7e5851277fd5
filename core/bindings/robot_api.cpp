#include "bindings/robot_api.h"

#include <map>
#include <string>
#include <utility>

#include "common/size_optimized.h"
#include "scenario/robot_reader.h"
#include "scenario/urdf_reader.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

// The part of a name after its last slash.
std::string fileName(const std::string& name) {
  const std::size_t slash = name.rfind('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

// The bytes of a Uint8Array.
std::string bytesOf(const val& array) {
  std::string bytes(array["length"].as<std::size_t>(), '\0');
  val(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<unsigned char*>(bytes.data())))
      .call<void>("set", array);
  return bytes;
}

}  // namespace

val importRobotJs(val urdf, val files) {
  if (!urdf.isString())
    return issuesResult({{"robot.urdf", "must be the URDF's text (a string), got " +
                                            urdf.typeOf().as<std::string>()}});
  if (!(urdf["length"].as<double>() <= static_cast<double>(kMaxUrdfBytes)))
    return issuesResult({{"robot.urdf", "is longer than " + std::to_string(kMaxUrdfBytes >> 20) +
                                            " MiB, the limit of a URDF"}});
  // The files, each a Uint8Array, their bytes together within the meshes' limit.
  std::map<std::string, val> given;
  const val Uint8Array = val::global("Uint8Array");
  if (files.isUndefined() || files.isNull()) files = val::object();
  const val names = val::global("Object").call<val>("keys", files);
  const std::size_t count = names["length"].as<std::size_t>();
  double bytes = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const std::string name = names[k].as<std::string>();
    const val file = files[name];
    if (!file.instanceof (Uint8Array))
      return issuesResult({{"files." + name, "must be the file's bytes (a Uint8Array)"}});
    bytes += file["length"].as<double>();
    given.emplace(name, file);
  }
  if (bytes > static_cast<double>(kMaxUrdfMeshBytes))
    return issuesResult({{"files", "hold " + std::to_string(static_cast<long long>(bytes)) +
                                       " bytes; a robot's mesh files hold at most " +
                                       std::to_string(kMaxUrdfMeshBytes >> 20) + " MiB"}});
  const ScenarioFiles read = [&given](const std::string& name,
                                      std::string& error) -> std::optional<std::string> {
    auto at = given.find(name);
    if (at == given.end()) {
      // By its file name alone, when one file has it (files dropped without their folders).
      const std::string wanted = fileName(name);
      int matches = 0;
      for (auto it = given.begin(); it != given.end(); ++it)
        if (fileName(it->first) == wanted) at = it, ++matches;
      if (matches != 1) {
        error = matches == 0 ? "it is not among the files given (give the .urdf with its meshes, "
                               "or a .zip of them)"
                             : std::to_string(matches) + " files given are named '" + wanted +
                                   "'; give the folders as the URDF names them (a .zip)";
        return std::nullopt;
      }
    }
    return bytesOf(at->second);
  };
  Expected<UrdfRobot> robot = readUrdf(urdf.as<std::string>(), read, "robot.urdf");
  if (!robot) return issuesResult(robot.issues());
  val out = val::object();
  out.set("ok", true);
  out.set("model", jsonToJs(writeRobotDescription(robot.value().description)));
  out.set("warnings", issuesToJs(robot.value().warnings));
  return out;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
