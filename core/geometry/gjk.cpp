// GJK distance with the signed-volume sub-algorithm.
//
// The sub-algorithm finds the point of a simplex (1-4 points) closest to the
// origin and the smallest sub-simplex that holds it, by the signs of signed
// lengths, areas and volumes (Montanari, Petrinic, Barbieri 2017, "Improving
// the GJK algorithm for faster and more reliable distance queries between
// convex objects"). Unlike Johnson's sub-algorithm it has no case that drops
// the closest feature when a simplex is nearly degenerate.
#include "geometry/gjk.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace roverlab {
namespace {

struct Simplex {
  Vec3 w[4];               // support points of the Minkowski difference
  std::int64_t id[4];      // which vertices (pair) made each point
  double lambda[4];        // barycentric weights of the closest point
  int n = 0;
};

Vec3 closestOf(const Simplex& s) {
  Vec3 v = Vec3::Zero();
  for (int i = 0; i < s.n; ++i) v += s.lambda[i] * s.w[i];
  return v;
}

Simplex pick(const Simplex& s, std::initializer_list<int> keep) {
  Simplex r;
  for (int i : keep) {
    r.w[r.n] = s.w[i];
    r.id[r.n] = s.id[i];
    r.lambda[r.n] = 0;
    ++r.n;
  }
  return r;
}

// Segment: origin projected onto the line, parameter clamped by sign.
Simplex s1d(const Simplex& s) {
  const Vec3 t = s.w[1] - s.w[0];
  const double tt = t.squaredNorm();
  const double mu = tt > 0 ? -s.w[0].dot(t) / tt : 0.0;
  if (mu <= 0) {
    Simplex r = pick(s, {0});
    r.lambda[0] = 1;
    return r;
  }
  if (mu >= 1) {
    Simplex r = pick(s, {1});
    r.lambda[0] = 1;
    return r;
  }
  Simplex r = s;
  r.n = 2;
  r.lambda[0] = 1 - mu;
  r.lambda[1] = mu;
  return r;
}

Simplex best(const Simplex& a, const Simplex& b) {
  if (a.n == 0) return b;
  return closestOf(b).squaredNorm() < closestOf(a).squaredNorm() ? b : a;
}

// Triangle: barycentric coordinates of the origin's projection from signed
// areas; an edge is tried only when the projection lies beyond it.
Simplex s2d(const Simplex& s) {
  const Vec3 nrm = (s.w[1] - s.w[0]).cross(s.w[2] - s.w[0]);
  const double nn = nrm.squaredNorm();
  const double scale2 = (s.w[1] - s.w[0]).squaredNorm() + (s.w[2] - s.w[0]).squaredNorm();
  Simplex out;
  if (nn > 1e-24 * scale2 * scale2) {
    const Vec3 p0 = (s.w[0].dot(nrm) / nn) * nrm;
    double lam[3];
    for (int i = 0; i < 3; ++i) {
      const Vec3& a = s.w[(i + 1) % 3];
      const Vec3& b = s.w[(i + 2) % 3];
      lam[i] = (a - p0).cross(b - p0).dot(nrm) / nn;
    }
    if (lam[0] >= 0 && lam[1] >= 0 && lam[2] >= 0) {
      Simplex r = s;
      r.n = 3;
      const double sum = lam[0] + lam[1] + lam[2];
      for (int i = 0; i < 3; ++i) r.lambda[i] = lam[i] / sum;
      return r;
    }
    for (int i = 0; i < 3; ++i)
      if (lam[i] < 0) out = best(out, s1d(pick(s, {(i + 1) % 3, (i + 2) % 3})));
    return out;
  }
  // Degenerate (collinear) triangle: the closest point is on one of its edges.
  for (int i = 0; i < 3; ++i) out = best(out, s1d(pick(s, {(i + 1) % 3, (i + 2) % 3})));
  return out;
}

double volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).dot((c - a).cross(d - a));
}

// Tetrahedron: the origin is inside when every sub-volume with the origin in
// place of one vertex has the sign of the whole; otherwise try the faces it
// lies beyond.
Simplex s3d(const Simplex& s) {
  const Vec3 o = Vec3::Zero();
  const double det = volume(s.w[0], s.w[1], s.w[2], s.w[3]);
  const double c[4] = {volume(o, s.w[1], s.w[2], s.w[3]), volume(s.w[0], o, s.w[2], s.w[3]),
                       volume(s.w[0], s.w[1], o, s.w[3]), volume(s.w[0], s.w[1], s.w[2], o)};
  static const int faceOf[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  Simplex out;
  double scale = 0;
  for (int i = 1; i < 4; ++i) scale = std::max(scale, (s.w[i] - s.w[0]).norm());
  if (std::abs(det) > 1e-14 * scale * scale * scale) {
    bool inside = true;
    for (int i = 0; i < 4; ++i) inside = inside && (c[i] * det >= 0);
    if (inside) {
      Simplex r = s;
      for (int i = 0; i < 4; ++i) r.lambda[i] = c[i] / det;
      return r;
    }
    for (int i = 0; i < 4; ++i)
      if (c[i] * det < 0)
        out = best(out, s2d(pick(s, {faceOf[i][0], faceOf[i][1], faceOf[i][2]})));
    return out;
  }
  for (int i = 0; i < 4; ++i) out = best(out, s2d(pick(s, {faceOf[i][0], faceOf[i][1], faceOf[i][2]})));
  return out;
}

Simplex reduce(const Simplex& s) {
  switch (s.n) {
    case 2: return s1d(s);
    case 3: return s2d(s);
    case 4: return s3d(s);
    default: {
      Simplex r = s;
      r.lambda[0] = 1;
      return r;
    }
  }
}

// Runs GJK on the Minkowski difference given by `support(d) -> (point, id)`,
// starting from point `w0`. Returns the final simplex; `iterations` and
// `converged` report how it ended.
template <class Support>
Simplex gjk(const Support& support, const Vec3& w0, std::int64_t id0, double scale, int& iterations,
            bool& converged) {
  Simplex s;
  s.w[0] = w0;
  s.id[0] = id0;
  s.lambda[0] = 1;
  s.n = 1;
  Vec3 v = w0;
  double vv = v.squaredNorm();
  // Relative accuracy: ‖v‖² − v·w ≤ ε‖v‖² bounds the distance error by ≈ ε‖v‖/2.
  const double eps = 1e-15;
  const double touch = 1e-26 * scale * scale;  // (1e-13 of the size)²: touching
  converged = true;
  for (iterations = 1; iterations <= kGjkMaxIterations; ++iterations) {
    if (vv <= touch) return s;
    std::int64_t id;
    const Vec3 w = support(-v, id);
    bool repeated = false;
    for (int i = 0; i < s.n; ++i) repeated = repeated || s.id[i] == id;
    if (repeated || vv - v.dot(w) <= eps * vv) return s;
    Simplex next = s;
    next.w[next.n] = w;
    next.id[next.n] = id;
    ++next.n;
    next = reduce(next);
    const Vec3 nv = closestOf(next);
    const double nvv = nv.squaredNorm();
    if (next.n == 4) return next;  // origin enclosed
    if (!(nvv < vv)) return s;     // no progress: the previous simplex is optimal in precision
    s = next;
    v = nv;
    vv = nvv;
  }
  converged = false;
  return s;
}

}  // namespace

PointDistance pointDistance(const Polytope& poly, const Vec3& p, double radius) {
  PointDistance r;
  // Face-plane pass: the largest signed plane distance is a lower bound of the
  // distance outside and the exact (negative) distance inside.
  int bf = 0;
  double bs = poly.faces[0].signedDistance(p);
  for (int f = 1, nf = static_cast<int>(poly.faces.size()); f < nf; ++f) {
    const double s = poly.faces[f].signedDistance(p);
    if (s > bs) bs = s, bf = f;
  }
  if (bs > radius) {
    r.distance = bs;
    r.feature = Feature::Far;
    return r;
  }
  const Plane& face = poly.faces[bf];
  const Vec3 projected = p - bs * face.normal;
  if (bs <= 0) {
    r.distance = bs;
    r.closest = projected;
    r.normal = face.normal;
    r.face = bf;
    r.feature = bs < 0 ? Feature::Inside : Feature::Face;
    return r;
  }
  // Outside: if the projection onto that face lies inside the face polygon, the
  // plane distance is attained and is the distance.
  bool inFace = true;
  const double tol = 1e-12 * poly.scale;
  for (int e = poly.edgeStart[bf], end = poly.edgeStart[bf + 1]; e < end && inFace; ++e)
    inFace = poly.edges[e].signedDistance(projected) <= tol;
  if (inFace) {
    r.distance = bs;
    r.closest = projected;
    r.normal = face.normal;
    r.face = bf;
    r.feature = Feature::Face;
    return r;
  }

  // Near an edge or a vertex: GJK on the polytope translated by −p.
  const auto support = [&](const Vec3& d, std::int64_t& id) {
    const int k = poly.support(d);
    id = k;
    return Vec3(poly.vertices[k] - p);
  };
  const int k0 = poly.support(p - poly.centroid);
  bool converged = true;
  Simplex s = gjk(support, poly.vertices[k0] - p, k0, poly.scale, r.iterations, converged);
  r.converged = converged;
  const Vec3 v = closestOf(s);
  r.distance = v.norm();
  r.closest = p + v;
  if (r.distance > 0) {
    r.normal = -v / r.distance;
  } else {
    r.normal = face.normal;  // touching: the nearest face's normal is the only defined direction
  }
  r.feature = s.n == 1 ? Feature::Vertex : s.n == 2 ? Feature::Edge : Feature::Face;
  return r;
}

ConvexDistance convexDistance(const Polytope& a, const Polytope& b) {
  ConvexDistance r;
  const std::int64_t nb = static_cast<std::int64_t>(b.vertices.size());
  const auto support = [&](const Vec3& d, std::int64_t& id) {
    const int ia = a.support(d);
    const int ib = b.support(-d);
    id = ia * nb + ib;
    return Vec3(a.vertices[ia] - b.vertices[ib]);
  };
  std::int64_t id0;
  const Vec3 w0 = support(b.centroid - a.centroid, id0);
  bool converged = true;
  const double scale = std::max(a.scale, b.scale);
  Simplex s = gjk(support, w0, id0, scale, r.iterations, converged);
  r.converged = converged;
  r.pointA.setZero();
  r.pointB.setZero();
  for (int i = 0; i < s.n; ++i) {
    r.pointA += s.lambda[i] * a.vertices[s.id[i] / nb];
    r.pointB += s.lambda[i] * b.vertices[s.id[i] % nb];
  }
  const double d = closestOf(s).norm();
  r.intersecting = s.n == 4 || d <= 1e-13 * scale;
  r.distance = r.intersecting ? 0.0 : d;
  return r;
}

}  // namespace roverlab
