#include "contact/body_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
bool testAxis(const OrientedBox& box, const Polytope& poly, const Vec3& l, ContactAxis kind,
              int index, double bias, Axis& best) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Vec3& v : poly.vertices) {
    const double s = v.dot(l);
    lo = std::min(lo, s), hi = std::max(hi, s);
  }
  const double c = box.centre.dot(l), r = boxRadius(box, l);
  return overlapAlong(l, hi - (c - r), (c + r) - lo, kind, index, bias, best);
}

// Sutherland–Hodgman: the part of polygon `in` with n·x ≤ offset, into `out`.
void clip(const std::vector<Vec3>& in, const Vec3& n, double offset, std::vector<Vec3>& out) {
  out.clear();
  const size_t k = in.size();
  for (size_t i = 0; i < k; ++i) {
    const Vec3& a = in[i];
    const Vec3& b = in[(i + 1) % k];
    const double da = n.dot(a) - offset, db = n.dot(b) - offset;
    if (da <= 0) out.push_back(a);
    if ((da < 0 && db > 0) || (da > 0 && db < 0)) out.push_back(a + da / (da - db) * (b - a));
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

// The points of `polygon` below the plane n·x = offset (depth d = offset − n·x
// > 0) become the manifold, each moved d/2 along n: midway between the two
// surfaces. At most kMaxManifoldPoints of them, evenly spaced along the polygon.
void collect(const std::vector<Vec3>& polygon, const Vec3& n, double offset, BoxManifold& out) {
  int deep = 0;
  for (const Vec3& p : polygon) deep += offset - n.dot(p) > 0;
  out.count = 0;
  int seen = 0;
  for (const Vec3& p : polygon) {
    const double d = offset - n.dot(p);
    if (d <= 0) continue;
    // the j-th kept point is deep point ⌊j·deep / max⌋
    const bool keep = deep <= kMaxManifoldPoints || seen == (out.count * deep) / kMaxManifoldPoints;
    ++seen;
    if (!keep) continue;
    out.points[out.count] = p + 0.5 * d * n;
    out.depths[out.count] = d;
    ++out.count;
  }
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
      all = inConvexPolygon(patch.polygon, patch.plane.normal, m.points[k], kFlushTolerance);
    if (all) return true;
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

void pieceFeatures(const Polytope& poly, PieceFeatures& out) {
  out.directions.clear();
  for (int e = 0, n = static_cast<int>(poly.edges.size()); e < n; ++e) {
    const FaceEdge& edge = poly.edges[e];
    if (edge.from > edge.to) continue;  // each edge appears in both its faces, reversed in one
    const Vec3 d = (poly.vertices[edge.to] - poly.vertices[edge.from]).normalized();
    bool repeated = false;
    for (const EdgeDirection& k : out.directions)
      repeated = repeated || d.cross(k.direction).squaredNorm() <= 1e-12;
    if (!repeated) out.directions.push_back({e, d});
  }
  out.faceLow.clear();
  for (const Plane& f : poly.faces) {
    double low = std::numeric_limits<double>::infinity();
    for (const Vec3& v : poly.vertices) low = std::min(low, f.normal.dot(v));
    out.faceLow.push_back(low);
  }
}

bool boxPolytopeManifold(const OrientedBox& box, const Polytope& poly,
                         const PieceFeatures& features, BodyContactScratch& scratch,
                         BoxManifold& out) {
  // The piece's face normals first, from its precomputed extent along each:
  // most boxes far from a piece lie entirely outside one of its faces.
  Axis best;
  for (int f = 0, n = static_cast<int>(poly.faces.size()); f < n; ++f) {
    const Plane& face = poly.faces[f];
    const double c = box.centre.dot(face.normal), r = boxRadius(box, face.normal);
    if (!overlapAlong(face.normal, face.offset - (c - r), (c + r) - features.faceLow[f],
                      ContactAxis::PieceFace, f, 1.0, best))
      return false;
  }
  for (int i = 0; i < 3; ++i)
    if (!testAxis(box, poly, box.axes.col(i), ContactAxis::BoxFace, i, kBoxFaceBias, best))
      return false;
  const int edges = static_cast<int>(poly.edges.size());
  for (const EdgeDirection& d : features.directions) {
    for (int i = 0; i < 3; ++i) {
      const Vec3 l = box.axes.col(i).cross(d.direction);
      const double n2 = l.squaredNorm();
      if (n2 <= 1e-12) continue;  // parallel: the face axes cover it
      if (!testAxis(box, poly, l / std::sqrt(n2), ContactAxis::Edges, i * edges + d.edge, kEdgeBias,
                    best))
        return false;
    }
  }

  out.axis = best.kind;
  out.face = -1;
  const Vec3 n = best.normal;
  if (best.kind == ContactAxis::Edges) {
    // The box edge along axis i deepest towards the polytope, and the
    // polytope's edge of that direction furthest out towards the box.
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
    Vec3 onBox, onPoly;
    closestOnSegments(mid - half, mid + half, poly.vertices[poly.edges[pick].from],
                      poly.vertices[poly.edges[pick].to], onBox, onPoly);
    out.normal = n;
    out.depth = best.overlap;
    out.count = 1;
    out.points[0] = 0.5 * (onBox + onPoly);
    out.depths[0] = best.overlap;
    return true;
  }

  int axis;
  double side;
  boxFaceToward(box, -n, axis, side);    // the box face that faces the polytope
  const int face = faceToward(poly, n);  // the polytope face that faces the box
  if (best.kind == ContactAxis::PieceFace) {
    // Reference: the terrain face; the box's face clipped to the face's edges.
    const Plane& ref = poly.faces[face];
    boxFace(box, axis, side, scratch.polygon);
    for (int e = poly.edgeStart[face]; e < poly.edgeStart[face + 1]; ++e) {
      clip(scratch.polygon, poly.edges[e].plane.normal, poly.edges[e].plane.offset,
           scratch.clipped);
      scratch.polygon.swap(scratch.clipped);
    }
    out.face = face;
    out.normal = ref.normal;
    collect(scratch.polygon, ref.normal, ref.offset, out);
  } else {
    // Reference: the box face; the terrain's face clipped to the box face's sides.
    const Vec3 u = side * box.axes.col(axis);  // outward normal of the reference face
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
    out.normal = -u;
    collect(scratch.polygon, u, u.dot(box.centre) + box.half[axis], out);
  }
  out.depth = 0;
  for (int k = 0; k < out.count; ++k) out.depth = std::max(out.depth, out.depths[k]);
  if (out.count == 0) {
    // Round-off left no clipped point: the box's deepest corner carries the contact.
    Vec3 corner = box.centre;
    for (int j = 0; j < 3; ++j)
      corner -= (box.axes.col(j).dot(n) >= 0 ? 1.0 : -1.0) * box.half[j] * box.axes.col(j);
    out.normal = n;
    out.depth = best.overlap;
    out.count = 1;
    out.points[0] = corner + 0.5 * best.overlap * n;
    out.depths[0] = best.overlap;
  }
  return true;
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
  // cos of the turn since the query, from the trace of R0ᵀR = 1 + 2 cos θ
  const double turn = 0.5 * ((near.rotation.array() * rotation.array()).sum() - 1.0);
  if (!near.valid || (origin - near.anchor).cwiseAbs().maxCoeff() > kNearMargin ||
      turn < std::cos(kNearTurn)) {
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

void boxContacts(const Terrain& terrain, const ContactBox& box, const OrientedBox& placed,
                 const std::vector<int>& candidates, const BodyMotion& motion,
                 BodyContactScratch& scratch, std::vector<BodyContact>& out) {
  BoxManifold m;
  for (int i : candidates) {
    const TerrainPiece& piece = terrain.pieces[i];
    if (scratch.features.size() <= static_cast<size_t>(i))
      scratch.features.resize(terrain.pieces.size());
    PieceFeatures& features = scratch.features[i];
    if (features.faceLow.empty()) pieceFeatures(piece.shape, features);  // once per piece and run
    if (!boxPolytopeManifold(placed, piece.shape, features, scratch, m) ||
        isGhost(terrain, i, m, placed.centre))
      continue;
    const double mu = terrain.materials[piece.material].phiMax;
    // Each point carries a quarter: a box face flat on a face (four points) is the spring k, c.
    const double k = box.stiffness / 4, c = box.damping / 4;
    BodyContact contact;
    contact.piece = i;
    contact.normal = m.normal;
    contact.depth = m.depth;
    double load = 0;
    Vec3 weighted = Vec3::Zero();
    for (int p = 0; p < m.count; ++p) {
      const Vec3& at = m.points[p];
      const Vec3 v = motion.velocity + motion.omega.cross(at - motion.origin);
      const double vn = v.dot(m.normal);
      const double fn = std::max(0.0, k * m.depths[p] - c * vn);  // non-holding
      if (fn <= 0) continue;
      const Vec3 vt = v - vn * m.normal;
      const double speed = vt.norm();
      // Coulomb friction regularised by the contact damping: viscous below
      // μ·F_n / c, never above μ·F_n.
      const Vec3 ft = speed > 0 ? Vec3(-std::min(mu * fn, c * speed) / speed * vt) : Vec3::Zero();
      const Vec3 f = fn * m.normal + ft;
      contact.normalForce += fn * m.normal;
      contact.tangentialForce += ft;
      contact.moment += at.cross(f);
      weighted += fn * at;
      load += fn;
      ++contact.points;
    }
    if (contact.points == 0) continue;
    contact.point = weighted / load;
    contact.load = load;
    out.push_back(contact);
  }
}

}  // namespace roverlab
