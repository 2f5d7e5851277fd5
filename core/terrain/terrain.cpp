#include "terrain/terrain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "terrain/overlap.h"

namespace roverlab {
namespace {

using Poly2 = std::vector<Vec2>;

double cross2(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

double signedArea(const Poly2& p) {
  double a = 0;
  for (size_t i = 0; i < p.size(); ++i) a += cross2(p[i], p[(i + 1) % p.size()]);
  return 0.5 * a;
}

// Sutherland-Hodgman: the part of convex polygon `subject` inside convex,
// counter-clockwise polygon `clip`.
Poly2 clipConvex(Poly2 subject, const Poly2& clip) {
  for (size_t e = 0; e < clip.size() && !subject.empty(); ++e) {
    const Vec2& c0 = clip[e];
    const Vec2 dir = clip[(e + 1) % clip.size()] - c0;
    Poly2 out;
    for (size_t i = 0; i < subject.size(); ++i) {
      const Vec2& p = subject[i];
      const Vec2& q = subject[(i + 1) % subject.size()];
      const double sp = cross2(dir, p - c0), sq = cross2(dir, q - c0);
      if (sp >= 0) out.push_back(p);
      if ((sp >= 0) != (sq >= 0)) out.push_back(p + (sp / (sp - sq)) * (q - p));
    }
    subject = std::move(out);
  }
  return subject;
}

// True when every vertex of face `fb` of `b` lies within `tol` of `plane`.
bool faceNear(const Polytope& b, size_t fb, const Plane& plane, double tol) {
  for (int k : b.faceVertices[fb])
    if (std::abs(plane.signedDistance(b.vertices[k])) > tol) return false;
  return true;
}

// Flush contacts between pieces: faces with opposite normals, every vertex of
// each within kFlushTolerance of the other's plane (a gap, an overlap or a
// slight misalignment), whose polygons overlap with positive area.
// False when the pieces' bounds form more than kMaxBoundsPairs pairs.
bool findSharedPatches(std::vector<TerrainPiece>& pieces) {
  const double tol = kFlushTolerance;
  std::vector<Aabb> boxes;
  for (const TerrainPiece& p : pieces) boxes.push_back(p.shape.box);
  std::vector<char> none(pieces.size(), 0);
  return sweepPairs(boxes, -tol, kMaxBoundsPairs, none, [&](int i, int j) {
    const Polytope& a = pieces[i].shape;
    const Polytope& b = pieces[j].shape;
    for (size_t fa = 0; fa < a.faces.size(); ++fa)
      for (size_t fb = 0; fb < b.faces.size(); ++fb) {
        const Plane& pa = a.faces[fa];
        const Plane& pb = b.faces[fb];
        // Opposite within the angle a 1 mm tilt makes over 1 m (checked
        // exactly by the vertex distances).
        if (pa.normal.dot(pb.normal) > -1 + 1e-6 || !faceNear(b, fb, pa, tol) ||
            !faceNear(a, fa, pb, tol))
          continue;
        const Vec3 u = pa.normal.unitOrthogonal();
        const Vec3 v = pa.normal.cross(u);
        Poly2 polyA, polyB;
        for (int k : a.faceVertices[fa])
          polyA.emplace_back(u.dot(a.vertices[k]), v.dot(a.vertices[k]));
        for (int k : b.faceVertices[fb])
          polyB.emplace_back(u.dot(b.vertices[k]), v.dot(b.vertices[k]));
        if (signedArea(polyB) < 0) std::reverse(polyB.begin(), polyB.end());
        const Poly2 patch = clipConvex(polyA, polyB);
        if (patch.size() < 3 || std::abs(signedArea(patch)) <= 1e-9 * a.scale * a.scale) continue;
        SharedPatch sa{j, pa, {}, {}}, sb{i, pb, {}, {}};
        // Clipping repeats a vertex where an edge passes through a corner:
        // keep one of each (an edge of zero length has no inside).
        for (size_t k = 0; k < patch.size(); ++k)
          if ((patch[k] - patch[(k + 1) % patch.size()]).norm() > 1e-9 * a.scale)
            sa.polygon.push_back(patch[k].x() * u + patch[k].y() * v + pa.offset * pa.normal);
        for (const Vec3& q : sa.polygon) sb.polygon.push_back(q - pb.signedDistance(q) * pb.normal);
        sa.setSides();
        sb.setSides();
        pieces[i].shared.push_back(std::move(sa));
        pieces[j].shared.push_back(std::move(sb));
      }
  });
}

}  // namespace

void SharedPatch::setSides() {
  sides.clear();
  const size_t k = polygon.size();
  for (size_t i = 0; i < k; ++i) {
    const Vec3& a = polygon[i];
    const Vec3 side = polygon[(i + 1) % k] - a;
    const double length = side.norm();
    if (length <= 1e-12) continue;  // a repeated vertex
    const Vec3 out = plane.normal.cross(side) / length;
    sides.push_back({out, out.dot(a)});
  }
}

bool SharedPatch::covers(const Vec3& q, double tol) const {
  // The polygon is convex: q is inside when its offsets from the sides'
  // lines beyond tol all have one sign, whichever way round the polygon runs.
  double sign = 0;
  for (const Plane& side : sides) {
    const double s = side.signedDistance(q);
    if (std::abs(s) <= tol) continue;  // on this side's line: inside for this side
    if (sign == 0) sign = s;
    if (s * sign < 0) return false;
  }
  return sides.size() >= 3;
}

int TerrainBuilder::addMaterial(const Material& m) {
  materials_.push_back(m);
  return static_cast<int>(materials_.size()) - 1;
}

int TerrainBuilder::addPiece(Polytope shape, int material, std::uint32_t color) {
  pieces_.push_back(TerrainPiece{std::move(shape), material, color, {}});
  return static_cast<int>(pieces_.size()) - 1;
}

int TerrainBuilder::addHeightfield(Heightfield field) {
  heightfields_.push_back(std::move(field));
  return static_cast<int>(heightfields_.size()) - 1;
}

int TerrainBuilder::addMesh(TriMesh mesh) {
  meshes_.push_back(std::move(mesh));
  return static_cast<int>(meshes_.size()) - 1;
}

void TerrainBuilder::append(const Terrain& other) {
  const int base = static_cast<int>(materials_.size());
  for (const Material& m : other.materials) materials_.push_back(m);
  for (const TerrainPiece& p : other.pieces) addPiece(p.shape, base + p.material, p.color);
  for (Heightfield f : other.heightfields) {
    f.material += base;
    addHeightfield(std::move(f));
  }
  for (TriMesh m : other.meshes) {
    m.material += base;
    addMesh(std::move(m));
  }
}

int Terrain::heightfieldOf(int id) const {
  if (id < static_cast<int>(pieces.size()) || (!meshFirst.empty() && id >= meshFirst[0])) return -1;
  const auto after = std::upper_bound(heightfieldFirst.begin(), heightfieldFirst.end(), id);
  return static_cast<int>(after - heightfieldFirst.begin()) - 1;
}

int Terrain::meshOf(int id) const {
  const auto after = std::upper_bound(meshFirst.begin(), meshFirst.end(), id);
  return static_cast<int>(after - meshFirst.begin()) - 1;
}

int Terrain::materialOf(int id) const {
  if (id < static_cast<int>(pieces.size())) return pieces[id].material;
  if (const int mesh = meshOf(id); mesh >= 0) return meshes[mesh].material;
  return heightfields[heightfieldOf(id)].material;
}

namespace {
Expected<Terrain> tangled() {
  return Expected<Terrain>::failure(
      "pieces", "more than " + std::to_string(kMaxBoundsPairs) +
                    " pairs of pieces have overlapping bounding boxes, the limit "
                    "(docs/scenario-format.md, \"Limits\")");
}
}  // namespace

Expected<Terrain> TerrainBuilder::build() && {
  if (pieces_.empty() && heightfields_.empty() && meshes_.empty())
    return Expected<Terrain>::failure("terrain", "has no pieces");
  if (materials_.empty()) materials_.push_back(asphalt());
  std::vector<Issue> issues;
  long samples = 0;
  for (size_t i = 0; i < heightfields_.size(); ++i) {
    const Heightfield& f = heightfields_[i];
    if (f.material < 0 || f.material >= static_cast<int>(materials_.size()))
      issues.push_back({"heightfields[" + std::to_string(i) + "].material",
                        "no material " + std::to_string(f.material)});
    samples += static_cast<long>(f.heights.size());
  }
  if (samples > kMaxHeightfieldSamples)
    issues.push_back({"heightfields", "have " + std::to_string(samples) +
                                          " samples in all, more than the limit of " +
                                          std::to_string(kMaxHeightfieldSamples)});
  long triangles = 0;
  for (size_t i = 0; i < meshes_.size(); ++i) {
    if (meshes_[i].material < 0 || meshes_[i].material >= static_cast<int>(materials_.size()))
      issues.push_back({"meshes[" + std::to_string(i) + "].material",
                        "no material " + std::to_string(meshes_[i].material)});
    triangles += meshes_[i].triangleCount();
  }
  if (triangles > kMaxMeshTriangles)
    issues.push_back({"meshes", "have " + std::to_string(triangles) +
                                    " triangles in all, more than the limit of " +
                                    std::to_string(kMaxMeshTriangles)});
  for (size_t i = 0; i < pieces_.size(); ++i)
    if (pieces_[i].material < 0 || pieces_[i].material >= static_cast<int>(materials_.size()))
      issues.push_back({"pieces[" + std::to_string(i) + "].material",
                        "no material " + std::to_string(pieces_[i].material) + " (have " +
                            std::to_string(materials_.size()) + ")"});
  if (!issues.empty()) return issues;
  std::vector<const Polytope*> shapes;
  for (const TerrainPiece& p : pieces_) shapes.push_back(&p.shape);
  std::vector<PieceOverlap> overlaps;
  if (!findOverlaps(shapes, kFlushTolerance, overlaps)) return tangled();
  for (const PieceOverlap& o : overlaps) {
    char depth[32];
    std::snprintf(depth, sizeof depth, "%.1f", o.depth * 1e3);
    issues.push_back({"pieces[" + std::to_string(o.piece) + "]",
                      "overlaps pieces[" + std::to_string(o.other) + "] by " + depth +
                          " mm; pieces may touch (within 1.1 mm) but not fill the same space"});
  }
  if (!issues.empty()) return issues;

  Terrain t;
  t.pieces = std::move(pieces_);
  t.materials = std::move(materials_);
  std::vector<Aabb> boxes;
  boxes.reserve(t.pieces.size());
  for (const TerrainPiece& p : t.pieces) {
    boxes.push_back(p.shape.box);
    t.box.grow(p.shape.box.min);
    t.box.grow(p.shape.box.max);
  }
  // Heightfields are ground that pieces may stand on or sink into (rocks on a
  // field): they are not checked for overlaps with pieces.
  long first = static_cast<long>(t.pieces.size());
  for (Heightfield& f : heightfields_) {
    t.box.grow(f.box.min);
    t.box.grow(f.box.max);
    t.heightfieldFirst.push_back(static_cast<int>(first));
    first += f.featureCount();
    t.heightfields.push_back(std::move(f));
  }
  // Meshes likewise (they may overlap pieces and heightfields).
  for (TriMesh& m : meshes_) {
    t.box.grow(m.box.min);
    t.box.grow(m.box.max);
    t.meshFirst.push_back(static_cast<int>(first));
    first += m.featureCount();
    t.meshes.push_back(std::move(m));
  }
  for (const Material& m : t.materials) t.peakAdhesion.push_back(adhesionPeak(m));
  t.broadphase = buildBroadphase(boxes);
  if (!findSharedPatches(t.pieces)) return tangled();
  return t;
}

void piecesNear(const Terrain& terrain, const Aabb& query, std::vector<int>& out) {
  out.clear();
  queryBroadphase(terrain.broadphase, query, out);
}

bool groundUnder(const Terrain& terrain, double x, double y, double zMax, double& z,
                 std::vector<int>& near) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double best = -kInf;
  Aabb line;
  line.min = Vec3(x, y, -kInf);
  line.max = Vec3(x, y, zMax);
  piecesNear(terrain, line, near);
  for (int p : near) {
    // The line's stretch inside the piece: every face n·q <= offset bounds z.
    double lo = -kInf, hi = kInf;
    for (const Plane& f : terrain.pieces[p].shape.faces) {
      const double rest = f.offset - f.normal.x() * x - f.normal.y() * y;
      if (f.normal.z() > 1e-12)
        hi = std::min(hi, rest / f.normal.z());
      else if (f.normal.z() < -1e-12)
        lo = std::max(lo, rest / f.normal.z());
      else if (rest < 0)
        hi = -kInf;  // a vertical face the line passes outside
    }
    if (lo <= hi && hi <= zMax) best = std::max(best, hi);
  }
  double h = 0;
  for (const Heightfield& f : terrain.heightfields)
    if (f.heightAt(x, y, h) && h <= zMax) best = std::max(best, h);
  Vec3 normal;
  for (const TriMesh& m : terrain.meshes)
    if (m.surfaceAt(x, y, h, normal) && h <= zMax) best = std::max(best, h);
  if (best == -kInf) return false;
  z = best;
  return true;
}

}  // namespace roverlab
