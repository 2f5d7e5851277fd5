// The terrain and Track1 parts of a scenario document: materials, quad rows,
// boxes, wedges, hulls and profiles read into a TerrainBuilder, with the
// limits on pieces and hull points (docs/scenario-format.md, "Limits").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scenario/field_reader.h"
#include "terrain/builders.h"
#include "terrain/terrain.h"

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
};

/// Reads `terrain` of the document into `t` (issues into `r`).
void readTerrain(Reader& r, const json& doc, TerrainContext& t);

/// The builder's issues with `pieces[i]` turned into the JSON paths the
/// pieces came from.
std::vector<Issue> terrainIssues(const std::vector<Issue>& issues,
                                 const std::vector<std::string>& paths);

}  // namespace roverlab
