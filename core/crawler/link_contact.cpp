#include "crawler/link_contact.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "common/elementary.h"

namespace roverlab {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kHalfPi = kPi / 2;
constexpr double kInf = std::numeric_limits<double>::infinity();

// [BSTU2019]'s conditions contain equalities (r_O1 = r_A, α_p = φ_p) that decimal
// input meets only up to rounding. Angles within 1e-9 rad, and points within
// 1e-9 of the problem's size, count as equal: far above the ~1e-16 relative
// rounding of the computation, far below any size a user would type.
constexpr double kTol = 1e-9;

enum VertexId { kA = 0, kB = 1, kD = 2, kE = 3 };
constexpr const char* kVertexNames[4] = {"A", "B", "D", "E"};

struct Side {
  VertexId from, to;
  const char* name;
};
// The sides with the paper's names (AE carries Q, AB carries K, DE carries M).
constexpr Side kSides[4] = {{kA, kE, "AE"}, {kE, kD, "ED"}, {kA, kB, "AB"}, {kB, kD, "BD"}};
enum SideId { kAE = 0, kED = 1, kAB = 2, kBD = 3 };

Vec2 direction(double angle) { return Vec2(elementary::cos(angle), elementary::sin(angle)); }
double cross(const Vec2& p, const Vec2& q) { return p.x() * q.y() - p.y() * q.x(); }
/// Angle wrapped to [−π, π].
double wrapAngle(double a) { return std::remainder(a, 2 * kPi); }
double polarAngle(const Vec2& p) { return elementary::atan2(p.y(), p.x()); }

std::string formatAngle(double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g rad (%.4g deg)", a, a * 180 / kPi);
  return buf;
}

/// The obstacle in the frame A x_A y_A of [BSTU2019] (x_A along AE, y_A along AB).
struct Frame {
  Vec2 origin;
  double c, s;  // cos α, sin α
  Vec2 toLocal(const Vec2& p) const {
    const Vec2 d = p - origin;
    return Vec2(c * d.x() + s * d.y(), -s * d.x() + c * d.y());
  }
  Vec2 toWorld(const Vec2& q) const {
    return origin + Vec2(c * q.x() - s * q.y(), s * q.x() + c * q.y());
  }
};

/// Parameter interval [t0, t1] ⊂ [0, 1] of p0 + t·d inside the box [lo, hi]
/// (Liang–Barsky); nullopt when they do not meet.
std::optional<std::pair<double, double>> clipToBox(const Vec2& p0, const Vec2& d, const Vec2& lo,
                                                   const Vec2& hi) {
  double t0 = 0, t1 = 1;
  for (int k = 0; k < 2; ++k) {
    if (lo[k] > hi[k]) return std::nullopt;
    if (d[k] == 0) {
      if (p0[k] < lo[k] || p0[k] > hi[k]) return std::nullopt;
      continue;
    }
    double ta = (lo[k] - p0[k]) / d[k], tb = (hi[k] - p0[k]) / d[k];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return std::nullopt;
  }
  return std::make_pair(t0, t1);
}

struct Problem {
  const LinkObstacle& in;
  Frame frame;
  std::array<Vec2, 4> v;  // A, B, D, E
  double tolLen;          // length tolerance (m)

  /// Link at angle φ in the obstacle frame: start (O) and the vector O → O1.
  std::pair<Vec2, Vec2> localLink(double phi) const {
    const Vec2 o = frame.toLocal(Vec2::Zero());
    return {o, frame.toLocal(in.length * direction(phi)) - o};
  }
  /// Does the link at φ overlap the obstacle's interior (deeper than tolLen)?
  bool overlapsInterior(double phi) const {
    const auto [o, d] = localLink(phi);
    const auto t =
        clipToBox(o, d, Vec2(tolLen, tolLen), Vec2(in.sideL - tolLen, in.sideB - tolLen));
    return t && t->first < t->second;
  }
  /// Does the link at φ meet the closed obstacle (within tolLen)?
  bool meets(double phi) const {
    const auto [o, d] = localLink(phi);
    return clipToBox(o, d, Vec2(-tolLen, -tolLen), Vec2(in.sideL + tolLen, in.sideB + tolLen))
        .has_value();
  }
};

std::vector<Issue> validate(const LinkObstacle& in) {
  std::vector<Issue> issues;
  auto finite = [&](double x, const char* path) {
    if (std::isfinite(x)) return true;
    issues.push_back({path, "not finite"});
    return false;
  };
  auto positive = [&](double x, const char* path) {
    if (finite(x, path) && !(x > 0)) issues.push_back({path, "must be > 0 (m), got " + format(x)});
  };
  positive(in.length, "L");
  positive(in.sideL, "l");
  positive(in.sideB, "b");
  finite(in.a.x(), "A[0]");
  finite(in.a.y(), "A[1]");
  const bool startOk = finite(in.phiStart, "phiStart");
  const bool endOk = finite(in.phiEnd, "phiEnd");
  if (startOk && in.phiStart < 0)
    issues.push_back({"phiStart",
                      "must be >= 0: [BSTU2019] turns the link within the first quadrant "
                      "(0 <= phi_n < phi_k <= pi/2, Fig. 1b), got " +
                          formatAngle(in.phiStart)});
  if (endOk && in.phiEnd > kHalfPi)
    issues.push_back({"phiEnd",
                      "must be <= pi/2: [BSTU2019] turns the link within the first quadrant "
                      "(0 <= phi_n < phi_k <= pi/2, Fig. 1b), got " +
                          formatAngle(in.phiEnd)});
  if (startOk && endOk && !(in.phiStart < in.phiEnd))
    issues.push_back({"phiEnd",
                      "must be greater than phiStart: the link turns counterclockwise "
                      "from phi_n to phi_k ([BSTU2019], Fig. 1b)"});
  if (finite(in.alpha, "alpha") && !(in.alpha > -kHalfPi && in.alpha <= kHalfPi))
    issues.push_back(
        {"alpha", "must be in (-pi/2, pi/2] ([BSTU2019], Fig. 1b), got " + formatAngle(in.alpha)});
  return issues;
}

/// Least link angle in [φ_n, φ_k] at which the link meets the obstacle, or
/// nullopt. The obstacle within the disc |p| ≤ L is convex and O is outside
/// it, so the angles where the link meets it form one interval whose lower end
/// is the polar angle of a vertex inside the disc or of a side's crossing with
/// the circle |p| = L (O1's arc).
std::optional<double> firstContactAngle(const Problem& pr) {
  const LinkObstacle& in = pr.in;
  if (pr.meets(in.phiStart)) return in.phiStart;
  const double span = in.phiEnd - in.phiStart;
  double best = kInf;
  auto consider = [&](const Vec2& p) {
    const double delta = wrapAngle(polarAngle(p) - in.phiStart);
    if (delta >= -kTol && delta <= span + kTol) best = std::min(best, std::max(delta, 0.0));
  };
  for (const Vec2& p : pr.v)
    if (p.norm() <= in.length + pr.tolLen) consider(p);
  for (const Side& side : kSides) {
    const Vec2 p = pr.v[side.from], d = pr.v[side.to] - p;
    const double len = d.norm();
    const Vec2 dHat = d / len;
    const double h = std::abs(cross(dHat, p));  // distance from O to the side's line
    if (h > in.length + pr.tolLen) continue;
    const double sFoot = -p.dot(dHat);
    // Within tolLen of tangency the side touches the arc at the foot point: the
    // half chord √(L² − h²) would turn a rounding error ε in h into √(2Lε).
    const double halfChord =
        h >= in.length - pr.tolLen ? 0.0 : std::sqrt(in.length * in.length - h * h);
    for (double s : {sFoot - halfChord, sFoot + halfChord})
      if (s >= -pr.tolLen && s <= len + pr.tolLen) consider(p + std::clamp(s, 0.0, len) * dHat);
  }
  if (best > span + kTol) return std::nullopt;
  return in.phiStart + std::min(best, span);
}

/// Which features touch at the first contact.
struct Touch {
  enum class What { AlongSide, EndOnVertex, EndOnSide, InteriorOnVertex, Nothing } what;
  int id = 0;  // VertexId or SideId
};

Touch touchingFeature(const Problem& pr, double phi) {
  const double len = pr.in.length;
  const Vec2 u = direction(phi), o1 = len * u;
  const double tol = pr.tolLen;
  // A side along the link: parallel to it, on its line, overlapping it.
  for (int i = 0; i < 4; ++i) {
    const Vec2 p = pr.v[kSides[i].from], q = pr.v[kSides[i].to];
    const Vec2 dHat = (q - p).normalized();
    if (std::abs(cross(u, dHat)) > kTol || std::abs(cross(u, p)) > tol) continue;
    const double lo = std::max(0.0, std::min(p.dot(u), q.dot(u)));
    const double hi = std::min(len, std::max(p.dot(u), q.dot(u)));
    if (hi - lo > tol) return {Touch::What::AlongSide, i};
  }
  for (int k = 0; k < 4; ++k)
    if ((pr.v[k] - o1).norm() <= tol) return {Touch::What::EndOnVertex, k};
  for (int i = 0; i < 4; ++i) {
    const Vec2 p = pr.v[kSides[i].from], d = pr.v[kSides[i].to] - p;
    const double s = std::clamp((o1 - p).dot(d) / d.squaredNorm(), 0.0, 1.0);
    if ((p + s * d - o1).norm() <= tol) return {Touch::What::EndOnSide, i};
  }
  for (int k = 0; k < 4; ++k) {
    const double along = pr.v[k].dot(u);
    if (std::abs(cross(u, pr.v[k])) <= tol && along >= -tol && along <= len + tol)
      return {Touch::What::InteriorOnVertex, k};
  }
  return {Touch::What::Nothing, 0};
}

/// [BSTU2019]'s kind for a touching feature; None for features it does not list.
ContactKind kindOf(const Touch& t) {
  switch (t.what) {
    case Touch::What::AlongSide:
      return t.id == kAE   ? ContactKind::AlongAE
             : t.id == kED ? ContactKind::AlongED
                           : ContactKind::None;
    case Touch::What::EndOnVertex:
      return t.id == kA   ? ContactKind::O1A
             : t.id == kB ? ContactKind::O1B
             : t.id == kE ? ContactKind::O1E
                          : ContactKind::None;
    case Touch::What::EndOnSide:
      return t.id == kAE   ? ContactKind::O1Q
             : t.id == kAB ? ContactKind::O1K
             : t.id == kED ? ContactKind::O1M
                           : ContactKind::None;
    case Touch::What::InteriorOnVertex:
      return t.id == kA ? ContactKind::NA : t.id == kE ? ContactKind::NE : ContactKind::None;
    case Touch::What::Nothing:
      break;
  }
  return ContactKind::None;
}

std::string describe(const Touch& t) {
  switch (t.what) {
    case Touch::What::AlongSide:
      return std::string("the link along side ") + kSides[t.id].name;
    case Touch::What::EndOnVertex:
      return std::string("the link end O1 on vertex ") + kVertexNames[t.id];
    case Touch::What::EndOnSide:
      return std::string("the link end O1 on side ") + kSides[t.id].name;
    case Touch::What::InteriorOnVertex:
      return std::string("the link interior on vertex ") + kVertexNames[t.id];
    case Touch::What::Nothing:
      break;
  }
  return "no identifiable feature";
}

/// Mode n for kind v from [BSTU2019]'s conditions on α_p (= α) and φ_p; 0 when
/// none holds. Equalities and strict inequalities are taken with kTol.
int paperMode(ContactKind v, double alpha, double phiP) {
  auto eq = [](double x, double y) { return std::abs(x - y) <= kTol; };
  auto lt = [](double x, double y) { return x < y - kTol; };
  auto le = [](double x, double y) { return x <= y + kTol; };
  const double q = phiP - kHalfPi;  // φ_p − π/2
  const int correction = alpha >= 0 ? 1 : 2;
  switch (v) {
    case ContactKind::O1A:  // v = 1: n = 1 if φ_p < α ≤ π/2; 3 if 0 ≤ α ≤ φ_p; 4 if φ_p − π/2 ≤ α <
                            // 0
      if (lt(phiP, alpha)) return 1;
      if (alpha >= 0) return 3;
      return le(q, alpha) ? 4 : 0;
    case ContactKind::O1B:  // v = 2: n = 3 if φ_p ≤ α ≤ π/2
      return le(phiP, alpha) ? 3 : 0;
    case ContactKind::O1E:  // v = 3: n = 4 if α ≤ φ_p − π/2; 1 if 0 ≤ α < φ_p; 2 if φ_p − π/2 < α <
                            // 0
      if (le(alpha, q)) return 4;
      return lt(alpha, phiP) ? correction : 0;
    case ContactKind::O1Q:  // v = 4: n = 4 if α = φ_p − π/2 (AE ⊥ link); else 1 / 2 as for v = 3
      if (eq(alpha, q)) return 4;
      return lt(q, alpha) && lt(alpha, phiP) ? correction : 0;
    case ContactKind::O1K:  // v = 5: n = 3 if α = φ_p (AB ⊥ link); 1 if φ_p < α ≤ π/2
      if (eq(alpha, phiP)) return 3;
      return lt(phiP, alpha) ? 1 : 0;
    case ContactKind::O1M:  // v = 6: n = 2 if −π/2 < α < φ_p − π/2
      return lt(alpha, q) ? 2 : 0;
    case ContactKind::NA:  // v = 7: n = 1 if φ_p < α ≤ π/2
      return lt(phiP, alpha) ? 1 : 0;
    case ContactKind::NE:  // v = 8: n = 1 if 0 ≤ α < φ_p; 2 if φ_p − π/2 < α < 0
      return lt(q, alpha) && lt(alpha, phiP) ? correction : 0;
    case ContactKind::AlongAE:  // v = 9: n = 1 if α = φ_p
      return eq(alpha, phiP) ? 1 : 0;
    case ContactKind::AlongED:  // v = 10: n = 2 if α = φ_p − π/2
      return eq(alpha, q) ? 2 : 0;
    case ContactKind::None:
      break;
  }
  return 0;
}

/// Distance from O to the obstacle within the wedge φ_n ≤ φ ≤ φ_k: the least
/// distance over the vertices in the wedge, the sides' points nearest to O in
/// the wedge and the sides' crossings with the wedge's two rays.
double nearestInWedge(const Problem& pr) {
  const double span = pr.in.phiEnd - pr.in.phiStart;
  auto inWedge = [&](const Vec2& p) {
    const double delta = wrapAngle(polarAngle(p) - pr.in.phiStart);
    return delta >= -kTol && delta <= span + kTol;
  };
  double best = kInf;
  for (const Vec2& p : pr.v)
    if (inWedge(p)) best = std::min(best, p.norm());
  for (const Side& side : kSides) {
    const Vec2 p = pr.v[side.from], d = pr.v[side.to] - p;
    const Vec2 foot = p + std::clamp(-p.dot(d) / d.squaredNorm(), 0.0, 1.0) * d;
    if (inWedge(foot)) best = std::min(best, foot.norm());
    for (double ray : {pr.in.phiStart, pr.in.phiEnd}) {
      const Vec2 u = direction(ray);
      const double den = cross(d, u);
      if (den == 0) continue;
      const double s = -cross(p, u) / den;
      const double t = (p + s * d).dot(u);
      if (s >= 0 && s <= 1 && t >= 0) best = std::min(best, t);
    }
  }
  return best;
}

}  // namespace

const char* contactKindName(ContactKind kind) {
  switch (kind) {
    case ContactKind::None:
      return "none";
    case ContactKind::O1A:
      return "O1-A";
    case ContactKind::O1B:
      return "O1-B";
    case ContactKind::O1E:
      return "O1-E";
    case ContactKind::O1Q:
      return "O1-Q (side AE)";
    case ContactKind::O1K:
      return "O1-K (side AB)";
    case ContactKind::O1M:
      return "O1-M (side DE)";
    case ContactKind::NA:
      return "N-A";
    case ContactKind::NE:
      return "N-E";
    case ContactKind::AlongAE:
      return "link along AE";
    case ContactKind::AlongED:
      return "link along ED";
  }
  return "none";
}

std::array<Vec2, 4> obstacleVertices(const LinkObstacle& in) {
  const Frame f{in.a, elementary::cos(in.alpha), elementary::sin(in.alpha)};
  // [BSTU2019]: r_B = r_A + T_A ρ_AB, ρ_AB = (0, b); ρ_AD = (l, b); ρ_AE = (l, 0).
  return {in.a, f.toWorld(Vec2(0, in.sideB)), f.toWorld(Vec2(in.sideL, in.sideB)),
          f.toWorld(Vec2(in.sideL, 0))};
}

Expected<LinkContact> determineLinkContact(const LinkObstacle& in) {
  std::vector<Issue> issues = validate(in);
  if (!issues.empty()) return issues;

  const Frame frame{in.a, elementary::cos(in.alpha), elementary::sin(in.alpha)};
  const double scale = std::max({in.length, in.sideL, in.sideB, in.a.norm()});
  const Problem pr{in, frame, obstacleVertices(in), kTol * scale};

  const Vec2 o = frame.toLocal(Vec2::Zero());
  if (o.x() >= -pr.tolLen && o.x() <= in.sideL + pr.tolLen && o.y() >= -pr.tolLen &&
      o.y() <= in.sideB + pr.tolLen)
    return Expected<LinkContact>::failure(
        "A",
        "the support O (the origin) lies inside or on the obstacle ABDE; [BSTU2019] has the "
        "link turn about a support outside it");
  if (pr.overlapsInterior(in.phiStart))
    return Expected<LinkContact>::failure(
        "phiStart", "the link already overlaps the obstacle at phi_n = " +
                        formatAngle(in.phiStart) + "; [BSTU2019] starts the turn clear of it");

  LinkContact out;
  out.alphaContact = in.alpha;
  const std::optional<double> phi = firstContactAngle(pr);
  if (!phi) return out;  // n = 5: every point of the obstacle outside the swept sector

  const double phiP = *phi;
  const Touch touch = touchingFeature(pr, phiP);
  const ContactKind kind = kindOf(touch);
  const std::string where =
      "first contact at phi = " + formatAngle(phiP) + " is " + describe(touch);
  if (kind == ContactKind::None)
    return Expected<LinkContact>::failure(
        "A", where +
                 "; [BSTU2019] defines contact kinds only for vertices A, B, E, sides AE, "
                 "AB, DE and the link along AE or ED (Fig. 3)");
  const int mode = paperMode(kind, in.alpha, phiP);
  if (mode == 0)
    return Expected<LinkContact>::failure(
        "alpha", where + " with alpha = " + formatAngle(in.alpha) +
                     ", which meets none of [BSTU2019]'s conditions for that kind");

  const Vec2 u = direction(phiP);
  out.mode = mode;
  out.kind = kind;
  out.phiContact = phiP;
  switch (touch.what) {
    case Touch::What::AlongSide: {
      const Vec2 p = pr.v[kSides[touch.id].from], q = pr.v[kSides[touch.id].to];
      const double lo = std::max(0.0, std::min(p.dot(u), q.dot(u)));
      const double hi = std::min(in.length, std::max(p.dot(u), q.dot(u)));
      out.point = lo * u;
      out.pointEnd = hi * u;
      break;
    }
    case Touch::What::EndOnSide:
      out.point = out.pointEnd = in.length * u;
      break;
    default:
      out.point = out.pointEnd = pr.v[touch.id];
      break;
  }
  out.contactDistance = out.point.dot(u);
  if (mode <= 2) {
    out.correction.needed = true;
    out.correction.endAngle = phiP;
    out.correction.length = nearestInWedge(pr);
    out.correction.lift = true;
  }
  return out;
}

}  // namespace roverlab
