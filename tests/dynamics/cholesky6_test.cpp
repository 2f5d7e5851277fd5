#include "dynamics/cholesky6.h"

#include <Eigen/Cholesky>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>

using namespace roverlab;

namespace {

// The same bits, NaN for NaN (a failed factor's solve may give NaNs).
bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Cholesky6 against Eigen's LLT on one matrix and one right-hand side: the
// factor's lower triangle and the solve, bit for bit. Counts the mismatches.
int mismatches(const Mat6& m, const Vec6& b) {
  const Eigen::LLT<Mat6> eigen(m);
  Cholesky6 ours;
  ours.compute(m);
  int bad = ours.ok != (eigen.info() == Eigen::Success);
  const Mat6& factor = eigen.matrixLLT();
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j <= i; ++j) bad += !sameBits(ours.l[i][j], factor(i, j));
  const Vec6 x = eigen.solve(b), y = ours.solve(b);
  for (int i = 0; i < 6; ++i) bad += !sameBits(x[i], y[i]);
  return bad;
}

// A free body's spatial inertia at a random frame origin (as the
// articulated-body algorithm meets them), plus a random symmetric part of
// scale `spread` (an articulated inertia: the children's passed inertias).
Mat6 randomInertia(std::mt19937_64& rng, double spread) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.05, 50.0);
  const Vec3 c(u(rng), u(rng), u(rng));
  Mat3 a = Mat3::NullaryExpr([&] { return u(rng); });
  const Mat3 ic = a * a.transpose() + pos(rng) * 0.01 * Mat3::Identity();
  Mat6 m = spatialInertia(pos(rng), c, ic);
  Mat6 extra = Mat6::NullaryExpr([&] { return u(rng); });
  m += spread * extra * extra.transpose();
  return m;
}

}  // namespace

TEST_CASE("Cholesky6 gives Eigen's LLT bits, factor and solve", "[dynamics][cholesky]") {
  std::mt19937_64 rng(20261130);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int bad = 0, total = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    const double spread = trial % 3 == 0 ? 0.0 : std::pow(10.0, 4 * u(rng));
    const Mat6 m = randomInertia(rng, spread);
    const Vec6 b = Vec6::NullaryExpr([&] { return 100 * u(rng); });
    bad += mismatches(m, b);
    ++total;
  }
  INFO(bad << " mismatched numbers in " << total << " matrices");
  CHECK(bad == 0);
}

TEST_CASE("Cholesky6 fails where Eigen's LLT fails, with the same bits", "[dynamics][cholesky]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // Not positive definite at each column in turn, singular, zero, and NaN.
  for (int k = 0; k < 6; ++k) {
    Mat6 m = randomInertia(rng, 1.0);
    m.row(k).setZero();
    m.col(k).setZero();
    m(k, k) = -1.0;
    const Vec6 b = Vec6::NullaryExpr([&] { return u(rng); });
    Cholesky6 ours;
    ours.compute(m);
    CHECK_FALSE(ours.ok);
    CHECK(mismatches(m, b) == 0);
  }
  const Vec6 b = Vec6::Ones();
  CHECK(mismatches(Mat6::Zero(), b) == 0);
  Mat6 rankOne = Vec6::Ones() * Vec6::Ones().transpose();
  CHECK(mismatches(rankOne, b) == 0);
  Mat6 nan = randomInertia(rng, 1.0);
  nan(3, 2) = nan(2, 3) = std::nan("");
  CHECK(mismatches(nan, b) == 0);
}
