#!/usr/bin/env bash
# Builds and runs the heightmap benchmark (tests/bench/heightmap_bench.cpp),
# native and WebAssembly (Node), and writes docs/benchmarks/heightmap.json.
#
#   bash tests/bench/heightmap_bench.sh
#
# Run it on an otherwise idle machine: the numbers are wall-clock times.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
JOBS="${JOBS:-2}"
cmake -S . -B build/bench-native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/bench-native --target roverlab_bench_heightmap -j"$JOBS" >&2
export NODE_PATH=/usr/share/nodejs  # Debian's emcc needs its node modules (acorn)
emcmake cmake -S . -B build/bench-wasm -DCMAKE_BUILD_TYPE=Release \
  -DROVERLAB_WASM_OUTPUT_DIR="$ROOT/build/bench-wasm/web-wasm" >/dev/null
cmake --build build/bench-wasm --target roverlab_bench_heightmap -j"$JOBS" >&2
LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"
native="$(build/bench-native/tests/bench/roverlab_bench_heightmap)"
wasm="$(node build/bench-wasm/tests/bench/roverlab_bench_heightmap.cjs)"
cat >docs/benchmarks/heightmap.json <<JSON
{
  "command": "bash tests/bench/heightmap_bench.sh",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "load_average_before": "$LOAD",
  "native": $native,
  "wasm": $wasm
}
JSON
cat docs/benchmarks/heightmap.json
