#include "robots/compile.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <map>

#include "common/elementary.h"
#include "common/size_optimized.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

const char* jointKindName(JointKind k) {
  switch (k) {
    case JointKind::Fixed:
      return "fixed";
    case JointKind::Revolute:
      return "revolute";
    case JointKind::Continuous:
      return "continuous";
    case JointKind::Prismatic:
      return "prismatic";
  }
  return "fixed";
}

// A frame in a body frame: p_body = rot · p + pos.
struct Placement {
  Mat3 rot = Mat3::Identity();
  Vec3 pos = Vec3::Zero();
  bool identity = true;  // rot and pos exactly the identity
};

Placement then(const Placement& a, const Origin& o) {
  if (a.identity && o.rpy.isZero() && o.xyz.isZero()) return a;
  Placement p;
  const Mat3 r = rpyRotation(o.rpy);
  p.rot = a.identity ? r : Mat3(a.rot * r);
  p.pos = a.identity ? o.xyz : Vec3(a.rot * o.xyz + a.pos);
  p.identity = false;
  return p;
}

// " (line N)" for an element read from a URDF.
std::string lineOf(int line) { return line > 0 ? " (line " + std::to_string(line) + ")" : ""; }

// The axis-aligned box (centre, size) in the body frame that bounds `shape`
// placed by `at`.
void boundingBox(const CollisionShape& shape, const Placement& at, Vec3& centre, Vec3& size) {
  const Placement p = then(at, shape.origin);
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  const auto grow = [&](const Vec3& local) {
    const Vec3 w = p.rot * local + p.pos;
    lo = lo.cwiseMin(w), hi = hi.cwiseMax(w);
  };
  switch (shape.kind) {
    case ShapeKind::Box:
      for (int c = 0; c < 8; ++c)
        grow(0.5 * Vec3(c & 1 ? shape.size.x() : -shape.size.x(),
                        c & 2 ? shape.size.y() : -shape.size.y(),
                        c & 4 ? shape.size.z() : -shape.size.z()));
      break;
    case ShapeKind::Sphere:
      lo = p.pos - Vec3::Constant(shape.radius), hi = p.pos + Vec3::Constant(shape.radius);
      break;
    case ShapeKind::Cylinder: {
      // The disc ends' extents: along each world axis, r·√(1 − a_i²) about the
      // end centres (a the cylinder's unit axis).
      const Vec3 a = p.rot.col(2);
      const Vec3 half = 0.5 * shape.length * a.cwiseAbs();
      const Vec3 disc = shape.radius * (Vec3::Ones() - a.cwiseAbs2()).cwiseMax(0.0).cwiseSqrt();
      lo = p.pos - half - disc, hi = p.pos + half + disc;
      break;
    }
    case ShapeKind::Hull:
      for (const Vec3& q : shape.points) grow(q);
      break;
  }
  centre = 0.5 * (lo + hi), size = hi - lo;
}

// Mass, centre and inertia (about the centre, body axes) of a body and the
// links merged into it.
struct MassProperties {
  double mass = 0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
};

// Adds a link placed at `at` in the body frame (parallel axes).
void addMass(MassProperties& m, const LinkDescription& link, const Placement& at) {
  const double total = m.mass + link.mass;
  const Vec3 c = at.rot * link.com + at.pos;
  const Mat3 i = at.rot * link.inertia * at.rot.transpose();
  if (total <= 0) return;
  const Vec3 com = (m.mass * m.com + link.mass * c) / total;
  const auto shift = [](double mass, const Vec3& d) {
    return Mat3(mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()));
  };
  m.inertia = m.inertia + shift(m.mass, m.com - com) + i + shift(link.mass, c - com);
  m.mass = total, m.com = com;
}

}  // namespace

Mat3 rpyRotation(const Vec3& rpy) {
  if (rpy.isZero()) return Mat3::Identity();
  return elementary::rotation(Vec3::UnitZ(), rpy.z()) *
         elementary::rotation(Vec3::UnitY(), rpy.y()) *
         elementary::rotation(Vec3::UnitX(), rpy.x());
}

Expected<Robot> compileRobot(const RobotDescription& d, const CompileOptions& options,
                             std::vector<Issue>* warnings) {
  std::vector<Issue> issues;
  const auto at = [&](const std::string& field) {
    if (options.path.empty() || field.empty()) return options.path + field;
    return options.path + (field.front() == '[' ? "" : ".") + field;
  };
  const auto fail = [&](const std::string& field, const std::string& message) {
    issues.push_back({at(field), message});
  };
  const auto warn = [&](const std::string& field, const std::string& message) {
    if (warnings) warnings->push_back({at(field), message});
  };
  const int nLinks = static_cast<int>(d.links.size()), nJoints = static_cast<int>(d.joints.size());
  if (nLinks > kMaxRobotLinks)
    fail("links",
         "at most " + std::to_string(kMaxRobotLinks) + " links, got " + std::to_string(nLinks));
  if (nJoints > kMaxRobotJoints)
    fail("joints",
         "at most " + std::to_string(kMaxRobotJoints) + " joints, got " + std::to_string(nJoints));
  if (!issues.empty()) return issues;

  // Names.
  std::map<std::string, int> linkIndex, jointIndex, actuatorIndex;
  for (int i = 0; i < nLinks; ++i) {
    const LinkDescription& l = d.links[i];
    const std::string where = "links[" + std::to_string(i) + "]";
    if (!linkIndex.emplace(l.name, i).second)
      fail(where + ".name", "a second link named '" + l.name + "'" + lineOf(l.line));
  }
  for (int j = 0; j < nJoints; ++j)
    if (!jointIndex.emplace(d.joints[j].name, j).second)
      fail("joints[" + std::to_string(j) + "].name",
           "a second joint named '" + d.joints[j].name + "'" + lineOf(d.joints[j].line));
  const auto baseIt = linkIndex.find(d.base);
  if (baseIt == linkIndex.end()) fail("base", "no link named '" + d.base + "'");

  // Links: mass and an inertia a rigid body can have.
  for (int i = 0; i < nLinks; ++i) {
    const LinkDescription& l = d.links[i];
    const std::string where = "links[" + std::to_string(i) + "]";
    const std::string name = "link '" + l.name + "'" + lineOf(l.line) + ": ";
    if (!std::isfinite(l.mass) || l.mass < 0) {
      fail(where + ".mass", name + "mass must be finite and ≥ 0 kg, got " + format(l.mass));
      continue;
    }
    if (!l.inertia.allFinite() || !l.com.allFinite()) {
      fail(where + ".inertia", name + "inertia and centre of mass must be finite");
      continue;
    }
    if ((l.inertia - l.inertia.transpose()).cwiseAbs().maxCoeff() >
        1e-12 * l.inertia.cwiseAbs().maxCoeff()) {
      fail(where + ".inertia", name + "inertia must be symmetric");
      continue;
    }
    if (l.mass == 0) {
      if (!l.inertia.isZero())
        fail(where + ".inertia", name + "a link without mass has no inertia (give its mass)");
      continue;
    }
    const Vec3 m = Eigen::SelfAdjointEigenSolver<Mat3>(l.inertia).eigenvalues();  // ascending
    if (!(m[0] > 1e-12 * std::max(m[2], 1e-300))) {
      fail(where + ".inertia", name + "not positive definite: principal moments " + format(m[0]) +
                                   ", " + format(m[1]) + ", " + format(m[2]) + " kg·m²");
    } else if (m[0] + m[1] < m[2] * (1 - 1e-9)) {
      fail(where + ".inertia", name + "principal moments " + format(m[0]) + ", " + format(m[1]) +
                                   ", " + format(m[2]) + " kg·m² break the triangle inequality (" +
                                   format(m[0]) + " + " + format(m[1]) + " < " + format(m[2]) +
                                   "): no rigid body has them");
    }
  }

  // Joints: ends that exist, one parent per link, a usable axis and range.
  std::vector<int> parentJoint(nLinks, -1);
  for (int j = 0; j < nJoints; ++j) {
    const JointDescription& jd = d.joints[j];
    const std::string where = "joints[" + std::to_string(j) + "]";
    const std::string name = "joint '" + jd.name + "'" + lineOf(jd.line) + ": ";
    const auto parent = linkIndex.find(jd.parent), child = linkIndex.find(jd.child);
    if (parent == linkIndex.end())
      fail(where + ".parent", name + "no link named '" + jd.parent + "'");
    if (child == linkIndex.end()) {
      fail(where + ".child", name + "no link named '" + jd.child + "'");
    } else if (child->second == (baseIt == linkIndex.end() ? -1 : baseIt->second)) {
      fail(where + ".child", name + "the base link '" + d.base + "' cannot be a joint's child");
    } else if (parentJoint[child->second] >= 0) {
      fail(where + ".child", name + "link '" + jd.child + "' already hangs on joint '" +
                                 d.joints[parentJoint[child->second]].name + "'");
    } else {
      parentJoint[child->second] = j;
    }
    if (jd.kind != JointKind::Fixed && (!jd.axis.allFinite() || !(jd.axis.norm() > 1e-9)))
      fail(where + ".axis", name + "the axis must be finite and not zero");
    if (!jd.origin.xyz.allFinite() || !jd.origin.rpy.allFinite())
      fail(where + ".origin", name + "origin must be finite");
    if (jd.limit && !(jd.limit->lower <= jd.limit->upper))
      fail(where + ".limit", name + "lower (" + format(jd.limit->lower) + ") above upper (" +
                                 format(jd.limit->upper) + ")");
    if (jd.limit && (jd.kind == JointKind::Fixed || jd.kind == JointKind::Continuous))
      warn(where + ".limit",
           name + "a " + jointKindName(jd.kind) + " joint has no range: its limit is not used");
  }
  if (!issues.empty()) return issues;

  // The tree: joints placed once their parent is, in the description's
  // order (a list with parents first keeps it).
  const int base = baseIt->second;
  std::vector<int> order;  // joints, parents first
  std::vector<char> placed(nLinks, 0);
  placed[base] = 1;
  std::vector<int> parentOf(nJoints), childOf(nJoints);  // link indices
  for (int j = 0; j < nJoints; ++j)
    parentOf[j] = linkIndex[d.joints[j].parent], childOf[j] = linkIndex[d.joints[j].child];
  for (bool more = true; more;) {
    more = false;
    for (int j = 0; j < nJoints; ++j)
      if (placed[parentOf[j]] && !placed[childOf[j]])
        placed[childOf[j]] = 1, order.push_back(j), more = true;
  }
  for (int i = 0; i < nLinks; ++i) {
    if (placed[i]) continue;
    // Up the parents: back at a link already seen is a loop, else a second root.
    std::vector<int> path = {i};
    int k = i;
    while (parentJoint[k] >= 0) {
      k = linkIndex[d.joints[parentJoint[k]].parent];
      if (std::find(path.begin(), path.end(), k) != path.end()) {
        // The loop's links, at most 8 of them named.
        std::string loop;
        const size_t first = std::find(path.begin(), path.end(), k) - path.begin();
        for (size_t s = first; s < path.size() && s < first + 8; ++s)
          loop += "'" + d.links[path[s]].name + "' → ";
        if (path.size() - first > 8)
          loop += "… (" + std::to_string(path.size() - first) + " links) → ";
        fail("joints", "joints form a loop: " + loop + "'" + d.links[k].name + "'");
        break;
      }
      path.push_back(k);
    }
    if (parentJoint[k] < 0)
      fail("links[" + std::to_string(i) + "]", "link '" + d.links[i].name + "'" +
                                                   lineOf(d.links[i].line) +
                                                   " is not connected to the base '" + d.base +
                                                   "' (its root is '" + d.links[k].name + "')");
    if (!issues.empty()) break;
  }
  if (!issues.empty()) return issues;

  // Bodies: the base, then the child of each moving joint; a fixed joint's
  // child is merged into its parent's body.
  std::vector<int> bodyOf(nLinks, -1);
  std::vector<Placement> placement(nLinks);  // link frame in its body's frame
  std::vector<int> bodyLink;                 // the link each body starts from
  std::vector<std::vector<int>> merged;      // per body: its links, first its own
  const bool planar = options.planar || d.baseKind != BaseKind::Free;
  const int virtualBodies = !planar ? 0 : d.baseKind == BaseKind::Carriage ? 1 : 2;
  bodyOf[base] = virtualBodies;
  bodyLink.assign(virtualBodies, -1);
  merged.assign(virtualBodies, {});
  bodyLink.push_back(base);
  merged.push_back({base});
  std::vector<int> bodyJoint(virtualBodies + 1, -1);  // the joint that makes each body
  for (int j : order) {
    const JointDescription& jd = d.joints[j];
    const int p = linkIndex[jd.parent], c = linkIndex[jd.child];
    if (jd.kind == JointKind::Fixed) {
      bodyOf[c] = bodyOf[p];
      placement[c] = then(placement[p], jd.origin);
      merged[bodyOf[c]].push_back(c);
    } else {
      bodyOf[c] = static_cast<int>(bodyLink.size());
      bodyLink.push_back(c);
      merged.push_back({c});
      bodyJoint.push_back(j);
    }
  }
  const int nBodies = static_cast<int>(bodyLink.size());

  // Mass properties per body: a body of one link keeps its numbers exactly.
  std::vector<MassProperties> mass(nBodies);
  for (int b = virtualBodies; b < nBodies; ++b) {
    const std::vector<int>& links = merged[b];
    if (links.size() == 1) {
      const LinkDescription& l = d.links[links[0]];
      mass[b] = {l.mass, l.com, l.inertia};
      continue;
    }
    for (int l : links) addMass(mass[b], d.links[l], placement[l]);
  }
  // A refusal of body b at the joint that makes it (or the base).
  const auto failBody = [&](int b, const std::string& message) {
    const std::string what = bodyJoint[b] >= 0 ? "joint '" + d.joints[bodyJoint[b]].name + "'"
                                               : "the base '" + d.base + "'";
    fail(bodyJoint[b] >= 0 ? "joints[" + std::to_string(bodyJoint[b]) + "]" : "base",
         what + message);
  };
  // Every moving joint must carry mass: its body or one below it.
  std::vector<char> carries(nBodies, 0);
  std::vector<int> parentBody(nBodies, -1);
  for (int b = 1; b < nBodies; ++b)
    parentBody[b] = b <= virtualBodies ? b - 1 : bodyOf[linkIndex[d.joints[bodyJoint[b]].parent]];
  for (int b = nBodies - 1; b >= 0; --b) {
    if (mass[b].mass > 0) carries[b] = 1;
    if (carries[b] && parentBody[b] >= 0) carries[parentBody[b]] = 1;
  }
  for (int b = 0; b < nBodies; ++b) {
    if (carries[b]) continue;
    failBody(b,
             " moves nothing with mass: its acceleration is undefined (give the links below "
             "it a mass)");
  }
  if (!issues.empty()) return issues;

  // Wheels' inertias about their axles (with the drive train), per link.
  std::vector<double> spin(nLinks, 0.0);
  for (const WheelDescription& w : d.wheels) {
    const auto j = jointIndex.find(w.joint);
    if (j != jointIndex.end() && w.spinInertia > 0 && std::isfinite(w.spinInertia))
      spin[linkIndex[d.joints[j->second].child]] = w.spinInertia;
  }

  Robot robot;
  robot.name = d.name;
  robot.planar = planar;
  // The planar base: massless sliders along x (and z), then the base link on
  // the last degree of freedom (pitch about y, or z for a carriage).
  const auto addSlider = [&](const std::string& name, int parent, const Vec3& axis) {
    Body b;
    b.name = name;
    b.parent = parent;
    b.joint = JointType::Prismatic;
    b.axis = axis;
    b.mass = 0.0;
    b.inertia = Mat3::Zero();
    return addBody(robot.bodies, b);
  };
  for (int b = 0; b < nBodies; ++b) {
    if (b < virtualBodies) {
      addSlider(d.base + (b == 0 ? "_x" : "_z"), b - 1, b == 0 ? Vec3::UnitX() : Vec3::UnitZ());
      continue;
    }
    Body body;
    body.name = d.links[bodyLink[b]].name;
    body.mass = mass[b].mass;
    body.com = mass[b].com;
    body.inertia = mass[b].inertia;
    if (b == virtualBodies) {
      body.parent = b - 1;
      body.joint = !planar                            ? JointType::Free
                   : d.baseKind == BaseKind::Carriage ? JointType::Prismatic
                                                      : JointType::Revolute;
      body.axis = !planar                            ? Vec3::UnitZ()
                  : d.baseKind == BaseKind::Carriage ? Vec3::UnitZ()
                                                     : Vec3::UnitY();
    } else {
      const JointDescription& jd = d.joints[bodyJoint[b]];
      const int parentLink = linkIndex[jd.parent];
      body.parent = bodyOf[parentLink];
      body.joint = jd.kind == JointKind::Prismatic ? JointType::Prismatic : JointType::Revolute;
      const double n = jd.axis.norm();
      body.axis = n == 1 ? jd.axis : Vec3(jd.axis / n);
      if (spin[bodyLink[b]] > 0) {
        // I about the axis a becomes the spin inertia: on a coordinate axis
        // that one diagonal number, else I + (s − aᵀ I a) a aᵀ.
        const double s = spin[bodyLink[b]];
        int k = -1;
        for (int i = 0; i < 3; ++i)
          if (std::abs(body.axis[i]) == 1) k = i;
        if (k >= 0)
          body.inertia(k, k) = s;
        else
          body.inertia +=
              (s - body.axis.dot(body.inertia * body.axis)) * body.axis * body.axis.transpose();
      }
      const Placement frame = then(placement[parentLink], jd.origin);
      // Transform holds the coordinate rotation parent → joint frame (Rᵀ).
      body.tree.rot = frame.identity ? Mat3::Identity() : Mat3(frame.rot.transpose());
      body.tree.pos = frame.pos;
    }
    addBody(robot.bodies, body);
  }
  robot.base = virtualBodies;
  robot.sections.push_back(robot.base);

  // Wheels.
  std::vector<char> wheelLink(nLinks, 0);
  for (size_t w = 0; w < d.wheels.size(); ++w) {
    const WheelDescription& wd = d.wheels[w];
    const std::string where = "wheels[" + std::to_string(w) + "]";
    const auto j = jointIndex.find(wd.joint);
    if (j == jointIndex.end()) {
      fail(where + ".joint", "no joint named '" + wd.joint + "'");
      continue;
    }
    const JointDescription& jd = d.joints[j->second];
    if (jd.kind != JointKind::Revolute && jd.kind != JointKind::Continuous) {
      fail(where + ".joint", "a wheel spins on a revolute or continuous joint; '" + wd.joint +
                                 "' is " + jointKindName(jd.kind));
      continue;
    }
    if (!(wd.radius > 0) || !(wd.width > 0) || !std::isfinite(wd.radius) ||
        !std::isfinite(wd.width)) {
      fail(where, "radius and width must be finite and > 0 m");
      continue;
    }
    const int c = linkIndex[jd.child];
    if (wheelLink[c]) fail(where + ".joint", "a second wheel on joint '" + wd.joint + "'");
    wheelLink[c] = 1;
    WheelModel wheel;
    wheel.body = bodyOf[c];
    wheel.shape.radius = wd.radius;
    wheel.shape.width = wd.width;
    wheel.tire = wd.tire;
    wheel.tread = wd.tread;
    wheel.tireParams = wd.tireParams;
    wheel.treadParams = wd.treadParams;
    if (!options.path.empty() && wheel.tireParams.stiffness.empty()) {
      const std::string p = options.path + "." + where;
      wheel.tireParams = {p + ".tire.stiffness", p + ".tire.damping"};
      wheel.treadParams = {p + ".tread.stiffness", p + ".tread.damping"};
    }
    robot.wheels.push_back(wheel);
  }

  // Body boxes: every collision shape of a link that is not a wheel, as its
  // bounding box in the body frame (exact for a box with its body's axes).
  std::vector<std::string> approximated;
  for (int b = virtualBodies; b < nBodies; ++b)
    for (int l : merged[b]) {
      if (wheelLink[l]) continue;
      for (const CollisionShape& s : d.links[l].collisions) {
        BodyBox box;
        box.body = b;
        if (s.kind == ShapeKind::Box && placement[l].identity && s.origin.rpy.isZero()) {
          box.centre = s.origin.xyz, box.size = s.size;
        } else {
          boundingBox(s, placement[l], box.centre, box.size);
          if (s.kind != ShapeKind::Box || !s.origin.rpy.isZero() || !placement[l].identity)
            approximated.push_back(d.links[l].name);
        }
        if (!box.size.allFinite() || !(box.size.minCoeff() > 0)) continue;
        robot.boxes.push_back(box);
        keepFrame(robot.bodies, b);  // the box turns with its body, a wheel's too
      }
    }
  if (!approximated.empty()) {
    approximated.erase(std::unique(approximated.begin(), approximated.end()), approximated.end());
    std::string names;
    for (const std::string& n : approximated) names += (names.empty() ? "'" : ", '") + n + "'";
    warn("links", "body contact meets the collision shapes of " + names +
                      " as their bounding boxes in the link frame");
  }

  // Actuators.
  for (size_t a = 0; a < d.actuators.size(); ++a) {
    const ActuatorDescription& ad = d.actuators[a];
    const std::string where = "actuators[" + std::to_string(a) + "]";
    if (!actuatorIndex.emplace(ad.name, static_cast<int>(a)).second)
      fail(where + ".name", "a second actuator named '" + ad.name + "'");
    const auto j = jointIndex.find(ad.joint);
    if (j == jointIndex.end()) {
      fail(where + ".joint", "no joint named '" + ad.joint + "'");
      continue;
    }
    if (d.joints[j->second].kind == JointKind::Fixed) {
      fail(where + ".joint", "joint '" + ad.joint + "' is fixed: nothing to drive");
      continue;
    }
    for (const double v : {ad.gain, ad.integralGain, ad.damping, ad.limit})
      if (!std::isfinite(v) || v < 0) {
        fail(where, "gains, damping and limit must be finite and ≥ 0");
        break;
      }
    if (!(ad.gearRatio > 0) || !std::isfinite(ad.gearRatio))
      fail(where + ".gear_ratio", "must be finite and > 0, got " + format(ad.gearRatio));
    Actuator act;
    act.name = ad.name;
    act.body = bodyOf[linkIndex[d.joints[j->second].child]];
    act.mode = ad.mode;
    act.gain = ad.gain;
    act.integralGain = ad.integralGain;
    act.damping = ad.damping;
    act.limit = ad.gearRatio == 1 ? ad.limit : ad.limit * ad.gearRatio;
    act.params = ad.params;
    if (act.params.stiffness.empty() && act.params.damping.empty() && !options.path.empty()) {
      // Named by the description: a speed drive's gain damps, its integral gain is a spring.
      const std::string p = options.path + "." + where;
      act.params = ad.mode == ActuatorMode::Speed
                       ? CoefficientParams{p + ".integral_gain", p + ".gain"}
                       : CoefficientParams{p + ".gain", p + ".damping"};
    }
    robot.actuators.push_back(act);
  }
  if (!issues.empty()) return issues;

  // Joint ranges and springs, in the joints' order.
  for (int j : order) {
    const JointDescription& jd = d.joints[j];
    if (jd.kind == JointKind::Fixed) continue;
    const int body = bodyOf[linkIndex[jd.child]];
    const std::string p = options.path + ".joints[" + std::to_string(j) + "]";
    if (jd.limit && jd.kind != JointKind::Continuous) {
      JointLimit l;
      l.body = body;
      l.lower = jd.limit->lower;
      l.upper = jd.limit->upper;
      l.stiffness = jd.limit->stiffness;
      l.damping = jd.limit->damping;
      l.params = jd.limit->params;
      if (l.params.stiffness.empty() && l.params.damping.empty() && !options.path.empty())
        l.params = {p + ".limit.stiffness", p + ".limit.damping"};
      robot.limits.push_back(l);
    }
    if (jd.spring.stiffness != 0 || jd.spring.cubic != 0 || jd.damping != 0) {
      JointSpring s;
      s.body = body;
      s.stiffness = jd.spring.stiffness;
      s.damping = jd.damping;
      s.rest = jd.spring.rest;
      s.cubic = jd.spring.cubic;
      s.params = jd.params;
      if (s.params.stiffness.empty() && s.params.damping.empty() && !options.path.empty())
        s.params = {p + ".spring.stiffness", p + ".damping"};
      robot.springs.push_back(s);
    }
    if (jd.friction > 0) robot.frictions.push_back({body, jd.friction, 0.0});
  }

  // Mimics: a moving joint follows another moving joint that follows none.
  for (int j : order) {
    const JointDescription& jd = d.joints[j];
    if (!jd.mimic) continue;
    const std::string where = "joints[" + std::to_string(j) + "].mimic";
    const std::string name = "joint '" + jd.name + "'" + lineOf(jd.line) + ": ";
    const auto leader = jointIndex.find(jd.mimic->joint);
    if (jd.kind == JointKind::Fixed) {
      fail(where, name + "a fixed joint cannot follow another");
    } else if (leader == jointIndex.end()) {
      fail(where + ".joint", name + "no joint named '" + jd.mimic->joint + "'");
    } else if (leader->second == j) {
      fail(where + ".joint", name + "a joint cannot follow itself");
    } else if (d.joints[leader->second].kind == JointKind::Fixed) {
      fail(where + ".joint", name + "follows '" + jd.mimic->joint + "', which is fixed");
    } else if (d.joints[leader->second].mimic) {
      fail(where + ".joint", name + "follows '" + jd.mimic->joint +
                                 "', which follows another joint itself: follow that one");
    } else if (!std::isfinite(jd.mimic->multiplier) || !std::isfinite(jd.mimic->offset)) {
      fail(where, name + "multiplier and offset must be finite");
    } else {
      JointMimic m;
      m.body = bodyOf[linkIndex[jd.child]];
      m.leader = bodyOf[linkIndex[d.joints[leader->second].child]];
      m.multiplier = jd.mimic->multiplier;
      m.offset = jd.mimic->offset;
      robot.mimics.push_back(m);
    }
  }

  // Controls.
  const auto drive = [&](const std::vector<std::string>& names, const std::string& field,
                         ActuatorMode mode, std::vector<int>& out) {
    for (size_t k = 0; k < names.size(); ++k) {
      const auto a = actuatorIndex.find(names[k]);
      const std::string where = "controls." + field + "[" + std::to_string(k) + "]";
      if (a == actuatorIndex.end()) {
        fail(where, "no actuator named '" + names[k] + "'");
      } else if (d.actuators[a->second].mode != mode) {
        fail(where, "actuator '" + names[k] + "' is not a " +
                        (mode == ActuatorMode::Speed ? "speed" : "position") + " drive");
      } else {
        out.push_back(a->second);
      }
    }
  };
  drive(d.controls.left, "left", ActuatorMode::Speed, robot.leftDrive);
  drive(d.controls.right, "right", ActuatorMode::Speed, robot.rightDrive);
  std::vector<int> joints;
  drive(d.controls.joints, "joints", ActuatorMode::Position, joints);
  for (int a : joints) robot.joints[d.actuators[a].name] = a;
  if (!(d.controls.maxWheelSpeed >= 0)) fail("controls.max_wheel_speed", "must be ≥ 0 rad/s");
  robot.maxWheelSpeed = d.controls.maxWheelSpeed;
  for (size_t s = 0; s < d.sections.size(); ++s) {
    const auto l = linkIndex.find(d.sections[s]);
    if (l == linkIndex.end())
      fail("sections[" + std::to_string(s) + "]", "no link named '" + d.sections[s] + "'");
    else
      robot.sections.push_back(bodyOf[l->second]);
  }
  if (!issues.empty()) return issues;

  // Every joint must have an inertia to accelerate at the start pose: the
  // articulated-body algorithm's D = Sᵀ I^A S (kg·m² or kg) of a joint whose
  // motion a coaxial joint below it takes, or that moves only massless
  // links, is zero and its acceleration undefined.
  MultibodyData data = makeData(robot.bodies);
  aba(robot.bodies, neutralState(robot.bodies), data);
  for (int b = 0; b < nBodies; ++b) {
    const Body& body = robot.bodies.bodies[b];
    const bool singular = jointDofs(body.joint) == 1
                              ? !(std::isfinite(data.dInverse[b]) && data.dInverse[b] > 0 &&
                                  1 / data.dInverse[b] > 1e-12)
                              : jointDofs(body.joint) == 6 && !data.freeInertia[b].ok;
    if (!singular || b < virtualBodies) continue;
    failBody(b,
             " has no inertia about its axis at the start pose (its links are massless, or a "
             "joint below it on the same axis takes its motion): its acceleration is undefined");
  }
  if (!issues.empty()) return issues;
  return robot;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
