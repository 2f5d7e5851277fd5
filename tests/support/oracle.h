// Brute-force geometry oracles for the tests. They share no code with the core:
// the boundary of a convex hull is found by trying every triple of input points
// (a triangle whose plane has every point on one side lies in a face), and
// distances are exact point-triangle and segment-segment distances (after
// Ericson, Real-Time Collision Detection, §5.1 and §5.1.9).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "common/types.h"

namespace oracle {

using roverlab::Vec3;

/// Closest point to p on segment [a, b].
inline Vec3 closestOnSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double den = ab.squaredNorm();
  if (den == 0) return a;
  const double t = std::clamp((p - a).dot(ab) / den, 0.0, 1.0);
  return a + t * ab;
}

/// Closest point to p on triangle abc. Projects onto the plane and tests the
/// projection against the three edges' in-plane outward normals; outside, the
/// nearest of the three edges. (Ericson's barycentric Voronoi-region version,
/// §5.1.5, cancels catastrophically on slivers such as the 1e-6-high side
/// faces of thin slabs; this form stays accurate to ~ulp·length/height.)
inline Vec3 closestOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = (b - a).cross(c - a);
  const double len = n.norm();
  const Vec3 onAb = closestOnSegment(p, a, b), onBc = closestOnSegment(p, b, c),
             onCa = closestOnSegment(p, c, a);
  auto nearestEdge = [&] {
    const double da = (p - onAb).squaredNorm(), db = (p - onBc).squaredNorm(),
                 dc = (p - onCa).squaredNorm();
    return da <= db && da <= dc ? onAb : db <= dc ? onBc : onCa;
  };
  if (!(len > 0)) return nearestEdge();
  const Vec3 nh = n / len;
  const Vec3 proj = p - nh.dot(p - a) * nh;
  const Vec3* corner[3] = {&a, &b, &c};
  for (int k = 0; k < 3; ++k) {
    const Vec3& u = *corner[k];
    const Vec3& v = *corner[(k + 1) % 3];
    const Vec3 out = (v - u).cross(nh);  // in-plane, pointing away from the third corner
    if (out.dot(proj - u) > 0) return nearestEdge();
  }
  return proj;
}

/// Distance between segments [p1, q1] and [p2, q2] (Ericson §5.1.9).
inline double segmentSegmentDistance(const Vec3& p1, const Vec3& q1, const Vec3& p2,
                                     const Vec3& q2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0, t = 0;
  if (a == 0 && e == 0) return (p1 - p2).norm();
  if (a == 0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e == 0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), den = a * e - b * b;
      s = den > 0 ? std::clamp((b * f - c * e) / den, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return ((p1 + s * d1) - (p2 + t * d2)).norm();
}

/// Convex hull boundary as the set of "supporting triangles": triples of input
/// points whose plane has no input point strictly outside. Every face polygon
/// is covered by such triangles, and every such triangle lies in the hull, so
/// min over them of the point-triangle distance is the exact distance to the
/// boundary.
struct BruteHull {
  std::vector<Vec3> points;
  std::vector<std::array<int, 3>> tris;
  std::vector<Vec3> normal;    // unit outward normal per triangle
  std::vector<double> offset;  // normal·x on the triangle's plane
  double scale = 0;            // largest extent of the points' bounding box

  explicit BruteHull(std::vector<Vec3> pts) : points(std::move(pts)) {
    roverlab::Aabb box;
    for (const Vec3& p : points) box.grow(p);
    scale = (box.max - box.min).maxCoeff();
    // Tolerances relative to the size. A triple is degenerate when its doubled
    // area is below 1e-12·scale² (its edges are covered by other triangles).
    // A point counts as outside a triple's plane beyond 1e-9·scale: the plane
    // of a sliver (e.g. two corners 1e-6 apart on the side of a thin slab) is
    // only known to ~ulp(|x|)/1e-6 ≈ 1e-10 rad, so a tighter test drops true
    // face triangles. A looser test is harmless: an accepted triangle lies in
    // the hull, so it can only overestimate the distance of an outside point,
    // and the ones it adds are the rounding-twisted diagonals of flat faces.
    const double planeTol = 1e-9 * scale;
    const int n = static_cast<int>(points.size());
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        for (int c = b + 1; c < n; ++c) {
          Vec3 nrm = (points[b] - points[a]).cross(points[c] - points[a]);
          const double len = nrm.norm();
          if (len <= 1e-12 * scale * scale) continue;
          nrm /= len;
          bool above = false, below = false;
          for (int i = 0; i < n; ++i) {
            const double s = nrm.dot(points[i] - points[a]);
            above = above || s > planeTol;
            below = below || s < -planeTol;
          }
          if (above && below) continue;
          if (above) nrm = -nrm;
          tris.push_back({a, b, c});
          normal.push_back(nrm);
          offset.push_back(nrm.dot(points[a]));
        }
  }

  /// Largest signed plane distance over the supporting planes (≤ 0 inside).
  double maxPlaneDistance(const Vec3& p) const {
    double m = -std::numeric_limits<double>::infinity();
    for (size_t t = 0; t < tris.size(); ++t) m = std::max(m, normal[t].dot(p) - offset[t]);
    return m;
  }

  /// Unsigned distance from p to the hull's boundary, and the nearest point.
  double boundaryDistance(const Vec3& p, Vec3* nearest = nullptr) const {
    double best = std::numeric_limits<double>::infinity();
    for (const auto& t : tris) {
      const Vec3 q = closestOnTriangle(p, points[t[0]], points[t[1]], points[t[2]]);
      const double d = (p - q).norm();
      if (d < best) {
        best = d;
        if (nearest) *nearest = q;
      }
    }
    return best;
  }

  /// Exact signed distance: > 0 outside, < 0 inside (minus the distance to
  /// the nearest face plane, which for a convex body is the boundary distance).
  double signedDistance(const Vec3& p) const {
    const double m = maxPlaneDistance(p);
    if (m <= 0) return m;
    return boundaryDistance(p);
  }

  /// True when `n` is (within `tol`, m) the normal of a supporting plane
  /// through `q`: every point lies on its inner side.
  bool supportsAt(const Vec3& n, const Vec3& q, double tol) const {
    for (const Vec3& v : points)
      if (n.dot(v - q) > tol) return false;
    return true;
  }

  /// Distinct outward normals of the supporting planes through vertex i.
  std::vector<Vec3> normalsAt(int i) const {
    std::vector<Vec3> out;
    for (size_t t = 0; t < tris.size(); ++t)
      if (tris[t][0] == i || tris[t][1] == i || tris[t][2] == i) addDistinct(out, normal[t]);
    return out;
  }

  /// Distinct outward normals of the supporting planes through vertices i and j.
  std::vector<Vec3> normalsAt(int i, int j) const {
    std::vector<Vec3> out;
    for (size_t t = 0; t < tris.size(); ++t) {
      const auto& tr = tris[t];
      const bool hasI = tr[0] == i || tr[1] == i || tr[2] == i;
      const bool hasJ = tr[0] == j || tr[1] == j || tr[2] == j;
      if (hasI && hasJ) addDistinct(out, normal[t]);
    }
    return out;
  }

 private:
  static void addDistinct(std::vector<Vec3>& out, const Vec3& n) {
    for (const Vec3& m : out)
      if (m.dot(n) > 1 - 1e-12) return;
    out.push_back(n);
  }
};

/// Exact distance between two disjoint convex hulls: the minimum over vertex
/// of one vs boundary of the other and over all pairs of segments between
/// vertices (hull edges are among them; the others lie inside the hulls and
/// can only give larger values). Only meaningful when they do not overlap.
inline double separatedDistance(const BruteHull& a, const BruteHull& b) {
  double best = std::numeric_limits<double>::infinity();
  for (const Vec3& p : a.points) best = std::min(best, b.boundaryDistance(p));
  for (const Vec3& p : b.points) best = std::min(best, a.boundaryDistance(p));
  const size_t na = a.points.size(), nb = b.points.size();
  for (size_t i = 0; i < na; ++i)
    for (size_t j = i + 1; j < na; ++j)
      for (size_t k = 0; k < nb; ++k)
        for (size_t l = k + 1; l < nb; ++l)
          best = std::min(
              best, segmentSegmentDistance(a.points[i], a.points[j], b.points[k], b.points[l]));
  return best;
}

/// The union law's spring force per unit stiffness, Σ λ_i n_i (m), for
/// contacts with unit normals `n` and deflections `z` (m) of a wheel of free
/// radius `r` (contact/union_law.h states the law): the complementarity
/// problem Gλ ≥ z, λ ≥ 0, λ_i ((Gλ)_i − z_i) = 0 solved by trying every
/// subset S of free contacts (G_SS λ_S = z_S by Gaussian elimination with
/// pivoting) and keeping the one that meets every condition, the deepest
/// total on a tie of repeated normals. Up to 12 contacts.
inline Vec3 unionForce(const std::vector<Vec3>& n, const std::vector<double>& z, double r) {
  const size_t k = n.size();
  double deepest = 0;
  for (double v : z) deepest = std::max(deepest, v);
  const double width = 4.0 * std::sqrt(2 * deepest / r);
  const auto kernel = [&](const Vec3& a, const Vec3& b) {
    const double s = (a - b).norm() / width;
    return s >= 1 ? 0.0 : std::pow(1 - s, 4) * (4 * s + 1);
  };
  const double tol = 1e-9 * deepest;
  for (unsigned mask = 1; mask < (1u << k); ++mask) {
    std::vector<size_t> f;
    for (size_t i = 0; i < k; ++i)
      if (mask >> i & 1) f.push_back(i);
    const size_t m = f.size();
    std::vector<std::vector<double>> a(m, std::vector<double>(m + 1));
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < m; ++j) a[i][j] = kernel(n[f[i]], n[f[j]]);
      a[i][m] = z[f[i]];
    }
    bool singular = false;
    for (size_t c = 0; c < m && !singular; ++c) {
      size_t p = c;
      for (size_t i = c + 1; i < m; ++i)
        if (std::abs(a[i][c]) > std::abs(a[p][c])) p = i;
      std::swap(a[c], a[p]);
      if (std::abs(a[c][c]) < 1e-9) singular = true;
      for (size_t i = 0; i < m && !singular; ++i) {
        if (i == c) continue;
        const double q = a[i][c] / a[c][c];
        for (size_t j = c; j <= m; ++j) a[i][j] -= q * a[c][j];
      }
    }
    if (singular) continue;
    std::vector<double> lambda(k, 0.0);
    bool ok = true;
    for (size_t i = 0; i < m; ++i) {
      lambda[f[i]] = a[i][m] / a[i][i];
      ok = ok && lambda[f[i]] >= -tol;
    }
    for (size_t i = 0; i < k && ok; ++i) {
      double reach = 0;
      for (size_t j = 0; j < k; ++j) reach += kernel(n[i], n[j]) * lambda[j];
      ok = reach >= z[i] - tol;
    }
    if (!ok) continue;
    Vec3 force = Vec3::Zero();
    for (size_t i = 0; i < k; ++i) force += std::max(0.0, lambda[i]) * n[i];
    return force;
  }
  return Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
}

}  // namespace oracle
