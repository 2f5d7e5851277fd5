#include "contact/box_union.h"

#include <algorithm>
#include <cmath>

#include "common/elementary.h"
#include "contact/body_contact.h"

namespace roverlab {
namespace {

// Twice the signed area of the triangle a, b, c in the face's coordinates:
// > 0 when c lies left of a → b.
double turn(const UnionPoint& a, const UnionPoint& b, const UnionPoint& c) {
  return (b.u - a.u) * (c.v - a.v) - (b.v - a.v) * (c.u - a.u);
}

bool coincide(const UnionPoint& a, const UnionPoint& b) {
  return std::abs(a.u - b.u) <= kHullTolerance && std::abs(a.v - b.v) <= kHullTolerance;
}

// Adds p to a monotone chain: a point on the chain's last (within
// kHullTolerance) keeps the deeper of the two; points that no longer turn
// left leave it, and so do those within 10 kHullTolerance of the line
// through their neighbours (collinear but for the grid's rounding).
void extendChain(const std::vector<UnionPoint>& points, int p, std::vector<int>& chain,
                 size_t start) {
  if (chain.size() > start && coincide(points[chain.back()], points[p])) {
    if (points[p].depth > points[chain.back()].depth) chain.back() = p;
    return;
  }
  while (chain.size() >= start + 2) {
    const UnionPoint& a = points[chain[chain.size() - 2]];
    const UnionPoint& b = points[chain.back()];
    const UnionPoint& c = points[p];
    // b's distance from the line a–c is turn / |ac|.
    const double du = c.u - a.u, dv = c.v - a.v;
    if (turn(a, b, c) > 10 * kHullTolerance * std::sqrt(du * du + dv * dv)) break;
    chain.pop_back();
  }
  chain.push_back(p);
}

}  // namespace

void addManifold(const BoxManifold& m, int feature, double mu, BoxUnion& u) {
  const bool planar = m.axis != ContactAxis::Edges;
  int group = -1;
  if (planar)
    for (size_t g = 0; g < u.groups.size() && group < 0; ++g) {
      const UnionGroup& x = u.groups[g];
      if (x.planar && x.boxFace == m.boxFace && (x.plane - m.plane).norm() <= kPlaneTolerance &&
          std::abs(x.offset - m.offset) <= kPlaneTolerance)
        group = static_cast<int>(g);
    }
  if (group < 0) {
    group = static_cast<int>(u.groups.size());
    u.groups.push_back({m.boxFace, planar, m.plane, m.offset});
  }
  for (int k = 0; k < m.count; ++k) {
    UnionPoint p;
    p.at = m.points[k];
    // The polygon's own point: the hull is taken of the polygons, which an
    // affine map takes to the box face (a contact point is moved by its depth).
    p.onPolygon = planar ? Vec3(p.at - 0.5 * m.depths[k] * m.plane) : p.at;
    p.normal = m.normal;
    p.depth = m.depths[k];
    p.mu = mu;
    p.feature = feature;
    p.group = group;
    u.points.push_back(p);
  }
}

void unionContacts(const ContactBox& box, const Eigen::Matrix3d& axes, const BodyMotion& motion,
                   BoxUnion& u, std::vector<BodyContact>& out) {
  if (u.points.empty()) return;
  std::vector<UnionPoint>& points = u.points;
  for (UnionPoint& p : points) {
    const int a = u.groups[p.group].boxFace / 2;
    // On a grid of kHullTolerance: points of one straight side (clipped from
    // different parts) then share their coordinate exactly, and the sort
    // takes them in order along it.
    p.u =
        elementary::round(axes.col((a + 1) % 3).dot(p.onPolygon) / kHullTolerance) * kHullTolerance;
    p.v =
        elementary::round(axes.col((a + 2) % 3).dot(p.onPolygon) / kHullTolerance) * kHullTolerance;
  }
  std::vector<int>& order = u.order;
  order.resize(points.size());
  for (size_t i = 0; i < points.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const UnionPoint &p = points[a], &q = points[b];
    if (p.group != q.group) return p.group < q.group;
    if (p.u != q.u) return p.u < q.u;
    if (p.v != q.v) return p.v < q.v;
    return a < b;  // the same order whatever the sort's own
  });

  // The contact points: each group's hull corners below its plane, in u.hull.
  std::vector<int>& contact = u.hull;
  contact.clear();
  for (size_t b = 0; b < order.size();) {
    size_t e = b;
    while (e < order.size() && points[order[e]].group == points[order[b]].group) ++e;
    if (!u.groups[points[order[b]].group].planar) {
      for (size_t i = b; i < e; ++i)
        if (points[order[i]].depth > 0) contact.push_back(order[i]);
      b = e;
      continue;
    }
    // Andrew's monotone chain, lower then upper, on the group's points; the
    // chain is built at the end of `order` and removed after.
    const size_t start = order.size();
    for (size_t i = b; i < e; ++i) extendChain(points, order[i], order, start);
    const size_t lower = order.size();
    for (size_t i = e; i-- > b;) extendChain(points, order[i], order, lower - 1);
    // lower chain start..lower-1, upper chain lower-1..end: the upper chain's
    // last point is the lower chain's first.
    size_t end = order.size();
    if (end - start > 1 && coincide(points[order[end - 1]], points[order[start]])) {
      if (points[order[end - 1]].depth > points[order[start]].depth) order[start] = order[end - 1];
      --end;
    }
    for (size_t i = start; i < end; ++i)
      if (points[order[i]].depth > 0) contact.push_back(order[i]);
    order.resize(start);
    b = e;
  }

  // A point two groups give (a crease's edge that is also a face's side, at
  // the same depth along the same normal) is one point: the later goes.
  size_t kept = 0;
  for (size_t i = 0; i < contact.size(); ++i) {
    const UnionPoint& p = points[contact[i]];
    bool repeated = false;
    for (size_t j = 0; j < kept && !repeated; ++j) {
      const UnionPoint& q = points[contact[j]];
      repeated = u.groups[q.group].boxFace == u.groups[p.group].boxFace && coincide(p, q) &&
                 (p.normal - q.normal).norm() <= kPlaneTolerance &&
                 std::abs(p.depth - q.depth) <= kHullTolerance;
    }
    if (!repeated) contact[kept++] = contact[i];
  }
  contact.resize(kept);

  // One spring-damper per box face, shared by its points in proportion to depth.
  double sums[6] = {0, 0, 0, 0, 0, 0};  // each face's points' depths, added in order (m)
  for (int i : contact) {
    const int face = u.groups[points[i].group].boxFace;
    if (face >= 0 && face < 6) sums[face] += points[i].depth;
  }
  for (int face = 0; face < 6; ++face) {
    const double sum = sums[face];
    if (sum <= 0) continue;
    BodyContact c;
    double deepest = 0;
    Vec3 weighted = Vec3::Zero();
    for (int i : contact) {
      const UnionPoint& p = points[i];
      if (u.groups[p.group].boxFace != face) continue;
      const double share = p.depth / sum;
      const Vec3 vel = motion.velocity + motion.omega.cross(p.at - motion.origin);
      const double vn = vel.dot(p.normal);
      const double fn = share * std::max(0.0, box.stiffness * p.depth - box.damping * vn);
      if (fn <= 0) continue;  // non-holding
      const Vec3 vt = vel - vn * p.normal;
      const double speed = vt.norm();
      // Coulomb friction regularised by the point's share of the damping:
      // viscous below μ·F_n / (s·c), never above μ·F_n.
      const Vec3 ft = speed > 0
                          ? Vec3(-std::min(p.mu * fn, share * box.damping * speed) / speed * vt)
                          : Vec3::Zero();
      c.normalForce += fn * p.normal;
      c.tangentialForce += ft;
      c.moment += p.at.cross(fn * p.normal + ft);
      c.load += fn;
      c.frictionLimit += p.mu * fn;
      weighted += fn * p.at;
      ++c.points;
      if (p.depth > deepest) deepest = p.depth, c.piece = p.feature;
    }
    if (c.points == 0) continue;
    c.depth = deepest;
    c.point = weighted / c.load;
    c.normal = c.normalForce.normalized();
    out.push_back(c);
  }
}

}  // namespace roverlab
