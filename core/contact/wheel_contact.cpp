#include "contact/wheel_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact/crease.h"
#include "contact/heightfield_contact.h"
#include "geometry/gjk.h"

namespace roverlab {
namespace {

// True when q lies in the convex patch polygon (on its plane) within tol.
bool onPatch(const SharedPatch& patch, const Vec3& q, double tol) {
  return std::abs(patch.plane.signedDistance(q)) <= tol && patch.covers(q, tol);
}

// The face of `poly` through q (within tol) that best faces direction n,
// ignoring faces parallel to the seam plane; false if there is none.
bool faceAt(const Polytope& poly, const Vec3& q, const Vec3& n, const Vec3& seam, double tol,
            Plane& out) {
  double best = -2;
  for (const Plane& f : poly.faces) {
    if (std::abs(f.signedDistance(q)) > tol || std::abs(f.normal.dot(seam)) > 1 - 1e-9) continue;
    if (f.normal.dot(n) > best) best = f.normal.dot(n), out = f;
  }
  return best > -2;
}

using Candidate = ContactCandidate;

// The candidate of `piece`, or null when it is out of the wheel's reach.
const Candidate* candidateOf(const std::vector<Candidate>& all, int piece) {
  for (const Candidate& c : all)
    if (c.piece == piece) return &c;
  return nullptr;
}

// A contact through a flush seam is a ghost by the one ghost rule
// (contact/crease.h): its nearest point q lies on a face shared with a
// neighbour (within kFlushTolerance), and a nearer touch of a feature through
// q continues the surface or turns away from it:
//  - the neighbour across the seam (or as near and of lower index: q exactly
//    on the seam), or
//  - another piece through q (within kFlushTolerance), such as one meeting
//    this one at a corner only (a surface split into many pieces).
// For pieces that make one continuous surface the distance to the union is
// the smallest of the pieces' distances, whatever the surface's orientation,
// so one contact remains. At a concave crease both are real.
bool isGhost(const Terrain& terrain, const std::vector<Candidate>& all, const Candidate& c) {
  const TerrainPiece& piece = terrain.pieces[c.piece];
  const double tie = 1e-12 * piece.shape.scale;
  for (const SharedPatch& patch : piece.shared) {
    if (!onPatch(patch, c.pd.closest, kFlushTolerance)) continue;
    const Vec3& seam = patch.plane.normal;  // points into the neighbour
    // The piece's other face through q; none when q lies inside the shared
    // face itself, wholly covered by the neighbour.
    Plane own;
    const bool onEdge =
        faceAt(piece.shape, c.pd.closest, c.pd.normal, seam, 1e-9 * piece.shape.scale, own);
    const Candidate* other = candidateOf(all, patch.neighbour);
    if (other && (other->pd.distance < c.pd.distance - tie ||
                  (other->pd.distance <= c.pd.distance + tie && patch.neighbour < c.piece))) {
      if (!onEdge) return true;
      const Vec3 apart = other->pd.closest - c.pd.closest;
      if (continuesOrTurnsAway(own.normal.dot(apart), apart.squaredNorm(), tie * tie,
                               kPieceCreaseSine))
        return true;
    }
    if (!onEdge) continue;
    for (const Candidate& x : all) {
      if (x.piece == c.piece || x.pd.distance >= c.pd.distance - tie) continue;
      const Vec3 apart = x.pd.closest - c.pd.closest;
      if (!continuesOrTurnsAway(own.normal.dot(apart), apart.squaredNorm(), tie * tie,
                                kPieceCreaseSine))
        continue;
      // x passes through q (a piece meeting this one at a corner).
      if (pointDistance(terrain.pieces[x.piece].shape, c.pd.closest, kFlushTolerance).distance <=
          kFlushTolerance)
        return true;
    }
  }
  return false;
}

// Signed distance (m) of p from the prism under triangle v (counter-clockwise
// from above, unit upward normal `face`) down to `base`, where p is inside
// it: the largest of its five planes' signed distances; positive outside. The
// same number a piece's face-plane pass gives, so that a steeply tilted
// wheel's rim meets a triangle of a heightmap or mesh as it meets the same
// triangle given as a piece.
double prismDepth(const Vec3 v[3], double base, const Vec3& face, const Vec3& p) {
  double most = std::max(face.dot(p - v[0]), base - p.z());
  for (int k = 0; k < 3; ++k) {
    const Vec3 edge = v[(k + 1) % 3] - v[k];
    const Vec3 out = Vec3(edge.y(), -edge.x(), 0).normalized();
    most = std::max(most, out.dot(p - v[k]));
  }
  return most;
}

// The nearest points of a surface's features to a sphere, less the ghosts.
void sphereHits(const Heightfield& f, const Vec3& centre, double radius, SurfaceScratch& scratch,
                std::vector<SurfaceHit>& out) {
  heightfieldSphereHits(f, centre, radius, scratch, out);
}
void sphereHits(const TriMesh& m, const Vec3& centre, double radius, SurfaceScratch& scratch,
                std::vector<SurfaceHit>& out) {
  meshSphereHits(m, centre, radius, scratch, out);
}

// The depth of a point under a surface's feature: the triangle's prism, or
// for a wall its plane.
template <class Surface>
double surfaceDepth(const Surface& surface, const SurfaceHit& hit, const Vec3& p) {
  if (hit.feature >= surface.triangleCount()) return hit.face.dot(p - hit.closest);
  Vec3 v[3];
  surface.triangle(hit.feature, v);
  return prismDepth(v, surface.base, hit.face, p);
}

// The union law over a wheel's touches (contact/union_law.h): each gets its
// share, and those that carry nothing are dropped.
void shareLoad(double radius, UnionScratch& scratch, std::vector<WheelContact>& out) {
  if (out.size() < 2) return;
  scratch.normals.clear();
  scratch.deflections.clear();
  for (const WheelContact& c : out) {
    scratch.normals.push_back(c.normal);
    scratch.deflections.push_back(c.deflection);
  }
  unionShares(radius, scratch);
  size_t kept = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!(scratch.shares[i] > 0)) continue;
    out[kept] = out[i];
    out[kept++].share = scratch.shares[i];
  }
  out.resize(kept);
}

// The pieces whose bounds `reach` overlaps, in increasing order, into
// `near`: from the wheel's piece list while `reach` lies inside the list's,
// else from the grid (and the list made anew around `reach`).
void piecesWithin(const Terrain& terrain, const Aabb& reach, WheelContactScratch& scratch,
                  std::vector<int>& near) {
  if (scratch.pieceList >= scratch.pieceLists.size()) {
    piecesNear(terrain, reach, near);
    std::sort(near.begin(), near.end());
    return;
  }
  PieceList& list = scratch.pieceLists[scratch.pieceList];
  if (!list.valid || !(list.reach.min.array() <= reach.min.array()).all() ||
      !(reach.max.array() <= list.reach.max.array()).all()) {
    list.reach.min = reach.min.array() - kPieceListMargin;
    list.reach.max = reach.max.array() + kPieceListMargin;
    piecesNear(terrain, list.reach, list.pieces);
    std::sort(list.pieces.begin(), list.pieces.end());
    list.valid = true;
  }
  near.clear();
  for (const int i : list.pieces)
    if (terrain.pieces[i].shape.box.overlaps(reach)) near.push_back(i);
}

}  // namespace

int wheelTouches(const Terrain& terrain, const WheelShape& wheel, const Vec3& centre,
                 const Vec3& axle, WheelContactScratch& scratch, std::vector<WheelContact>& out) {
  out.clear();
  std::vector<int>& near = scratch.near;
  Aabb reach;
  reach.min = centre.array() - wheel.radius;
  reach.max = centre.array() + wheel.radius;
  piecesWithin(terrain, reach, scratch, near);
  const double band = 0.5 * wheel.width / wheel.radius;  // |normal·axle| limit of the tread
  std::vector<Candidate>& candidates = scratch.candidates;
  candidates.clear();
  for (int i : near) {
    const PointDistance pd = pointDistance(terrain.pieces[i].shape, centre, wheel.radius);
    if (pd.feature == Feature::Far || pd.distance >= wheel.radius) continue;
    candidates.push_back({i, pd});
  }
  // One contact from a nearest point: on the tread, or on the rim of the cut
  // for a steeply tilted wheel. `depthAt` is the signed distance of a point to
  // the piece or feature (m).
  const auto emit = [&](int id, const Vec3& closest, const Vec3& normal, double distance,
                        const auto& depthAt) {
    const double axial = normal.dot(axle);
    Vec3 point;         // contact point (m)
    double deflection;  // Z (m)
    if (std::abs(axial) <= band) {
      point = centre - wheel.radius * normal;
      deflection = wheel.radius - distance;
    } else {
      // The sphere's nearest point lies beyond the tread (a steeply tilted
      // wheel): the wheel bears on the rim of the cut on the ground side,
      // the point of that circle nearest the piece. It meets the tread
      // contact continuously at the band edge.
      const Vec3 across = (normal - axial * axle).normalized();
      const double rim =
          std::sqrt(std::max(0.0, wheel.radius * wheel.radius - 0.25 * wheel.width * wheel.width));
      point = centre - std::copysign(0.5 * wheel.width, axial) * axle - rim * across;
      const double depth = depthAt(point);
      if (depth >= 0) return;
      deflection = -depth;
      distance = wheel.radius - deflection;
    }
    // Each field set once, not zeroed first (in WASM that is a call to memset),
    // in WheelContact's order.
    out.push_back({/*piece=*/id, /*point=*/point, /*surfacePoint=*/closest, /*normal=*/normal,
                   /*distance=*/distance, /*deflection=*/deflection});
  };
  for (const Candidate& candidate : candidates) {
    const PointDistance& pd = candidate.pd;
    if (pd.distance > 0 && isGhost(terrain, candidates, candidate)) continue;
    const Polytope& shape = terrain.pieces[candidate.piece].shape;
    emit(candidate.piece, pd.closest, pd.normal, pd.distance,
         [&](const Vec3& p) { return pointDistance(shape, p, 0.0).distance; });
  }
  // Heightfields and meshes alike: each feature's nearest point, less the
  // ghosts (contact/surface_contact.h).
  const auto surfaces = [&](const auto& list, const std::vector<int>& first) {
    for (size_t k = 0; k < list.size(); ++k) {
      const auto& surface = list[k];
      if (!surface.box.overlaps(reach)) continue;
      scratch.hits.clear();
      sphereHits(surface, centre, wheel.radius, scratch.surface, scratch.hits);
      for (const SurfaceHit& hit : scratch.hits)
        emit(first[k] + static_cast<int>(hit.feature), hit.closest, hit.normal, hit.distance,
             [&](const Vec3& p) { return surfaceDepth(surface, hit, p); });
    }
  };
  surfaces(terrain.heightfields, terrain.heightfieldFirst);
  surfaces(terrain.meshes, terrain.meshFirst);
  return static_cast<int>(out.size());
}

int wheelContacts(const Terrain& terrain, const WheelShape& wheel, const Vec3& centre,
                  const Vec3& axle, WheelContactScratch& scratch, std::vector<WheelContact>& out) {
  wheelTouches(terrain, wheel, centre, axle, scratch, out);
  shareLoad(wheel.radius, scratch.shares, out);
  return static_cast<int>(out.size());
}

int wheelContacts(const Terrain& terrain, const WheelShape& wheel, const Vec3& centre,
                  const Vec3& axle, std::vector<WheelContact>& out) {
  WheelContactScratch scratch;
  return wheelContacts(terrain, wheel, centre, axle, scratch, out);
}

}  // namespace roverlab
