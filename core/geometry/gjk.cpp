// GJK distance with the signed-volume sub-algorithm.
//
// The sub-algorithm finds the point of a simplex (1-4 points) closest to the
// origin and the smallest sub-simplex that holds it, by the signs of signed
// lengths, areas and volumes (Montanari, Petrinic, Barbieri 2017, "Improving
// the GJK algorithm for faster and more reliable distance queries between
// convex objects"). Unlike Johnson's sub-algorithm it has no case that drops
// the closest feature when a simplex is nearly degenerate.
#include "geometry/gjk.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace roverlab {
namespace {

// A simplex of 1-4 support points with the closest point v = Σ λ_i w_i.
struct Simplex {
  Vec3 w[4] = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};  // support points
  std::int64_t id[4] = {};  // which vertices (pair) made each point
  double lambda[4] = {};    // barycentric weights of the closest point
  int n = 0;
  Vec3 v = Vec3::Zero();  // closest point to the origin
  double vv = 0.0;        // |v|²
};

void setPoint(Simplex& s, const Vec3& a, std::int64_t ia) {
  s.n = 1;
  s.w[0] = a;
  s.id[0] = ia;
  s.lambda[0] = 1;
  s.v = a;
  s.vv = a.squaredNorm();
}

// Segment ab: origin projected onto the line, clamped by the signs of the
// barycentric coordinates.
void s1d(const Vec3& a, std::int64_t ia, const Vec3& b, std::int64_t ib, Simplex& out) {
  const Vec3 t = b - a;
  const double tt = t.squaredNorm();
  const double mu = tt > 0 ? -a.dot(t) / tt : 0.0;
  if (mu <= 0) return setPoint(out, a, ia);
  if (mu >= 1) return setPoint(out, b, ib);
  out.n = 2;
  out.w[0] = a, out.w[1] = b;
  out.id[0] = ia, out.id[1] = ib;
  out.lambda[0] = 1 - mu, out.lambda[1] = mu;
  out.v = a + mu * t;
  out.vv = out.v.squaredNorm();
}

// Keeps the candidate closer to the origin.
void keepBest(Simplex& best, bool& have, const Simplex& c) {
  if (have && !(c.vv < best.vv)) return;
  have = true;
  best.n = c.n;
  for (int i = 0; i < c.n; ++i)
    best.w[i] = c.w[i], best.id[i] = c.id[i], best.lambda[i] = c.lambda[i];
  best.v = c.v;
  best.vv = c.vv;
}

// Triangle abc: barycentric coordinates of the origin's projection from
// signed areas; only the edges the projection lies beyond are tried.
void s2d(const Vec3* w, const std::int64_t* id, Simplex& out) {
  const Vec3 nrm = (w[1] - w[0]).cross(w[2] - w[0]);
  const double nn = nrm.squaredNorm();
  const double scale2 = (w[1] - w[0]).squaredNorm() + (w[2] - w[0]).squaredNorm();
  bool have = false;
  Simplex edge;
  if (nn > 1e-24 * scale2 * scale2) {
    const Vec3 p0 = (w[0].dot(nrm) / nn) * nrm;
    double lam[3];
    for (int i = 0; i < 3; ++i)
      lam[i] = (w[(i + 1) % 3] - p0).cross(w[(i + 2) % 3] - p0).dot(nrm) / nn;
    if (lam[0] >= 0 && lam[1] >= 0 && lam[2] >= 0) {
      out.n = 3;
      const double sum = lam[0] + lam[1] + lam[2];
      for (int i = 0; i < 3; ++i) out.w[i] = w[i], out.id[i] = id[i], out.lambda[i] = lam[i] / sum;
      out.v = p0;
      out.vv = p0.squaredNorm();
      return;
    }
    for (int i = 0; i < 3; ++i)
      if (lam[i] < 0) {
        const int a = (i + 1) % 3, b = (i + 2) % 3;
        s1d(w[a], id[a], w[b], id[b], edge);
        keepBest(out, have, edge);
      }
    return;
  }
  // Degenerate (collinear) triangle: the closest point is on one of its edges.
  for (int i = 0; i < 3; ++i) {
    const int a = (i + 1) % 3, b = (i + 2) % 3;
    s1d(w[a], id[a], w[b], id[b], edge);
    keepBest(out, have, edge);
  }
}

double volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).dot((c - a).cross(d - a));
}

// Tetrahedron: the origin is inside when every sub-volume with the origin in
// place of one vertex has the sign of the whole; otherwise try the faces it
// lies beyond.
void s3d(const Simplex& s, Simplex& out) {
  static const int faceOf[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  const Vec3 o = Vec3::Zero();
  const Vec3* w = s.w;
  const double det = volume(w[0], w[1], w[2], w[3]);
  double scale = 0;
  for (int i = 1; i < 4; ++i) scale = std::max(scale, (w[i] - w[0]).norm());
  const bool solid = std::abs(det) > 1e-14 * scale * scale * scale;
  double c[4] = {0, 0, 0, 0};
  if (solid) {
    c[0] = volume(o, w[1], w[2], w[3]);
    c[1] = volume(w[0], o, w[2], w[3]);
    c[2] = volume(w[0], w[1], o, w[3]);
    c[3] = volume(w[0], w[1], w[2], o);
    if (c[0] * det >= 0 && c[1] * det >= 0 && c[2] * det >= 0 && c[3] * det >= 0) {
      out = s;
      for (int i = 0; i < 4; ++i) out.lambda[i] = c[i] / det;
      out.v.setZero();
      out.vv = 0;
      return;
    }
  }
  bool have = false;
  Simplex face;
  for (int i = 0; i < 4; ++i) {
    if (solid && c[i] * det >= 0) continue;
    const Vec3 fw[3] = {w[faceOf[i][0]], w[faceOf[i][1]], w[faceOf[i][2]]};
    const std::int64_t fid[3] = {s.id[faceOf[i][0]], s.id[faceOf[i][1]], s.id[faceOf[i][2]]};
    s2d(fw, fid, face);
    keepBest(out, have, face);
  }
}

// Closest point of `s` plus one new point, reduced to the smallest sub-simplex.
void extend(const Simplex& s, const Vec3& w, std::int64_t id, Simplex& out) {
  switch (s.n) {
    case 1:
      return s1d(s.w[0], s.id[0], w, id, out);
    case 2: {
      const Vec3 tw[3] = {s.w[0], s.w[1], w};
      const std::int64_t tid[3] = {s.id[0], s.id[1], id};
      return s2d(tw, tid, out);
    }
    default: {
      Simplex t = s;
      t.w[3] = w;
      t.id[3] = id;
      t.n = 4;
      return s3d(t, out);
    }
  }
}

// GJK (Gilbert, Johnson, Keerthi 1988) on the Minkowski difference given by
// `support(d, id)`, from the simplex `s`. Stops when the support point repeats
// (exact for polytopes), when ‖v‖² − v·w ≤ ε‖v‖² (the distance error is then
// below ≈ ε‖v‖/2), when ‖v‖ stops decreasing in floating point, or when the
// origin is enclosed.
template <class Support>
void gjk(const Support& support, Simplex& s, double scale, int& iterations, bool& converged) {
  const double eps = 1e-15;
  const double touch = 1e-26 * scale * scale;  // (1e-13 of the size)²: touching
  converged = true;
  Simplex next;
  for (iterations = 1; iterations <= kGjkMaxIterations; ++iterations) {
    if (s.vv <= touch) return;
    std::int64_t id;
    const Vec3 w = support(Vec3(-s.v), id);
    bool repeated = false;
    for (int i = 0; i < s.n; ++i) repeated = repeated || s.id[i] == id;
    if (repeated || s.vv - s.v.dot(w) <= eps * s.vv) return;
    extend(s, w, id, next);
    if (next.n == 4) {  // origin enclosed
      s = next;
      return;
    }
    if (!(next.vv < s.vv)) return;  // no progress: the current simplex is optimal in precision
    s = next;
  }
  converged = false;
}

}  // namespace

PointDistance pointDistance(const Polytope& poly, const Vec3& p, double radius) {
  PointDistance r;
  // What the query reads after the face-plane pass, asked for now: a polytope
  // out of cache then costs fewer waits on memory one after another.
  __builtin_prefetch(poly.edgeStart.data());
  __builtin_prefetch(poly.vertices.data());
  __builtin_prefetch(poly.vertices.data() + 3);
  __builtin_prefetch(poly.vertices.data() + 6);
  // Face-plane pass: the largest signed plane distance is a lower bound of the
  // distance outside and the exact (negative) distance inside.
  // (Scalar code: Eigen's packets do not pay off on 3-vectors.)
  const Plane* faces = poly.faces.data();
  const int nf = static_cast<int>(poly.faces.size());
  const double px = p.x(), py = p.y(), pz = p.z();
  int bf = 0;
  double bs = -std::numeric_limits<double>::infinity();
  const int* edgeStart = poly.edgeStart.data();
  const FaceEdge* edges = poly.edges.data();
  for (int f = 0; f < nf; ++f) {
    const Vec3& n = faces[f].normal;
    const double s = n.x() * px + n.y() * py + n.z() * pz - faces[f].offset;
    if (s > bs) {
      bs = s, bf = f;
      // Its edges, read next for a point outside, asked for now: the
      // face pass's remaining faces hide part of the wait.
      __builtin_prefetch(edges + edgeStart[f]);
    }
  }
  if (bs > radius) {
    r.distance = bs;
    r.feature = Feature::Far;
    return r;
  }
  const Plane& face = faces[bf];
  const Vec3 projected = p - bs * face.normal;
  r.normal = face.normal;
  r.face = bf;
  if (bs <= 0) {
    r.distance = bs;
    r.closest = projected;
    r.feature = bs < 0 ? Feature::Inside : Feature::Face;
    return r;
  }
  // Outside: if the projection onto that face lies inside the face polygon, the
  // plane distance is attained and is the distance.
  const double tol = 1e-12 * poly.scale;
  int worst = -1;
  double worstOut = tol;
  const double qx = projected.x(), qy = projected.y(), qz = projected.z();
  for (int e = poly.edgeStart[bf], end = poly.edgeStart[bf + 1]; e < end; ++e) {
    const Plane& ep = poly.edges[e].plane;
    const double out = ep.normal.x() * qx + ep.normal.y() * qy + ep.normal.z() * qz - ep.offset;
    if (out > worstOut) worstOut = out, worst = e;
  }
  if (worst < 0) {
    r.distance = bs;
    r.closest = projected;
    r.feature = Feature::Face;
    return r;
  }

  // Near an edge: p lies in the Voronoi region of the face edge e = A → B its
  // projection lies farthest beyond when it lies between A and B (the segment's
  // nearest point is inside it). It is beyond e in this face F; and beyond e in
  // the other face G through e too, since F has the largest plane distance: in
  // the plane square to e, with the angle θ ∈ (0, π) between the faces'
  // normals and w the part of p − A square to e, a w beyond e in F (w·m_F > 0)
  // but not in G has distance to G's plane larger than to F's by at least
  // (w·m_F)(1 − cos θ)/sin θ > 0. That nearest point is then the answer, the
  // one GJK's first iteration would confirm. Otherwise (near a vertex, or an
  // edge other than that one) GJK runs on the polytope translated by −p, from
  // that edge's nearer end.
  r.face = -1;
  const Vec3* vertices = poly.vertices.data();
  const FaceEdge& start = poly.edges[worst];
  Simplex s;
  s1d(vertices[start.from] - p, start.from, vertices[start.to] - p, start.to, s);
  const int nv = static_cast<int>(poly.vertices.size());
  const auto support = [&](const Vec3& d, std::int64_t& id) {
    const double dx = d.x(), dy = d.y(), dz = d.z();
    int k = 0;
    double best = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < nv; ++i) {
      const double s = vertices[i].x() * dx + vertices[i].y() * dy + vertices[i].z() * dz;
      if (s > best) best = s, k = i;
    }
    id = k;
    return Vec3(vertices[k] - p);
  };
  bool converged = true;
  if (s.n != 2) gjk(support, s, poly.scale, r.iterations, converged);  // 2: inside the edge
  r.converged = converged;
  r.distance = std::sqrt(s.vv);
  r.closest = p + s.v;
  if (r.distance > 0) r.normal = -s.v / r.distance;  // else touching: keep the face normal
  r.feature = s.n == 1 ? Feature::Vertex : s.n == 2 ? Feature::Edge : Feature::Face;
  if (r.feature == Feature::Face) {
    // The projection onto the largest-distance face fell outside it, yet the
    // closest point is on another face: the face whose normal it is.
    double bestDot = -2;
    for (int f = 0; f < nf; ++f)
      if (const double d = faces[f].normal.dot(r.normal); d > bestDot) bestDot = d, r.face = f;
  }
  if (r.distance > radius) r.feature = Feature::Far;  // exact, hence also a lower bound
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
  Simplex s;
  setPoint(s, w0, id0);
  bool converged = true;
  const double scale = std::max(a.scale, b.scale);
  gjk(support, s, scale, r.iterations, converged);
  r.converged = converged;
  r.pointA.setZero();
  r.pointB.setZero();
  for (int i = 0; i < s.n; ++i) {
    r.pointA += s.lambda[i] * a.vertices[s.id[i] / nb];
    r.pointB += s.lambda[i] * b.vertices[s.id[i] % nb];
  }
  const double d = std::sqrt(s.vv);
  r.intersecting = s.n == 4 || d <= 1e-13 * scale;
  r.distance = r.intersecting ? 0.0 : d;
  return r;
}

}  // namespace roverlab
