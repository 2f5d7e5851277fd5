#include "contact/body_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/elementary.h"
#include "terrain/heightfield.h"
#include "terrain/trimesh.h"

namespace roverlab {
namespace {

// Separating-axis preferences: a box face wins over a terrain face only when
// it overlaps less by a relative 1e-3 (a box lying flat on the ground then
// takes the ground's face as reference, whose edges clip the box's face), and
// an edge pair only when it overlaps 5 % less than the best face, so that
// round-off between nearly parallel axes never picks a one-point edge contact
// where a face contact belongs (Box2D and ODE bias the same way).
constexpr double kBoxFaceBias = 1.001;
constexpr double kEdgeBias = 1.05;

struct Axis {
  double score = std::numeric_limits<double>::infinity();  // overlap × bias
  double overlap = 0.0;
  Vec3 normal = Vec3::UnitZ();  // from the polytope into the box
  ContactAxis kind = ContactAxis::PieceFace;
  int index = -1;  // piece face; box axis; or box axis * edges + edge
};

double boxRadius(const OrientedBox& box, const Vec3& l) {
  return box.half.x() * std::abs(box.axes.col(0).dot(l)) +
         box.half.y() * std::abs(box.axes.col(1).dot(l)) +
         box.half.z() * std::abs(box.axes.col(2).dot(l));
}

// Records the axis l if its overlap beats the best so far: `up` moves the box
// out along +l, `down` along −l. False when either is negative: l separates.
bool overlapAlong(const Vec3& l, double up, double down, ContactAxis kind, int index, double bias,
                  Axis& best) {
  if (up < 0 || down < 0) return false;
  const double overlap = std::min(up, down);
  if (overlap * bias < best.score) {
    best.score = overlap * bias;
    best.overlap = overlap;
    best.normal = up <= down ? l : Vec3(-l);
    best.kind = kind;
    best.index = index;
  }
  return true;
}

// Overlap of the box and the polytope along the unit axis l; false when l separates them.
bool testAxis(const OrientedBox& box, const Polytope& poly, const PieceFeatures& features,
              const Vec3& l, ContactAxis kind, int index, double bias, Axis& best) {
  double lo, hi;  // the polytope's extent along l (m)
  if (features.parallelepiped) {
    const double mid = features.centre.dot(l);
    const double reach = std::abs(features.halfEdges[0].dot(l)) +
                         std::abs(features.halfEdges[1].dot(l)) +
                         std::abs(features.halfEdges[2].dot(l));
    lo = mid - reach, hi = mid + reach;
  } else {
    lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Vec3& v : poly.vertices) {
      const double s = v.dot(l);
      lo = std::min(lo, s), hi = std::max(hi, s);
    }
  }
  const double c = box.centre.dot(l), r = boxRadius(box, l);
  return overlapAlong(l, hi - (c - r), (c + r) - lo, kind, index, bias, best);
}

// Sutherland–Hodgman: the part of polygon `in` with n·x ≤ offset, into `out`.
void clip(const std::vector<Vec3>& in, const Vec3& n, double offset, std::vector<Vec3>& out) {
  out.clear();
  const size_t k = in.size();
  if (k == 0) return;
  // Each edge a → b, from corner 0 round; each corner's height over the plane found once.
  const double d0 = n.dot(in[0]) - offset;
  double da = d0;
  for (size_t i = 0; i < k; ++i) {
    const Vec3& a = in[i];
    const Vec3& b = in[i + 1 < k ? i + 1 : 0];
    const double db = i + 1 < k ? n.dot(b) - offset : d0;
    if (da <= 0) out.push_back(a);
    if ((da < 0 && db > 0) || (da > 0 && db < 0)) out.push_back(a + da / (da - db) * (b - a));
    da = db;
  }
}

// Closest points of segments p0p1 and q0q1 (Ericson, Real-Time Collision Detection, §5.1.9).
void closestOnSegments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec3& cp,
                       Vec3& cq) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.dot(d1), e = d2.dot(d2), f = d2.dot(r), c = d1.dot(r), b = d1.dot(d2);
  const double denom = a * e - b * b;
  double s = denom > 1e-12 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  double t = (b * s + f) / e;
  if (t < 0) {
    t = 0, s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1) {
    t = 1, s = std::clamp((b - c) / a, 0.0, 1.0);
  }
  cp = p0 + s * d1;
  cq = q0 + t * d2;
}

// The box face whose outward normal is closest to direction d: axis i, side s (±1).
void boxFaceToward(const OrientedBox& box, const Vec3& d, int& axis, double& side) {
  axis = 0;
  for (int i = 1; i < 3; ++i)
    if (std::abs(box.axes.col(i).dot(d)) > std::abs(box.axes.col(axis).dot(d))) axis = i;
  side = box.axes.col(axis).dot(d) >= 0 ? 1.0 : -1.0;
}

// The four corners of a box face (axis i, side s), in order around it.
void boxFace(const OrientedBox& box, int i, double s, std::vector<Vec3>& out) {
  const int j = (i + 1) % 3, k = (i + 2) % 3;
  const Vec3 centre = box.centre + s * box.half[i] * box.axes.col(i);
  const Vec3 a = box.half[j] * box.axes.col(j), b = box.half[k] * box.axes.col(k);
  out.clear();
  out.insert(out.end(), {centre + a + b, centre - a + b, centre - a - b, centre + a - b});
}

int faceToward(const Polytope& poly, const Vec3& d) {
  int best = 0;
  for (int f = 1, n = static_cast<int>(poly.faces.size()); f < n; ++f)
    if (poly.faces[f].normal.dot(d) > poly.faces[best].normal.dot(d)) best = f;
  return best;
}

// The part of `polygon` below the plane n·x = offset becomes the manifold,
// each point with its depth d = offset − n·x ≥ 0 (0 on the waterline, where
// the polygon crosses the plane) and moved d/2 along n, midway between the
// two surfaces. At most kMaxManifoldPoints of them, evenly spaced along the
// polygon. The reference plane is (n, offset); `polygon` is a buffer.
void collect(const std::vector<Vec3>& whole, const Vec3& n, double offset,
             std::vector<Vec3>& polygon, BoxManifold& out) {
  clip(whole, n, offset, polygon);
  const int size = static_cast<int>(polygon.size());
  out.plane = n;
  out.offset = offset;
  out.count = 0;
  out.depth = 0;
  for (int j = 0; j < std::min(size, kMaxManifoldPoints); ++j) {
    // the j-th kept point is point ⌊j·size / max⌋
    const Vec3& p = polygon[size <= kMaxManifoldPoints ? j : (j * size) / kMaxManifoldPoints];
    const double d = std::max(0.0, offset - n.dot(p));
    out.points[out.count] = p + 0.5 * d * n;
    out.depths[out.count] = d;
    out.depth = std::max(out.depth, d);
    ++out.count;
  }
}

// The box's corner deepest along −n, as the manifold's one point (the
// overlap `depth` deep): what round-off leaves when no clipped point is below.
void deepestCorner(const OrientedBox& box, const Vec3& n, double depth, BoxManifold& out) {
  Vec3 corner = box.centre;
  for (int j = 0; j < 3; ++j)
    corner -= (box.axes.col(j).dot(n) >= 0 ? 1.0 : -1.0) * box.half[j] * box.axes.col(j);
  out.normal = n;
  out.depth = depth;
  out.plane = n;
  out.offset = n.dot(corner) + depth;
  out.count = 1;
  out.points[0] = corner + 0.5 * depth * n;
  out.depths[0] = depth;
}

// A contact whose points all lie on a face shared flush with a neighbour,
// with the box centre on the neighbour's side, belongs to the neighbour (the
// surface continues across the seam; see "Flush seams" in docs/contact.md).
bool isGhost(const Terrain& terrain, int index, const BoxManifold& m, const Vec3& boxCentre) {
  if (m.axis != ContactAxis::PieceFace) return false;
  const TerrainPiece& piece = terrain.pieces[index];
  const Plane& face = piece.shape.faces[m.face];
  const double tol = 1e-9 * piece.shape.scale;
  for (const SharedPatch& patch : piece.shared) {
    if (patch.plane.normal.dot(face.normal) < 1 - 1e-9 ||
        std::abs(patch.plane.offset - face.offset) > tol)
      continue;
    const double side = patch.plane.signedDistance(boxCentre);
    if (side < 0 || (side == 0 && patch.neighbour > index)) continue;
    bool all = true;
    for (int k = 0; k < m.count && all; ++k)
      all = m.depths[k] <= 0 || patch.covers(m.points[k], kFlushTolerance);
    if (all) return true;
  }
  return false;
}

// The manifold with a terrain face as reference (its plane `ref`, its edges
// [first, last) with their planes square to it, outward): the box's face
// towards it clipped by those planes, below it.
void terrainFaceManifold(const OrientedBox& box, const Plane& ref, const FaceEdge* first,
                         const FaceEdge* last, BodyContactScratch& scratch, BoxManifold& out) {
  int axis;
  double side;
  boxFaceToward(box, -ref.normal, axis, side);
  boxFace(box, axis, side, scratch.polygon);
  for (const FaceEdge* e = first; e != last && !scratch.polygon.empty(); ++e) {
    clip(scratch.polygon, e->plane.normal, e->plane.offset, scratch.clipped);
    scratch.polygon.swap(scratch.clipped);
  }
  out.axis = ContactAxis::PieceFace;
  out.boxFace = 2 * axis + (side > 0);
  out.normal = ref.normal;
  collect(scratch.polygon, ref.normal, ref.offset, scratch.clipped, out);
}

// The manifold with the box face towards −n as reference: the polytope's
// face towards n clipped to the box face's sides, below it (the box's deepest
// corner, `overlap` deep, where round-off leaves no point below). False when
// every point below it lies on a face or an edge inside the union
// (PieceFeatures): a ghost.
bool boxFaceManifold(const OrientedBox& box, const Polytope& poly, const PieceFeatures& features,
                     const Vec3& n, double overlap, BodyContactScratch& scratch, BoxManifold& out) {
  int axis;
  double side;
  boxFaceToward(box, -n, axis, side);
  const int face = faceToward(poly, n);
  if (!features.faceActive[face]) return false;  // every point on a face inside the union
  const Vec3 u = side * box.axes.col(axis);      // outward normal of the reference face
  scratch.polygon.clear();
  for (int v : poly.faceVertices[face]) scratch.polygon.push_back(poly.vertices[v]);
  for (int j = 0; j < 3; ++j) {
    if (j == axis) continue;
    for (const double s : {1.0, -1.0}) {
      const Vec3 m = s * box.axes.col(j);
      clip(scratch.polygon, m, m.dot(box.centre) + box.half[j], scratch.clipped);
      scratch.polygon.swap(scratch.clipped);
    }
  }
  out.axis = ContactAxis::BoxFace;
  out.face = -1;
  out.boxFace = 2 * axis + (side > 0);
  out.normal = -u;
  collect(scratch.polygon, u, u.dot(box.centre) + box.half[axis], scratch.clipped, out);
  if (out.depth <= 0) {
    deepestCorner(box, n, overlap, out);
    return true;
  }
  const double tol = 1e-9 * poly.scale;
  for (int k = 0; k < out.count; ++k) {
    if (out.depths[k] <= 0) continue;
    const Vec3 p = out.points[k] - 0.5 * out.depths[k] * u;  // on the polytope's face
    bool inside = false;
    for (int e = poly.edgeStart[face]; e < poly.edgeStart[face + 1] && !inside; ++e) {
      if (features.edgeActive[e]) continue;
      const Vec3& a = poly.vertices[poly.edges[e].from];
      const Vec3 ab = poly.vertices[poly.edges[e].to] - a;
      const double t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
      inside = (a + t * ab - p).norm() <= tol;
    }
    if (!inside) return true;
  }
  return false;
}

}  // namespace

ContactBox makeContactBox(int body, const Vec3& centre, const Vec3& size, double mass,
                          const BodyContactSettings& settings, double dt) {
  // Bounds of the explicit step on the lightest effective mass m/6 (see the header):
  // stiffness ω·√6·dt ≤ 0.5 and damping 2ζω·6·dt ≤ 1.
  double omega = std::min(settings.frequency, 0.5 / (std::sqrt(6.0) * dt));
  if (settings.dampingRatio > 0) omega = std::min(omega, 1.0 / (12.0 * settings.dampingRatio * dt));
  ContactBox box;
  box.body = body;
  box.centre = centre;
  box.half = 0.5 * size;
  box.stiffness = mass * omega * omega;
  box.damping = 2.0 * settings.dampingRatio * mass * omega;
  return box;
}

namespace {

// The area of a planar polygon with unit normal n (m²).
double polygonArea(const std::vector<Vec3>& ring, const Vec3& n) {
  double twice = 0;
  for (size_t k = 0; k < ring.size(); ++k)
    twice += ring[k].cross(ring[(k + 1) % ring.size()]).dot(n);
  return 0.5 * std::abs(twice);
}

// The features of a polytope with the shared patches on its faces (a lone
// polytope: none, and no terrain).
void features(const Polytope& poly, const Terrain* terrain, const std::vector<SharedPatch>& shared,
              PieceFeatures& out) {
  const double tol = 1e-9 * poly.scale;
  // Faces: covered when the shared patches on the face's plane add up to its
  // area (the patches of distinct neighbours do not overlap).
  const auto onFace = [&](const SharedPatch& patch, const Plane& face) {
    return patch.plane.normal.dot(face.normal) >= 1 - 1e-9 &&
           std::abs(patch.plane.offset - face.offset) <= tol;
  };
  out.faceActive.assign(poly.faces.size(), 1);
  std::vector<Vec3> ring;
  for (size_t f = 0; f < poly.faces.size(); ++f) {
    double covered = 0;
    for (const SharedPatch& patch : shared)
      if (onFace(patch, poly.faces[f])) covered += polygonArea(patch.polygon, poly.faces[f].normal);
    ring.clear();
    for (int v : poly.faceVertices[f]) ring.push_back(poly.vertices[v]);
    if (covered >= (1 - 1e-9) * polygonArea(ring, poly.faces[f].normal)) out.faceActive[f] = 0;
  }
  // Edges: an edge of covered face f, whose other face is g, is inside the
  // union where a neighbour across f has a face through the edge continuing g flat.
  out.edgeActive.assign(poly.edges.size(), 1);
  for (size_t f = 0; f < poly.faces.size(); ++f) {
    if (out.faceActive[f]) continue;
    for (int e = poly.edgeStart[f]; e < poly.edgeStart[f + 1]; ++e) {
      const Vec3& a = poly.vertices[poly.edges[e].from];
      const Vec3& b = poly.vertices[poly.edges[e].to];
      int twin = -1;  // the same edge in face g
      for (size_t k = 0; k < poly.edges.size() && twin < 0; ++k)
        if (poly.edges[k].from == poly.edges[e].to && poly.edges[k].to == poly.edges[e].from)
          twin = static_cast<int>(k);
      if (twin < 0) continue;
      const int g =
          static_cast<int>(std::upper_bound(poly.edgeStart.begin(), poly.edgeStart.end(), twin) -
                           poly.edgeStart.begin() - 1);
      const Vec3& own = poly.faces[g].normal;
      bool flat = false;
      for (const SharedPatch& patch : shared) {
        if (!terrain || !onFace(patch, poly.faces[f])) continue;
        for (const Plane& other : terrain->pieces[patch.neighbour].shape.faces)
          flat = flat || (std::abs(other.signedDistance(a)) <= tol &&
                          std::abs(other.signedDistance(b)) <= tol && other.normal.dot(own) > 0 &&
                          other.normal.cross(own).norm() <= kPieceCreaseSine);
      }
      if (flat) out.edgeActive[e] = out.edgeActive[twin] = 0;
    }
  }
  out.directions.clear();
  for (int e = 0, n = static_cast<int>(poly.edges.size()); e < n; ++e) {
    const FaceEdge& edge = poly.edges[e];
    if (edge.from > edge.to) continue;  // each edge appears in both its faces, reversed in one
    const Vec3 d = (poly.vertices[edge.to] - poly.vertices[edge.from]).normalized();
    bool repeated = false;
    for (EdgeDirection& k : out.directions)
      if (d.cross(k.direction).squaredNorm() <= 1e-12) {
        repeated = true;
        if (out.edgeActive[e] && !k.active) k = {e, k.direction, true};
      }
    if (!repeated) out.directions.push_back({e, d, out.edgeActive[e] != 0});
  }
  // A parallelepiped: its three edge directions' halves reach every vertex
  // from the centre (to 1e-12 of its size: its vertices are given or made
  // as such, to their rounding).
  out.parallelepiped = poly.vertices.size() == 8 && out.directions.size() == 3;
  for (int k = 0; k < 3 && out.parallelepiped; ++k) {
    const FaceEdge& edge = poly.edges[out.directions[k].edge];
    out.halfEdges[k] = 0.5 * (poly.vertices[edge.to] - poly.vertices[edge.from]);
  }
  out.centre = poly.centroid;
  for (int corner = 0; corner < 8 && out.parallelepiped; ++corner) {
    Vec3 v = out.centre;
    for (int k = 0; k < 3; ++k) v += (corner >> k & 1 ? 1.0 : -1.0) * out.halfEdges[k];
    bool found = false;
    for (const Vec3& w : poly.vertices) found = found || (w - v).norm() <= 1e-12 * poly.scale;
    out.parallelepiped = found;
  }
  out.faceLow.clear();
  for (const Plane& f : poly.faces) {
    double low = std::numeric_limits<double>::infinity();
    for (const Vec3& v : poly.vertices) low = std::min(low, f.normal.dot(v));
    out.faceLow.push_back(low);
  }
}

}  // namespace

void pieceFeatures(const Terrain& terrain, int piece, PieceFeatures& out) {
  const TerrainPiece& p = terrain.pieces[piece];
  features(p.shape, &terrain, p.shared, out);
}

void pieceFeatures(const Polytope& poly, PieceFeatures& out) { features(poly, nullptr, {}, out); }

bool boxPolytopeManifold(const OrientedBox& box, const Polytope& poly,
                         const PieceFeatures& features, BodyContactScratch& scratch,
                         BoxManifold& out) {
  // The piece's face normals first, from its precomputed extent along each:
  // most boxes far from a piece lie entirely outside one of its faces.
  Axis best, bestFace;  // bestFace: among the piece's faces alone
  for (int f = 0, n = static_cast<int>(poly.faces.size()); f < n; ++f) {
    const Plane& face = poly.faces[f];
    const double c = box.centre.dot(face.normal), r = boxRadius(box, face.normal);
    // A face inside the union only separates: its bias keeps it from being best.
    const double bias = features.faceActive[f] ? 1.0 : std::numeric_limits<double>::infinity();
    const double up = face.offset - (c - r), down = (c + r) - features.faceLow[f];
    if (!overlapAlong(face.normal, up, down, ContactAxis::PieceFace, f, bias, best)) return false;
    if (up <= down) overlapAlong(face.normal, up, down, ContactAxis::PieceFace, f, bias, bestFace);
  }
  for (int i = 0; i < 3; ++i)
    if (!testAxis(box, poly, features, box.axes.col(i), ContactAxis::BoxFace, i, kBoxFaceBias,
                  best))
      return false;
  const int edges = static_cast<int>(poly.edges.size());
  for (const EdgeDirection& d : features.directions) {
    for (int i = 0; i < 3; ++i) {
      const Vec3 l = box.axes.col(i).cross(d.direction);
      const double n2 = l.squaredNorm();
      if (n2 <= 1e-12) continue;  // parallel: the face axes cover it
      if (!testAxis(box, poly, features, l / std::sqrt(n2), ContactAxis::Edges, i * edges + d.edge,
                    d.active ? kEdgeBias : std::numeric_limits<double>::infinity(), best))
        return false;
    }
  }

  out.axis = best.kind;
  out.face = -1;
  const Vec3 n = best.normal;
  if (best.kind == ContactAxis::Edges) {
    // The box edge along axis i deepest towards the polytope, and the
    // polytope's edge of that direction furthest out towards the box; an
    // edge inside the union (a seam's) is a ghost, the piece's best face the
    // reference instead (below).
    const int i = best.index / edges;
    const Vec3 dir = poly.vertices[poly.edges[best.index % edges].to] -
                     poly.vertices[poly.edges[best.index % edges].from];
    Vec3 mid = box.centre;
    for (int j = 0; j < 3; ++j)
      if (j != i) mid -= (box.axes.col(j).dot(n) >= 0 ? 1.0 : -1.0) * box.half[j] * box.axes.col(j);
    const Vec3 half = box.half[i] * box.axes.col(i);
    int pick = -1;
    double furthest = -std::numeric_limits<double>::infinity();
    for (int e = 0; e < edges; ++e) {
      const FaceEdge& edge = poly.edges[e];
      const Vec3& a = poly.vertices[edge.from];
      const Vec3& b = poly.vertices[edge.to];
      if (edge.from > edge.to ||
          (b - a).cross(dir).squaredNorm() > 1e-12 * (b - a).squaredNorm() * dir.squaredNorm())
        continue;
      if ((a + b).dot(n) > furthest) furthest = (a + b).dot(n), pick = e;
    }
    if (features.edgeActive[pick]) {
      Vec3 onBox, onPoly;
      closestOnSegments(mid - half, mid + half, poly.vertices[poly.edges[pick].from],
                        poly.vertices[poly.edges[pick].to], onBox, onPoly);
      int axis;
      double side;
      boxFaceToward(box, -n, axis, side);
      out.boxFace = 2 * axis + (side > 0);
      out.normal = n;
      out.depth = best.overlap;
      out.plane = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
      out.offset = std::numeric_limits<double>::quiet_NaN();
      out.count = 1;
      out.points[0] = 0.5 * (onBox + onPoly);
      out.depths[0] = best.overlap;
      return true;
    }
  }

  // A face axis no face of the polytope's near side lies square to (the
  // least overlap is along a far face's normal: the polytope's corner or
  // edge pokes into the box, as a chamfer's edge into a box lying across it)
  // has the box face as reference.
  const bool pieceFace = best.kind == ContactAxis::PieceFace &&
                         poly.faces[faceToward(poly, n)].normal.dot(n) >= 1 - 1e-9;
  // A box face lying on a terrain face within a crease (kCreaseSine) of
  // square is a face contact: the terrain's face is the reference, so that
  // the union joins it with its neighbours' (a box face as reference would
  // give the same face another plane).
  const bool faceOn = bestFace.score < std::numeric_limits<double>::infinity();
  const bool onFace = best.kind == ContactAxis::BoxFace && faceOn && bestFace.normal.dot(n) > 0 &&
                      bestFace.normal.cross(n).norm() <= kCreaseSine;
  if (best.kind != ContactAxis::Edges && !pieceFace && !onFace &&
      boxFaceManifold(box, poly, features, n, best.overlap, scratch, out))
    return true;
  // A box face's contact made only of points on edges inside the union, or
  // an edge pair's on such an edge (a seam's under a tilted box), is a ghost:
  // the piece's own best face is the reference, as for a face axis.
  if (!pieceFace && !faceOn) return false;
  const Vec3 along = pieceFace ? n : bestFace.normal;
  const int face = faceToward(poly, along);  // the polytope face that faces the box
  terrainFaceManifold(box, poly.faces[face], poly.edges.data() + poly.edgeStart[face],
                      poly.edges.data() + poly.edgeStart[face + 1], scratch, out);
  out.face = face;
  // Round-off left no clipped point below the reference face.
  if (out.depth <= 0) deepestCorner(box, along, pieceFace ? best.overlap : bestFace.overlap, out);
  return true;
}

bool boxFacetManifold(const OrientedBox& box, const Vec3* corners, int count, const Vec3& outward,
                      BodyContactScratch& scratch, BoxManifold& out) {
  // Clipped as a piece's face is: by the planes through its edges square to
  // it, outward (geometry/polytope.h, buildFaceEdges).
  FaceEdge edges[4];
  for (int e = 0; e < count; ++e) {
    const Vec3& a = corners[e];
    const Vec3 side = (corners[(e + 1) % count] - a).cross(outward).normalized();
    edges[e].plane = Plane{side, side.dot(a)};
  }
  terrainFaceManifold(box, Plane{outward, outward.dot(corners[0])}, edges, edges + count, scratch,
                      out);
  out.face = -1;
  return out.depth > 0;
}

OrientedBox worldBox(const ContactBox& box, const Vec3& origin, const Eigen::Matrix3d& rotation) {
  OrientedBox world;
  world.centre = origin + rotation * box.centre;
  world.axes = rotation;
  world.half = box.half;
  return world;
}

bool nearPieces(const Terrain& terrain, const ContactBox& box, const Vec3& origin,
                const Eigen::Matrix3d& rotation, NearPieces& near) {
  static const double cosNearTurn = elementary::cos(kNearTurn);
  // The move first: the turn is only computed while the origin is within the margin.
  bool kept = near.valid && !((origin - near.anchor).cwiseAbs().maxCoeff() > kNearMargin);
  if (kept) {
    // cos of the turn since the query, from the trace of R0ᵀR = 1 + 2 cos θ
    const double turn = 0.5 * ((near.rotation.array() * rotation.array()).sum() - 1.0);
    kept = !(turn < cosNearTurn);
  }
  if (!kept) {
    // A point of the box moves by at most the origin's move plus its distance
    // from the origin (≤ |centre| + |half|) times the turn.
    const OrientedBox placed = worldBox(box, origin, rotation);
    const Vec3 extent = rotation.cwiseAbs() * box.half;
    const double grow = kNearMargin + (box.centre.norm() + box.half.norm()) * kNearTurn;
    Aabb reach;
    reach.min = placed.centre - extent - Vec3::Constant(grow);
    reach.max = placed.centre + extent + Vec3::Constant(grow);
    near.pieces.clear();
    if (reach.min.z() <= terrain.box.max.z()) piecesNear(terrain, reach, near.pieces);
    std::sort(near.pieces.begin(), near.pieces.end());  // the same order whenever the query ran
    near.anchor = origin;
    near.rotation = rotation;
    near.valid = true;
  }
  return !near.pieces.empty();
}

void candidatePieces(const Terrain& terrain, const OrientedBox& box, const NearPieces& near,
                     std::vector<int>& out) {
  out.clear();
  const Vec3 extent = box.axes.cwiseAbs() * box.half;
  Aabb reach;
  reach.min = box.centre - extent;
  reach.max = box.centre + extent;
  for (int i : near.pieces)
    if (terrain.pieces[i].shape.box.overlaps(reach)) out.push_back(i);
}

namespace {

// The cells of heightfield f under the plan of `bounds` (m), clamped to the grid.
CellRange cellsUnder(const Heightfield& f, const Aabb& bounds) {
  CellRange cells;
  cells.i0 = std::max(0, static_cast<int>(std::floor((bounds.min.x() - f.originX) / f.dx)));
  cells.j0 = std::max(0, static_cast<int>(std::floor((bounds.min.y() - f.originY) / f.dy)));
  cells.i1 =
      std::min(f.cellsX() - 1, static_cast<int>(std::floor((bounds.max.x() - f.originX) / f.dx)));
  cells.j1 =
      std::min(f.cellsY() - 1, static_cast<int>(std::floor((bounds.max.y() - f.originY) / f.dy)));
  return cells;
}

// Whether a heightfield's or mesh's surface under `bounds` may reach up to
// its bottom: by the highest cell tops under it (a heightfield's blocks of
// cells, a mesh's grid cells).
bool reaches(const Heightfield& f, const Aabb& bounds) {
  if (!f.box.overlaps(bounds)) return false;
  const CellRange cells = cellsUnder(f, bounds);
  for (int bj = cells.j0 / Heightfield::kBlock; bj <= cells.j1 / Heightfield::kBlock; ++bj)
    for (int bi = cells.i0 / Heightfield::kBlock; bi <= cells.i1 / Heightfield::kBlock; ++bi)
      if (f.blockTop[static_cast<size_t>(bj) * f.blocksX() + bi] >= bounds.min.z()) return true;
  return false;
}
bool reaches(const TriMesh& m, const Aabb& bounds) {
  return m.box.overlaps(bounds) && m.highestNear(bounds.min.x(), bounds.min.y(), bounds.max.x(),
                                                 bounds.max.y()) >= bounds.min.z();
}

// A surface's solid, its triangles' prisms down to its base, is left the
// shorter way, as a convex piece is by its least overlap: up through its tops
// (by the deepest top manifold's depth) or out through its side (by the
// shallowest wall manifold's, with the walls in that wall's plane: a straight
// side cut into cells or triangles). A box that comes in under a surface's
// edge from beside it is pushed back out through the side, as a piece's side
// pushes it, and not up through the whole surface.
void addSurface(double mu, BodyContactScratch& s, BoxUnion& all) {
  double topDepth = 0.0;
  for (const FacetManifold& t : s.tops) topDepth = std::max(topDepth, t.manifold.depth);
  const FacetManifold* side = nullptr;
  for (const FacetManifold& w : s.walls)
    if (w.manifold.depth < topDepth && (!side || w.manifold.depth < side->manifold.depth))
      side = &w;
  if (!side) {
    for (const FacetManifold& t : s.tops) addManifold(t.manifold, t.feature, mu, all);
  } else {
    const BoxManifold& least = side->manifold;
    for (const FacetManifold& w : s.walls)
      if ((w.manifold.plane - least.plane).norm() <= kPlaneTolerance &&
          std::abs(w.manifold.offset - least.offset) <= kPlaneTolerance)
        addManifold(w.manifold, w.feature, mu, all);
  }
  s.tops.clear();
  s.walls.clear();
}

}  // namespace

bool boxNearTerrain(const Terrain& terrain, const ContactBox& box, const Vec3& origin,
                    const OrientedBox& placed, NearPieces& near, BodyContactScratch& scratch) {
  scratch.candidates.clear();
  if (nearPieces(terrain, box, origin, placed.axes, near))
    candidatePieces(terrain, placed, near, scratch.candidates);
  if (!scratch.candidates.empty()) return true;
  if (terrain.heightfields.empty() && terrain.meshes.empty()) return false;
  const Vec3 extent = placed.axes.cwiseAbs() * placed.half;
  Aabb bounds;
  bounds.min = placed.centre - extent;
  bounds.max = placed.centre + extent;
  for (const Heightfield& f : terrain.heightfields)
    if (reaches(f, bounds)) return true;
  for (const TriMesh& m : terrain.meshes)
    if (reaches(m, bounds)) return true;
  return false;
}

void boxContacts(const Terrain& terrain, const ContactBox& box, const OrientedBox& placed,
                 const std::vector<int>& candidates, const BodyMotion& motion,
                 BodyContactScratch& scratch, std::vector<BodyContact>& out) {
  BoxUnion& all = scratch.box;
  all.clear();
  BoxManifold m;
  for (int i : candidates) {
    const TerrainPiece& piece = terrain.pieces[i];
    if (scratch.features.size() <= static_cast<size_t>(i))
      scratch.features.resize(terrain.pieces.size());
    PieceFeatures& features = scratch.features[i];
    if (features.faceLow.empty()) pieceFeatures(terrain, i, features);  // once per piece and run
    if (boxPolytopeManifold(placed, piece.shape, features, scratch, m) &&
        !isGhost(terrain, i, m, placed.centre))
      addManifold(m, i, terrain.materials[piece.material].phiMax, all);
  }
  // Heightfield and mesh triangles under the box, each by its top, and the
  // walls on their outer edges.
  if (terrain.heightfields.empty() && terrain.meshes.empty()) {
    unionContacts(box, placed.axes, motion, all, out);
    return;
  }
  const Vec3 extent = placed.axes.cwiseAbs() * placed.half;
  Aabb bounds;
  bounds.min = placed.centre - extent;
  bounds.max = placed.centre + extent;
  Vec3 facet[4];
  FacetManifold found;
  const auto top = [&](int feature) {
    if (std::max({facet[0].z(), facet[1].z(), facet[2].z()}) < bounds.min.z()) return;
    const Vec3 up = (facet[1] - facet[0]).cross(facet[2] - facet[0]).normalized();
    if (boxFacetManifold(placed, facet, 3, up, scratch, found.manifold)) {
      found.feature = feature;
      scratch.tops.push_back(found);
    }
  };
  const auto wall = [&](int feature) {
    if (std::max(facet[0].z(), facet[1].z()) < bounds.min.z()) return;
    const Vec3 outward = (facet[1] - facet[0]).cross(facet[2] - facet[0]).normalized();
    if (boxFacetManifold(placed, facet, 4, outward, scratch, found.manifold)) {
      found.feature = feature;
      scratch.walls.push_back(found);
    }
  };
  for (size_t k = 0; k < terrain.heightfields.size(); ++k) {
    const Heightfield& f = terrain.heightfields[k];
    if (!reaches(f, bounds)) continue;
    const int first = terrain.heightfieldFirst[k];
    const int walls = first + static_cast<int>(f.triangleCount());
    const int cx = f.cellsX(), cy = f.cellsY();
    const CellRange cells = cellsUnder(f, bounds);
    for (int j = cells.j0; j <= cells.j1; ++j)
      for (int i = cells.i0; i <= cells.i1; ++i) {
        if (f.cellTop[static_cast<size_t>(j) * cx + i] < bounds.min.z()) continue;
        for (int upper = 0; upper < 2; ++upper) {
          const long t = f.triangleId(i, j, upper);
          f.triangle(t, facet);
          top(first + static_cast<int>(t));
        }
        // Walls in Heightfield::wall's order: south, north, west, east.
        const long border[4] = {j == 0 ? i : -1L, j == cy - 1 ? cx + i : -1L,
                                i == 0 ? 2L * cx + j : -1L, i == cx - 1 ? 2L * cx + cy + j : -1L};
        for (const long w : border)
          if (w >= 0) {
            f.wall(w, facet);
            wall(walls + static_cast<int>(w));
          }
      }
    addSurface(terrain.materials[f.material].phiMax, scratch, all);
  }
  for (size_t k = 0; k < terrain.meshes.size(); ++k) {
    const TriMesh& mesh = terrain.meshes[k];
    if (!reaches(mesh, bounds)) continue;
    mesh.featuresNear(bounds.min.x(), bounds.min.y(), bounds.max.x(), bounds.max.y(),
                      scratch.meshFeatures);
    const int first = terrain.meshFirst[k];
    const int triangles = static_cast<int>(mesh.triangles.size());
    for (int t : scratch.meshFeatures) {
      if (t < triangles) {
        mesh.triangle(t, facet);
        top(first + t);
      } else {
        mesh.wall(t - triangles, facet);
        wall(first + t);
      }
    }
    addSurface(terrain.materials[mesh.material].phiMax, scratch, all);
  }
  unionContacts(box, placed.axes, motion, all, out);
}

}  // namespace roverlab
