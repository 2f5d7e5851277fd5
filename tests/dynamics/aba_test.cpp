// The articulated-body algorithm against a plain reference: Newton-Euler
// inverse dynamics (RNEA) gives the joint forces τ(q, v, a) of any
// acceleration, so aba's accelerations must reproduce the applied τ. The
// reference uses full 6×6 matrices and nothing of aba's block arithmetic.
#include <catch2/catch.hpp>
#include <random>

#include "dynamics/multibody.h"

using namespace roverlab;

namespace {

Mat3 randomRotation(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
  q.normalize();
  return q.toRotationMatrix();
}

// A random tree: a free base (or a 1-DOF root), then bodies of random joint
// types, each hanging on a random earlier body. With `rotors`, revolute bodies
// are symmetric about their axis (leaves among them take aba's rotor path).
// With `parallel`, every joint frame is parallel to its parent's and every
// joint axis is a coordinate axis, either way (as in the presets).
Multibody randomTree(std::mt19937_64& rng, int bodies, bool freeBase, bool rotors,
                     bool parallel = false) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.2, 3.0);
  Multibody m;
  for (int i = 0; i < bodies; ++i) {
    Body b;
    b.name = "b" + std::to_string(i);
    b.parent = i == 0 ? -1 : static_cast<int>(rng() % i);
    const int kind = static_cast<int>(rng() % 5);
    b.joint = i == 0      ? (freeBase ? JointType::Free : JointType::Revolute)
              : kind < 3  ? JointType::Revolute
              : kind == 3 ? JointType::Prismatic
                          : JointType::Fixed;
    b.axis = Vec3(u(rng), u(rng), u(rng));
    b.tree.rot = randomRotation(rng);
    if (parallel) {
      b.tree.rot = Mat3::Identity();
      b.axis = Vec3::Unit(static_cast<int>(rng() % 3)) * (rng() % 2 ? 1.0 : -1.0);
    }
    b.tree.pos = Vec3(u(rng), u(rng), u(rng));
    b.mass = pos(rng);
    b.com = 0.3 * Vec3(u(rng), u(rng), u(rng));
    const Mat3 r = randomRotation(rng);
    b.inertia = r * Vec3(pos(rng), pos(rng), pos(rng)).asDiagonal() * r.transpose() * 0.1;
    if (rotors && b.joint == JointType::Revolute) {  // a wheel: symmetric about its axle
      const Vec3 a = b.axis.normalized();
      b.com = 0.2 * u(rng) * a;
      b.inertia = 0.1 * pos(rng) * (Mat3::Identity() - a * a.transpose()) +
                  0.1 * pos(rng) * a * a.transpose();
    }
    addBody(m, b);
  }
  return m;
}

// Recursive Newton-Euler with 6×6 matrices: τ for accelerations qdd, with
// gravity and the applied forces of data.externalForce.
Eigen::VectorXd inverseDynamics(const Multibody& model, const MultibodyState& state,
                                MultibodyData& data, const Eigen::VectorXd& qdd) {
  forwardKinematics(model, state, data);
  const size_t n = model.bodies.size();
  std::vector<Vec6> a(n), f(n);
  for (size_t i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    const int k = jointDofs(b.joint);
    Vec6 vJ = Vec6::Zero(), aJ = Vec6::Zero();
    if (k == 6) vJ = state.v.segment<6>(b.vIndex), aJ = qdd.segment<6>(b.vIndex);
    if (k == 1) vJ = model.axis[i] * state.v[b.vIndex], aJ = model.axis[i] * qdd[b.vIndex];
    const Vec6 parentAccel = b.parent < 0 ? Vec6(Vec6::Zero()) : a[b.parent];
    a[i] = data.parentToBody[i].matrix() * parentAccel + aJ + crossMotion(data.velocity[i], vJ);
    const Mat6 inertia = spatialInertia(b.mass, b.com, b.inertia);
    const Vec3 comWorld = worldPoint(data, static_cast<int>(i), b.com);
    const Vec6 applied = data.externalForce[i] + worldForceAt(comWorld, b.mass * model.gravity);
    f[i] = inertia * a[i] + crossForce(data.velocity[i], inertia * data.velocity[i]) -
           data.worldToBody[i].applyForce(applied);
  }
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  for (int i = static_cast<int>(n) - 1; i >= 0; --i) {
    const Body& b = model.bodies[i];
    const int k = jointDofs(b.joint);
    if (k == 6) tau.segment<6>(b.vIndex) = f[i];
    if (k == 1) tau[b.vIndex] = model.axis[i].dot(f[i]);
    if (b.parent >= 0) f[b.parent] += data.parentToBody[i].matrix().transpose() * f[i];
  }
  return tau;
}

}  // namespace

TEST_CASE("aba inverts Newton-Euler inverse dynamics on random trees", "[dynamics][aba]") {
  std::mt19937_64 rng(20261122);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int rotorTrees = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const bool freeBase = trial % 2 == 0;
    const bool rotors = trial % 3 == 0;
    const bool parallel = trial % 5 < 2;  // aba's paths for coordinate axes
    const Multibody model = randomTree(rng, 2 + trial % 12, freeBase, rotors, parallel);
    MultibodyState state = neutralState(model);
    for (int i = 0; i < model.nq; ++i) state.q[i] = u(rng);
    if (freeBase) state.q.segment<4>(3).normalize();
    for (int i = 0; i < model.nv; ++i) state.v[i] = 2 * u(rng);
    MultibodyData data = makeData(model);
    for (Vec6& f : data.externalForce) f = 10 * Vec6::NullaryExpr([&] { return u(rng); });
    for (int i = 0; i < model.nv; ++i) data.tau[i] = 5 * u(rng);
    const Eigen::VectorXd tau = data.tau;
    const std::vector<Vec6> ext = data.externalForce;
    aba(model, state, data);
    const Eigen::VectorXd qdd = data.acceleration;
    MultibodyData check = makeData(model);
    check.externalForce = ext;
    const Eigen::VectorXd back = inverseDynamics(model, state, check, qdd);
    INFO("trial " << trial << ", " << model.bodies.size() << " bodies, rotors " << rotors);
    if (rotors) {
      int count = 0;
      for (char r : model.rotor) count += r;
      rotorTrees += count > 0;
    }
    CHECK((back - tau).cwiseAbs().maxCoeff() <= 1e-9 * (1 + tau.cwiseAbs().maxCoeff() + 100));
    // abaFromKinematics after forwardKinematics gives the same bits.
    MultibodyData again = makeData(model);
    again.externalForce = ext;
    again.tau = tau;
    forwardKinematics(model, state, again);
    abaFromKinematics(model, again);
    CHECK(again.acceleration == qdd);
  }
  CHECK(rotorTrees > 30);  // the rotor path was exercised
}

TEST_CASE("a rotor's dynamics in its hub frame are those in its own frame", "[dynamics][aba]") {
  // The same trees twice: with rotors, whose kinematics leave out their spin
  // (Multibody::rotor), and with every rotor kept in its own frame
  // (keepFrame): the same accelerations to rounding, and the hub frame turned
  // by the spin angle is the body's own frame.
  std::mt19937_64 rng(20261130);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int rotors = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const bool parallel = trial % 2 == 0;  // both branches of the hub kinematics
    std::mt19937_64 same(rng());
    const Multibody hub = randomTree(same, 2 + trial % 10, trial % 3 == 0, true, parallel);
    Multibody own = hub;
    for (size_t i = 0; i < own.bodies.size(); ++i) keepFrame(own, static_cast<int>(i));
    MultibodyState state = neutralState(hub);
    for (int i = 0; i < hub.nq; ++i) state.q[i] = 3 * u(rng);
    if (hub.bodies[0].joint == JointType::Free) state.q.segment<4>(3).normalize();
    for (int i = 0; i < hub.nv; ++i) state.v[i] = 4 * u(rng);
    MultibodyData a = makeData(hub), b = makeData(own);
    for (size_t i = 0; i < hub.bodies.size(); ++i)
      a.externalForce[i] = b.externalForce[i] = 10 * Vec6::NullaryExpr([&] { return u(rng); });
    for (int i = 0; i < hub.nv; ++i) a.tau[i] = b.tau[i] = 5 * u(rng);
    aba(hub, state, a);
    aba(own, state, b);
    INFO("trial " << trial << ", " << hub.bodies.size() << " bodies");
    // Rounding: the two frames' products differ in the last bits of numbers
    // of order 10-100, and the inverse of the mass matrix can amplify them by
    // its condition (the random trees have mass ratios of about 15).
    const double scale = 1 + b.acceleration.cwiseAbs().maxCoeff();
    CHECK((a.acceleration - b.acceleration).cwiseAbs().maxCoeff() <= 1e-10 * scale);
    for (size_t i = 0; i < hub.bodies.size(); ++i) {
      const int k = static_cast<int>(i);
      rotors += hub.rotor[i];
      CHECK((worldPoint(a, k, Vec3::Zero()) - worldPoint(b, k, Vec3::Zero())).norm() < 1e-12);
      CHECK((worldRotationWithSpin(hub, state, a, k) - worldRotation(b, k)).norm() < 1e-12);
      CHECK((worldAngularVelocity(a, k) - worldAngularVelocity(b, k)).norm() < 1e-12 * scale);
      CHECK(mechanicalEnergy(hub, a) == Approx(mechanicalEnergy(own, b)).epsilon(1e-12));
    }
  }
  CHECK(rotors > 100);  // the hub frames were exercised
}

TEST_CASE("a rigid inertia's product without its zeros gives the full product's bits",
          "[dynamics]") {
  std::mt19937_64 rng(20261131);
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.1, 5.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const Mat3 r = randomRotation(rng);
    const Mat3 ic = r * Vec3(pos(rng), pos(rng), pos(rng)).asDiagonal() * r.transpose();
    const Mat6 m = spatialInertia(pos(rng), Vec3(u(rng), u(rng), u(rng)), ic);
    InertiaBlocks blocks;
    blocks.a = m.topLeftCorner<3, 3>();
    blocks.b = m.topRightCorner<3, 3>();
    blocks.c = m.bottomRightCorner<3, 3>();
    const Vec6 v = 10 * Vec6::NullaryExpr([&] { return u(rng); });
    INFO("trial " << trial);
    CHECK(blocks.rigidTimes(v) == blocks * v);
  }
}
