// Elementary functions the core computes itself: sine, cosine, arc tangent,
// exponential, logarithm, cube root and hypotenuse from the four IEEE-754
// operations and sqrt alone, which every platform rounds alike (and rounding
// to a whole number, inline). The native
// build's libm (glibc) and the WASM build's (musl) round some results
// differently in the last bit; with these the two builds give the same bits,
// and so the same state_hash, for the same scenario. tests/js/layers.test.mjs
// fails on any call of the C++ library's versions (or of Eigen's AngleAxis,
// which calls them) in core/.
//
// Accuracy: within 3 ulp of the exact value over the ranges the core uses
// (angles up to 1e6 rad; checked against long double in
// tests/common/elementary_test.cpp).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>

namespace roverlab::elementary {

double sin(double x);
double cos(double x);
/// sin(x) and cos(x), the same bits as the two calls, from one argument reduction.
void sinCos(double x, double& s, double& c);
/// Angle of (x, y) in (-pi, pi], with the C library's signs at zeros.
double atan2(double y, double x);
double exp(double x);
/// Natural logarithm.
double log(double x);
double cbrt(double x);
/// sqrt(x^2 + y^2) without overflow or underflow on the way.
double hypot(double x, double y);
/// acos(x) for x in [-1, 1] (NaN outside).
double acos(double x);

/// std::round(x), bit for bit (halves away from zero, the sign of zero kept),
/// inline: in WebAssembly and on baseline x86-64 the library's is a call.
/// x − trunc(x) is exact, and from 2⁵² on every double is whole.
inline double round(double x) {
  if (!(std::abs(x) < 4503599627370496.0)) return x;
  const double t = std::copysign(static_cast<double>(static_cast<long long>(x)), x);
  return std::abs(x - t) >= 0.5 ? t + std::copysign(1.0, x) : t;
}

/// Rotation by `angle` (rad) about the unit vector `axis`, as
/// Eigen::AngleAxisd(angle, axis).toRotationMatrix() gives it.
Eigen::Matrix3d rotation(const Eigen::Vector3d& axis, double angle);
/// The same rotation as a unit quaternion.
Eigen::Quaterniond quaternion(const Eigen::Vector3d& axis, double angle);

}  // namespace roverlab::elementary
