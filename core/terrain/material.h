// Ground material of a terrain piece: adhesion curve and rolling resistance
// ([GKS2025] eq. 8 and eq. 11; [SP2017] uses the same curve on slip speed).
#pragma once

namespace roverlab {

struct Material {
  double phiMax = 0.8;     ///< φ_max: adhesion coefficient as slip → ∞ (-)
  double s0 = 0.1;         ///< s0: initial-slope constant of the adhesion curve (- or m/s)
  double s1 = 0.5;         ///< s1: decay of the extra grip at small slip (- or m/s)
  double rolling = 0.018;  ///< f: rolling-resistance coefficient (-)
};

/// Asphalt as in [GKS2025]'s step scenario (f = 0.018, φ_max = 0.8).
inline Material asphalt() { return Material{}; }

/// φ_s(s) = φ_max (1 − e^{−s/s0}) (1 + e^{−s/s1}), [GKS2025] eq. 8 / [SP2017].
double adhesion(const Material& m, double slip);

/// The curve's peak, max over s ≥ 0 of φ_s(s) (-): the most grip the
/// material gives at any slip (1.181 for the defaults), and the
/// bound on every tangential tire force (contact/tread.h).
double adhesionPeak(const Material& m);

}  // namespace roverlab
