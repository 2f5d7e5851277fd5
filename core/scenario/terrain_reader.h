// The terrain and Track1 parts of a scenario document: materials, quad rows,
// boxes, wedges, hulls and profiles (one table-driven reader for the piece
// kinds) read into a TerrainBuilder, with the limits on pieces and hull points
// (docs/scenario-format.md, "Limits"), and Track1 on the left quad row.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scenario/field_reader.h"
#include "scenario/heightmap_reader.h"
#include "scenario/mesh_reader.h"
#include "terrain/builders.h"
#include "terrain/terrain.h"
#include "terrain/track1.h"

namespace roverlab {

/// Most hull points of a terrain in all: a 128-point hull takes ~15 ms to
/// build, so 16 of them stay within a quarter of a second (docs/scenario-format.md, "Limits").
constexpr int kMaxTotalHullPoints = 2048;

struct TerrainContext {
  TerrainBuilder builder;
  std::vector<std::string> piecePaths;  ///< per builder piece: the JSON path it came from
  bool full = false;                    ///< kMaxPieces reached: further pieces are not built
  std::map<std::string, int> materials;
  double base = -1.0;
  std::vector<Quad> rows[2];                     ///< left, right: the rows when they are valid
  std::vector<std::optional<Quad>> segments[2];  ///< each segment's quad, where it could be built
  std::vector<Track1Node> track1;                ///< empty when the terrain has no left quad row
  ScenarioFiles files;                           ///< reads heightmap files (the CLI's), or none
};

/// Reads `terrain` of the document into `t` (issues into `r`).
void readTerrain(Reader& r, const json& doc, TerrainContext& t);

/// Reads `track1` of the document into t.track1, on the left row read by
/// readTerrain (generated when the document has none).
void readTrack1(Reader& r, const json& doc, TerrainContext& t);

/// The builder's issues with `pieces[i]` turned into the JSON paths the
/// pieces came from.
std::vector<Issue> terrainIssues(const std::vector<Issue>& issues,
                                 const std::vector<std::string>& paths);

}  // namespace roverlab
