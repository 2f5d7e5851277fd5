// `terrain.meshes` of a scenario document: 2.5-D triangle surfaces from OBJ
// text embedded in the scenario or in a file beside it, placed by scale, yaw
// and offset, read into meshes (terrain/trimesh.h). Format:
// docs/scenario-format.md, "Mesh".
#pragma once

#include <functional>
#include <string>

#include "scenario/field_reader.h"
#include "scenario/scenario_files.h"
#include "terrain/terrain.h"

namespace roverlab {

/// Reads `list` (at "terrain.meshes") into `builder`. `materialOf` turns an
/// entry's material name into its index; `base` is terrain.base (m).
void readMeshes(Reader& r, const json& list, TerrainBuilder& builder, double base,
                const std::function<int(const json&, const std::string&)>& materialOf,
                const ScenarioFiles& files);

}  // namespace roverlab
