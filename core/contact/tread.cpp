#include "contact/tread.h"

#include <algorithm>
#include <cmath>

#include "common/elementary.h"

namespace roverlab {

Vec3 treadForce(const TreadParams& p, const Vec3& z, const Vec3& slipVelocity, const Vec3& normal,
                double limit, double bound, double dt, Vec3& zNext) {
  if (!(bound > 0)) {  // no load: the tread springs back
    zNext.setZero();
    return Vec3::Zero();
  }
  const Vec3 zt = z - z.dot(normal) * normal;
  // Relaxation rate σ0|V_sk|/g of the LuGre law, with g raised towards the
  // bound below the stiction speed (Stribeck): without it g → 0 with the
  // slip, the rate stays finite at rest and a held contact creeps.
  const double speed = slipVelocity.norm();
  const double x = speed / p.stictionSpeed;
  const double g = std::max(limit, bound * elementary::exp(-x * x));
  const double rate = speed == 0 ? 0.0 : g > 0 ? p.stiffness * speed / g : 1.0 / dt;
  zNext = (zt + dt * slipVelocity) / (1 + dt * rate);  // implicit in the relaxation term
  const Vec3 zRate = (zNext - zt) / dt;                // ż of the LuGre law, before any bound
  const double maxDeflection = bound / p.stiffness;
  if (zNext.norm() > maxDeflection) zNext *= maxDeflection / zNext.norm();
  Vec3 force = -p.stiffness * zNext - p.damping * zRate;
  const double magnitude = force.norm();
  if (magnitude > bound) force *= bound / magnitude;
  return force;
}

double rollingResistance(const TreadParams& p, double theta, double spinRate, double breakaway,
                         double spinInertia, double dt, double& thetaNext) {
  if (!(breakaway > 0)) {  // no load: nothing winds up
    thetaNext = 0;
    return 0;
  }
  // Spring and damper of the stuck wheel, each kept well inside the explicit
  // step's stability limit for the wheel's own spin inertia (ω_n·dt ≤ 0.3 and
  // c·dt/J ≤ 0.5): the wheel on its own is the lightest thing they act on.
  const double stiffness = std::min(breakaway / p.rollingBreakaway, 0.09 * spinInertia / (dt * dt));
  const double damping = std::min(stiffness * p.rollingDampingTime, 0.5 * spinInertia / dt);
  const double thetaMax = breakaway / stiffness;
  thetaNext = std::clamp(theta + spinRate * dt, -thetaMax, thetaMax);
  return std::clamp(-(stiffness * thetaNext + damping * spinRate), -breakaway, breakaway);
}

}  // namespace roverlab
