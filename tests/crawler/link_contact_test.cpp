// determineLinkContact ([BSTU2019]) against a brute-force oracle that sweeps the
// link in fine steps, and against each of the paper's ten contact kinds built
// by hand.
//
// The oracle shares nothing with the classifier but the input struct: it
// measures the link's clearance from the rectangle at sampled angles, brackets
// and bisects the first contact, names the touching features from distances,
// and decides "passing needs a correction" by checking whether the link
// overlaps the obstacle at any later angle up to φ_k. Its mode is then
// [BSTU2019]'s definition: n = 1, 2 if passing overlaps (α ≥ 0 / α < 0), n = 3, 4 if
// the link only touches, n = 5 if it never touches.
#include "crawler/link_contact.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace roverlab;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;

// ------------------------------------------------------------------ oracle

// Features of the rectangle as the oracle names them.
enum class Feature {
  Clear,          // no contact (n = 5)
  SupportInside,  // O inside or on the obstacle
  StartOverlap,   // the link overlaps the obstacle at φ_n
  EndA,
  EndB,
  EndD,
  EndE,  // O1 on a vertex
  EndAE,
  EndAB,
  EndDE,
  EndBD,  // O1 inside a side
  InA,
  InB,
  InD,
  InE,  // the link interior on a vertex
  AlongAE,
  AlongED,
  AlongAB,
  AlongBD  // the link along a side
};

/// [BSTU2019]'s kind for an oracle feature, None for those it does not list.
ContactKind kindOf(Feature f) {
  switch (f) {
    case Feature::EndA:
      return ContactKind::O1A;
    case Feature::EndB:
      return ContactKind::O1B;
    case Feature::EndE:
      return ContactKind::O1E;
    case Feature::EndAE:
      return ContactKind::O1Q;
    case Feature::EndAB:
      return ContactKind::O1K;
    case Feature::EndDE:
      return ContactKind::O1M;
    case Feature::InA:
      return ContactKind::NA;
    case Feature::InE:
      return ContactKind::NE;
    case Feature::AlongAE:
      return ContactKind::AlongAE;
    case Feature::AlongED:
      return ContactKind::AlongED;
    default:
      return ContactKind::None;
  }
}

struct OracleResult {
  Feature feature = Feature::Clear;
  double phi = 0;  // first contact angle (rad)
  bool overlapsLater = false;
  const char* tie = nullptr;  // why it lies within the exclusion margin of a tie, if it does
  void mark(const char* why) {
    if (!tie) tie = why;
  }
  int mode = 5;
};

/// Brute-force sweep. Lengths relative to the problem's size s.
class Oracle {
 public:
  explicit Oracle(const LinkObstacle& in) : in_(in) {
    const double c = std::cos(in.alpha), sn = std::sin(in.alpha);
    auto world = [&](double x, double y) {
      return Vec2(in.a.x() + c * x - sn * y, in.a.y() + sn * x + c * y);
    };
    v_ = {world(0, 0), world(0, in.sideB), world(in.sideL, in.sideB), world(in.sideL, 0)};
    // Outward normals and offsets of the four sides: n·p ≤ h inside.
    const Vec2 ax(c, sn), ay(-sn, c);
    normal_ = {-ay, ay, -ax, ax};
    offset_ = {-ay.dot(in.a), ay.dot(in.a) + in.sideB, -ax.dot(in.a), ax.dot(in.a) + in.sideL};
    scale_ = std::max({in.length, in.sideL, in.sideB, in.a.norm()});
  }

  /// Signed clearance of the link at φ: min over its points of the largest
  /// side excess max_i(n_i·p − h_i), > 0 apart, = 0 touching, < 0 overlapping
  /// (then −depth). It is convex and piecewise linear along the link, so the
  /// minimum is at an end or where two side excesses cross.
  double clearance(double phi, double length) const {
    const Vec2 u(std::cos(phi), std::sin(phi));
    auto excess = [&](double t) {
      double e = -1e300;
      for (int i = 0; i < 4; ++i) e = std::max(e, normal_[i].dot(t * u) - offset_[i]);
      return e;
    };
    double best = std::min(excess(0), excess(length));
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) {
        const double si = normal_[i].dot(u), sj = normal_[j].dot(u);
        if (si == sj) continue;
        const double t = (offset_[i] - offset_[j]) / (si - sj);
        if (t > 0 && t < length) best = std::min(best, excess(t));
      }
    return best;
  }
  double clearance(double phi) const { return clearance(phi, in_.length); }

  OracleResult run() const {
    OracleResult r;
    const double margin = kMargin * scale_;
    const double sdO = clearance(0.0, 0.0);
    if (std::abs(sdO) < margin && std::abs(sdO) > kTouch * scale_) r.mark("O near the obstacle");
    if (sdO <= kTouch * scale_) return finish(r, Feature::SupportInside);
    const double c0 = clearance(in_.phiStart);
    if (std::abs(c0) < margin && std::abs(c0) > kTouch * scale_) r.mark("link at phi_n near it");
    if (c0 < -kTouch * scale_) return finish(r, Feature::StartOverlap);

    // Sweep: the first sample at or below the touch level brackets the
    // contact; a local minimum above it is refined (a touch falls between
    // samples).
    const int n = kSteps;
    const double h = (in_.phiEnd - in_.phiStart) / n;
    std::vector<double> c(n + 1);
    for (int i = 0; i <= n; ++i) c[i] = clearance(in_.phiStart + i * h);
    double minClear = c[0];
    std::optional<double> contact;
    if (c[0] <= kTouch * scale_) contact = in_.phiStart;
    for (int i = 1; i <= n && !contact; ++i) {
      if (c[i] <= kTouch * scale_) {
        contact = bisect(in_.phiStart + (i - 1) * h, in_.phiStart + i * h);
        break;
      }
      const bool localMin = c[i] <= c[i - 1] && (i == n || c[i] <= c[i + 1]);
      if (!localMin) continue;
      const auto [phiMin, cMin] =
          refineMinimum(in_.phiStart + (i - 1) * h, in_.phiStart + std::min(i + 1, n) * h);
      minClear = std::min(minClear, cMin);
      if (cMin < -kTouch * scale_)  // a short overlap between samples: find where it starts
        contact = bisect(in_.phiStart + (i - 1) * h, phiMin);
      else if (cMin <= kTouch * scale_)  // a touch
        contact = phiMin;
    }
    for (double x : c) minClear = std::min(minClear, x);
    if (!contact) {
      if (minClear < margin) r.mark("near miss");  // contact or not is a tie
      return finish(r, Feature::Clear);
    }
    r.phi = *contact;
    if (r.phi - in_.phiStart < kMargin && r.phi > in_.phiStart) r.mark("contact near phi_n");
    if (in_.phiEnd - r.phi < kMargin) r.mark("contact near phi_k");
    if (std::abs(in_.alpha) < kMargin) r.mark("alpha near 0");  // n = 1 vs 2, 3 vs 4
    r.overlapsLater = overlapsAfter(r.phi);
    // touching() marks ties in r: called first, as the order of a call's
    // arguments is the compiler's choice.
    const Feature f = touching(r.phi, r);
    return finish(r, f);
  }

 private:
  // Contact when the clearance is ≤ 1e-12·s: the clearance is computed to
  // ~1e-16·s, and bisection stops within 2^-60 of the sweep.
  static constexpr double kTouch = 1e-12;
  // Two features within 1e-7·s of the link both touch (a tie the input means
  // exactly, e.g. α = φ_p typed as such); see kMargin for near ties.
  static constexpr double kFeature = 1e-7;
  // Ties between answers are sets of measure zero ([BSTU2019]'s equalities: a
  // vertex on O1's arc, a side parallel or perpendicular to the link, contact
  // at φ_k, α = 0). A configuration closer than 1e-5 (rad, or ×s) to one,
  // but not within the tie tolerance itself, is excluded from the comparison:
  // there the oracle's sampled answer (bisection to ~1e-16 rad, overlap
  // checked down to 1e-12·s) and the exact one can differ by rounding alone.
  static constexpr double kMargin = 1e-5;
  static constexpr int kSteps = 1024;

  OracleResult finish(OracleResult r, Feature f) const {
    r.feature = f;
    if (f == Feature::Clear)
      r.mode = 5;
    else if (f == Feature::SupportInside || f == Feature::StartOverlap)
      r.mode = 0;
    else if (r.overlapsLater)
      r.mode = in_.alpha >= 0 ? 1 : 2;
    else
      r.mode = in_.alpha >= 0 ? 3 : 4;
    return r;
  }

  double bisect(double lo, double hi) const {
    for (int k = 0; k < 80; ++k) {
      const double mid = 0.5 * (lo + hi);
      (clearance(mid) <= kTouch * scale_ ? hi : lo) = mid;
    }
    return hi;
  }

  std::pair<double, double> refineMinimum(double lo, double hi) const {
    const double g = (std::sqrt(5.0) - 1) / 2;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = clearance(x1), f2 = clearance(x2);
    for (int k = 0; k < 120 && hi - lo > 1e-16; ++k) {
      if (f1 <= f2) {
        hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = clearance(x1);
      } else {
        lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = clearance(x2);
      }
    }
    return f1 <= f2 ? std::make_pair(x1, f1) : std::make_pair(x2, f2);
  }

  /// Does the link overlap the obstacle at some angle in (φ, φ_k]? Samples
  /// uniformly and geometrically close to φ (the overlap grows linearly from
  /// the contact, and may end before φ_k when the link sweeps past).
  bool overlapsAfter(double phi) const {
    const double span = in_.phiEnd - phi;
    if (span <= 0) return false;
    double worst = 0;
    for (int j = 1; j <= 256; ++j) worst = std::min(worst, clearance(phi + span * j / 256));
    for (int j = 1; j <= 50; ++j)
      worst = std::min(worst, clearance(phi + span * std::ldexp(1.0, -j)));
    return worst < -kTouch * scale_;
  }

  static double pointSegment(const Vec2& p, const Vec2& a, const Vec2& b) {
    const Vec2 d = b - a;
    const double t = std::clamp((p - a).dot(d) / d.squaredNorm(), 0.0, 1.0);
    return (a + t * d - p).norm();
  }

  /// Names the features touching at φ and flags near ties: another feature
  /// within the margin, or a side at the contact nearly parallel to the link
  /// or to O1's motion (the touch / overlap boundary).
  Feature touching(double phi, OracleResult& r) const {
    const Vec2 u(std::cos(phi), std::sin(phi)), o = Vec2::Zero(), o1 = in_.length * u;
    const double tol = kFeature * scale_, margin = kMargin * scale_;
    auto nearTie = [&](double d) {
      if (d > tol && d < margin) r.mark("second feature near");
    };
    auto angleTie = [&](const Vec2& side) {
      const Vec2 s = side.normalized();
      const double sinLink = std::abs(u.x() * s.y() - u.y() * s.x());
      const double sinMotion = std::abs(u.dot(s));
      if (sinLink < kMargin && sinLink > kFeature) r.mark("side near parallel to the link");
      if (sinMotion < kMargin && sinMotion > kFeature) r.mark("side near perpendicular");
    };
    static constexpr int kSideV[4][2] = {{0, 3}, {3, 2}, {0, 1}, {1, 2}};  // AE ED AB BD
    static constexpr Feature kAlong[4] = {Feature::AlongAE, Feature::AlongED, Feature::AlongAB,
                                          Feature::AlongBD};
    static constexpr Feature kEndSide[4] = {Feature::EndAE, Feature::EndDE, Feature::EndAB,
                                            Feature::EndBD};
    static constexpr Feature kEndVertex[4] = {Feature::EndA, Feature::EndB, Feature::EndD,
                                              Feature::EndE};
    static constexpr Feature kInVertex[4] = {Feature::InA, Feature::InB, Feature::InD,
                                             Feature::InE};
    // Along a side: both ends of the side on the link's line, and a stretch
    // of the side longer than the tolerance on the link itself.
    for (int i = 0; i < 4; ++i) {
      const Vec2 p = v_[kSideV[i][0]], q = v_[kSideV[i][1]];
      const Vec2 w(-u.y(), u.x());
      if (std::abs(w.dot(p)) > tol || std::abs(w.dot(q)) > tol) continue;
      const double lo = std::max(0.0, std::min(u.dot(p), u.dot(q)));
      const double hi = std::min(in_.length, std::max(u.dot(p), u.dot(q)));
      if (hi - lo > tol) {
        // The contact angle of a stretch comes from bisection (to ~1e-12
        // rad), so the side's angle to the link is checked down to the
        // classifier's 1e-9.
        const Vec2 d = (q - p).normalized();
        const double sinLink = std::abs(u.x() * d.y() - u.y() * d.x());
        if (sinLink > 1e-9 && sinLink < kMargin) r.mark("side near parallel to the link");
        return kAlong[i];
      }
    }
    double dEndV[4], dInV[4], dEndS[4];
    for (int k = 0; k < 4; ++k) {
      dEndV[k] = (v_[k] - o1).norm();
      dInV[k] = pointSegment(v_[k], o, o1);
    }
    for (int i = 0; i < 4; ++i) dEndS[i] = pointSegment(o1, v_[kSideV[i][0]], v_[kSideV[i][1]]);
    for (int k = 0; k < 4; ++k) nearTie(dEndV[k]), nearTie(dInV[k]);
    for (int i = 0; i < 4; ++i) nearTie(dEndS[i]);
    for (int k = 0; k < 4; ++k)
      if (dEndV[k] <= tol) {
        for (int i = 0; i < 4; ++i)
          if (kSideV[i][0] == k || kSideV[i][1] == k) angleTie(v_[kSideV[i][1]] - v_[kSideV[i][0]]);
        return kEndVertex[k];
      }
    for (int i = 0; i < 4; ++i)
      if (dEndS[i] <= tol) {
        angleTie(v_[kSideV[i][1]] - v_[kSideV[i][0]]);
        return kEndSide[i];
      }
    for (int k = 0; k < 4; ++k)
      if (dInV[k] <= tol) {
        for (int i = 0; i < 4; ++i)
          if (kSideV[i][0] == k || kSideV[i][1] == k) angleTie(v_[kSideV[i][1]] - v_[kSideV[i][0]]);
        return kInVertex[k];
      }
    r.mark("no feature found");
    return Feature::Clear;
  }

  const LinkObstacle& in_;
  std::array<Vec2, 4> v_;  // A, B, D, E
  std::array<Vec2, 4> normal_;
  std::array<double, 4> offset_;
  double scale_;
};

std::string str(const LinkObstacle& in) {
  std::ostringstream o;
  o.precision(17);
  o << "{L " << in.length << ", phi " << in.phiStart << ".." << in.phiEnd << ", A (" << in.a.x()
    << ", " << in.a.y() << "), l " << in.sideL << ", b " << in.sideB << ", alpha " << in.alpha
    << "}";
  return o.str();
}

struct Tally {
  int total = 0, excluded = 0, agree = 0;
  int byMode[6] = {};
  int byKind[11] = {};
  std::map<std::string, int> issueWhy;
  std::map<std::string, int> excludedWhy;
  std::string failures;
  int failed = 0;
  void fail(const std::string& what) {
    if (failed++ < 8) failures += what + "\n";
  }
  std::string summary(const char* name) const {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s: %d configurations, %d excluded as near ties, %d of %d agree (%.4f%%); "
                  "modes 1-5: %d %d %d %d %d; kinds 1-10: %d %d %d %d %d %d %d %d %d %d; "
                  "issues expected and returned:",
                  name, total, excluded, agree, total - excluded,
                  100.0 * agree / std::max(1, total - excluded), byMode[1], byMode[2], byMode[3],
                  byMode[4], byMode[5], byKind[1], byKind[2], byKind[3], byKind[4], byKind[5],
                  byKind[6], byKind[7], byKind[8], byKind[9], byKind[10]);
    std::string out = buf;
    for (const auto& [why, count] : issueWhy)
      out += std::string(why == issueWhy.begin()->first ? " " : ", ") + why + ": " +
             std::to_string(count);
    for (const auto& [why, count] : excludedWhy)
      out += "; excluded, " + why + ": " + std::to_string(count);
    return out;
  }
};

/// Compares the classifier with the oracle on one configuration.
void compare(const LinkObstacle& in, Tally& tally) {
  ++tally.total;
  const OracleResult want = Oracle(in).run();
  if (want.tie) {
    ++tally.excluded;
    ++tally.excludedWhy[want.tie];
    return;
  }
  const Expected<LinkContact> got = determineLinkContact(in);
  const double scale = std::max({in.length, in.sideL, in.sideB, in.a.norm()});
  std::string why;
  if (want.feature == Feature::SupportInside || want.feature == Feature::StartOverlap ||
      (want.feature != Feature::Clear && kindOf(want.feature) == ContactKind::None)) {
    const char* path = want.feature == Feature::StartOverlap ? "phiStart" : "A";
    if (got.ok() || got.issues().front().path != path)
      why = std::string("expected an issue at ") + path + ", got " +
            (got.ok() ? "mode " + std::to_string(got.value().mode) : got.message());
    else
      ++tally.issueWhy[want.feature == Feature::SupportInside ? "O inside the obstacle"
                       : want.feature == Feature::StartOverlap
                           ? "overlap at phi_n"
                           : "a feature [BSTU2019] does not list"];
  } else if (!got.ok()) {
    why = "unexpected issue: " + got.message();
  } else {
    const LinkContact& c = got.value();
    const ContactKind kind =
        want.feature == Feature::Clear ? ContactKind::None : kindOf(want.feature);
    if (c.mode != want.mode || c.kind != kind)
      why = "mode/kind " + std::to_string(c.mode) + "/" + std::to_string(int(c.kind)) +
            ", oracle " + std::to_string(want.mode) + "/" + std::to_string(int(kind));
    else if (c.mode < 5 && std::abs(c.phiContact - want.phi) > 1e-7)
      why =
          "contact angle " + std::to_string(c.phiContact) + ", oracle " + std::to_string(want.phi);
    else if (c.correction.needed) {
      // The suggested corrections, checked by sweeping: stopping at φ_p, or
      // the shortened link over the whole turn, never overlaps the obstacle.
      const Oracle o(in);
      for (int j = 0; j <= 512 && why.empty(); ++j) {
        const double phiA = in.phiStart + (c.correction.endAngle - in.phiStart) * j / 512;
        const double phiB = in.phiStart + (in.phiEnd - in.phiStart) * j / 512;
        if (o.clearance(phiA) < -1e-9 * scale) why = "end-angle correction still overlaps";
        if (o.clearance(phiB, c.correction.length) < -1e-9 * scale)
          why = "shortened link still overlaps";
      }
      if (!(c.correction.length > 0 && c.correction.length <= in.length * (1 + 1e-12)))
        why = "shortened length out of (0, L]";
    }
    if (why.empty()) ++tally.byMode[c.mode], ++tally.byKind[int(c.kind)];
  }
  if (why.empty())
    ++tally.agree;
  else
    tally.fail(str(in) + ": " + why);
}

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

/// A random link and turn in [BSTU2019]'s ranges; φ_c strictly inside the turn.
LinkObstacle randomLink(std::mt19937_64& rng, double& phiC) {
  LinkObstacle in;
  in.length = uniform(rng, 0.5, 2.0);
  double p = uniform(rng, 0, kPi / 2), q = uniform(rng, 0, kPi / 2);
  if (p > q) std::swap(p, q);
  if (q - p < 0.05) q = std::min(kPi / 2, p + 0.05), p = q - 0.05;
  in.phiStart = p;
  in.phiEnd = q;
  phiC = uniform(rng, p + 0.01 * (q - p), q - 0.01 * (q - p));
  in.sideL = uniform(rng, 0.05, 1.5);
  in.sideB = uniform(rng, 0.05, 1.5);
  in.alpha = uniform(rng, -kPi / 2, kPi / 2);
  return in;
}

Vec2 dirOf(double a) { return Vec2(std::cos(a), std::sin(a)); }

}  // namespace

TEST_CASE("link contact agrees with a brute-force sweep on random obstacles", "[crawler]") {
  std::mt19937_64 rng(20190803);
  Tally tally;
  for (int i = 0; i < 20000; ++i) {
    double phiC;
    LinkObstacle in = randomLink(rng, phiC);
    // Sides up to L, centre 0.3 L to 1.5 L from O at a polar angle from φ_n
    // to 120°: most obstacles meet the swept sector or come close to it.
    in.sideL = uniform(rng, 0.05, 1.0) * in.length;
    in.sideB = uniform(rng, 0.05, 1.0) * in.length;
    const Vec2 centre =
        uniform(rng, 0.3, 1.5) * in.length * dirOf(uniform(rng, in.phiStart, 2 * kPi / 3));
    in.a = centre - 0.5 * in.sideL * dirOf(in.alpha) - 0.5 * in.sideB * dirOf(in.alpha + kPi / 2);
    compare(in, tally);
  }
  WARN(tally.summary("random obstacles"));
  INFO(tally.failures);
  CHECK(tally.agree == tally.total - tally.excluded);
  CHECK(tally.excluded * 100 < tally.total);
}

// [BSTU2019]'s touching modes and vertex contacts hold only on equalities (a
// vertex on O1's arc, a side perpendicular or parallel to the link), which
// random obstacles never meet. These families meet one of them exactly and
// randomise everything else.
TEST_CASE("link contact agrees with a brute-force sweep on the paper's equality cases",
          "[crawler]") {
  std::mt19937_64 rng(8);
  Tally tally;
  for (int family = 0; family < 9; ++family)
    for (int i = 0; i < 2000; ++i) {
      double phiC;
      LinkObstacle in = randomLink(rng, phiC);
      const Vec2 u = dirOf(phiC);
      const double s = uniform(rng, 0.05, 0.95);
      switch (family) {
        case 0:  // A on O1's arc (v = 1)
          in.a = in.length * u;
          break;
        case 1:  // B on the arc (v = 2)
          in.a = in.length * u - in.sideB * dirOf(in.alpha + kPi / 2);
          break;
        case 2:  // E on the arc (v = 3)
          in.a = in.length * u - in.sideL * dirOf(in.alpha);
          break;
        case 3:  // AE tangent to the arc at Q (v = 4, n = 4)
          in.alpha = phiC - kPi / 2;
          in.a = in.length * u - s * in.sideL * dirOf(in.alpha);
          break;
        case 4:  // AB tangent to the arc at K (v = 5, n = 3)
          in.alpha = phiC;
          in.a = in.length * u - s * in.sideB * dirOf(in.alpha + kPi / 2);
          break;
        case 5:  // AE along the link (v = 9)
          in.alpha = phiC;
          in.a = s * in.length * u;
          break;
        case 6:  // AE along the link ending at O1 (v = 9, N-A and O1-E)
          in.alpha = phiC;
          in.a = s * in.length * u;
          in.sideL = (1 - s) * in.length;
          break;
        case 7:  // ED along the link (v = 10)
          in.alpha = phiC - kPi / 2;
          in.a = s * in.length * u - in.sideL * dirOf(in.alpha);
          break;
        case 8:  // ED along the link, D at O1 (v = 10)
          in.alpha = phiC - kPi / 2;
          in.sideB = (1 - s) * in.length;
          in.a = s * in.length * u - in.sideL * dirOf(in.alpha);
          break;
      }
      if (!(in.alpha > -kPi / 2)) continue;
      compare(in, tally);
    }
  WARN(tally.summary("equality cases"));
  INFO(tally.failures);
  CHECK(tally.agree == tally.total - tally.excluded);
  for (int v = 1; v <= 10; ++v) CHECK(tally.byKind[v] > 0);
  for (int n = 1; n <= 4; ++n) CHECK(tally.byMode[n] > 0);
}

// ------------------------------------------------------- the ten kinds by hand
//
// L = 1 and A, B or E at (0.6, 0.8) on O1's arc, where φ_p = atan2(0.8, 0.6)
// ≈ 53.13°, unless stated otherwise.

namespace {

const double kPhiP = std::atan2(0.8, 0.6);

LinkObstacle link(double alphaDeg) {
  LinkObstacle in;
  in.length = 1.0;
  in.phiStart = 10 * kDeg;
  in.phiEnd = 80 * kDeg;
  in.sideL = 0.4;
  in.sideB = 0.3;
  in.alpha = alphaDeg * kDeg;
  return in;
}

LinkContact expectContact(const LinkObstacle& in, int mode, ContactKind kind) {
  const Expected<LinkContact> r = determineLinkContact(in);
  INFO(str(in) << " → " << r.message());
  REQUIRE(r.ok());
  CHECK(r.value().mode == mode);
  CHECK(int(r.value().kind) == int(kind));
  const OracleResult o = Oracle(in).run();
  CHECK(o.mode == mode);
  CHECK(int(kindOf(o.feature)) == int(kind));
  return r.value();
}

}  // namespace

TEST_CASE("v = 1: O1 on vertex A, needing a correction or passing by touching", "[crawler]") {
  LinkObstacle in = link(70);  // φ_p < α: AE turns ahead of the link, O1 runs into A
  in.a = Vec2(0.6, 0.8);
  const LinkContact c = expectContact(in, 1, ContactKind::O1A);
  CHECK(c.phiContact == Approx(kPhiP).epsilon(1e-12));
  CHECK(c.correction.needed);
  CHECK(c.correction.endAngle == Approx(kPhiP));
  // Shortened to the distance from O to side AB (from A at 160°, closer to O than A).
  CHECK(c.correction.length == Approx(std::cos(in.alpha - kPhiP)));
  in.alpha = 30 * kDeg;  // 0 ≤ α ≤ φ_p: the obstacle lies beyond the arc
  CHECK_FALSE(expectContact(in, 3, ContactKind::O1A).correction.needed);
  in.alpha = -20 * kDeg;  // φ_p − π/2 ≤ α < 0
  expectContact(in, 4, ContactKind::O1A);
}

TEST_CASE("v = 2: O1 on vertex B passes by touching", "[crawler]") {
  LinkObstacle in = link(70);  // φ_p ≤ α ≤ π/2
  in.a = Vec2(0.6, 0.8) - in.sideB * dirOf(in.alpha + kPi / 2);
  const LinkContact c = expectContact(in, 3, ContactKind::O1B);
  CHECK(c.point.x() == Approx(0.6));
  CHECK(c.point.y() == Approx(0.8));
}

TEST_CASE("v = 3: O1 on vertex E in each of its three modes", "[crawler]") {
  const std::pair<double, int> cases[] = {{20, 1}, {-20, 2}, {-60, 4}};
  for (auto [alphaDeg, mode] : cases) {
    LinkObstacle in = link(alphaDeg);
    in.a = Vec2(0.6, 0.8) - in.sideL * dirOf(in.alpha);
    expectContact(in, mode, ContactKind::O1E);
  }
}

TEST_CASE("v = 4: O1 on side AE, passing by touching only when AE is perpendicular to the link",
          "[crawler]") {
  const std::pair<double, int> cases[] = {{20, 1}, {-20, 2}, {kPhiP / kDeg - 90, 4}};
  for (auto [alphaDeg, mode] : cases) {
    LinkObstacle in = link(alphaDeg);
    in.a = Vec2(0.6, 0.8) - 0.5 * in.sideL * dirOf(in.alpha);  // Q mid-side
    const LinkContact c = expectContact(in, mode, ContactKind::O1Q);
    CHECK(c.contactDistance == Approx(1.0));
  }
}

TEST_CASE("v = 5: O1 on side AB, touching only when AB is perpendicular to the link", "[crawler]") {
  const std::pair<double, int> cases[] = {{70, 1}, {kPhiP / kDeg, 3}};
  for (auto [alphaDeg, mode] : cases) {
    LinkObstacle in = link(alphaDeg);
    in.a = Vec2(0.6, 0.8) - 0.5 * in.sideB * dirOf(in.alpha + kPi / 2);  // K mid-side
    expectContact(in, mode, ContactKind::O1K);
  }
}

TEST_CASE("v = 6: O1 on side DE always needs a correction", "[crawler]") {
  LinkObstacle in = link(-60);  // α < φ_p − π/2: D leads, the arc meets DE
  in.a = Vec2(0.6, 0.8) - in.sideL * dirOf(in.alpha) - 0.5 * in.sideB * dirOf(in.alpha + kPi / 2);
  expectContact(in, 2, ContactKind::O1M);
}

TEST_CASE("v = 7: the link interior on vertex A", "[crawler]") {
  LinkObstacle in = link(70);
  in.a = Vec2(0.3, 0.4);  // |A| = 0.5 < L
  const LinkContact c = expectContact(in, 1, ContactKind::NA);
  CHECK(c.contactDistance == Approx(0.5));
  // Shortened to the distance from O to side AB, which passes closer to O than A.
  CHECK(c.correction.length == Approx(0.5 * std::cos(in.alpha - kPhiP)));
}

TEST_CASE("v = 8: the link interior on vertex E", "[crawler]") {
  const std::pair<double, int> cases[] = {{20, 1}, {-20, 2}};
  for (auto [alphaDeg, mode] : cases) {
    LinkObstacle in = link(alphaDeg);
    in.a = Vec2(0.3, 0.4) - in.sideL * dirOf(in.alpha);
    expectContact(in, mode, ContactKind::NE);
  }
}

TEST_CASE("v = 9: the link along side AE, in the paper's three variants", "[crawler]") {
  // N-A and F-E (E inside the link), N-A and O1-E, N-A and O1-Q.
  for (double l : {0.3, 0.5, 0.8}) {
    LinkObstacle in = link(kPhiP / kDeg);
    in.a = Vec2(0.3, 0.4);
    in.sideL = l;
    const LinkContact c = expectContact(in, 1, ContactKind::AlongAE);
    CHECK(c.point.norm() == Approx(0.5));
    CHECK(c.pointEnd.norm() == Approx(std::min(1.0, 0.5 + l)));
  }
}

TEST_CASE("v = 10: the link along side ED", "[crawler]") {
  for (double b : {0.3, 0.5, 0.8}) {
    LinkObstacle in = link(kPhiP / kDeg - 90);
    in.sideB = b;
    in.a = Vec2(0.3, 0.4) - in.sideL * dirOf(in.alpha);  // E at (0.3, 0.4)
    expectContact(in, 2, ContactKind::AlongED);
  }
}

TEST_CASE("n = 5: an obstacle outside the swept sector is passed without contact", "[crawler]") {
  for (Vec2 a : {Vec2(1.2, 0.5), Vec2(-0.5, 0.5), Vec2(0.5, -0.8)}) {
    LinkObstacle in = link(10);
    in.a = a;
    const Expected<LinkContact> r = determineLinkContact(in);
    REQUIRE(r.ok());
    CHECK(r.value().mode == 5);
    CHECK(r.value().kind == ContactKind::None);
    CHECK_FALSE(r.value().correction.needed);
  }
}

TEST_CASE("link contact input errors name their fields", "[crawler]") {
  auto paths = [](const LinkObstacle& in) {
    std::string out;
    const Expected<LinkContact> r = determineLinkContact(in);
    for (const Issue& i : r.issues()) out += i.path + " ";
    return out;
  };
  LinkObstacle in = link(10);
  in.a = Vec2(0.3, 0.4);
  in.length = 0;
  in.sideL = -1;
  in.sideB = NAN;
  CHECK(paths(in) == "L l b ");
  in = link(10);
  in.alpha = kPi / 2 + 1e-9;
  in.phiStart = -0.1;
  in.phiEnd = 2;
  in.a = Vec2(INFINITY, 0);
  CHECK(paths(in) == "A[0] phiStart phiEnd alpha ");
  in = link(10);
  in.phiStart = in.phiEnd;
  CHECK(paths(in) == "phiEnd ");
  in = link(0);
  in.a = Vec2(-0.1, -0.1);  // O inside
  CHECK(paths(in) == "A ");
  in.a = Vec2(0.2, -0.1);  // the link at φ_n = 10° crosses the obstacle
  CHECK(paths(in) == "phiStart ");
}

TEST_CASE("a first contact outside the ten kinds is an issue, not a guess", "[crawler]") {
  // α = −30°, D is the corner nearest the link: the link interior meets D.
  LinkObstacle in = link(-30);
  in.length = 3;
  in.a = Vec2(-0.233, 1.25);
  in.sideL = 0.5;
  in.sideB = 0.5;
  const Expected<LinkContact> r = determineLinkContact(in);
  REQUIRE_FALSE(r.ok());
  CHECK(r.issues().front().path == "A");
  CHECK(r.message().find("vertex D") != std::string::npos);
  CHECK(Oracle(in).run().feature == Feature::InD);
}

TEST_CASE("obstacle vertices follow [BSTU2019]'s rotation T_A", "[crawler]") {
  LinkObstacle in = link(90);
  in.a = Vec2(1, 2);
  const auto v = obstacleVertices(in);  // A, B, D, E
  CHECK((v[1] - Vec2(1 - 0.3, 2)).norm() < 1e-12);
  CHECK((v[2] - Vec2(1 - 0.3, 2.4)).norm() < 1e-12);
  CHECK((v[3] - Vec2(1, 2.4)).norm() < 1e-12);
}
