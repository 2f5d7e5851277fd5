#include "common/types.h"

#include <cstdio>

namespace roverlab {

std::string format(const Vec3& v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.6g, %.6g, %.6g)", v.x(), v.y(), v.z());
  return buf;
}

std::string format(double v) { return format(v, 6); }

std::string format(double v, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

}  // namespace roverlab
