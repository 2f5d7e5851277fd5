#include "contact/union_law.h"

#include <algorithm>
#include <cmath>

namespace roverlab {
namespace {

// Solves G_FF x = z_F for the free set F by Cholesky (G_FF is positive
// definite for distinct normals). Returns false when a pivot vanishes: the
// newest free contact repeats another's normal and carries nothing new.
bool solveFree(UnionScratch& s, size_t n) {
  const std::vector<int>& f = s.free;
  const size_t k = f.size();
  std::vector<double>& l = s.factor;  // k × k, lower triangle
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j <= i; ++j) {
      double v = s.gram[f[i] * n + f[j]];
      for (size_t m = 0; m < j; ++m) v -= l[i * k + m] * l[j * k + m];
      if (i == j) {
        if (v <= 1e-12) return false;
        l[i * k + i] = std::sqrt(v);
      } else {
        l[i * k + j] = v / l[j * k + j];
      }
    }
  }
  std::vector<double>& x = s.trial;  // by free position: forward, then back substitution
  for (size_t i = 0; i < k; ++i) {
    double v = s.deflections[f[i]];
    for (size_t m = 0; m < i; ++m) v -= l[i * k + m] * x[m];
    x[i] = v / l[i * k + i];
  }
  for (size_t i = k; i-- > 0;) {
    double v = x[i];
    for (size_t m = i + 1; m < k; ++m) v -= l[m * k + i] * x[m];
    x[i] = v / l[i * k + i];
  }
  return true;
}

}  // namespace

void reserveUnion(UnionScratch& s, size_t n) {
  for (std::vector<double>* v : {&s.deflections, &s.shares, &s.lambda, &s.trial}) v->reserve(n);
  s.normals.reserve(n);
  s.gram.reserve(n * n);
  s.factor.reserve(n * n);
  s.free.reserve(n);
  s.stuck.reserve(n);
}

void unionShares(double radius, UnionScratch& s) {
  const size_t n = s.normals.size();
  s.shares.assign(n, 1.0);
  if (n < 2) return;
  double deepest = 0;
  for (double z : s.deflections) deepest = std::max(deepest, z);
  const double width = kUnionWidth * std::sqrt(2 * deepest / radius);
  if (n == 2) {
    // Two contacts (most of the time): the program's solution in closed form,
    // the same as the active set's; on the rough heightmap's recorded rocker8
    // queries it saves 30 of the ~50 ns the law adds (docs/benchmarks).
    const double g = unionKernel((s.normals[0] - s.normals[1]).norm() / width);
    if (g == 0) return;
    const int a = s.deflections[0] >= s.deflections[1] ? 0 : 1, b = 1 - a;
    const double za = s.deflections[a], zb = s.deflections[b];
    if (zb <= g * za) {  // the deeper one's bump reaches past the other's plane
      s.shares[b] = 0;
      return;
    }
    const double det = 1 - g * g;
    s.shares[a] = std::clamp((za - g * zb) / det / za, 0.0, 1.0);
    s.shares[b] = std::clamp((zb - g * za) / det / zb, 0.0, 1.0);
    return;
  }
  s.gram.assign(n * n, 0.0);
  bool coupled = false;
  for (size_t i = 0; i < n; ++i) {
    s.gram[i * n + i] = 1;
    for (size_t j = 0; j < i; ++j) {
      const double g = unionKernel((s.normals[i] - s.normals[j]).norm() / width);
      s.gram[i * n + j] = s.gram[j * n + i] = g;
      coupled = coupled || g > 0;
    }
  }
  if (!coupled) return;  // every contact on its own: λ = Z

  // Lawson and Hanson's active set for min ½ λᵀGλ − Zᵀλ, λ ≥ 0: free the
  // contact whose plane the tread misses most, solve on the free set, and
  // step back to the last feasible point while a free λ would turn negative.
  s.lambda.assign(n, 0.0);
  s.stuck.assign(n, 0);
  s.trial.assign(n, 0.0);
  s.factor.assign(n * n, 0.0);
  s.free.clear();
  const double tol = 1e-12 * deepest;
  for (size_t outer = 0; outer < 3 * n; ++outer) {
    int best = -1;
    double most = tol;
    for (size_t i = 0; i < n; ++i) {
      double g = s.deflections[i];
      for (size_t j = 0; j < n; ++j) g -= s.gram[i * n + j] * s.lambda[j];
      if (g > most && !s.stuck[i] &&
          std::find(s.free.begin(), s.free.end(), int(i)) == s.free.end())
        most = g, best = int(i);
    }
    if (best < 0) break;  // every contact's plane reached: the solution
    s.free.push_back(best);
    for (size_t inner = 0; inner < 3 * n; ++inner) {
      if (!solveFree(s, n)) {
        s.stuck[best] = 1;
        s.free.pop_back();
        break;
      }
      double step = 1;
      for (size_t m = 0; m < s.free.size(); ++m) {
        const double now = s.lambda[s.free[m]], next = s.trial[m];
        if (next <= 0) step = std::min(step, now / (now - next));
      }
      for (size_t m = 0; m < s.free.size(); ++m)
        s.lambda[s.free[m]] += step * (s.trial[m] - s.lambda[s.free[m]]);
      if (step >= 1) break;
      s.free.erase(std::remove_if(s.free.begin(), s.free.end(),
                                  [&](int i) {
                                    if (s.lambda[i] > tol) return false;
                                    s.lambda[i] = 0;
                                    return true;
                                  }),
                   s.free.end());
    }
  }
  for (size_t i = 0; i < n; ++i) s.shares[i] = std::clamp(s.lambda[i] / s.deflections[i], 0.0, 1.0);
}

}  // namespace roverlab
