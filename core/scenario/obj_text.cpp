#include "scenario/obj_text.h"

#include <cmath>
#include <cstdlib>

#include "common/size_optimized.h"
#include "scenario/json_input.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

// Most corners a face may have.
constexpr int kMaxCorners = 255;

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Calls visit(line, begin, end) for each line of `text` (numbered from 1), a
// record's first letter at `begin`, until visit returns false.
template <class Visit>
void forLines(const std::string& text, Visit&& visit) {
  size_t line = 1;
  for (size_t at = 0; at < text.size(); ++line) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    size_t k = at;
    while (k < end && blank(text[k])) ++k;
    if (!visit(line, k, end)) return;
    at = end + 1;
  }
}

// The record at k: 'v' or 'f' when its letter stands alone (so not vt, vn,
// vp), else 0.
char recordAt(const std::string& text, size_t k, size_t end) {
  if (k + 1 >= end || (text[k + 1] != ' ' && text[k + 1] != '\t')) return 0;
  return text[k] == 'v' || text[k] == 'f' ? text[k] : 0;
}

// The next token of the line from k (past blanks), its end in `stop`.
std::string nextToken(const std::string& text, size_t& k, size_t end, size_t& stop) {
  while (k < end && blank(text[k])) ++k;
  stop = k;
  while (stop < end && !blank(text[stop])) ++stop;
  return text.substr(k, stop - k);
}

}  // namespace

Expected<ObjMesh> parseObj(const std::string& text, long maxTriangles) {
  std::string refusal;
  const auto refuse = [&](const std::string& message) {
    refusal = message;
    return false;
  };
  ObjMesh out;
  // The vertices first, so that a face's message can say how many there are
  // (a face may name a vertex written after it).
  forLines(text, [&](size_t line, size_t k, size_t end) {
    if (recordAt(text, k, end) != 'v') return true;
    double xyz[3];
    ++k;
    for (int c = 0; c < 3; ++c) {
      size_t stop;
      const std::string token = nextToken(text, k, end, stop);
      char* used = nullptr;
      // strtod rounds correctly in both builds (glibc natively, musl in WASM).
      xyz[c] = std::strtod(token.c_str(), &used);
      if (token.empty() || used != token.c_str() + token.size() || !std::isfinite(xyz[c]))
        return refuse("is not a readable OBJ mesh: line " + std::to_string(line) +
                      ": vertex coordinate " + "xyz"[c] +
                      (token.empty() ? std::string(" is missing")
                                     : " \"" + clipped(token) + "\" is not a finite number"));
      k = stop;
    }
    out.vertices.emplace_back(xyz[0], xyz[1], xyz[2]);  // a w or colour after them is ignored
    return true;
  });
  if (!refusal.empty()) return Expected<ObjMesh>::failure("", refusal);
  const long count = static_cast<long>(out.vertices.size());
  long face = 0, before = 0;  // faces so far; vertices before this line
  int corners[kMaxCorners];
  forLines(text, [&](size_t line, size_t k, size_t end) {
    const char record = recordAt(text, k, end);
    if (record == 'v') ++before;
    if (record != 'f') return true;
    const auto where = [&] {
      return "face " + std::to_string(face) + " (line " + std::to_string(line) + ")";
    };
    int n = 0;
    for (++k; k < end;) {
      size_t stop;
      const std::string token = nextToken(text, k, end, stop);
      k = stop;
      if (token.empty() || token[0] == '#') break;  // the line's end, or a comment
      // The corner's vertex number, before a '/' (v, v/vt, v//vn, v/vt/vn):
      // from 1, or from −1 for the last vertex written before the face.
      const std::string number = token.substr(0, token.find('/'));
      const size_t digits = number.size() > 0 && (number[0] == '-' || number[0] == '+');
      if (digits == number.size() ||
          number.find_first_not_of("0123456789", digits) != std::string::npos)
        return refuse("is not a readable OBJ mesh: line " + std::to_string(line) +
                      ": face corner \"" + clipped(token) +
                      "\" does not start with a vertex number");
      if (n == kMaxCorners)
        return refuse(where() + " has more than " + std::to_string(kMaxCorners) +
                      " corners (a face may have 3 to " + std::to_string(kMaxCorners) + ")");
      const double v = std::strtod(number.c_str(), nullptr);  // exact below 2^53
      const double index = v > 0 ? v - 1 : before + v;        // 0-based
      if (v == 0 || index < 0 || index >= count)
        return refuse(where() + " names vertex " + clipped(number) + "; the file has " +
                      std::to_string(count) + " vertices (numbered from 1)");
      corners[n++] = static_cast<int>(index);
    }
    if (n < 3)
      return refuse(where() + " has " + std::to_string(n) + " corners (a face may have 3 to " +
                    std::to_string(kMaxCorners) + ")");
    if (static_cast<long>(out.triangles.size()) + n - 2 > maxTriangles)
      return refuse("has more than " + std::to_string(maxTriangles) +
                    " triangles, the limit (docs/scenario-format.md, \"Limits\")");
    for (int c = 1; c + 1 < n; ++c)
      out.triangles.push_back({corners[0], corners[c], corners[c + 1]});
    ++face;
    return true;
  });
  if (!refusal.empty()) return Expected<ObjMesh>::failure("", refusal);
  if (out.triangles.empty())
    return Expected<ObjMesh>::failure("",
                                      "has no faces (f records): a mesh terrain needs triangles");
  return out;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
