// Ground material of a terrain piece: adhesion curve and rolling resistance
// (seed 000 eq. 8 and eq. 11; seed 001 uses the same curve on slip speed).
#pragma once

namespace roverlab {

struct Material {
  double phiMax = 0.8;   ///< φ_max: adhesion coefficient as slip → ∞ (-)
  double s0 = 0.1;       ///< s0: initial-slope constant of the adhesion curve (- or m/s)
  double s1 = 0.5;       ///< s1: decay of the extra grip at small slip (- or m/s)
  double rolling = 0.018;  ///< f: rolling-resistance coefficient (-)
};

/// Asphalt as in seed 000's step scenario (f = 0.018, φ_max = 0.8).
inline Material asphalt() { return Material{}; }

}  // namespace roverlab
