// The Cholesky factorisation of a free joint's 6×6 articulated inertia and
// its solve (articulated-body algorithm, pass 3: I^A q̈ = τ − p^A − I^A a).
//
// It computes what Eigen's LLT<Matrix<double, 6, 6>> computes, operation for
// operation, so the bits are Eigen's: the factor column by column (Eigen's
// llt_inplace<double, Lower>::unblocked: x = A(k,k) − ‖A(k,0:k)‖² summed left
// to right, √x, then column k below the diagonal less the product of the
// rows below with row k, each row's sum started at zero as Eigen's
// matrix-vector kernel starts it, or at the first product when one row is
// left, as its inner-product case does, then divided by √x), and the solve
// as Eigen's unrolled triangular solves (each row's sum of products added up
// by halves, as its unrolled reductions add them). Without Eigen's dynamic
// blocks and matrix-vector kernel it takes a sixth of the instructions.
// tests/dynamics/cholesky6_test.cpp holds it to Eigen's bits.
#pragma once

#include <cmath>

#include "dynamics/spatial.h"

namespace roverlab {

struct Cholesky6 {
  double l[6][6] = {};  ///< the lower triangle: L (the matrix as given past a failed column)
  bool ok = false;      ///< false when a column's pivot was not positive (as Eigen's info())

  /// Factorises the symmetric matrix m (its lower triangle is read).
  void compute(const Mat6& m) {
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j <= i; ++j) l[i][j] = m(i, j);
    factorise();
  }

  /// x with (L Lᵀ) x = b.
  Vec6 solve(const Vec6& b) const {
    double x[6];
    for (int i = 0; i < 6; ++i) x[i] = b[i];
    forward<0>(x);
    backward<0>(x);
    return Vec6(x[0], x[1], x[2], x[3], x[4], x[5]);
  }

 private:
  void factorise() {
    ok = false;
    for (int k = 0; k < 6; ++k) {
      const int rs = 5 - k;  // rows below the diagonal
      double x = l[k][k];
      if (k > 0) {
        double s = l[k][0] * l[k][0];
        for (int j = 1; j < k; ++j) s = s + l[k][j] * l[k][j];
        x = x - s;
      }
      if (x <= 0.0) return;
      x = std::sqrt(x);
      l[k][k] = x;
      if (k > 0 && rs == 1) {
        double c = l[k + 1][0] * l[k][0];
        for (int j = 1; j < k; ++j) c = c + l[k + 1][j] * l[k][j];
        l[k + 1][k] = l[k + 1][k] + -1.0 * c;
      } else if (k > 0 && rs > 1) {
        for (int r = k + 1; r < 6; ++r) {
          double c = 0.0;
          for (int j = 0; j < k; ++j) c = l[r][j] * l[k][j] + c;
          l[r][k] = c * -1.0 + l[r][k];
        }
      }
      for (int r = k + 1; r < 6; ++r) l[r][k] = l[r][k] / x;
    }
    ok = true;
  }

  // Σ p[Start .. Start+Length), added up by halves.
  template <int Start, int Length>
  static double byHalves(const double* p) {
    if constexpr (Length == 1)
      return p[Start];
    else
      return byHalves<Start, Length / 2>(p) + byHalves<Start + Length / 2, Length - Length / 2>(p);
  }

  // L y = b, row D: y_D = (b_D − Σ_{j<D} L(D,j) y_j) / L(D,D).
  template <int D>
  void forward(double* x) const {
    if constexpr (D < 6) {
      if constexpr (D > 0) {
        double p[D];
        for (int j = 0; j < D; ++j) p[j] = l[D][j] * x[j];
        x[D] = x[D] - byHalves<0, D>(p);
      }
      x[D] = x[D] / l[D][D];
      forward<D + 1>(x);
    }
  }

  // Lᵀ x = y, row D = 5 − K: x_D = (y_D − Σ_{j>D} L(j,D) x_j) / L(D,D).
  template <int K>
  void backward(double* x) const {
    if constexpr (K < 6) {
      constexpr int D = 5 - K;
      if constexpr (K > 0) {
        double p[K];
        for (int j = 0; j < K; ++j) p[j] = l[D + 1 + j][D] * x[D + 1 + j];
        x[D] = x[D] - byHalves<0, K>(p);
      }
      x[D] = x[D] / l[D][D];
      backward<K + 1>(x);
    }
  }
};

}  // namespace roverlab
