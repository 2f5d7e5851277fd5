// Wavefront OBJ text read into vertices and triangles, by Debian's
// tinyobjloader (libtinyobjloader-dev, header-only, natively and in WASM).
// Only `v` and `f` records matter: a face of k corners becomes k − 2
// triangles fanned from its first corner, in file order; normals, texture
// coordinates, lines, points and materials are ignored.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "common/types.h"

namespace roverlab {

struct ObjMesh {
  std::vector<Vec3> vertices;                 ///< as written (file units)
  std::vector<std::array<int, 3>> triangles;  ///< 0-based vertex indices, file order
};

/// Parses OBJ text; at most `maxTriangles` triangles. Issues have an empty
/// path (the caller names the field) and say what is wrong.
Expected<ObjMesh> parseObj(const std::string& text, long maxTriangles);

}  // namespace roverlab
