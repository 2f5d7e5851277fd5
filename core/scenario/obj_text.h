// Wavefront OBJ text read into vertices and triangles. Only `v` and `f`
// records matter: a vertex's x, y and z (a w or colour after them ignored),
// read by strtod (correctly rounded, so the same in the native and WASM
// builds); a face of 3 to 255 corners, each v, v/vt, v//vn or v/vt/vn with v
// from 1 (or from −1, the last vertex written before the face), becomes
// k − 2 triangles fanned from its first corner, in file order. Normals,
// texture coordinates, groups, lines, points, materials and comments (#) are
// ignored.
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
