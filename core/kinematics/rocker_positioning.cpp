#include "kinematics/rocker_positioning.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "common/elementary.h"
#include "robots/robot.h"
namespace roverlab {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

using P2 =
    Eigen::Vector2d;  ///< point of a wheel plane: (u along Track1's direction, w in-plane up) (m)

/// A wheel plane with its 2-D frame: origin, u axis (Track1's direction at
/// wheel 1), w axis (in-plane up, t × n) and normal n (the body's y axis, left).
struct WheelPlane {
  Vec3 origin, eu, ew, n;
  Vec3 world(const P2& p) const { return origin + p.x() * eu + p.y() * ew; }
  P2 local(const Vec3& x) const { return P2((x - origin).dot(eu), (x - origin).dot(ew)); }
};

/// A track ([KJ2025] §2, block 3/6): the wheel plane's intersection with the
/// ground, one straight segment per quad it crosses (plane coordinates), and
/// the quads' prisms' side walls under each segment's ends, so that no wheel
/// slips under the edge of a row.
struct Track {
  WheelPlane plane;
  std::vector<std::pair<P2, P2>> segments;  ///< tops, then walls; ends ordered by u
  size_t tops = 0;                          ///< the first `tops` segments lie on quads
};

/// Depth of the prism walls under a track's ends (m): deeper than any part of
/// the rover can reach.
constexpr double kWallDepth = 10.0;

Track makeTrack(const std::vector<Quad>& quads, const WheelPlane& plane) {
  Track track{plane, {}, 0};
  std::vector<std::pair<P2, P2>> walls;
  auto ordered = [](const P2& a, const P2& b) {
    return a.x() <= b.x() ? std::make_pair(a, b) : std::make_pair(b, a);
  };
  for (const Quad& q : quads) {
    double d[4];
    for (int i = 0; i < 4; ++i) d[i] = plane.n.dot(q.corners[i] - plane.origin);
    // Track ends with the quad edge each lies on.
    P2 lo(kInf, 0), hi(-kInf, 0);
    Vec3 loEdge = Vec3::Zero(), hiEdge = Vec3::Zero();
    int found = 0;
    auto add = [&](const Vec3& x, const Vec3& edge) {
      const P2 p = plane.local(x);
      if (p.x() < lo.x()) lo = p, loEdge = edge;
      if (p.x() > hi.x()) hi = p, hiEdge = edge;
      ++found;
    };
    for (int i = 0; i < 4; ++i) {
      const int j = (i + 1) % 4;
      const Vec3 edge = q.corners[j] - q.corners[i];
      if (d[i] == 0) add(q.corners[i], edge);
      if ((d[i] < 0 && d[j] > 0) || (d[i] > 0 && d[j] < 0))
        add(q.corners[i] + d[i] / (d[i] - d[j]) * edge, edge);
    }
    if (found < 2 || (hi - lo).norm() <= 1e-12) continue;
    track.segments.emplace_back(lo, hi);
    // The prism's side face through an edge is vertical: it meets the wheel
    // plane along n × (edge × z), taken downwards.
    for (const auto& [end, edge] : {std::make_pair(lo, loEdge), std::make_pair(hi, hiEdge)}) {
      Vec3 down = plane.n.cross(edge.cross(Vec3::UnitZ()));
      if (down.norm() < 1e-12) continue;  // the face is the wheel plane itself
      if (down.z() > 0) down = -down;
      const P2 dir = P2(down.dot(plane.eu), down.dot(plane.ew)).normalized();
      walls.push_back(ordered(end, end + kWallDepth * dir));
    }
  }
  track.tops = track.segments.size();
  track.segments.insert(track.segments.end(), walls.begin(), walls.end());
  return track;
}

/// Where a wheel of radius r resting on the track from above has its centre
/// at abscissa u: the lowest centre height w that does not cut the track (the
/// top of the union of the segments' r-capsules along the vertical at u), and
/// the point it touches. w = −∞ when there is no ground under the wheel.
struct Support {
  double w = -kInf;
  P2 contact = P2::Zero();
};

Support support(const Track& track, double u, double r) {
  Support best;
  for (const auto& [a, b] : track.segments) {
    if (u < a.x() - r || u > b.x() + r) continue;
    for (const P2& end : {a, b}) {
      const double du = u - end.x();
      if (std::abs(du) > r) continue;
      const double w = end.y() + std::sqrt(r * r - du * du);
      if (w > best.w) best = {w, end};
    }
    const P2 d = b - a;
    if (d.x() <= 0) continue;  // a vertical piece: its end caps cover it
    P2 up = P2(-d.y(), d.x()).normalized();
    const P2 a2 = a + r * up, b2 = b + r * up;
    if (u < a2.x() || u > b2.x() || b2.x() <= a2.x()) continue;
    const double f = (u - a2.x()) / (b2.x() - a2.x());
    const double w = a2.y() + f * (b2.y() - a2.y());
    if (w > best.w) best = {w, a + f * d};
  }
  return best;
}

/// Wheel centre relative to its pivot for a rocker at absolute in-plane
/// angle θ (nose-up positive); end = +1 front wheel, −1 rear wheel.
P2 wheelOffset(const RockerGeometry& g, double theta, double end) {
  const double c = elementary::cos(theta), s = elementary::sin(theta);
  const double x = end * g.rockerArm, y = -g.pivotHeight;
  return P2(c * x - s * y, s * x + c * y);
}

/// A root of f between a and b: fa = f(a) > 0, fb = f(b) ≤ 0.
struct Bracket {
  double a = 0, fa = 0;
  double b = 0, fb = 0;
};

/// When refineRoot stops: the bracket narrower than `x`, |f| ≤ `f`, or after
/// `steps` evaluations of f.
struct RootTolerance {
  double x = 0;  ///< in f's argument's unit
  double f = 0;  ///< in f's unit
  int steps = 0;
};

/// The angle refinements' tolerance: 1e-14 rad, 1e-13 m, st.maxRefine steps.
RootTolerance angleTolerance(const RockerSettings& st) {
  RootTolerance tol;
  tol.x = 1e-14;
  tol.f = 1e-13;
  tol.steps = st.maxRefine;
  return tol;
}

/// Root of f in bracket `r` by false position with the Illinois
/// modification, bisecting when a value is not finite. Returns a point where
/// |f| ≤ tol.f, or else the last point with f > 0 (the side where nothing
/// cuts the ground).
template <class F>
double refineRoot(F f, Bracket r, const RootTolerance& tol) {
  int side = 0;
  for (int k = 0; k < tol.steps && std::abs(r.b - r.a) > tol.x; ++k) {
    double c = 0.5 * (r.a + r.b);
    if (std::isfinite(r.fa) && std::isfinite(r.fb) && r.fa != r.fb)
      c = (r.a * r.fb - r.b * r.fa) / (r.fb - r.fa);
    if (!(c > std::min(r.a, r.b) && c < std::max(r.a, r.b))) c = 0.5 * (r.a + r.b);
    const double fc = f(c);
    if (std::abs(fc) <= tol.f) return c;
    if (fc > 0) {
      r.a = c;
      r.fa = fc;
      if (side == -1) r.fb *= 0.5;
      side = -1;
    } else {
      r.b = c;
      r.fb = fc;
      if (side == +1) r.fa *= 0.5;
      side = +1;
    }
  }
  return r.a;
}

/// The first place, scanning [lo, hi] upwards in `n` steps, where f goes from
/// > 0 to ≤ 0. `start` is f(lo); found = false when there is none.
struct Crossing {
  bool found = false;
  double start = 0;
  Bracket bracket;
};

template <class F>
Crossing scanCrossing(F f, double lo, double hi, int n) {
  Crossing c;
  double x0 = lo, f0 = f(lo);
  c.start = f0;
  if (!(f0 > 0)) return c;
  for (int i = 1; i <= n; ++i) {
    const double x1 = lo + (hi - lo) * i / n, f1 = f(x1);
    if (!(f1 > 0) && !std::isnan(f1)) {
      c.found = true;
      c.bracket.a = x0, c.bracket.fa = f0;
      c.bracket.b = x1, c.bracket.fb = f1;
      return c;
    }
    x0 = x1;
    f0 = f1;
  }
  return c;
}

/// A point of a suspension-centre line ([KJ2025] §4): the lowest pivot
/// height at abscissa u for which the rocker, free to turn, keeps both wheels
/// out of the ground, and the rocker's absolute angle there. Both wheels touch
/// at that angle (property 2) unless the turn is bounded first. −∞ when
/// neither wheel has ground under it.
struct CentrePoint {
  double w = -kInf;
  double theta = 0;
};

CentrePoint centreLine(const Track& track, const RockerGeometry& g, double u,
                       const RockerSettings& st) {
  const double r = g.wheelRadius;
  // Lowest pivot height at which the wheel at `end` clears the track.
  auto floorOf = [&](double theta, double end) {
    const P2 o = wheelOffset(g, theta, end);
    return support(track, u + o.x(), r).w - o.y();
  };
  auto height = [&](double theta) { return std::max(floorOf(theta, 1), floorOf(theta, -1)); };
  const double lo = -st.maxTilt, hi = st.maxTilt;
  const int n = std::max(4, st.scanSamples);
  int best = 0;
  double bestW = kInf;
  for (int i = 0; i <= n; ++i) {
    const double w = height(lo + (hi - lo) * i / n);
    if (w < bestW) bestW = w, best = i;
  }
  CentrePoint out{bestW, lo + (hi - lo) * best / n};
  if (bestW == -kInf) return out;
  // The minimum of max(front, rear) is where they cross (turning nose-up
  // lowers the front floor and raises the rear one): refine the crossing in
  // the neighbouring samples, or the minimum itself when they do not cross.
  const double a = lo + (hi - lo) * std::max(0, best - 1) / n;
  const double b = lo + (hi - lo) * std::min(n, best + 1) / n;
  auto diff = [&](double theta) { return floorOf(theta, 1) - floorOf(theta, -1); };
  Bracket cross;
  cross.a = a, cross.fa = diff(a);
  cross.b = b, cross.fb = diff(b);
  if (cross.fa > 0 && cross.fb <= 0) {
    const double t = refineRoot(diff, cross, angleTolerance(st));
    const double w = height(t);
    if (w <= out.w) out = {w, t};
  } else {
    // Golden-section search of the bracket.
    constexpr double kPhi = 0.6180339887498949;
    double x0 = a, x3 = b, x1 = x3 - kPhi * (x3 - x0), x2 = x0 + kPhi * (x3 - x0);
    double f1 = height(x1), f2 = height(x2);
    for (int k = 0; k < st.maxRefine && x3 - x0 > 1e-12; ++k) {
      if (f1 <= f2) {
        x3 = x2, x2 = x1, f2 = f1;
        x1 = x3 - kPhi * (x3 - x0);
        f1 = height(x1);
      } else {
        x0 = x1, x1 = x2, f1 = f2;
        x2 = x0 + kPhi * (x3 - x0);
        f2 = height(x2);
      }
    }
    if (std::min(f1, f2) <= out.w) out = f1 <= f2 ? CentrePoint{f1, x1} : CentrePoint{f2, x2};
  }
  return out;
}

/// The solution for one tilt φ: left side solved, right pivots measured.
struct Attempt {
  bool ok = false;
  std::string reason;
  double tilt = 0;  ///< wheel planes turned about Track1's direction (rad)
  WheelPlane left, right;
  Track leftTrack, rightTrack;
  double theta1 = 0;  ///< rocker 1's absolute in-plane angle (rad)
  double alpha = 0;   ///< body pitch within the wheel plane, from Track1's direction (rad)
  P2 p1 = P2::Zero(), p2 = P2::Zero();  ///< front and rear pivots in plane coordinates (m)
  CentrePoint fit[4];                   ///< centre-line point under each pivot
  double gap = 0;  ///< min of the right pivots' heights above the right centre line (m)
};

WheelPlane tiltedPlane(const Vec3& contact, const Vec3& t, double tilt) {
  const Vec3 n0 = Vec3::UnitZ().cross(t).normalized();
  WheelPlane p;
  p.origin = contact;
  p.eu = t;
  p.n = elementary::cos(tilt) * n0 + elementary::sin(tilt) * t.cross(n0);
  p.ew = t.cross(p.n);
  return p;
}

std::string wheelName(int k) { return "wheel " + std::to_string(k); }

Attempt attempt(const RockerModel& model, const Vec3& contact, const Vec3& t, double tilt,
                const RockerSettings& st) {
  const RockerGeometry& g = model.geometry;
  const double r = g.wheelRadius;
  Attempt at;
  at.tilt = tilt;
  at.left = tiltedPlane(contact, t, tilt);
  at.leftTrack = makeTrack(model.quads, at.left);
  // Wheel 1 touches at the contact; a neighbouring piece of the track that it
  // would cut lifts it (a wheel in a concave corner).
  const Support s1 = support(at.leftTrack, 0, r);
  if (s1.w == -kInf) {
    at.reason = "wheel 1 has no ground under its Track1 contact point";
    return at;
  }
  const P2 o1(0, s1.w);
  // Rocker 1 turns about wheel 1's centre until wheel 2 comes down on the track.
  auto wheel2Gap = [&](double theta) {
    const P2 o2 = o1 - 2 * g.rockerArm * P2(elementary::cos(theta), elementary::sin(theta));
    return o2.y() - support(at.leftTrack, o2.x(), r).w;
  };
  const Crossing c2 = scanCrossing(wheel2Gap, -st.maxTilt, st.maxTilt, st.scanSamples);
  if (!c2.found) {
    at.reason = c2.start > 0 ? "wheel 2 has no ground under it: the left track ends behind wheel 1"
                             : "wheel 2 cannot clear the ground with wheel 1 at its Track1 contact";
    return at;
  }
  at.theta1 = refineRoot(wheel2Gap, c2.bracket, angleTolerance(st));
  at.p1 = o1 - wheelOffset(g, at.theta1, 1);
  // The body turns about pivot 1 (pitch) until pivot 2 reaches the left
  // suspension-centre line: rocker 2's wheels touch (property 2).
  auto pivot2Gap = [&](double alpha) {
    const P2 p2 = at.p1 - g.pivotSpacing * P2(elementary::cos(alpha), elementary::sin(alpha));
    return p2.y() - centreLine(at.leftTrack, g, p2.x(), st).w;
  };
  const Crossing c3 = scanCrossing(pivot2Gap, -st.maxTilt, st.maxTilt, st.scanSamples);
  if (!c3.found) {
    at.reason = c3.start > 0
                    ? "wheels 3-4 have no ground under them: the left track ends behind rocker 1"
                    : "rocker 2 (wheels 3-4) cannot clear the ground at any pitch";
    return at;
  }
  at.alpha = refineRoot(pivot2Gap, c3.bracket, angleTolerance(st));
  at.p2 = at.p1 - g.pivotSpacing * P2(elementary::cos(at.alpha), elementary::sin(at.alpha));
  // The right wheel plane: the left one moved by the track width along the
  // body's y axis (block 5); pivots 3-4 have the same plane coordinates.
  at.right = at.left;
  at.right.origin = at.left.origin - g.trackWidth * at.left.n;
  at.rightTrack = makeTrack(model.quads, at.right);
  at.fit[0] = centreLine(at.leftTrack, g, at.p1.x(), st);
  at.fit[1] = centreLine(at.leftTrack, g, at.p2.x(), st);
  at.fit[2] = centreLine(at.rightTrack, g, at.p1.x(), st);
  at.fit[3] = centreLine(at.rightTrack, g, at.p2.x(), st);
  at.fit[0].theta = at.theta1;  // rocker 1 is placed by wheel 1, not lowered
  at.gap = std::min(at.p1.y() - at.fit[2].w, at.p2.y() - at.fit[3].w);
  at.ok = true;
  return at;
}

/// Fills a pose from the converged attempt.
void describe(const RockerModel& model, const Attempt& at, const RockerSettings& st,
              RockerPose& pose) {
  const RockerGeometry& g = model.geometry;
  const double ca = elementary::cos(at.alpha), sa = elementary::sin(at.alpha);
  const Vec3 x = ca * at.left.eu + sa * at.left.ew, y = at.left.n,
             z = -sa * at.left.eu + ca * at.left.ew;
  pose.rotation.col(0) = x;
  pose.rotation.col(1) = y;
  pose.rotation.col(2) = z;
  pose.yaw = elementary::atan2(x.y(), x.x());
  pose.pitch = elementary::atan2(x.z(), elementary::hypot(x.x(), x.y()));
  pose.roll = elementary::atan2(y.z(), z.z());
  // Pivots sit inwards of their wheel planes, at y = ±pivotLateral.
  const double inward = g.trackWidth / 2 - g.pivotLateral;
  const WheelPlane* planes[4] = {&at.left, &at.left, &at.right, &at.right};
  const Track* tracks[4] = {&at.leftTrack, &at.leftTrack, &at.rightTrack, &at.rightTrack};
  const P2 pivots[4] = {at.p1, at.p2, at.p1, at.p2};
  pose.position.setZero();
  for (int k = 0; k < 4; ++k) {
    const double side = k < 2 ? -1.0 : 1.0;
    pose.pivots[k] = planes[k]->world(pivots[k]) + side * inward * y;
    pose.position += pose.pivots[k] / 4;
    pose.rockerAngles[k] = at.fit[k].theta - at.alpha;
    pose.pivotGaps[k] = pivots[k].y() - at.fit[k].w;
    for (int e = 0; e < 2; ++e) {
      RockerWheel& wheel = pose.wheels[2 * k + e];
      const P2 c = pivots[k] + wheelOffset(g, at.fit[k].theta, e == 0 ? 1 : -1);
      const Support s = support(*tracks[k], c.x(), g.wheelRadius);
      wheel.centre = planes[k]->world(c);
      wheel.ground = s.w > -kInf;
      wheel.clearance = wheel.ground ? c.y() - s.w : kInf;
      wheel.contact = wheel.clearance <= st.contactTolerance;
      if (wheel.contact) wheel.contactPoint = planes[k]->world(s.contact);
    }
  }
  // Suspension-centre lines around the rover, drawn in the pivots' planes.
  const double from = std::min(at.p1.x(), at.p2.x()) - g.rockerArm - g.wheelRadius;
  const double to = std::max(at.p1.x(), at.p2.x()) + g.rockerArm + g.wheelRadius;
  const int n = 48;
  for (int side = 0; side < 2; ++side) {
    const Track& track = side == 0 ? at.leftTrack : at.rightTrack;
    pose.centreLines[side].clear();
    for (int i = 0; i <= n; ++i) {
      const double u = from + (to - from) * i / n;
      const CentrePoint cp = centreLine(track, g, u, st);
      if (cp.w == -kInf) continue;
      pose.centreLines[side].push_back(track.plane.world(P2(u, cp.w)) +
                                       (side == 0 ? -inward : inward) * y);
    }
    pose.tracks[side].clear();
    for (size_t i = 0; i < track.tops; ++i) {
      pose.tracks[side].push_back(track.plane.world(track.segments[i].first));
      pose.tracks[side].push_back(track.plane.world(track.segments[i].second));
    }
  }
}

/// Why a converged attempt is not a stance, or an empty string.
std::string stanceProblem(const RockerPose& pose, const RockerGeometry& g) {
  for (int k = 0; k < 8; ++k)
    if (!pose.wheels[k].ground)
      return wheelName(k + 1) + " has no ground under it: the " + (k < 4 ? "left" : "right") +
             " track leaves the quad rows";
  for (int k = 0; k < 4; ++k)
    if (std::abs(pose.rockerAngles[k]) > g.rockerRange + 1e-9)
      return "rocker " + std::to_string(k + 1) + " would turn " + format(pose.rockerAngles[k]) +
             " rad, beyond its bump stops at ±" + format(g.rockerRange) + " rad";
  return "";
}

}  // namespace

Expected<RockerModel> makeRockerModel(const Scenario& scenario) {
  std::vector<Issue> issues;
  // The geometry comes from the rocker8 preset's parameters.
  if (scenario.robot.source != RobotSource::Preset)
    issues.push_back({"robot",
                      "rocker positioning models the rocker8 preset from its parameters, "
                      "got a robot from robot." +
                          robotSourceName(scenario.robot.source)});
  else if (scenario.robot.preset != "rocker8")
    issues.push_back({"robot.preset", "rocker positioning models the rocker8 rover, got '" +
                                          scenario.robot.preset + "'"});
  if (scenario.leftRow.empty())
    issues.push_back({"terrain.quads.left",
                      "rocker positioning needs the left quad row (wheel 1 follows Track1 on it)"});
  if (scenario.rightRow.empty())
    issues.push_back({"terrain.quads.right", "rocker positioning needs the right quad row"});
  if (scenario.track1.size() < 2)
    issues.push_back({"track1", "rocker positioning needs Track1 (at least two nodes)"});
  if (!issues.empty()) return issues;

  std::map<std::string, double> p;
  for (const ParamSpec& spec : presetParams("rocker8")) p[spec.name] = spec.value;
  for (const auto& [name, value] : scenario.robot.params) p[name] = value;
  RockerModel model;
  RockerGeometry& g = model.geometry;
  g.wheelRadius = p.at("wheel_radius");
  g.wheelWidth = p.at("wheel_width");
  g.rockerArm = p.at("rocker_arm");
  g.pivotHeight = p.at("pivot_height");
  g.pivotSpacing = p.at("pivot_spacing");
  g.trackWidth = p.at("track_width");
  // As core/robots/rocker8.cpp places the pivots.
  g.pivotLateral =
      std::min(g.trackWidth / 2 - 0.5 * p.at("wheel_width") - 0.02, p.at("body_width") / 2 + 0.05);
  g.rockerRange = p.at("rocker_range");
  g.bodySize = Vec3(p.at("body_length"), p.at("body_width"), p.at("body_height"));
  g.bodyCentre = Vec3(0, 0, 0.5 * p.at("body_height") - 0.1);

  model.quads = scenario.leftRow;
  model.quads.insert(model.quads.end(), scenario.rightRow.begin(), scenario.rightRow.end());
  double arc = 0;
  for (size_t i = 0; i < scenario.track1.size(); ++i) {
    const Vec3& x = scenario.track1[i].point;
    if (i > 0) arc += (x - model.track1.back().point).norm();
    model.track1.push_back({x, arc});
  }
  if (!(arc > 0)) return Expected<RockerModel>::failure("track1", "Track1 has zero length");
  return model;
}

double track1Length(const RockerModel& model) {
  return model.track1.empty() ? 0.0 : model.track1.back().arc;
}

Expected<RockerPose> positionRocker(const RockerModel& model, double s, double rollGuess,
                                    const RockerSettings& st) {
  const double length = track1Length(model);
  if (!(s >= 0 && s <= length))
    return Expected<RockerPose>::failure(
        "s", "must be within Track1, [0, " + format(length) + "] m, got " + format(s));
  if (!std::isfinite(rollGuess)) rollGuess = 0;
  // Wheel 1's contact and Track1's direction there (block 1: the yaw).
  size_t i = 0;
  const std::vector<Track1Station>& track = model.track1;
  while (i + 2 < track.size() && s > track[i + 1].arc) ++i;
  while (i + 2 < track.size() && track[i + 1].arc - track[i].arc <= 0) ++i;
  const Vec3 span = track[i + 1].point - track[i].point;
  RockerPose pose;
  pose.s = s;
  if (!(span.norm() > 0) || Vec3::UnitZ().cross(span).norm() < 1e-9 * span.norm()) {
    pose.reason = "Track1 segment " + std::to_string(i) + " is vertical or empty";
    return pose;
  }
  const Vec3 t = span.normalized();
  const Vec3 contact = track[i].point + (s - track[i].arc) * t;

  // Blocks 1-9: turn the wheel planes about t until a right pivot is on the
  // right suspension-centre line and the other on or above it.
  auto run = [&](double tilt) {
    ++pose.iterations;
    return attempt(model, contact, t, tilt, st);
  };
  const double bound = st.maxTilt;
  double a = std::clamp(rollGuess, -bound, bound);
  Attempt atA = run(a);
  if (!atA.ok) {
    pose.reason = atA.reason;
    return pose;
  }
  Attempt best = atA;
  if (std::abs(atA.gap) > st.tolerance) {
    // Both right pivots above the line: roll the right side down (tilt up);
    // one below: roll it up. Double the step until the sign changes.
    const double dir = atA.gap > 0 ? 1.0 : -1.0;
    double step = st.firstRollStep, b = a;
    Attempt atB;
    bool bracketed = false;
    while (pose.iterations < st.maxRollIterations) {
      if (std::abs(b) >= bound) break;
      b = std::clamp(b + dir * step, -bound, bound);
      atB = run(b);
      if (!atB.ok) {
        pose.reason = atB.reason;
        return pose;
      }
      if (std::abs(atB.gap) <= st.tolerance || (atB.gap > 0) != (atA.gap > 0)) {
        bracketed = true;
        break;
      }
      a = b;
      atA = atB;
      step *= 2;
    }
    if (!bracketed) {
      pose.reason = atA.gap == kInf
                        ? "the right track has no ground under pivots 3-4: it leaves the quad rows"
                        : "no roll within ±" + format(bound) +
                              " rad puts a right pivot on the right suspension-centre line";
      return pose;
    }
    best = atB;
    if (std::abs(atB.gap) > st.tolerance) {
      // Refine between a and b; keep the side where no pivot is below its line.
      const bool aAbove = atA.gap > 0;
      Attempt above = aAbove ? atA : atB;
      Attempt below = aAbove ? atB : atA;
      double ta = aAbove ? a : b, tb = aAbove ? b : a;
      auto gapAt = [&](double tilt) {
        Attempt at = run(tilt);
        if (!at.ok) return std::numeric_limits<double>::quiet_NaN();
        const double g = at.gap;
        if (g > 0 || std::abs(g) <= st.tolerance)
          above = std::move(at);
        else
          below = std::move(at);
        return g;
      };
      Bracket roll;
      roll.a = ta, roll.fa = above.gap;
      roll.b = tb, roll.fb = below.gap;
      RootTolerance tol;
      tol.x = 1e-15;
      tol.f = st.tolerance;
      tol.steps = std::max(1, st.maxRollIterations - pose.iterations);
      refineRoot(gapAt, roll, tol);
      best = above;
      if (std::abs(best.gap) > st.tolerance) {
        pose.reason = "the roll iteration stopped " + format(best.gap) +
                      " m above the right suspension-centre line (it jumps there)";
        return pose;
      }
    }
  }
  pose.tilt = best.tilt;
  describe(model, best, st, pose);
  pose.reason = stanceProblem(pose, model.geometry);
  pose.stance = pose.reason.empty();
  return pose;
}

Expected<std::vector<RockerPose>> rockerPlayback(const RockerModel& model, double step,
                                                 const RockerSettings& settings, int maxPoses) {
  const double length = track1Length(model);
  if (!(step > 0) || !std::isfinite(step))
    return Expected<std::vector<RockerPose>>::failure("step", "must be a number > 0 (m)");
  if (length / step + 1 > maxPoses)
    return Expected<std::vector<RockerPose>>::failure(
        "step", "gives more than " + std::to_string(maxPoses) + " poses on Track1 (" +
                    format(length) + " m); take a larger step");
  std::vector<RockerPose> poses;
  double guess = 0;
  const long n = static_cast<long>(std::floor(length / step + 1e-9));
  for (long k = 0; k <= n + 1; ++k) {
    const double s = k <= n ? std::min(length, k * step) : length;
    if (k == n + 1 && (poses.empty() || poses.back().s >= length)) break;
    Expected<RockerPose> pose = positionRocker(model, s, guess, settings);
    if (!pose) return pose.issues();
    if (pose.value().stance) guess = pose.value().tilt;
    poses.push_back(std::move(pose).value());
  }
  return poses;
}

}  // namespace roverlab
