#include "contact/wheel_contact.h"

#include <algorithm>
#include <cmath>

#include "geometry/gjk.h"

namespace roverlab {
namespace {

// True when q lies in the convex patch polygon (on its plane) within tol.
bool onPatch(const SharedPatch& patch, const Vec3& q, double tol) {
  if (std::abs(patch.plane.signedDistance(q)) > tol) return false;
  const Vec3& n = patch.plane.normal;
  const size_t k = patch.polygon.size();
  double sign = 0;
  for (size_t i = 0; i < k; ++i) {
    const Vec3& a = patch.polygon[i];
    const Vec3& b = patch.polygon[(i + 1) % k];
    const Vec3 edge = b - a;
    const double s = edge.cross(q - a).dot(n) / std::max(edge.norm(), 1e-300);
    if (std::abs(s) <= tol) continue;  // on this edge's line: inside for this edge
    if (sign == 0) sign = s;
    if (s * sign < 0) return false;
  }
  return true;
}

// Normal of the face of `poly` through q that best faces direction n,
// ignoring faces parallel to the seam plane; false if there is none.
bool faceAt(const Polytope& poly, const Vec3& q, const Vec3& n, const Vec3& seam, Vec3& out) {
  const double tol = 1e-9 * poly.scale;
  double best = -2;
  for (const Plane& f : poly.faces) {
    if (std::abs(f.signedDistance(q)) > tol || std::abs(f.normal.dot(seam)) > 1 - 1e-9) continue;
    if (f.normal.dot(n) > best) best = f.normal.dot(n), out = f.normal;
  }
  return best > -2;
}

// A contact through a flush seam is a ghost: its nearest point q lies on a
// face shared with a neighbour, and the wheel centre is on the neighbour's
// side, so the neighbour reports the contact. A centre exactly on the shared
// plane goes to the piece with the lower index. A concave crease is the
// exception: there the piece's own surface rises over the neighbour's, its
// contact grows from zero as the wheel approaches, and dropping it would make
// the force jump when the wheel reaches the piece's face region.
bool isGhost(const Terrain& terrain, int index, const PointDistance& pd, const Vec3& centre) {
  const TerrainPiece& piece = terrain.pieces[index];
  const double onTol = 1e-9 * piece.shape.scale;
  const double sideTol = 1e-12 * piece.shape.scale;
  for (const SharedPatch& patch : piece.shared) {
    const double s = patch.plane.signedDistance(centre);
    const bool neighbourSide = s > sideTol || (s >= -sideTol && patch.neighbour < index);
    if (!neighbourSide || !onPatch(patch, pd.closest, onTol)) continue;
    const Vec3& seam = patch.plane.normal;  // points into the neighbour
    Vec3 own, other;
    const bool concave = faceAt(piece.shape, pd.closest, pd.normal, seam, own) &&
                         faceAt(terrain.pieces[patch.neighbour].shape, pd.closest, pd.normal, seam, other) &&
                         (own - other).dot(seam) > 1e-9;
    if (!concave) return true;
  }
  return false;
}

}  // namespace

int wheelContacts(const Terrain& terrain, const WheelShape& wheel, const Vec3& centre, const Vec3& axle,
                  std::vector<WheelContact>& out) {
  out.clear();
  thread_local std::vector<int> near;
  Aabb reach;
  reach.min = centre.array() - wheel.radius;
  reach.max = centre.array() + wheel.radius;
  piecesNear(terrain, reach, near);
  const double band = 0.5 * wheel.width / wheel.radius;  // |normal·axle| limit of the tread
  for (int i : near) {
    const TerrainPiece& piece = terrain.pieces[i];
    const PointDistance pd = pointDistance(piece.shape, centre, wheel.radius);
    if (pd.feature == Feature::Far || pd.distance >= wheel.radius) continue;
    if (pd.distance > 0 && isGhost(terrain, i, pd, centre)) continue;
    WheelContact c;
    c.piece = i;
    c.normal = pd.normal;
    c.surfacePoint = pd.closest;
    const double axial = pd.normal.dot(axle);
    if (std::abs(axial) <= band) {
      c.point = centre - wheel.radius * pd.normal;
      c.distance = pd.distance;
      c.deflection = wheel.radius - pd.distance;
    } else {
      // The sphere's nearest point lies beyond the tread (a steeply tilted
      // wheel): the wheel bears on the rim of the cut on the ground side,
      // the point of that circle nearest the piece. It meets the tread
      // contact continuously at the band edge.
      const Vec3 across = (pd.normal - axial * axle).normalized();
      const double rim = std::sqrt(std::max(0.0, wheel.radius * wheel.radius - 0.25 * wheel.width * wheel.width));
      c.point = centre - std::copysign(0.5 * wheel.width, axial) * axle - rim * across;
      const PointDistance depth = pointDistance(piece.shape, c.point, 0.0);
      if (depth.distance >= 0) continue;
      c.deflection = -depth.distance;
      c.distance = wheel.radius - c.deflection;
    }
    out.push_back(c);
  }
  return static_cast<int>(out.size());
}

}  // namespace roverlab
