#include "common/elementary.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace roverlab::elementary {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// pi/2 in three parts of 33 significant bits each (the last one rounded), so
// that k * part is exact for |k| < 2^20: the reduction x - k pi/2 keeps about
// 100 bits of pi/2.
constexpr double kPiOver2Part1 = 1.57079632673412561417e+00;
constexpr double kPiOver2Part2 = 6.07710050630396597660e-11;
constexpr double kPiOver2Part3 = 2.02226624871116645580e-21;
constexpr double kTwoOverPi = 6.36619772367581382433e-01;
// pi/2 and pi as a double plus the rest.
constexpr double kPiOver2High = 1.57079632679489655800e+00;
constexpr double kPiOver2Low = 6.12323399573676603587e-17;
constexpr double kPiHigh = 3.14159265358979311600e+00;
constexpr double kPiLow = 1.22464679914735317720e-16;
constexpr double kPiOver4High = 0.5 * kPiOver2High;
constexpr double kPiOver4Low = 0.5 * kPiOver2Low;
constexpr double kTanPiOver8 = 4.14213562373095034106e-01;
constexpr double kTwoPi = 6.28318530717958623200e+00;
// ln 2 as 32 significant bits (k * high is exact for |k| < 2^21) plus the rest.
constexpr double kLn2High = 6.93147180369123816490e-01;
constexpr double kLn2Low = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kSqrtHalf = 7.07106781186547524401e-01;

// Coefficients of the series below, lowest power first. The compilers round
// each quotient correctly, so every build holds the same doubles.
constexpr double kExpSeries[] = {
    1.0 / 2,     1.0 / 6,      1.0 / 24,      1.0 / 120,      1.0 / 720,       1.0 / 5040,
    1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800.0};
constexpr double kAtanhSeries[] = {1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9,  1.0 / 11, 1.0 / 13,
                                   1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21, 1.0 / 23, 1.0 / 25};
constexpr double kAtanSeries[] = {-1.0 / 3,  1.0 / 5,  -1.0 / 7,  1.0 / 9,  -1.0 / 11, 1.0 / 13,
                                  -1.0 / 15, 1.0 / 17, -1.0 / 19, 1.0 / 21, -1.0 / 23, 1.0 / 25,
                                  -1.0 / 27, 1.0 / 29, -1.0 / 31, 1.0 / 33, -1.0 / 35, 1.0 / 37,
                                  -1.0 / 39, 1.0 / 41, -1.0 / 43};

/// c[0] + x (c[1] + x (c[2] + ...)).
template <std::size_t N>
double horner(const double (&c)[N], double x) {
  double p = c[N - 1];
  for (std::size_t k = N - 1; k-- > 0;) p = c[k] + x * p;
  return p;
}

// Taylor series, in Horner form, of sin(r) - r and cos(r) - 1 + r^2/2 on
// |r| <= pi/4: the first omitted terms, r^19/19! and r^20/20!, are below
// 1e-18 there, a hundredth of an ulp of the result.
double sinTail(double r) {
  const double z = r * r;
  const double p =
      -1.0 / 6 +
      z * (1.0 / 120 + z * (-1.0 / 5040 +
                            z * (1.0 / 362880 + z * (-1.0 / 39916800 +
                                                     z * (1.0 / 6227020800.0 +
                                                          z * (-1.0 / 1307674368000.0 +
                                                               z * (1.0 / 355687428096000.0)))))));
  return r * z * p;
}

double cosTail(double r) {
  const double z = r * r;
  const double p =
      1.0 / 24 +
      z * (-1.0 / 720 +
           z * (1.0 / 40320 +
                z * (-1.0 / 3628800 +
                     z * (1.0 / 479001600.0 +
                          z * (-1.0 / 87178291200.0 +
                               z * (1.0 / 20922789888000.0 + z * (-1.0 / 6402373705728000.0)))))));
  return z * z * p;
}

double sinSmall(double r) { return r + sinTail(r); }
double cosSmall(double r) { return 1.0 - (0.5 * r * r - cosTail(r)); }

/// x modulo the double nearest 2 pi (exact). Out of line: inlined, clang made
/// the remainder an instruction it may compute before the branch that needs
/// it, and WebAssembly has no such instruction: every sine and cosine called
/// the library's fmod.
[[gnu::noinline]] double moduloTwoPi(double x) { return std::fmod(x, kTwoPi); }

/// x - k pi/2 with k the nearest integer to x / (pi/2); k mod 4 in `quadrant`.
double reduce(double x, int& quadrant) {
  // Past 1e6 rad, first take x modulo the double nearest 2 pi: the result is
  // still the same on every platform, if less close to the truth.
  if (std::fabs(x) > 1e6) x = moduloTwoPi(x);
  const double k = std::nearbyint(x * kTwoOverPi);
  const double r = ((x - k * kPiOver2Part1) - k * kPiOver2Part2) - k * kPiOver2Part3;
  quadrant = static_cast<int>(static_cast<long long>(k) & 3);
  return r;
}

/// atan(t) for 0 <= t <= 1. Past tan(pi/8) = 0.414,
/// atan(t) = pi/4 + atan((t - 1) / (t + 1)) brings the argument back under
/// 0.414, where the series to t^43 leaves out less than 1e-18.
double atanUnit(double t) {
  const bool shifted = t > kTanPiOver8;
  const double u = shifted ? (t - 1) / (t + 1) : t;
  // atan u = u (1 - z/3 + z^2/5 - ... + z^21/43), z = u^2, in Horner form.
  const double z = u * u;
  const double a = u + u * (z * horner(kAtanSeries, z));
  return shifted ? (kPiOver4High + a) + kPiOver4Low : a;
}

}  // namespace

double sin(double x) {
  if (!std::isfinite(x)) return kNaN;
  if (std::fabs(x) < 0x1p-27) return x;  // x^3/6 is below half an ulp of x
  int q = 0;
  const double r = reduce(x, q);
  switch (q) {
    case 0:
      return sinSmall(r);
    case 1:
      return cosSmall(r);
    case 2:
      return -sinSmall(r);
    default:
      return -cosSmall(r);
  }
}

double cos(double x) {
  if (!std::isfinite(x)) return kNaN;
  if (std::fabs(x) < 0x1p-27) return 1;  // x^2/2 is below half an ulp of 1
  int q = 0;
  const double r = reduce(x, q);
  switch (q) {
    case 0:
      return cosSmall(r);
    case 1:
      return -sinSmall(r);
    case 2:
      return -cosSmall(r);
    default:
      return sinSmall(r);
  }
}

void sinCos(double x, double& s, double& c) {
  if (!std::isfinite(x)) {
    s = c = kNaN;
    return;
  }
  if (std::fabs(x) < 0x1p-27) {
    s = x, c = 1;
    return;
  }
  int q = 0;
  const double r = reduce(x, q);
  const double sr = sinSmall(r), cr = cosSmall(r);
  switch (q) {
    case 0:
      s = sr, c = cr;
      return;
    case 1:
      s = cr, c = -sr;
      return;
    case 2:
      s = -sr, c = -cr;
      return;
    default:
      s = -cr, c = sr;
      return;
  }
}

double atan2(double y, double x) {
  if (std::isnan(x) || std::isnan(y)) return x + y;
  const double a = std::fabs(y), b = std::fabs(x);
  if (a != 0 && (b == 0 || (std::isinf(a) && !std::isinf(b))))
    return std::copysign(kPiOver2High, y);
  double angle;  // of (|x|, |y|), in [0, pi/2]
  if (a == 0 || std::isinf(b)) {
    angle = std::isinf(a) ? kPiOver4High : 0;
  } else if (a <= b) {
    angle = atanUnit(a / b);
  } else {
    angle = (kPiOver2High - atanUnit(b / a)) + kPiOver2Low;
  }
  if (std::signbit(x)) angle = (kPiHigh - angle) + kPiLow;
  return std::copysign(angle, y);
}

double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return kInf;
  if (x < -745.1332191019412) return 0;
  const double k = std::nearbyint(x * kInvLn2);
  const double r = (x - k * kLn2High) - k * kLn2Low;  // |r| <= ln 2 / 2
  // e^r by its Taylor series to r^13/13! (the next term is below 1e-18).
  const double p = horner(kExpSeries, r);  // 1/2! + r/3! + ... + r^11/13!
  const double er = 1.0 + (r + r * r * p);
  // er 2^k. For k in [-1021, 1023] the power of two is a normal double and,
  // er being in [0.70, 1.42], so is the product: a multiplication, exact, from
  // the power's bits (the same double as ldexp, without its call). Near the
  // ends of the range ldexp rounds into the subnormals.
  if (k >= -1021 && k <= 1023) {
    const std::uint64_t bits = static_cast<std::uint64_t>(static_cast<int>(k) + 1023) << 52;
    double power = 0;
    std::memcpy(&power, &bits, sizeof power);
    return er * power;
  }
  return std::ldexp(er, static_cast<int>(k));
}

double log(double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return -kInf;
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m 2^e, m in [1/2, 1)
  if (m < kSqrtHalf) {
    m *= 2;
    --e;
  }
  // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172: the series
  // 2 (s + s^3/3 + ... + s^25/25) leaves out less than 1e-20.
  const double f = m - 1;  // exact: m is in [1/2, 2]
  const double s = f / (2 + f);
  const double z = s * s;
  const double logm = 2 * s + 2 * s * (z * horner(kAtanhSeries, z));
  return e * kLn2High + (logm + e * kLn2Low);
}

double cbrt(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  const double a = std::fabs(x);
  double y = exp(log(a) / 3);
  y -= (y * y * y - a) / (3 * y * y);  // one Newton step from a few ulp away
  return std::copysign(y, x);
}

double hypot(double x, double y) {
  const double a = std::fabs(x), b = std::fabs(y);
  if (std::isinf(a) || std::isinf(b)) return kInf;
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  const double big = a > b ? a : b, small = a > b ? b : a;
  if (big == 0) return 0;
  const double ratio = small / big;
  return big * std::sqrt(1 + ratio * ratio);
}

double acos(double x) {
  if (!(std::fabs(x) <= 1)) return kNaN;
  return atan2(std::sqrt((1 - x) * (1 + x)), x);
}

Eigen::Matrix3d rotation(const Eigen::Vector3d& axis, double angle) {
  // Rodrigues: R = c I + s [axis]x + (1 - c) axis axis^T.
  double s, c;
  sinCos(angle, s, c);
  const Eigen::Vector3d a = axis;
  Eigen::Matrix3d m = ((1 - c) * a) * a.transpose();
  m.diagonal().array() += c;
  m(0, 1) -= s * a.z();
  m(1, 0) += s * a.z();
  m(0, 2) += s * a.y();
  m(2, 0) -= s * a.y();
  m(1, 2) -= s * a.x();
  m(2, 1) += s * a.x();
  return m;
}

Eigen::Quaterniond quaternion(const Eigen::Vector3d& axis, double angle) {
  const double half = 0.5 * angle;
  double s, c;
  sinCos(half, s, c);
  return Eigen::Quaterniond(c, s * axis.x(), s * axis.y(), s * axis.z());
}

}  // namespace roverlab::elementary
