#include "dynamics/multibody.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "common/elementary.h"

namespace roverlab {
namespace {

Eigen::Quaterniond quaternionAt(const Eigen::VectorXd& q, int i) {
  return Eigen::Quaterniond(q[i + 3], q[i + 4], q[i + 5], q[i + 6]);
}

// X_J X_tree: the parent frame → the body frame, through the joint frame at
// q = 0 (X_tree) and the joint's motion X_J, written into `out`. Each joint
// type composes only what its X_J moves: a revolute joint's rotation alone, a
// prismatic joint's shift alone. (Written in place, not returned: in
// WebAssembly each copy of a Transform is a call of memcpy.)
void setParentToBody(const Body& b, bool treeParallel, const Eigen::VectorXd& q, Transform& out) {
  switch (b.joint) {
    case JointType::Free:
      b.tree.then(Transform{quaternionAt(q, b.qIndex).toRotationMatrix().transpose(),
                            q.segment<3>(b.qIndex)},
                  out);
      return;
    case JointType::Revolute:
      if (treeParallel)
        out.rot = elementary::rotation(b.axis, q[b.qIndex]).transpose();
      else
        out.rot.noalias() = elementary::rotation(b.axis, q[b.qIndex]).transpose() * b.tree.rot;
      out.pos = b.tree.pos;
      return;
    case JointType::Prismatic:
      out.rot = b.tree.rot;
      if (treeParallel)
        out.pos = b.tree.pos + q[b.qIndex] * b.axis;
      else
        out.pos = b.tree.pos + b.tree.rot.transpose() * (q[b.qIndex] * b.axis);
      return;
    case JointType::Fixed:
      break;
  }
  out = b.tree;
}

// Motion subspace of a 1-DOF joint: the joint axis as a spatial vector.
Vec6 jointAxis(const Body& b) {
  Vec6 s = Vec6::Zero();
  if (b.joint == JointType::Revolute) s.head<3>() = b.axis;
  if (b.joint == JointType::Prismatic) s.tail<3>() = b.axis;
  return s;
}

// Coordinate axes. Every preset's joint axis is a unit coordinate vector, so
// S = σ e_k (σ = ±1, the other five coordinates +0: addBody checks the
// bits). In passes 2 and 3 of the articulated-body algorithm (RBDA Table
// 7.1) and in abaResponse, U = I^A S is then σ times column k of I^A, Sᵀ x
// is σ x_k, and a + S q̈ changes a_k alone. The full products give the same
// numbers: each of their coordinates is σ x_k (exact: a product with ±1)
// plus five terms (+0)·x_j = ±0, and a number plus signed zeros is that
// number exactly (x + ±0 = x for x ≠ 0). They can differ only in the sign of
// a zero: a coordinate that is 0 (the full sum is −0 only when every term
// is −0), or a_j = −0 (a_j + (+0) is +0). Such a difference does not reach
// the state: these values enter sums, differences, products and divisions by
// positive numbers only (D = Sᵀ U, the free joint's Cholesky factor), which
// turn it into at most another difference in the sign of a zero; the joint accelerations q̈ reach
// the state through v + h q̈ alone (mimicStage and RK4 add them up first), and v + (±0) has the same
// bits for either sign unless v is −0, which v + h q̈ never makes from a +0 or non-zero v (x + y is
// −0 only when x and y both are). A non-finite entry (∞ · 0 = NaN in the full product) ends the run
// either way (the blow-up check).
bool unitAxis(const Vec6& s, int& index, double& sign) {
  index = -1;
  for (int j = 0; j < 6; ++j) {
    if (s[j] == 1.0 || s[j] == -1.0) {
      if (index >= 0) return false;
      index = j;
    } else if (s[j] != 0.0 || std::signbit(s[j])) {
      return false;
    }
  }
  if (index < 0) return false;
  sign = s[index];
  return true;
}

// U = I^A S for S = σ e_k: σ times column k of [A B; Bᵀ C].
Vec6 inertiaTimesAxis(const InertiaBlocks& m, int k, double sign) {
  Vec6 u;
  if (k < 3) {
    for (int i = 0; i < 3; ++i) u[i] = sign * m.a(i, k), u[i + 3] = sign * m.b(k, i);
  } else {
    for (int i = 0; i < 3; ++i) u[i] = sign * m.b(i, k - 3), u[i + 3] = sign * m.c(i, k - 3);
  }
  return u;
}

// Sᵀ x for body i's 1-DOF joint.
double axisDot(const Multibody& model, int i, const Vec6& x) {
  const int k = model.axisIndex[i];
  return k >= 0 ? model.axisSign[i] * x[k] : model.axis[i].dot(x);
}

// a += S q̈ for body i's 1-DOF joint.
void addAxisTimes(const Multibody& model, int i, double qdd, Vec6& a) {
  const int k = model.axisIndex[i];
  if (k >= 0)
    a[k] += model.axisSign[i] * qdd;
  else
    a += model.axis[i] * qdd;
}

Mat6 bodyInertia(const Body& b) { return spatialInertia(b.mass, b.com, b.inertia); }

InertiaBlocks inertiaBlocks(const Mat6& m) {
  InertiaBlocks out;
  out.a = m.topLeftCorner<3, 3>();
  out.b = m.topRightCorner<3, 3>();
  out.c = m.bottomRightCorner<3, 3>();
  return out;
}

// True when E's entry (m, j) is ±0 for a rotation E that leaves coordinate
// axis K fixed (K = −1: none): row and column K are ±e_K's. A revolute joint
// about a coordinate axis whose frame is parallel to its parent's turns by
// such an E (Rodrigues' formula makes those entries ±0 exactly).
template <int K>
constexpr bool offAxis(int m, int j) {
  return K >= 0 && ((m == K) != (j == K));
}

// A' = EᵀAE, B' = EᵀBE, C' = EᵀCE (A' and C' symmetric: upper triangles
// computed), each entry the sum over m of its products in the order of m,
// less the products with an entry of E that is ±0 (offAxis): the same bits
// as the full sums (a number plus ±0 is that number), in fewer operations.
template <int K>
void rotateBlocks(const Mat3& e, const InertiaBlocks& in, double a1[3][3], double b1[3][3],
                  double c1[3][3]) {
  double ta[3][3], tb[3][3], tc[3][3];  // A E, B E, C E: Σ_m T(i, m) e(m, j)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      bool first = true;
      for (int m = 0; m < 3; ++m) {
        if (offAxis<K>(m, j)) continue;
        const double pa = in.a(i, m) * e(m, j), pb = in.b(i, m) * e(m, j),
                     pc = in.c(i, m) * e(m, j);
        ta[i][j] = first ? pa : ta[i][j] + pa;
        tb[i][j] = first ? pb : tb[i][j] + pb;
        tc[i][j] = first ? pc : tc[i][j] + pc;
        first = false;
      }
    }
  for (int i = 0; i < 3; ++i)  // Eᵀ T: Σ_m e(m, i) T(m, j)
    for (int j = 0; j < 3; ++j) {
      bool first = true;
      for (int m = 0; m < 3; ++m) {
        if (offAxis<K>(m, i)) continue;
        const double pb = e(m, i) * tb[m][j];
        b1[i][j] = first ? pb : b1[i][j] + pb;
        if (j >= i) {
          const double pa = e(m, i) * ta[m][j], pc = e(m, i) * tc[m][j];
          a1[i][j] = first ? pa : a1[i][j] + pa;
          c1[i][j] = first ? pc : c1[i][j] + pc;
        }
        first = false;
      }
    }
  a1[1][0] = a1[0][1], a1[2][0] = a1[0][2], a1[2][1] = a1[1][2];
  c1[1][0] = c1[0][1], c1[2][0] = c1[0][2], c1[2][1] = c1[1][2];
}

// Xᵀ I X for the motion transform X (parent → child) of `x`, I in child
// coordinates, added to `parent` (parent coordinates). X = [E 0; −E r× E] is
// the rotation diag(E, E) after the shift [1 0; −r× 1], so with A' = EᵀAE,
// B' = EᵀBE, C' = EᵀCE and H = B' + r×C':
//   Xᵀ I X = [A' + r×B'ᵀ − H r×,  H;  Hᵀ,  C'].
// Written out in scalars (about half the operations of Eigen's 3×3 products
// here, and no temporaries): A and C are symmetric, so only their upper
// triangles are computed. `fixedAxis` (0-2) is a coordinate axis E leaves
// fixed (offAxis), −1 for none.
void addTransformedInertia(const Transform& x, const InertiaBlocks& in, InertiaBlocks& parent,
                           int fixedAxis = -1) {
  const Mat3& e = x.rot;
  double a1[3][3], b1[3][3], c1[3][3];
  if (e == Mat3::Identity()) {  // A' = A, B' = B, C' = C (a prismatic joint, parallel frames)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        a1[i][j] = in.a(i, j), b1[i][j] = in.b(i, j), c1[i][j] = in.c(i, j);
  } else if (fixedAxis == 0) {
    rotateBlocks<0>(e, in, a1, b1, c1);
  } else if (fixedAxis == 1) {
    rotateBlocks<1>(e, in, a1, b1, c1);
  } else if (fixedAxis == 2) {
    rotateBlocks<2>(e, in, a1, b1, c1);
  } else {
    rotateBlocks<-1>(e, in, a1, b1, c1);
  }
  const double rx = x.pos.x(), ry = x.pos.y(), rz = x.pos.z();
  // r×M for a column m: (ry m2 − rz m1, rz m0 − rx m2, rx m1 − ry m0).
  double h[3][3];  // H = B' + r×C'
  for (int j = 0; j < 3; ++j) {
    h[0][j] = b1[0][j] + ry * c1[2][j] - rz * c1[1][j];
    h[1][j] = b1[1][j] + rz * c1[0][j] - rx * c1[2][j];
    h[2][j] = b1[2][j] + rx * c1[1][j] - ry * c1[0][j];
  }
  // K = r×B'ᵀ (column j of B'ᵀ is row j of B'), and H r× = −(r× Hᵀ)ᵀ:
  // (H r×)(i, j) = −(r × H.row(i))_j.
  double k[3][3], hr[3][3];
  for (int j = 0; j < 3; ++j) {
    k[0][j] = ry * b1[j][2] - rz * b1[j][1];
    k[1][j] = rz * b1[j][0] - rx * b1[j][2];
    k[2][j] = rx * b1[j][1] - ry * b1[j][0];
  }
  for (int i = 0; i < 3; ++i) {
    hr[i][0] = -(ry * h[i][2] - rz * h[i][1]);
    hr[i][1] = -(rz * h[i][0] - rx * h[i][2]);
    hr[i][2] = -(rx * h[i][1] - ry * h[i][0]);
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      parent.b(i, j) += h[i][j];
      if (j < i) continue;
      const double a = a1[i][j] + k[i][j] - hr[i][j];
      parent.a(i, j) += a;
      parent.c(i, j) += c1[i][j];
      if (j > i) parent.a(j, i) += a, parent.c(j, i) += c1[i][j];
    }
}

// True when the rigid inertia of a revolute body is invariant under rotation
// about its joint axis (centre of mass on the axis, inertia symmetric about
// it), checked at two unrelated angles to rounding precision.
bool axisymmetric(const Body& b, const InertiaBlocks& inertia) {
  if (b.joint != JointType::Revolute) return false;
  const double scale = std::max({inertia.a.cwiseAbs().maxCoeff(), inertia.b.cwiseAbs().maxCoeff(),
                                 inertia.c.cwiseAbs().maxCoeff()});
  for (const double angle : {1.0, 2.5}) {
    const Transform xj{elementary::rotation(b.axis, angle).transpose(), Vec3::Zero()};
    InertiaBlocks turned;
    addTransformedInertia(xj, inertia, turned);
    const double diff = std::max({(turned.a - inertia.a).cwiseAbs().maxCoeff(),
                                  (turned.b - inertia.b).cwiseAbs().maxCoeff(),
                                  (turned.c - inertia.c).cwiseAbs().maxCoeff()});
    if (!(diff <= 1e-12 * scale)) return false;
  }
  return true;
}

}  // namespace

int addBody(Multibody& model, Body body) {
  assert(body.parent < static_cast<int>(model.bodies.size()));
  body.axis.normalize();
  body.qIndex = model.nq;
  body.vIndex = model.nv;
  model.nq += jointCoords(body.joint);
  model.nv += jointDofs(body.joint);
  const InertiaBlocks inertia = inertiaBlocks(bodyInertia(body));
  const Vec6 axis = jointAxis(body);
  // A leaf so far; its parent, now with a child, is no rotor.
  if (body.parent >= 0) model.rotor[body.parent] = 0;
  const bool rotor = body.parent >= 0 && axisymmetric(body, inertia);
  Vec6 u = Vec6::Zero();
  double dInverse = 0.0;
  InertiaBlocks passed;
  Vec6 uParent = Vec6::Zero();
  if (rotor) {
    // The joint rotation X_J leaves I and S unchanged, so X = X_J X_tree
    // passes X_treeᵀ I^a X_tree whatever the angle.
    u = inertia * axis;
    dInverse = 1.0 / axis.dot(u);
    InertiaBlocks reduced = inertia;
    const Vec3 uw = u.head<3>(), uv = u.tail<3>();
    reduced.a -= dInverse * uw * uw.transpose();
    reduced.b -= dInverse * uw * uv.transpose();
    reduced.c -= dInverse * uv * uv.transpose();
    addTransformedInertia(body.tree, reduced, passed);
    uParent = body.tree.applyTransposeForce(u);
  }
  model.inertia.push_back(inertia);
  model.axis.push_back(axis);
  int axisIndex = -1;
  double axisSign = 0.0;
  if (jointDofs(body.joint) != 1 || !unitAxis(axis, axisIndex, axisSign)) axisIndex = -1;
  model.axisIndex.push_back(axisIndex);
  model.axisSign.push_back(axisSign);
  model.rotor.push_back(rotor ? 1 : 0);
  model.rotorU.push_back(u);
  model.rotorUParent.push_back(uParent);
  const bool treeParallel = body.tree.rot == Mat3::Identity();
  model.treeParallel.push_back(treeParallel ? 1 : 0);
  model.frameParallel.push_back(
      treeParallel && (body.joint == JointType::Prismatic || body.joint == JointType::Fixed) ? 1
                                                                                             : 0);
  model.rotorDInverse.push_back(dInverse);
  model.rotorInertia.push_back(passed);
  model.bodies.push_back(std::move(body));
  return static_cast<int>(model.bodies.size()) - 1;
}

void keepFrame(Multibody& model, int body) { model.rotor[body] = 0; }

Mat3 worldRotationWithSpin(const Multibody& model, const MultibodyState& state,
                           const MultibodyData& data, int body) {
  const Mat3 frame = worldRotation(data, body);
  if (!model.rotor[body]) return frame;
  const Body& b = model.bodies[body];
  return frame * elementary::rotation(b.axis, state.q[b.qIndex]);
}

MultibodyState neutralState(const Multibody& model) {
  MultibodyState s;
  s.q = Eigen::VectorXd::Zero(model.nq);
  s.v = Eigen::VectorXd::Zero(model.nv);
  for (const Body& b : model.bodies)
    if (b.joint == JointType::Free) s.q[b.qIndex + 3] = 1.0;  // identity quaternion w
  return s;
}

MultibodyData makeData(const Multibody& model) {
  const size_t n = model.bodies.size();
  MultibodyData d;
  d.parentToBody.resize(n);
  for (size_t i = 0; i < n; ++i)  // a rotor's, X_tree, is constant: the kinematics leave it
    if (model.rotor[i]) d.parentToBody[i] = model.bodies[i].tree;
  d.worldToBody.resize(n);
  d.velocity.assign(n, Vec6::Zero());
  d.externalForce.assign(n, Vec6::Zero());
  d.tau = Eigen::VectorXd::Zero(model.nv);
  d.acceleration = Eigen::VectorXd::Zero(model.nv);
  d.articulatedInertia.resize(n);
  d.bias.resize(n);
  d.coriolis.resize(n);
  d.accel.resize(n);
  d.u.resize(n);
  d.dInverse.assign(n, 0.0);
  d.uBias.assign(n, 0.0);
  d.freeInertia.resize(n);
  d.responseForce.resize(n);
  d.responseAccel.resize(n);
  d.responseTau.assign(n, 0.0);
  return d;
}

void forwardKinematics(const Multibody& model, const MultibodyState& state, MultibodyData& data) {
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (model.rotor[i]) {  // the hub frame (Multibody::rotor): X_tree only
      const Vec6 vJ = model.axis[i] * state.v[b.vIndex];
      const Transform& parent = data.worldToBody[b.parent];
      Transform& out = data.worldToBody[i];
      const Vec6& vp = data.velocity[b.parent];
      Vec6& v = data.velocity[i];
      if (model.treeParallel[i]) {
        out.rot = parent.rot;
        out.pos = parent.pos + parent.rot.transpose() * b.tree.pos;
        v.head<3>() = vp.head<3>();
        v.tail<3>() = vp.tail<3>() - b.tree.pos.cross(vp.head<3>());
      } else {
        parent.then(b.tree, out);
        v = b.tree.apply(vp);
      }
      v += vJ;
      data.coriolis[i] = crossMotion(v, vJ);
      continue;
    }
    const int k = jointDofs(b.joint);
    setParentToBody(b, model.treeParallel[i], state.q, data.parentToBody[i]);
    const Vec6 vJ = k == 6   ? Vec6(state.v.segment<6>(b.vIndex))
                    : k == 1 ? Vec6(model.axis[i] * state.v[b.vIndex])
                             : Vec6(Vec6::Zero());
    if (b.parent < 0) {
      data.worldToBody[i] = data.parentToBody[i];
      data.velocity[i] = vJ;
    } else if (model.frameParallel[i]) {
      const Transform& parent = data.worldToBody[b.parent];
      const Vec3& pos = data.parentToBody[i].pos;
      data.worldToBody[i].rot = parent.rot;
      data.worldToBody[i].pos = parent.pos + parent.rot.transpose() * pos;
      data.velocity[i] = applyShift(pos, data.velocity[b.parent]) + vJ;
    } else {
      data.worldToBody[b.parent].then(data.parentToBody[i], data.worldToBody[i]);
      data.velocity[i] = data.parentToBody[i].apply(data.velocity[b.parent]) + vJ;
    }
    data.coriolis[i] = crossMotion(data.velocity[i], vJ);
  }
}

void aba(const Multibody& model, const MultibodyState& state, MultibodyData& data) {
  forwardKinematics(model, state, data);
  abaFromKinematics(model, data);
}

void abaResponse(const Multibody& model, MultibodyData& data, const Eigen::VectorXd& tau,
                 Eigen::Ref<Eigen::VectorXd> out) {
  // Passes 2 and 3 of abaFromKinematics with no bias force and no velocity
  // product: I^A, U and D depend on the poses only and are reused.
  const int n = static_cast<int>(model.bodies.size());
  std::vector<Vec6>& p = data.responseForce;
  std::vector<Vec6>& acc = data.responseAccel;
  for (int i = 0; i < n; ++i) p[i].setZero();
  std::vector<double>& uTau = data.responseTau;
  for (int i = n - 1; i >= 0; --i) {
    const Body& b = model.bodies[i];
    Vec6 pa = p[i];
    switch (jointDofs(b.joint)) {
      case 1: {
        uTau[i] = tau[b.vIndex] - axisDot(model, i, p[i]);
        pa += data.u[i] * (data.dInverse[i] * uTau[i]);
        break;
      }
      case 6:
        pa = tau.segment<6>(b.vIndex);
        break;
      default:
        break;
    }
    if (b.parent >= 0) p[b.parent] += data.parentToBody[i].applyTransposeForce(pa);
  }
  for (int i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    Vec6 a = b.parent >= 0 ? data.parentToBody[i].apply(acc[b.parent]) : Vec6(Vec6::Zero());
    switch (jointDofs(b.joint)) {
      case 1: {
        const double qdd = data.dInverse[i] * (uTau[i] - data.u[i].dot(a));
        out[b.vIndex] = qdd;
        addAxisTimes(model, i, qdd, a);
        break;
      }
      case 6: {
        const Vec6 qdd = data.freeInertia[i].solve(tau.segment<6>(b.vIndex) - p[i] -
                                                   data.articulatedInertia[i] * a);
        out.segment<6>(b.vIndex) = qdd;
        a += qdd;
        break;
      }
      default:
        break;
    }
    acc[i] = a;
  }
}

void abaFromKinematics(const Multibody& model, MultibodyData& data) {
  const int n = static_cast<int>(model.bodies.size());
  // Pass 1: articulated inertias start as rigid ones; bias forces are the
  // velocity product and the applied forces (moved to body coordinates; most
  // bodies have none). Gravity enters as an upward acceleration of the world
  // in pass 3 (RBDA §5.3): every body then bears its weight.
  for (int i = 0; i < n; ++i) {
    const InertiaBlocks& inertia = model.inertia[i];
    if (!model.rotor[i]) data.articulatedInertia[i] = inertia;  // a rotor's stays its rigid one
    data.bias[i] = crossForce(data.velocity[i], inertia.rigidTimes(data.velocity[i]));
    const Vec6& applied = data.externalForce[i];
    if (!(applied.array() == 0.0).all()) data.bias[i] -= data.worldToBody[i].applyForce(applied);
  }
  // Pass 2: articulated inertias and bias forces, leaves to root. 1-DOF joints
  // need only scalars (D = S^T U); a free joint (S = I) factorises I^A for
  // pass 3 and passes no inertia on.
  for (int i = n - 1; i >= 0; --i) {
    const Body& b = model.bodies[i];
    if (model.rotor[i]) {  // constant U, D and passed inertia (addBody); I^A = I
      const Vec6& u = model.rotorU[i];
      const Vec6 paChild = data.bias[i] + model.inertia[i].rigidTimes(data.coriolis[i]);
      // τ − Sᵀ p^A − U·c: pass 3 subtracts U · X a_parent.
      const double uBias =
          data.tau[b.vIndex] - model.axis[i].dot(data.bias[i]) - u.dot(data.coriolis[i]);
      data.u[i] = u;  // for abaResponse
      data.dInverse[i] = model.rotorDInverse[i];
      data.uBias[i] = uBias;
      const Transform& x = data.parentToBody[i];
      InertiaBlocks& parent = data.articulatedInertia[b.parent];
      parent.a += model.rotorInertia[i].a;
      parent.b += model.rotorInertia[i].b;
      parent.c += model.rotorInertia[i].c;
      const Vec6 f = paChild + u * (data.dInverse[i] * uBias);
      data.bias[b.parent] +=
          model.treeParallel[i] ? applyTransposeForceShift(x.pos, f) : x.applyTransposeForce(f);
      continue;
    }
    InertiaBlocks& ia = data.articulatedInertia[i];
    Vec6 paChild = data.bias[i] + ia * data.coriolis[i];  // p^A + I^A c
    bool passInertia = b.parent >= 0;
    switch (jointDofs(b.joint)) {
      case 1: {
        const int k = model.axisIndex[i];
        const Vec6 u =
            k >= 0 ? inertiaTimesAxis(ia, k, model.axisSign[i]) : Vec6(ia * model.axis[i]);
        const double dInv = 1.0 / axisDot(model, i, u);
        const double uBias = data.tau[b.vIndex] - axisDot(model, i, data.bias[i]);
        data.u[i] = u;
        data.dInverse[i] = dInv;
        data.uBias[i] = uBias;
        if (passInertia) {  // I^A − U D⁻¹ Uᵀ, block by block
          const Vec3 uw = u.head<3>(), uv = u.tail<3>();
          const Vec3 dw = dInv * uw, dv = dInv * uv;
          ia.a.noalias() -= dw * uw.transpose();
          ia.b.noalias() -= dw * uv.transpose();
          ia.c.noalias() -= dv * uv.transpose();
        }
        // p^a = p^A + I^a c + U D⁻¹ u with I^a = I^A − U D⁻¹ Uᵀ (RBDA Table 7.1):
        // paChild already holds p^A + I^A c.
        paChild += u * (dInv * (uBias - u.dot(data.coriolis[i])));
        break;
      }
      case 6:  // U = I^A, so I^a = 0 and p^a = p^A + U D⁻¹ (τ − p^A) = τ
        data.freeInertia[i].compute(ia.matrix());
        passInertia = false;
        paChild = data.tau.segment<6>(b.vIndex);
        break;
      default:
        break;
    }
    if (b.parent >= 0) {
      const Transform& x = data.parentToBody[i];
      if (passInertia) {
        // A revolute joint about a coordinate axis, its frame parallel to its
        // parent's, turns about that axis (addTransformedInertia's fixedAxis).
        const int k = model.axisIndex[i];
        const bool turnsAbout = b.joint == JointType::Revolute && model.treeParallel[i] && k < 3;
        addTransformedInertia(x, ia, data.articulatedInertia[b.parent], turnsAbout ? k : -1);
      }
      data.bias[b.parent] += model.frameParallel[i] ? applyTransposeForceShift(x.pos, paChild)
                                                    : x.applyTransposeForce(paChild);
    }
  }
  // Pass 3: accelerations, root to leaves, from the world's acceleration −g
  // (in place of each body's weight; data.accel holds the bodies'
  // accelerations with the world's added, the joints' are the true ones).
  Vec6 world = Vec6::Zero();
  world.tail<3>() = -model.gravity;
  for (int i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    if (model.rotor[i]) {
      // A leaf: its joint's acceleration alone, from the parent's without
      // moving it (U · X a = Xᵀ U · a, Xᵀ U constant).
      data.acceleration[b.vIndex] =
          data.dInverse[i] * (data.uBias[i] - model.rotorUParent[i].dot(data.accel[b.parent]));
      continue;
    }
    Vec6 a = data.coriolis[i];
    const Vec6& aParent = b.parent >= 0 ? data.accel[b.parent] : world;
    a += model.frameParallel[i] ? applyShift(data.parentToBody[i].pos, aParent)
                                : data.parentToBody[i].apply(aParent);
    switch (jointDofs(b.joint)) {
      case 1: {
        const double qdd = data.dInverse[i] * (data.uBias[i] - data.u[i].dot(a));
        data.acceleration[b.vIndex] = qdd;
        addAxisTimes(model, i, qdd, a);
        break;
      }
      case 6: {
        // τ − p^A − I^A a = I^A qdd with S = I. (The articulated inertia of a
        // free joint is kept: pass 2 does not subtract from it.)
        const Vec6 rhs =
            data.tau.segment<6>(b.vIndex) - data.bias[i] - data.articulatedInertia[i] * a;
        const Vec6 qdd = data.freeInertia[i].solve(rhs);
        data.acceleration.segment<6>(b.vIndex) = qdd;
        a += qdd;
        break;
      }
      default:
        break;
    }
    data.accel[i] = a;
  }
}

void integratePositions(const Multibody& model, Eigen::VectorXd& q, const Eigen::VectorXd& v,
                        double dt) {
  for (const Body& b : model.bodies) {
    switch (b.joint) {
      case JointType::Free: {
        Eigen::Quaterniond rot = quaternionAt(q, b.qIndex);
        const Vec3 omega = v.segment<3>(b.vIndex);
        const Vec3 vel = v.segment<3>(b.vIndex + 3);
        q.segment<3>(b.qIndex) += dt * (rot * vel);
        const double angle = omega.norm() * dt;
        if (angle > 0) rot = rot * elementary::quaternion(omega.normalized(), angle);
        rot.normalize();
        q.segment<4>(b.qIndex + 3) << rot.w(), rot.x(), rot.y(), rot.z();
        break;
      }
      case JointType::Revolute:
      case JointType::Prismatic:
        q[b.qIndex] += dt * v[b.vIndex];
        break;
      case JointType::Fixed:
        break;
    }
  }
}

void integrateSemiImplicit(const Multibody& model, MultibodyState& state, const MultibodyData& data,
                           double dt) {
  state.v += dt * data.acceleration;
  integratePositions(model, state.q, state.v, dt);
  state.time += dt;
}

double mechanicalEnergy(const Multibody& model, const MultibodyData& data) {
  double e = 0;
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const Vec6& v = data.velocity[i];
    e += 0.5 * v.dot(model.inertia[i].rigidTimes(v));  // the rigid inertia addBody keeps
    e -= b.mass * model.gravity.dot(worldPoint(data, static_cast<int>(i), b.com));
  }
  return e;
}

}  // namespace roverlab
