// `terrain.heightmaps` of a scenario document: grids of heights given inline,
// as an embedded PNG (a data URL) or as a PNG file beside the scenario,
// read into heightfields (terrain/heightfield.h). Format:
// docs/scenario-format.md, "Heightmaps".
#pragma once

#include <functional>
#include <string>

#include "scenario/field_reader.h"
#include "scenario/scenario_files.h"
#include "terrain/terrain.h"

namespace roverlab {

/// Reads `list` (at "terrain.heightmaps") into `builder`. `materialOf` turns an
/// entry's material name into its index; `base` is terrain.base (m).
void readHeightmaps(Reader& r, const json& list, TerrainBuilder& builder, double base,
                    const std::function<int(const json&, const std::string&)>& materialOf,
                    const ScenarioFiles& files);

}  // namespace roverlab
