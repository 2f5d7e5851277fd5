#include "scenario/obj_text.h"

#include <cmath>
#include <cstdlib>

#include "scenario/json_input.h"

#define TINYOBJLOADER_IMPLEMENTATION
#define TINYOBJLOADER_USE_DOUBLE
#include <tiny_obj_loader.h>

namespace roverlab {
namespace {

// The first record tinyobjloader would misread, as the refusal's message;
// empty when there is none: a vertex record ("v x y z ...") whose x, y or z
// is not a finite number (it reads such a coordinate as 0), or a face
// record ("f a b c ..." with a/vt/vn corners) naming a vertex beyond the
// range of its 32-bit indices (it would read the number wrapped, and the
// refusal would name a vertex the file does not name).
std::string badRecord(const std::string& text) {
  size_t line = 1;
  long vertices = 0, faces = 0;
  std::string face;  // the first face naming a vertex out of range, as its message's start
  for (size_t at = 0; at < text.size(); ++line) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    size_t k = at;
    while (k < end && (text[k] == ' ' || text[k] == '\t')) ++k;
    const bool record = k + 1 < end && (text[k + 1] == ' ' || text[k + 1] == '\t');
    if (record && text[k] == 'v') {
      ++vertices;
      k += 1;
      for (int c = 0; c < 3; ++c) {
        while (k < end && (text[k] == ' ' || text[k] == '\t')) ++k;
        size_t stop = k;
        while (stop < end && text[stop] != ' ' && text[stop] != '\t' && text[stop] != '\r') ++stop;
        const std::string token = text.substr(k, stop - k);
        char* used = nullptr;
        const double value = std::strtod(token.c_str(), &used);
        if (token.empty() || used != token.c_str() + token.size() || !std::isfinite(value))
          return "is not a readable OBJ mesh: line " + std::to_string(line) +
                 ": vertex coordinate " + "xyz"[c] +
                 (token.empty() ? std::string(" is missing")
                                : " \"" + clipped(token) + "\" is not a finite number");
        k = stop;
      }
    } else if (record && text[k] == 'f') {
      for (k += 1; face.empty() && k < end;) {
        while (k < end && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r')) ++k;
        // The corner's vertex number: an optional sign, then digits.
        size_t digits = k + (k < end && (text[k] == '-' || text[k] == '+'));
        size_t stop = digits;
        while (stop < end && text[stop] >= '0' && text[stop] <= '9') ++stop;
        const std::string number = text.substr(k, stop - k);
        if (stop - digits > 9 && std::abs(std::strtod(number.c_str(), nullptr)) > 2147483647.0)
          face = "face " + std::to_string(faces) + " (line " + std::to_string(line) +
                 ") names vertex " + clipped(number);
        while (k < end && text[k] != ' ' && text[k] != '\t') ++k;
      }
      ++faces;
    }
    at = end + 1;
  }
  if (!face.empty())
    return face + "; the file has " + std::to_string(vertices) + " vertices (numbered from 1)";
  return {};
}

}  // namespace

Expected<ObjMesh> parseObj(const std::string& text, long maxTriangles) {
  const auto refuse = [](const std::string& message) {
    return Expected<ObjMesh>::failure("", message);
  };
  const std::string bad = badRecord(text);
  if (!bad.empty()) return refuse(bad);
  tinyobj::ObjReaderConfig config;
  config.triangulate = false;  // fanned below, after the indices are checked
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  // From a string, with no material text: the reader opens no files.
  if (!reader.ParseFromString(text, "", config)) {
    std::string error = reader.Error();
    while (!error.empty() && (error.back() == '\n' || error.back() == '\r')) error.pop_back();
    return refuse("is not a readable OBJ mesh: " + clipped(error.empty() ? "parse error" : error));
  }
  ObjMesh out;
  const std::vector<double>& xyz = reader.GetAttrib().vertices;
  out.vertices.reserve(xyz.size() / 3);
  for (size_t k = 0; k + 2 < xyz.size(); k += 3)
    out.vertices.emplace_back(xyz[k], xyz[k + 1], xyz[k + 2]);
  const long count = static_cast<long>(out.vertices.size());
  long face = 0;
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    const std::vector<tinyobj::index_t>& indices = shape.mesh.indices;
    size_t at = 0;
    for (unsigned char corners : shape.mesh.num_face_vertices) {
      if (corners < 3 || at + corners > indices.size())
        return refuse("face " + std::to_string(face) +
                      " has fewer than 3 corners or more than 255 (a face may have 3 to 255)");
      for (unsigned k = 0; k < corners; ++k) {
        const int v = indices[at + k].vertex_index;
        if (v < 0 || v >= count)
          return refuse("face " + std::to_string(face) + " names vertex " +
                        std::to_string(v >= 0 ? v + 1 : v) + "; the file has " +
                        std::to_string(count) + " vertices (numbered from 1)");
      }
      if (static_cast<long>(out.triangles.size()) + corners - 2 > maxTriangles)
        return refuse("has more than " + std::to_string(maxTriangles) +
                      " triangles, the limit (docs/scenario-format.md, \"Limits\")");
      for (unsigned k = 1; k + 1 < corners; ++k)
        out.triangles.push_back({indices[at].vertex_index, indices[at + k].vertex_index,
                                 indices[at + k + 1].vertex_index});
      at += corners;
      ++face;
    }
    if (at != indices.size())
      return refuse("face " + std::to_string(face) +
                    " has more than 255 corners (a face may have 3 to 255)");
  }
  if (out.triangles.empty())
    return refuse("has no faces (f records): a mesh terrain needs triangles");
  return out;
}

}  // namespace roverlab
