// A fingerprint of a world's state: FNV-1a (64 bit) over the bytes of every
// number the next step depends on (joint positions and velocities, time,
// actuator targets and integrals, tread states). Two runs with the same
// state hash are bit-identical; a stored hash of a scenario's end state
// (tests/sim/golden_hash_test.cpp, tests/js/golden_hash.test.mjs) catches any
// change of the results, however small.
#pragma once

#include <cstdint>
#include <string>

#include "world/world.h"

namespace roverlab {

std::uint64_t stateHash(const WorldState& state);

/// The hash as 16 lower-case hexadecimal digits.
std::string stateHashHex(const WorldState& state);

}  // namespace roverlab
