// The core's own elementary functions (common/elementary.h) against the C
// library's long double versions, which carry 11 more bits: the error in ulps
// of the double result over seeded random arguments, and the C library's
// answers at zeros, infinities and NaN. That native and WASM builds agree bit
// for bit is checked through whole runs by tests/js/golden_hash.test.mjs.
#include "common/elementary.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace em = roverlab::elementary;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// |value - exact| in units of the last place of the exact value as a double.
double ulps(double value, long double exact) {
  const double rounded = static_cast<double>(exact);
  const double ulp = std::nextafter(std::fabs(rounded), kInf) - std::fabs(rounded);
  return static_cast<double>(std::fabs(static_cast<long double>(value) - exact) / ulp);
}

/// A magnitude spread evenly over decades from 10^lo to 10^hi, with a sign.
double spread(std::mt19937_64& rng, double lo, double hi, bool signed_) {
  const double v = std::pow(10.0, std::uniform_real_distribution<double>(lo, hi)(rng));
  return signed_ && (rng() & 1) ? -v : v;
}

constexpr int kSamples = 200000;

}  // namespace

TEST_CASE("sine and cosine are within 3 ulp up to 1e6 rad", "[elementary]") {
  std::mt19937_64 rng(1);
  double worst = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double x = spread(rng, -8, 6, true);
    worst = std::max({worst, ulps(em::sin(x), std::sin(static_cast<long double>(x))),
                      ulps(em::cos(x), std::cos(static_cast<long double>(x)))});
  }
  INFO("worst error " << worst << " ulp");
  CHECK(worst <= 3);
  CHECK(em::sin(0.0) == 0.0);
  CHECK(std::signbit(em::sin(-0.0)));
  CHECK(em::cos(0.0) == 1.0);
  CHECK(std::isnan(em::sin(kInf)));
  CHECK(std::isnan(em::cos(kNaN)));
}

TEST_CASE("sinCos gives sin's and cos's bits", "[elementary]") {
  std::mt19937_64 rng(2);
  for (int i = 0; i < kSamples; ++i) {
    const double x = spread(rng, -30, 8, true);
    double s = 0, c = 0;
    em::sinCos(x, s, c);
    const double sx = em::sin(x), cx = em::cos(x);
    REQUIRE(std::memcmp(&s, &sx, sizeof s) == 0);
    REQUIRE(std::memcmp(&c, &cx, sizeof c) == 0);
  }
  for (const double x : {0.0, -0.0, kInf, -kInf, kNaN, 1e300}) {
    double s = 0, c = 0;
    em::sinCos(x, s, c);
    const double sx = em::sin(x), cx = em::cos(x);
    CHECK((std::memcmp(&s, &sx, sizeof s) == 0 || (std::isnan(s) && std::isnan(sx))));
    CHECK((std::memcmp(&c, &cx, sizeof c) == 0 || (std::isnan(c) && std::isnan(cx))));
  }
}

TEST_CASE("atan2 is within 3 ulp and has the C library's signs", "[elementary]") {
  std::mt19937_64 rng(2);
  double worst = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double y = spread(rng, -6, 6, true), x = spread(rng, -6, 6, true);
    worst = std::max(worst, ulps(em::atan2(y, x), std::atan2(static_cast<long double>(y),
                                                             static_cast<long double>(x))));
  }
  INFO("worst error " << worst << " ulp");
  CHECK(worst <= 3);
  for (double y : {0.0, -0.0, 1.0, -1.0, kInf, -kInf})
    for (double x : {0.0, -0.0, 1.0, -1.0, kInf, -kInf}) {
      INFO("atan2(" << y << ", " << x << ")");
      CHECK(em::atan2(y, x) == std::atan2(y, x));
      CHECK(std::signbit(em::atan2(y, x)) == std::signbit(std::atan2(y, x)));
    }
  CHECK(std::isnan(em::atan2(kNaN, 1.0)));
}

TEST_CASE("exp and log are within 3 ulp over their whole range", "[elementary]") {
  std::mt19937_64 rng(3);
  double worstExp = 0, worstLog = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double x = std::uniform_real_distribution<double>(-700, 700)(rng);
    worstExp = std::max(worstExp, ulps(em::exp(x), std::exp(static_cast<long double>(x))));
    const double y = spread(rng, -300, 300, false);
    if (std::fabs(y - 1) > 1e-3)
      worstLog = std::max(worstLog, ulps(em::log(y), std::log(static_cast<long double>(y))));
    const double near1 = 1 + std::uniform_real_distribution<double>(-1e-3, 1e-3)(rng);
    worstLog = std::max(worstLog, ulps(em::log(near1), std::log(static_cast<long double>(near1))));
  }
  INFO("worst errors: exp " << worstExp << " ulp, log " << worstLog << " ulp");
  CHECK(worstExp <= 3);
  CHECK(worstLog <= 3);
  CHECK(em::exp(0.0) == 1.0);
  CHECK(em::exp(800.0) == kInf);
  CHECK(em::exp(-800.0) == 0.0);
  CHECK(em::exp(-kInf) == 0.0);
  // The ends of the range, where the result leaves the normal doubles (exp
  // builds its power of two from bits inside them, and calls ldexp outside):
  // within 3 of the spacing of the doubles there, subnormal ones too.
  for (double x = 700; x < 709.78; x += 0.01)
    CHECK(ulps(em::exp(x), std::exp(static_cast<long double>(x))) <= 3);
  for (double x = -700; x > -745; x -= 0.01)
    CHECK(ulps(em::exp(x), std::exp(static_cast<long double>(x))) <= 3);
  CHECK(em::log(1.0) == 0.0);
  CHECK(em::log(0.0) == -kInf);
  CHECK(std::isnan(em::log(-1.0)));
  CHECK(em::log(kInf) == kInf);
  CHECK(em::log(std::numeric_limits<double>::denorm_min()) == Approx(-744.44007192138126));
}

TEST_CASE("cube root, hypotenuse and arc cosine are within 3 ulp", "[elementary]") {
  std::mt19937_64 rng(4);
  double worst = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double x = spread(rng, -200, 200, true), y = spread(rng, -200, 200, true);
    const double c = std::uniform_real_distribution<double>(-1, 1)(rng);
    worst = std::max({worst, ulps(em::cbrt(x), std::cbrt(static_cast<long double>(x))),
                      ulps(em::hypot(x, y),
                           std::hypot(static_cast<long double>(x), static_cast<long double>(y))),
                      ulps(em::acos(c), std::acos(static_cast<long double>(c)))});
  }
  INFO("worst error " << worst << " ulp");
  CHECK(worst <= 3);
  CHECK(em::hypot(1e300, 1e300) == Approx(std::hypot(1e300, 1e300)));
  CHECK(em::hypot(-kInf, kNaN) == kInf);
  CHECK(em::cbrt(-27.0) == -3.0);
  CHECK(std::isnan(em::acos(1.5)));
}

TEST_CASE("round gives std::round's bits", "[elementary]") {
  // Halves (away from zero), the sign of zero, the last halves below 2^52,
  // whole numbers beyond, infinities and NaN; then seeded values over decades.
  const auto same = [](double x) {
    const double a = em::round(x), b = std::round(x);
    return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
  };
  const double two52 = 4503599627370496.0;
  for (const double x : {0.0,
                         -0.0,
                         0.3,
                         -0.3,
                         0.5,
                         -0.5,
                         0.49999999999999994,
                         1.5,
                         -1.5,
                         2.5,
                         -2.5,
                         two52 - 0.5,
                         -(two52 - 0.5),
                         two52 - 1.5,
                         two52,
                         two52 + 1,
                         2 * two52 + 2,
                         1e300,
                         -1e300,
                         kInf,
                         -kInf,
                         kNaN,
                         std::numeric_limits<double>::denorm_min()})
    CHECK(same(x));
  std::mt19937_64 rng(5);
  int differ = 0;
  for (int k = 0; k < kSamples; ++k) {
    const double x = spread(rng, -3, 17, true);
    differ += !same(x) + !same(std::floor(x) + 0.5);
  }
  CHECK(differ == 0);
}

TEST_CASE("rotation and quaternion agree with Eigen's AngleAxis", "[elementary]") {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < 1000; ++i) {
    const Eigen::Vector3d axis = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    const double angle = 10 * u(rng);
    const Eigen::AngleAxisd eigen(angle, axis);
    CHECK((em::rotation(axis, angle) - eigen.toRotationMatrix()).cwiseAbs().maxCoeff() < 1e-15);
    CHECK((em::quaternion(axis, angle).coeffs() - Eigen::Quaterniond(eigen).coeffs())
              .cwiseAbs()
              .maxCoeff() < 1e-15);
  }
}
