#include "scenario/stl_reader.h"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "common/size_optimized.h"
#include "scenario/json_input.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

// ---------------------------------------------------------------------------
// Binary STL: an 80-byte header, a uint32 triangle count n, then n records of
// 50 bytes: normal (3 float32), 3 vertices (3 float32 each), uint16
// attribute; all little-endian.

constexpr std::size_t kHeaderBytes = 84;
constexpr std::size_t kRecordBytes = 50;

std::uint32_t readU32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

float readF32(const unsigned char* p) {
  const std::uint32_t u = readU32(p);
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

std::string count(std::uint64_t n) { return std::to_string(n); }

Expected<StlMesh> readBinary(const std::string& bytes, std::uint32_t n) {
  StlMesh mesh;
  mesh.binary = true;
  mesh.triangles = n;
  mesh.vertices.reserve(static_cast<std::size_t>(n) * 3);
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  for (std::uint32_t t = 0; t < n; ++t) {
    const unsigned char* record = data + kHeaderBytes + kRecordBytes * t;
    for (int k = 0; k < 3; ++k) {
      const unsigned char* v = record + 12 + 12 * k;
      const Vec3 p(readF32(v), readF32(v + 4), readF32(v + 8));
      if (!p.allFinite())
        return Expected<StlMesh>::failure(
            "", "triangle " + count(t) + " (counting from 0; byte " + count(v - data) +
                    "): vertex " + std::to_string(k) +
                    " has a coordinate that is not a finite number " + format(p));
      mesh.vertices.push_back(p);
    }
  }
  return mesh;
}

// Why bytes that are not ASCII STL cannot be binary STL either.
std::string binarySizeProblem(const std::string& bytes) {
  const std::size_t size = bytes.size();
  if (size < kHeaderBytes)
    return "the file is " + count(size) +
           " bytes: too short for a binary STL (an 80-byte header and a 4-byte triangle count) "
           "and not an ASCII STL (\"solid\", then facets)";
  const std::uint64_t n = readU32(reinterpret_cast<const unsigned char*>(bytes.data()) + 80);
  if (n > static_cast<std::uint64_t>(kMaxStlTriangles))
    return "its header counts " + count(n) + " triangles, more than the limit of " +
           count(kMaxStlTriangles);
  const std::uint64_t expected = kHeaderBytes + kRecordBytes * n;
  return std::string(size < expected ? "truncated"
                                     : "the triangle count is inconsistent with the size") +
         ": its header counts " + count(n) + " triangles, 84 + 50·" + count(n) + " = " +
         count(expected) + " bytes, but the file has " + count(size) + " bytes";
}

// ---------------------------------------------------------------------------
// ASCII STL: "solid name", facets "facet normal nx ny nz / outer loop /
// vertex x y z (three times) / endloop / endfacet", then "endsolid name";
// several solids may follow each other. Keywords in any case.

class AsciiReader {
 public:
  explicit AsciiReader(const std::string& text) : text_(text) {}

  Expected<StlMesh> read() {
    StlMesh mesh;
    bool any = false;
    while (true) {
      skipSpace();
      if (at_ >= text_.size()) break;
      if (!keyword("solid")) return fail("expected \"solid\", got " + quoted(peek()));
      skipLine();  // the solid's name
      any = true;
      while (true) {
        const std::size_t line = line_;
        const std::string word = token();
        if (word.empty()) return failAt(line, "the file ends without \"endsolid\" (truncated?)");
        if (equal(word, "endsolid")) {
          skipLine();
          break;
        }
        if (!equal(word, "facet"))
          return failAt(line, "expected \"facet\" or \"endsolid\", got " + quoted(word));
        if (mesh.triangles >= kMaxStlTriangles)
          return failAt(line, "more than " + count(kMaxStlTriangles) + " triangles, the limit");
        const std::size_t facetLine = line_;
        if (keyword("normal"))
          for (int k = 0; k < 3; ++k) token();  // the normal is not read
        if (!keyword("outer") || !keyword("loop"))
          return fail("expected \"outer loop\" in the facet of line " + count(facetLine) +
                      ", got " + quoted(peek()));
        for (int k = 0; k < 3; ++k) {
          if (!keyword("vertex"))
            return fail(std::string("expected \"vertex\" (") + "123"[k] +
                        " of 3) in the facet of line " + count(facetLine) + ", got " +
                        quoted(peek()));
          Vec3 p;
          for (int c = 0; c < 3; ++c)
            if (!number(p[c])) return Expected<StlMesh>(issue_);
          mesh.vertices.push_back(p);
        }
        if (!keyword("endloop"))
          return fail("expected \"endloop\" after 3 vertices in the facet of line " +
                      count(facetLine) + ", got " + quoted(peek()));
        if (!keyword("endfacet"))
          return fail("expected \"endfacet\" in the facet of line " + count(facetLine) + ", got " +
                      quoted(peek()));
        ++mesh.triangles;
      }
    }
    if (!any) return fail("no \"solid\"");
    return mesh;
  }

 private:
  const std::string& text_;
  std::size_t at_ = 0;
  std::size_t line_ = 1;
  std::vector<Issue> issue_;

  static bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
  static bool equal(const std::string& a, const char* b) {
    const std::size_t n = std::strlen(b);
    if (a.size() != n) return false;
    for (std::size_t i = 0; i < n; ++i)
      if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
    return true;
  }
  static std::string quoted(const std::string& word) {
    return word.empty() ? std::string("the end of the file") : "\"" + clipped(word) + "\"";
  }

  void skipSpace() {
    while (at_ < text_.size() && space(text_[at_])) {
      if (text_[at_] == '\n') ++line_;
      ++at_;
    }
  }
  void skipLine() {
    while (at_ < text_.size() && text_[at_] != '\n') ++at_;
  }
  std::string token() {
    skipSpace();
    const std::size_t start = at_;
    while (at_ < text_.size() && !space(text_[at_])) ++at_;
    return text_.substr(start, at_ - start);
  }
  std::string peek() {
    const std::size_t at = at_, line = line_;
    std::string word = token();
    at_ = at, line_ = line;
    return word;
  }
  bool keyword(const char* word) {
    const std::size_t at = at_, line = line_;
    if (equal(token(), word)) return true;
    at_ = at, line_ = line;
    return false;
  }
  bool number(double& out) {
    skipSpace();
    const std::size_t line = line_;
    const std::string word = token();
    char* end = nullptr;
    out = std::strtod(word.c_str(), &end);
    if (word.empty() || end != word.c_str() + word.size()) {
      issue_ = {
          {"", "line " + count(line) + ": vertex coordinate " + quoted(word) + " is not a number"}};
      return false;
    }
    if (!std::isfinite(out)) {
      issue_ = {{"", "line " + count(line) + ": vertex coordinate " + quoted(word) +
                         " is not a finite number"}};
      return false;
    }
    return true;
  }
  Expected<StlMesh> fail(const std::string& message) {
    skipSpace();
    return failAt(line_, message);
  }
  Expected<StlMesh> failAt(std::size_t line, const std::string& message) {
    return Expected<StlMesh>::failure("", "line " + count(line) + ": " + message);
  }
};

// True when the bytes start (after white space) with "solid", any case.
bool beginsWithSolid(const std::string& bytes) {
  std::size_t i = 0;
  while (i < bytes.size() && i < 256 && std::isspace(static_cast<unsigned char>(bytes[i]))) ++i;
  if (bytes.size() - i < 5) return false;
  for (int k = 0; k < 5; ++k)
    if (std::tolower(static_cast<unsigned char>(bytes[i + k])) != "solid"[k]) return false;
  return true;
}

// True when the bytes hold a control character other than white space, as
// binary STL does (its float and count bytes) and text does not.
bool hasControlBytes(const std::string& bytes) {
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Quickhull over triangles: each face keeps the points above it (a linked
// list through next_) and its farthest one; the farthest point of a face is
// added by removing the faces it sees and fanning new faces from it to their
// horizon.

struct Face {
  int v[3] = {0, 0, 0};    // CCW seen from outside
  int adj[3] = {0, 0, 0};  // adj[i]: the face across edge v[i] → v[i+1]
  Vec3 normal = Vec3::Zero();
  double offset = 0.0;
  int head = -1;  // first point above the face
  int far = -1;   // the farthest of them
  double farDistance = 0.0;
  int visit = 0;  // the iteration that found it visible
  bool alive = true;
};

class QuickHull {
 public:
  QuickHull(const std::vector<Vec3>& p, double eps) : p_(p), next_(p.size(), -1), eps_(eps) {}

  // Builds the hull of the points `candidates` starting from the tetrahedron
  // a, b, c, d (not coplanar).
  void build(int a, int b, int c, int d, const std::vector<int>& candidates) {
    // A hull of v vertices has 2v − 4 faces; removed faces are reused.
    faces_.reserve(std::min<std::size_t>(2 * candidates.size() + 16, std::size_t{1} << 20));
    if (normalOf(a, b, c).dot(p_[d] - p_[a]) > 0) std::swap(b, c);  // d below (a, b, c)
    const int f0 = addFace(a, b, c), f1 = addFace(a, d, b), f2 = addFace(b, d, c),
              f3 = addFace(c, d, a);
    const int tetra[4] = {f0, f1, f2, f3};
    for (int f : tetra)
      for (int i = 0; i < 3; ++i) {
        const int from = faces_[f].v[i], to = faces_[f].v[(i + 1) % 3];
        for (int g : tetra)
          for (int j = 0; j < 3; ++j)
            if (faces_[g].v[j] == to && faces_[g].v[(j + 1) % 3] == from) faces_[f].adj[i] = g;
      }
    for (int i : candidates) {
      if (i == a || i == b || i == c || i == d) continue;
      for (int f : tetra) {
        const double dist = distance(faces_[f], i);
        if (dist > eps_) {
          addOutside(f, i, dist);
          break;
        }
      }
    }
    std::vector<int> work;
    for (int f : tetra)
      if (faces_[f].head >= 0) work.push_back(f);
    while (!work.empty()) {
      const int f = work.back();
      work.pop_back();
      if (faces_[f].alive && faces_[f].head >= 0) addPoint(f, work);
    }
  }

  // Indices of the hull's vertices, increasing.
  std::vector<int> vertices() const {
    std::vector<char> on(p_.size(), 0);
    for (const Face& f : faces_)
      if (f.alive)
        for (int v : f.v) on[v] = 1;
    std::vector<int> out;
    for (std::size_t i = 0; i < on.size(); ++i)
      if (on[i]) out.push_back(static_cast<int>(i));
    return out;
  }

 private:
  struct Frame {
    int face, first, done, count;
  };

  const std::vector<Vec3>& p_;
  std::vector<int> next_;
  double eps_;
  std::vector<Face> faces_;
  int iteration_ = 0;
  std::vector<int> visible_;
  std::vector<std::pair<int, int>> horizon_;  // (visible face, its edge on the horizon)
  std::vector<Frame> frames_;
  std::vector<int> free_;     // removed faces, to reuse
  std::vector<int> created_;  // the faces made by the latest point

  Vec3 normalOf(int a, int b, int c) const { return (p_[b] - p_[a]).cross(p_[c] - p_[a]); }
  double distance(const Face& f, int i) const { return f.normal.dot(p_[i]) - f.offset; }

  int addFace(int a, int b, int c) {
    Face f;
    f.v[0] = a, f.v[1] = b, f.v[2] = c;
    const Vec3 n = normalOf(a, b, c);
    const double length = n.norm();
    f.normal = length > 0 ? Vec3(n / length) : Vec3::Zero();
    f.offset = f.normal.dot((p_[a] + p_[b] + p_[c]) / 3.0);
    if (!free_.empty()) {
      const int index = free_.back();
      free_.pop_back();
      faces_[index] = f;
      return index;
    }
    faces_.push_back(f);
    return static_cast<int>(faces_.size()) - 1;
  }

  void addOutside(int f, int i, double dist) {
    Face& face = faces_[f];
    next_[i] = face.head;
    face.head = i;
    if (face.far < 0 || dist > face.farDistance) face.far = i, face.farDistance = dist;
  }

  // Marks the faces `eye` sees, from face `start` on, and lists the horizon
  // edges in order around it (depth first, each face's edges after the one
  // it was entered by).
  void findHorizon(int start, int eye) {
    visible_.clear();
    horizon_.clear();
    frames_.clear();
    faces_[start].visit = iteration_;
    visible_.push_back(start);
    frames_.push_back({start, 0, 0, 3});
    while (!frames_.empty()) {
      Frame& top = frames_.back();
      if (top.done == top.count) {
        frames_.pop_back();
        continue;
      }
      const int face = top.face;
      const int edge = (top.first + top.done) % 3;
      ++top.done;
      const int g = faces_[face].adj[edge];
      if (faces_[g].visit == iteration_) continue;
      if (distance(faces_[g], eye) > eps_) {
        faces_[g].visit = iteration_;
        visible_.push_back(g);
        int back = 0;
        while (back < 2 && faces_[g].adj[back] != face) ++back;
        frames_.push_back({g, back + 1, 0, 2});
      } else {
        horizon_.emplace_back(face, edge);
      }
    }
  }

  // True when the horizon edges join end to start in one loop.
  bool horizonIsLoop() const {
    const std::size_t n = horizon_.size();
    if (n < 3) return false;
    for (std::size_t k = 0; k < n; ++k) {
      const auto [f, e] = horizon_[k];
      const auto [g, h] = horizon_[(k + 1) % n];
      if (faces_[f].v[(e + 1) % 3] != faces_[g].v[h]) return false;
    }
    return true;
  }

  // Removes point i from face f's list (it could not be added).
  void dropOutside(int f, int i) {
    Face& face = faces_[f];
    int list = face.head;
    face.head = -1, face.far = -1, face.farDistance = 0;
    while (list >= 0) {
      const int next = next_[list];
      if (list != i) addOutside(f, list, distance(face, list));
      list = next;
    }
  }

  void addPoint(int f, std::vector<int>& work) {
    const int eye = faces_[f].far;
    ++iteration_;
    findHorizon(f, eye);
    if (!horizonIsLoop()) {
      // Rounding made the visible faces other than a disc: the point is
      // within rounding error of the hull and is not added.
      dropOutside(f, eye);
      if (faces_[f].head >= 0) work.push_back(f);
      return;
    }
    const int n = static_cast<int>(horizon_.size());
    created_.clear();
    for (int k = 0; k < n; ++k) {
      const auto [hf, e] = horizon_[k];
      const int a = faces_[hf].v[e], b = faces_[hf].v[(e + 1) % 3];
      const int g = faces_[hf].adj[e];
      const int nf = addFace(a, b, eye);
      created_.push_back(nf);
      faces_[nf].adj[0] = g;
      for (int j = 0; j < 3; ++j)
        if (faces_[g].adj[j] == hf && faces_[g].v[j] == b) faces_[g].adj[j] = nf;
    }
    for (int k = 0; k < n; ++k) {
      const int current = created_[k], next = created_[(k + 1) % n];
      faces_[current].adj[1] = next;
      faces_[next].adj[2] = current;
    }
    for (int vf : visible_) {
      faces_[vf].alive = false;
      for (int i = faces_[vf].head; i >= 0;) {
        const int next = next_[i];
        if (i != eye)
          for (int nf : created_) {
            const double dist = distance(faces_[nf], i);
            if (dist > eps_) {
              addOutside(nf, i, dist);
              break;
            }
          }
        i = next;
      }
      faces_[vf].head = -1;
      free_.push_back(vf);
    }
    for (int nf : created_)
      if (faces_[nf].head >= 0) work.push_back(nf);
  }
};

// The vertices of the convex polygon of coplanar points (indices into p),
// by Andrew's monotone chain in the plane's coordinates (origin o, axes u, w).
std::vector<int> polygonHull(const std::vector<Vec3>& p, const std::vector<int>& candidates,
                             const Vec3& o, const Vec3& u, const Vec3& w) {
  struct Point2 {
    double x, y;
    int index;
  };
  std::vector<Point2> q;
  q.reserve(candidates.size());
  for (int i : candidates) q.push_back({u.dot(p[i] - o), w.dot(p[i] - o), i});
  std::sort(q.begin(), q.end(), [](const Point2& a, const Point2& b) {
    return a.x < b.x || (a.x == b.x && (a.y < b.y || (a.y == b.y && a.index < b.index)));
  });
  const auto cross = [](const Point2& o2, const Point2& a, const Point2& b) {
    return (a.x - o2.x) * (b.y - o2.y) - (a.y - o2.y) * (b.x - o2.x);
  };
  std::vector<Point2> chain(2 * q.size() + 1);
  std::size_t k = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    while (k >= 2 && cross(chain[k - 2], chain[k - 1], q[i]) <= 0) --k;
    chain[k++] = q[i];
  }
  for (std::size_t i = q.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(chain[k - 2], chain[k - 1], q[i]) <= 0) --k;
    chain[k++] = q[i];
  }
  std::vector<int> out;
  for (std::size_t i = 0; i + 1 < k; ++i) out.push_back(chain[i].index);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The coordinates of a point as bits (−0 as +0), hashed: equal points
// have equal keys.
std::uint64_t hashOf(const Vec3& p) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull;
  for (int k = 0; k < 3; ++k) {
    const double c = p[k] + 0.0;  // −0 + 0 = +0
    std::uint64_t bits;
    std::memcpy(&bits, &c, 8);
    h = (h ^ bits) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  return h;
}

// The indices of the finite points of p, each point once (the first of equal
// points), by open addressing.
std::vector<int> distinctFinite(const std::vector<Vec3>& p) {
  std::size_t capacity = 16;
  while (capacity < 2 * p.size()) capacity *= 2;
  std::vector<int> table(capacity, -1);
  std::vector<int> out;
  out.reserve(p.size() / 4);
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!p[i].allFinite()) continue;
    for (std::size_t slot = hashOf(p[i]) & (capacity - 1);; slot = (slot + 1) & (capacity - 1)) {
      if (table[slot] < 0) {
        table[slot] = static_cast<int>(i);
        out.push_back(static_cast<int>(i));
        break;
      }
      if (p[table[slot]] == p[i]) break;
    }
  }
  return out;
}

// Keeps one point per grid cell (the farthest from the points' box centre),
// the cell grown until at most maxPoints remain. Returns the cell edge.
double thin(const std::vector<Vec3>& p, std::vector<int>& indices, std::size_t maxPoints) {
  Aabb box;
  for (int i : indices) box.grow(p[i]);
  const Vec3 centre = (box.min + box.max) / 2;
  const double diagonal = (box.max - box.min).norm();
  // Hull vertices lie on a surface: about (diagonal / cell)² cells hold one.
  double cell = diagonal / std::sqrt(static_cast<double>(maxPoints));
  std::unordered_map<std::uint64_t, int> best;
  for (int round = 0; round < 200; ++round) {
    best.clear();
    best.reserve(indices.size());
    for (int i : indices) {
      const Vec3 g = ((p[i] - box.min) / cell).array().floor();
      const std::uint64_t key = static_cast<std::uint64_t>(g.x()) |
                                static_cast<std::uint64_t>(g.y()) << 21 |
                                static_cast<std::uint64_t>(g.z()) << 42;
      const auto [it, fresh] = best.emplace(key, i);
      if (!fresh && (p[i] - centre).squaredNorm() > (p[it->second] - centre).squaredNorm())
        it->second = i;
    }
    if (best.size() <= maxPoints) break;
    cell *= std::max(1.05, std::sqrt(static_cast<double>(best.size()) / maxPoints));
  }
  indices.clear();
  for (const auto& entry : best) indices.push_back(entry.second);
  std::sort(indices.begin(), indices.end());
  return cell;
}

}  // namespace

Expected<StlMesh> readStl(const std::string& bytes) {
  const std::size_t size = bytes.size();
  if (size > kMaxStlBytes)
    return Expected<StlMesh>::failure("", "the file is " + count(size) + " bytes; the limit is " +
                                              count(kMaxStlBytes) + " bytes (64 MiB)");
  if (size >= kHeaderBytes) {
    const std::uint32_t n = readU32(reinterpret_cast<const unsigned char*>(bytes.data()) + 80);
    if (kHeaderBytes + kRecordBytes * static_cast<std::uint64_t>(n) == size) {
      if (n > static_cast<std::uint64_t>(kMaxStlTriangles))
        return Expected<StlMesh>::failure("", "its header counts " + count(n) +
                                                  " triangles, more than the limit of " +
                                                  count(kMaxStlTriangles));
      return readBinary(bytes, n);
    }
  }
  if (beginsWithSolid(bytes) && bytes.find("facet") != std::string::npos && !hasControlBytes(bytes))
    return AsciiReader(bytes).read();
  if (beginsWithSolid(bytes) && !hasControlBytes(bytes))
    return Expected<StlMesh>::failure(
        "",
        "begins with \"solid\" but holds no facet; as a binary STL: " + binarySizeProblem(bytes));
  return Expected<StlMesh>::failure("", binarySizeProblem(bytes));
}

HullVertices hullVertices(const std::vector<Vec3>& points, std::size_t maxPoints) {
  HullVertices out;
  maxPoints = std::max<std::size_t>(maxPoints, 4);
  // The finite points, each once (a mesh lists a vertex once per triangle
  // that has it, about 6 times).
  const std::vector<int> candidates = distinctFinite(points);
  if (candidates.empty()) return out;
  Aabb box;
  Vec3 largest = Vec3::Zero();
  for (int i : candidates) {
    box.grow(points[i]);
    largest = largest.cwiseMax(points[i].cwiseAbs());
  }
  const double magnitude = largest.sum();  // Σ max |coordinate| over the axes
  const double eps = std::max(1e-7 * (box.max - box.min).norm(), 3 * DBL_EPSILON * magnitude);

  // The initial simplex: the two farthest apart of the six extreme points,
  // the point farthest from their line, the point farthest from that plane.
  int extreme[6];
  for (int axis = 0; axis < 3; ++axis) {
    extreme[2 * axis] = extreme[2 * axis + 1] = candidates[0];
    for (int i : candidates) {
      if (points[i][axis] < points[extreme[2 * axis]][axis]) extreme[2 * axis] = i;
      if (points[i][axis] > points[extreme[2 * axis + 1]][axis]) extreme[2 * axis + 1] = i;
    }
  }
  int a = extreme[0], b = extreme[0];
  double longest = -1;
  for (int i = 0; i < 6; ++i)
    for (int j = i + 1; j < 6; ++j) {
      const double d = (points[extreme[i]] - points[extreme[j]]).norm();
      if (d > longest) longest = d, a = extreme[i], b = extreme[j];
    }
  if (longest <= eps) {
    out.points = {points[candidates[0]]};
    out.dimension = 0;
    out.hullSize = 1;
    return out;
  }
  const Vec3 line = (points[b] - points[a]) / longest;
  int c = a;
  double offLine = -1;
  for (int i : candidates) {
    const double d = (points[i] - points[a]).cross(line).norm();
    if (d > offLine) offLine = d, c = i;
  }
  if (offLine <= eps) {
    int low = a, high = a;
    for (int i : candidates) {
      const double t = line.dot(points[i] - points[a]);
      if (t < line.dot(points[low] - points[a])) low = i;
      if (t > line.dot(points[high] - points[a])) high = i;
    }
    out.points = {points[std::min(low, high)], points[std::max(low, high)]};
    out.dimension = 1;
    out.hullSize = 2;
    return out;
  }
  const Vec3 normal = (points[b] - points[a]).cross(points[c] - points[a]).normalized();
  int d = a;
  double offPlane = -1;
  for (int i : candidates) {
    const double h = std::abs(normal.dot(points[i] - points[a]));
    if (h > offPlane) offPlane = h, d = i;
  }
  std::vector<int> hull;
  if (offPlane <= eps) {
    hull = polygonHull(points, candidates, points[a], line, normal.cross(line));
    out.dimension = 2;
  } else {
    QuickHull quickhull(points, eps);
    quickhull.build(a, b, c, d, candidates);
    hull = quickhull.vertices();
    out.dimension = 3;
  }
  out.hullSize = hull.size();
  if (hull.size() > maxPoints) out.cell = thin(points, hull, maxPoints);
  out.points.reserve(hull.size());
  for (int i : hull) out.points.push_back(points[i]);
  return out;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
