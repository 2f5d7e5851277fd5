// Articulated rigid bodies in reduced coordinates: a tree of bodies, each
// attached to its parent by one joint (free, revolute, prismatic or fixed).
// The Multibody is the immutable model (with the algorithm's constants);
// MultibodyState holds positions and velocities; MultibodyData is per-step
// scratch written by the algorithms.
#pragma once

#include <string>
#include <vector>

#include "dynamics/cholesky6.h"
#include "dynamics/spatial.h"

namespace roverlab {

enum class JointType : unsigned char {
  Free,       ///< 6 DOF (floating base): q = position (m) + unit quaternion (w, x, y, z),
              ///< v = body-frame [ω (rad/s); velocity of the body origin (m/s)]
  Revolute,   ///< 1 DOF about `axis`: q (rad), v (rad/s)
  Prismatic,  ///< 1 DOF along `axis`: q (m), v (m/s)
  Fixed,      ///< 0 DOF
};

struct Body {
  std::string name;
  int parent = -1;  ///< parent body, −1 for the world
  JointType joint = JointType::Fixed;
  Vec3 axis = Vec3::UnitY();  ///< unit joint axis in the joint frame
  Transform tree;             ///< parent frame → joint frame at q = 0
  double mass = 1.0;          ///< (kg)
  Vec3 com = Vec3::Zero();    ///< centre of mass in the body frame (m)
  Mat3 inertia =
      Mat3::Identity();  ///< rotational inertia about the centre of mass, body frame (kg·m²)
  int qIndex = 0;        ///< first coordinate in q
  int vIndex = 0;        ///< first coordinate in v
};

/// Degrees of freedom of a joint type (velocity coordinates).
inline int jointDofs(JointType t) {
  switch (t) {
    case JointType::Free:
      return 6;
    case JointType::Revolute:
    case JointType::Prismatic:
      return 1;
    case JointType::Fixed:
      return 0;
  }
  return 0;
}
/// Position coordinates of a joint type.
inline int jointCoords(JointType t) { return t == JointType::Free ? 7 : jointDofs(t); }

/// A symmetric 6×6 spatial inertia [A B; Bᵀ C] kept as its 3×3 blocks (A and C
/// symmetric): the articulated-body algorithm works on the blocks, which
/// halves its arithmetic against full 6×6 products.
struct InertiaBlocks {
  Mat3 a = Mat3::Zero(), b = Mat3::Zero(), c = Mat3::Zero();

  Vec6 operator*(const Vec6& v) const {
    Vec6 out;
    for (int i = 0; i < 3; ++i) {
      out[i] = a(i, 0) * v[0] + a(i, 1) * v[1] + a(i, 2) * v[2] + b(i, 0) * v[3] + b(i, 1) * v[4] +
               b(i, 2) * v[5];
      out[i + 3] = b(0, i) * v[0] + b(1, i) * v[1] + b(2, i) * v[2] + c(i, 0) * v[3] +
                   c(i, 1) * v[4] + c(i, 2) * v[5];
    }
    return out;
  }
  Mat6 matrix() const {
    Mat6 m;
    m << a, b, b.transpose(), c;
    return m;
  }
  /// The same product for a rigid body's inertia (spatialInertia: B = m c×,
  /// C = m 1), the products with B's and C's zeros left out: the same sums in
  /// the same order less their terms ±0 (42 operations instead of 66).
  Vec6 rigidTimes(const Vec6& v) const {
    Vec6 out;
    for (int i = 0; i < 3; ++i) out[i] = a(i, 0) * v[0] + a(i, 1) * v[1] + a(i, 2) * v[2];
    out[0] = out[0] + b(0, 1) * v[4] + b(0, 2) * v[5];
    out[1] = out[1] + b(1, 0) * v[3] + b(1, 2) * v[5];
    out[2] = out[2] + b(2, 0) * v[3] + b(2, 1) * v[4];
    out[3] = b(1, 0) * v[1] + b(2, 0) * v[2] + c(0, 0) * v[3];
    out[4] = b(0, 1) * v[0] + b(2, 1) * v[2] + c(1, 1) * v[4];
    out[5] = b(0, 2) * v[0] + b(1, 2) * v[1] + c(2, 2) * v[5];
    return out;
  }
};

struct Multibody {
  std::vector<Body> bodies;          ///< parents before children
  int nq = 0;                        ///< position coordinates
  int nv = 0;                        ///< velocity coordinates
  Vec3 gravity = Vec3(0, 0, -9.81);  ///< (m/s²)

  // Constants of the articulated-body algorithm, derived from the bodies by
  // addBody (a body is not changed once added), per body:
  std::vector<InertiaBlocks> inertia;  ///< rigid spatial inertia at the body origin
  std::vector<Vec6> axis;              ///< 1-DOF joints: motion subspace S (a spatial vector)
  /// 1-DOF joints whose S is a unit coordinate vector, S = σ e_k (σ = ±1, the
  /// other coordinates +0): k, else −1; and σ. The articulated-body algorithm
  /// takes S's products from coordinate k alone (multibody.cpp, "Coordinate
  /// axes").
  std::vector<int> axisIndex;
  std::vector<double> axisSign;
  /// Rotors: leaf bodies on a revolute joint whose rigid inertia is symmetric
  /// about the joint axis (wheels). Their U = I S, D⁻¹ = 1 / (Sᵀ U) and the
  /// inertia they pass to the parent, X_treeᵀ (I − U D⁻¹ Uᵀ) X_tree, do not
  /// depend on the joint angle. A body stops being a rotor when it gets a child,
  /// or when its frame must turn with it (keepFrame).
  ///
  /// The kinematics keep a rotor in its hub frame: X_tree alone, without the
  /// joint's rotation. A rotation about the axle leaves the body's origin, its
  /// axle, its rigid inertia and S as they are, so its dynamics are the same
  /// in either frame, and a step computes no rotation for it; its spin angle
  /// is its q. worldRotationWithSpin gives the body's own frame.
  std::vector<char> rotor;
  std::vector<Vec6> rotorU;
  /// Xᵀ U in parent coordinates, = X_treeᵀ U whatever the angle (U is
  /// unchanged by a rotation about the axis): the rotor's pass 3 takes
  /// U · (X a_parent) as this · a_parent.
  std::vector<Vec6> rotorUParent;
  std::vector<double> rotorDInverse;
  std::vector<InertiaBlocks> rotorInertia;  ///< in parent coordinates
  /// X_tree's rotation is the identity (the joint frame is parallel to the
  /// parent's): kinematics and inertias skip multiplying by it.
  std::vector<char> treeParallel;
  /// A prismatic or fixed joint whose frame is parallel to its parent's: the
  /// body's frame stays parallel whatever q, and λ(i) → i moves vectors by a
  /// shift alone (applyShift). (A rotor's hub frame is X_tree's: parallel
  /// when treeParallel is.)
  std::vector<char> frameParallel;
};

/// Appends a body; its parent must already exist. Returns its index.
int addBody(Multibody& model, Body body);

/// Makes a body no rotor: its kinematics then keep its own frame, turned by
/// its joint (for a body that carries a shape the contact meets). Call it
/// once every body is added, before makeData.
void keepFrame(Multibody& model, int body);

struct MultibodyState {
  Eigen::VectorXd q;  ///< (nq) joint positions
  Eigen::VectorXd v;  ///< (nv) joint velocities
  double time = 0.0;  ///< (s)
};

/// Zero joint positions, identity orientation of free joints, zero velocity.
MultibodyState neutralState(const Multibody& model);

struct MultibodyData {
  std::vector<Transform> parentToBody;  ///< (nbody) λ(i) → i (a rotor's: λ(i) → its hub)
  std::vector<Transform> worldToBody;   ///< (nbody) world → i (a rotor's: world → its hub)
  std::vector<Vec6> velocity;           ///< (nbody) spatial velocity, body coordinates (a
                                        ///< rotor's: its hub's)
  std::vector<Vec6> externalForce;      ///< (nbody) applied spatial force at the WORLD origin,
                                        ///< world coordinates (input to aba)
  Eigen::VectorXd tau;                  ///< (nv) joint forces/torques (input to aba)
  Eigen::VectorXd acceleration;         ///< (nv) output of aba
  // scratch of the articulated-body algorithm
  std::vector<InertiaBlocks> articulatedInertia;
  std::vector<Vec6> bias, coriolis, accel;
  std::vector<Vec6> u;           ///< 1-DOF joints: U = I^A S
  std::vector<double> dInverse;  ///< 1-DOF joints: 1 / (S^T U)
  std::vector<double> uBias;     ///< 1-DOF joints: τ − S^T p^A (rotors: τ − S^T p^A − U·c)
  std::vector<Cholesky6> freeInertia;  ///< free joints: factorised I^A (S is the identity)
  std::vector<Vec6> responseForce, responseAccel;  ///< scratch of abaResponse
  std::vector<double> responseTau;                 ///< scratch of abaResponse: τ − Sᵀ p^A
};

MultibodyData makeData(const Multibody& model);

/// Body poses and spatial velocities from the state.
void forwardKinematics(const Multibody& model, const MultibodyState& state, MultibodyData& data);

/// World position of a point given in the frame the kinematics keep of a body
/// (m; a rotor's origin and axle are its hub's); needs forwardKinematics.
inline Vec3 worldPoint(const MultibodyData& data, int body, const Vec3& local) {
  const Transform& x = data.worldToBody[body];
  return x.pos + x.rot.transpose() * local;
}
/// World rotation of the frame the kinematics keep of a body (its frame →
/// world coordinates): the body's own, but a rotor's hub frame (Multibody::
/// rotor), which has the rotor's axle but not its spin.
inline Mat3 worldRotation(const MultibodyData& data, int body) {
  return data.worldToBody[body].rot.transpose();
}
/// World rotation of a body's own frame, a rotor's turned by its spin angle.
Mat3 worldRotationWithSpin(const Multibody& model, const MultibodyState& state,
                           const MultibodyData& data, int body);
/// World-frame velocity of a point given in that kept frame (m/s), and the body's angular
/// velocity (rad/s).
inline Vec3 worldPointVelocity(const MultibodyData& data, int body, const Vec3& local) {
  const Vec6& v = data.velocity[body];
  return data.worldToBody[body].rot.transpose() * (v.tail<3>() + v.head<3>().cross(local));
}
inline Vec3 worldAngularVelocity(const MultibodyData& data, int body) {
  return data.worldToBody[body].rot.transpose() * data.velocity[body].head<3>();
}

/// Featherstone's articulated-body algorithm (RBDA Table 7.1, with the floating
/// base of §9.4): joint accelerations from state, data.tau and
/// data.externalForce, with gravity. Calls forwardKinematics itself.
void aba(const Multibody& model, const MultibodyState& state, MultibodyData& data);

/// The same for poses and velocities that forwardKinematics has already
/// computed from the state (aba without repeating the kinematics).
void abaFromKinematics(const Multibody& model, MultibodyData& data);

/// The joint accelerations a joint-force vector `tau` alone would add (M⁻¹ τ:
/// no gravity, velocity or applied force), from the articulated inertias the
/// last abaFromKinematics left in `data`, into `out` (nv). Constraints on
/// the joints (a mimic) use it to find their forces.
void abaResponse(const Multibody& model, MultibodyData& data, const Eigen::VectorXd& tau,
                 Eigen::Ref<Eigen::VectorXd> out);

/// Advances positions q by the velocities v over dt: joint coordinates
/// linearly, free-joint orientations by the exact rotation of the body-frame ω
/// (quaternions stay unit).
void integratePositions(const Multibody& model, Eigen::VectorXd& q, const Eigen::VectorXd& v,
                        double dt);

/// Integrates v with data.acceleration, then q with the new v (semi-implicit
/// Euler), renormalising quaternions.
void integrateSemiImplicit(const Multibody& model, MultibodyState& state, const MultibodyData& data,
                           double dt);

/// Kinetic + potential energy (J); needs forwardKinematics.
double mechanicalEnergy(const Multibody& model, const MultibodyData& data);

}  // namespace roverlab
