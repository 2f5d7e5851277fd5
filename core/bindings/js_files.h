// The files a scenario names beside it (heightmap images, meshes, URDF robots),
// read by a JavaScript function: how `node tools/roverlab.mjs` gives the WASM
// core the scenario's folder, which the core cannot open itself.
#pragma once

#include "bindings/js_values.h"
#include "scenario/scenario_files.h"

namespace roverlab {

/// `readFile(name)` returns the file's bytes (a Uint8Array), or a string
/// saying why it cannot (the reader keeps a name inside the scenario's folder,
/// as scenario/folder_files.h does). A name that leaves the folder is refused
/// before it is asked; so is a file over kMaxNamedFileBytes. Any other
/// value, or a throw, is "cannot be read".
ScenarioFiles filesFromJs(val readFile);

}  // namespace roverlab
