#include "terrain/material.h"

#include <algorithm>
#include <cmath>

#include "common/elementary.h"

namespace roverlab {

double adhesion(const Material& m, double slip) {
  // [GKS2025] eq. 8
  return m.phiMax * (1 - elementary::exp(-slip / m.s0)) * (1 + elementary::exp(-slip / m.s1));
}

double adhesionPeak(const Material& m) {
  // The curve rises from 0 and tends to φ_max; where s1 > s0 it overshoots
  // first. A log-spaced scan over six decades around s0 and s1 finds the
  // peak's bracket, golden-section search refines it to 1e-12 of its slip.
  const double lo = 1e-4 * std::min(m.s0, m.s1), hi = 100 * std::max(m.s0, m.s1);
  if (!(lo > 0) || !std::isfinite(hi)) return m.phiMax;
  constexpr int kSamples = 600;
  const double ratio = elementary::exp(elementary::log(hi / lo) / kSamples);
  double best = m.phiMax, bestSlip = 0;  // the value as s → ∞
  for (double s = lo; s <= hi * (1 + 1e-12); s *= ratio) {
    const double a = adhesion(m, s);
    if (a > best) best = a, bestSlip = s;
  }
  if (bestSlip == 0) return best;
  double a = bestSlip / ratio, b = bestSlip * ratio;
  const double golden = 0.5 * (std::sqrt(5.0) - 1);
  for (int i = 0; i < 100 && b - a > 1e-12 * bestSlip; ++i) {
    const double c = b - golden * (b - a), d = a + golden * (b - a);
    if (adhesion(m, c) > adhesion(m, d))
      b = d;
    else
      a = c;
  }
  return std::max(best, adhesion(m, 0.5 * (a + b)));
}

}  // namespace roverlab
