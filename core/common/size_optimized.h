// Code that runs once per file, scenario or request (readers, writers, the
// bindings' conversions, placing a robot at a run's start) is compiled for
// size in the WebAssembly module: the functions a file defines between
// ROVERLAB_SIZE_OPTIMIZED_BEGIN and ROVERLAB_SIZE_OPTIMIZED_END (after its
// includes) get clang's `minsize`.
// The templates they use (Eigen, nlohmann/json, the standard library) are
// declared before, in the headers, and keep the build's -O3: the simulation
// step shares them, and link-time optimisation keeps one copy of each.
// Natively the markers do nothing: there a study builds a scenario per run,
// and the size of the program matters little.
#pragma once

#if defined(__EMSCRIPTEN__)
#define ROVERLAB_SIZE_OPTIMIZED_BEGIN \
  _Pragma("clang attribute push(__attribute__((minsize)), apply_to = function)")
#define ROVERLAB_SIZE_OPTIMIZED_END _Pragma("clang attribute pop")
#else
#define ROVERLAB_SIZE_OPTIMIZED_BEGIN
#define ROVERLAB_SIZE_OPTIMIZED_END
#endif
