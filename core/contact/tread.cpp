#include "contact/tread.h"

namespace roverlab {

Vec3 treadForce(const TreadParams& p, const Vec3& z, const Vec3& slipVelocity, const Vec3& normal,
                double limit, double cap, double dt, Vec3& zNext) {
  if (!(cap > 0)) {  // no load: the tread springs back
    zNext.setZero();
    return Vec3::Zero();
  }
  const Vec3 zt = z - z.dot(normal) * normal;
  const double rate = limit > 0 ? p.stiffness * slipVelocity.norm() / limit : 1.0 / dt;
  zNext = (zt + dt * slipVelocity) / (1 + dt * rate);  // implicit in the relaxation term
  const double maxDeflection = cap / p.stiffness;
  if (zNext.norm() > maxDeflection) zNext *= maxDeflection / zNext.norm();
  return -p.stiffness * zNext - p.damping * (zNext - zt) / dt;
}

}  // namespace roverlab
