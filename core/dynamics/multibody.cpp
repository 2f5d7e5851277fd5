#include "dynamics/multibody.h"

#include <cassert>

namespace roverlab {
namespace {

Eigen::Quaterniond quaternionAt(const Eigen::VectorXd& q, int i) {
  return Eigen::Quaterniond(q[i + 3], q[i + 4], q[i + 5], q[i + 6]);
}

// Joint transform X_J (joint frame at q = 0 → body frame) and motion subspace S.
Transform jointTransform(const Body& b, const Eigen::VectorXd& q) {
  switch (b.joint) {
    case JointType::Free:
      return Transform{quaternionAt(q, b.qIndex).toRotationMatrix().transpose(), q.segment<3>(b.qIndex)};
    case JointType::Revolute:
      return Transform{Eigen::AngleAxisd(q[b.qIndex], b.axis).toRotationMatrix().transpose(), Vec3::Zero()};
    case JointType::Prismatic:
      return Transform{Mat3::Identity(), q[b.qIndex] * b.axis};
    case JointType::Fixed:
      break;
  }
  return Transform{};
}

// Motion subspace of a 1-DOF joint: the joint axis as a spatial vector.
Vec6 jointAxis(const Body& b) {
  Vec6 s = Vec6::Zero();
  if (b.joint == JointType::Revolute) s.head<3>() = b.axis;
  if (b.joint == JointType::Prismatic) s.tail<3>() = b.axis;
  return s;
}

Mat6 bodyInertia(const Body& b) { return spatialInertia(b.mass, b.com, b.inertia); }

}  // namespace

int jointDofs(JointType t) {
  switch (t) {
    case JointType::Free: return 6;
    case JointType::Revolute:
    case JointType::Prismatic: return 1;
    case JointType::Fixed: return 0;
  }
  return 0;
}

int jointCoords(JointType t) { return t == JointType::Free ? 7 : jointDofs(t); }

int addBody(Multibody& model, Body body) {
  assert(body.parent < static_cast<int>(model.bodies.size()));
  body.axis.normalize();
  body.qIndex = model.nq;
  body.vIndex = model.nv;
  model.nq += jointCoords(body.joint);
  model.nv += jointDofs(body.joint);
  model.bodies.push_back(std::move(body));
  return static_cast<int>(model.bodies.size()) - 1;
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
  d.worldToBody.resize(n);
  d.velocity.assign(n, Vec6::Zero());
  d.externalForce.assign(n, Vec6::Zero());
  d.tau = Eigen::VectorXd::Zero(model.nv);
  d.acceleration = Eigen::VectorXd::Zero(model.nv);
  d.inertia.resize(n);
  d.articulatedInertia.resize(n);
  d.bias.resize(n);
  d.coriolis.resize(n);
  d.accel.resize(n);
  d.axis.resize(n);
  d.u.resize(n);
  d.dInverse.assign(n, 0.0);
  d.uBias.assign(n, 0.0);
  d.freeInertia.resize(n);
  for (size_t i = 0; i < n; ++i) {
    d.inertia[i] = bodyInertia(model.bodies[i]);
    d.axis[i] = jointAxis(model.bodies[i]);
  }
  return d;
}

void forwardKinematics(const Multibody& model, const MultibodyState& state, MultibodyData& data) {
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const int k = jointDofs(b.joint);
    data.parentToBody[i] = b.tree.then(jointTransform(b, state.q));
    const Vec6 vJ = k == 6 ? Vec6(state.v.segment<6>(b.vIndex))
                           : k == 1 ? Vec6(data.axis[i] * state.v[b.vIndex]) : Vec6(Vec6::Zero());
    if (b.parent < 0) {
      data.worldToBody[i] = data.parentToBody[i];
      data.velocity[i] = vJ;
    } else {
      data.worldToBody[i] = data.worldToBody[b.parent].then(data.parentToBody[i]);
      data.velocity[i] = data.parentToBody[i].apply(data.velocity[b.parent]) + vJ;
    }
    data.coriolis[i] = crossMotion(data.velocity[i], vJ);
  }
}

Vec3 worldPoint(const MultibodyData& data, int body, const Vec3& local) {
  const Transform& x = data.worldToBody[body];
  return x.pos + x.rot.transpose() * local;
}

Mat3 worldRotation(const MultibodyData& data, int body) { return data.worldToBody[body].rot.transpose(); }

Vec3 worldPointVelocity(const MultibodyData& data, int body, const Vec3& local) {
  const Vec6& v = data.velocity[body];
  return data.worldToBody[body].rot.transpose() * (v.tail<3>() + v.head<3>().cross(local));
}

Vec3 worldAngularVelocity(const MultibodyData& data, int body) {
  return data.worldToBody[body].rot.transpose() * data.velocity[body].head<3>();
}

void aba(const Multibody& model, const MultibodyState& state, MultibodyData& data) {
  forwardKinematics(model, state, data);
  const int n = static_cast<int>(model.bodies.size());
  // Pass 1: articulated inertias start as rigid ones; bias forces include the
  // velocity product, gravity and applied forces (moved to body coordinates).
  for (int i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    const Mat6& inertia = data.inertia[i];
    data.articulatedInertia[i] = inertia;
    const Vec3 comWorld = worldPoint(data, i, b.com);
    const Vec6 applied = data.externalForce[i] + worldForceAt(comWorld, b.mass * model.gravity);
    data.bias[i] = crossForce(data.velocity[i], inertia * data.velocity[i]) -
                   data.worldToBody[i].applyForce(applied);
  }
  // Pass 2: articulated inertias and bias forces, leaves to root. 1-DOF joints
  // need only scalars (D = S^T U); a free joint (S = I) factorises I^A for
  // pass 3 and passes no inertia on.
  for (int i = n - 1; i >= 0; --i) {
    const Body& b = model.bodies[i];
    const Mat6& ia = data.articulatedInertia[i];
    Mat6 iaChild = ia;
    Vec6 paChild = data.bias[i] + ia * data.coriolis[i];
    switch (jointDofs(b.joint)) {
      case 1: {
        const Vec6& s = data.axis[i];
        data.u[i] = ia * s;
        data.dInverse[i] = 1.0 / s.dot(data.u[i]);
        data.uBias[i] = data.tau[b.vIndex] - s.dot(data.bias[i]);
        iaChild.noalias() -= (data.dInverse[i] * data.u[i]) * data.u[i].transpose();
        paChild += data.u[i] * (data.dInverse[i] * data.uBias[i]);
        break;
      }
      case 6:  // U = I^A: the child passes on only I^A c + τ
        data.freeInertia[i].compute(ia);
        iaChild.setZero();
        paChild = ia * data.coriolis[i] + data.tau.segment<6>(b.vIndex);
        break;
      default:
        break;
    }
    if (b.parent >= 0) {
      const Transform& x = data.parentToBody[i];
      const Mat6 xm = x.matrix();
      data.articulatedInertia[b.parent].noalias() += xm.transpose() * iaChild * xm;
      data.bias[b.parent] += x.applyTransposeForce(paChild);
    }
  }
  // Pass 3: accelerations, root to leaves; the world does not accelerate
  // (gravity entered as a force).
  for (int i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    Vec6 a = data.coriolis[i];
    if (b.parent >= 0) a += data.parentToBody[i].apply(data.accel[b.parent]);
    switch (jointDofs(b.joint)) {
      case 1: {
        const double qdd = data.dInverse[i] * (data.uBias[i] - data.u[i].dot(a));
        data.acceleration[b.vIndex] = qdd;
        a += data.axis[i] * qdd;
        break;
      }
      case 6: {
        // τ − p^A − I^A a = I^A qdd with S = I.
        const Vec6 rhs = data.tau.segment<6>(b.vIndex) - data.bias[i] - data.articulatedInertia[i] * a;
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

void integratePositions(const Multibody& model, Eigen::VectorXd& q, const Eigen::VectorXd& v, double dt) {
  for (const Body& b : model.bodies) {
    switch (b.joint) {
      case JointType::Free: {
        Eigen::Quaterniond rot = quaternionAt(q, b.qIndex);
        const Vec3 omega = v.segment<3>(b.vIndex);
        const Vec3 vel = v.segment<3>(b.vIndex + 3);
        q.segment<3>(b.qIndex) += dt * (rot * vel);
        const double angle = omega.norm() * dt;
        if (angle > 0) rot = rot * Eigen::Quaterniond(Eigen::AngleAxisd(angle, omega.normalized()));
        rot.normalize();
        q.segment<4>(b.qIndex + 3) << rot.w(), rot.x(), rot.y(), rot.z();
        break;
      }
      case JointType::Revolute:
      case JointType::Prismatic: q[b.qIndex] += dt * v[b.vIndex]; break;
      case JointType::Fixed: break;
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
    e += 0.5 * v.dot(bodyInertia(b) * v);
    e -= b.mass * model.gravity.dot(worldPoint(data, static_cast<int>(i), b.com));
  }
  return e;
}

}  // namespace roverlab
