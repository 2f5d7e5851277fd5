#include "world/state_hash.h"

#include <cstdio>
#include <cstring>

namespace roverlab {
namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

void mix(std::uint64_t& h, const void* data, size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * kFnvPrime;
}

void mix(std::uint64_t& h, double v) {
  if (v == 0) v = 0;  // −0 and +0 hash alike
  mix(h, &v, sizeof v);
}

void mix(std::uint64_t& h, const Vec3& v) {
  for (int i = 0; i < 3; ++i) mix(h, v[i]);
}

}  // namespace

std::uint64_t stateHash(const WorldState& state) {
  std::uint64_t h = kFnvOffset;
  for (Eigen::Index i = 0; i < state.bodies.q.size(); ++i) mix(h, state.bodies.q[i]);
  for (Eigen::Index i = 0; i < state.bodies.v.size(); ++i) mix(h, state.bodies.v[i]);
  mix(h, state.bodies.time);
  for (double t : state.targets) mix(h, t);
  for (double x : state.integrals) mix(h, x);
  for (const std::vector<TreadState>& wheel : state.tread)
    for (const TreadState& t : wheel) {
      const std::int32_t piece = t.piece;
      mix(h, &piece, sizeof piece);
      mix(h, t.normal);
      mix(h, t.deflection);
      mix(h, t.rolling);
    }
  return h;
}

std::string stateHashHex(const WorldState& state) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(stateHash(state)));
  return buf;
}

}  // namespace roverlab
