#!/usr/bin/env bash
# Builds and runs the contact benchmarks, native and WebAssembly, and writes
# docs/benchmarks/{contact_native,portable_native,portable_wasm,summary}.json.
#
#   bash tests/bench/run.sh
#
# Environment: JOBS (parallel build jobs, default 2). Takes a few minutes; run it
# on an otherwise idle machine, the numbers are wall-clock times.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
JOBS="${JOBS:-2}"
OUT=docs/benchmarks
NATIVE=build/bench-native
WASM=build/bench-wasm
COMMAND="bash tests/bench/run.sh${*:+ $*}"
mkdir -p "$OUT"

log() { printf '\n== %s\n' "$*" >&2; }

# Which core is measured (compared again when the summary is written).
CORE_DIGEST="$(python3 -B -c 'import sys; sys.path.insert(0, "tests/bench"); import summarize; print(summarize.core_digest()["sha256"])')"

log "native build (Release) in $NATIVE"
cmake -S . -B "$NATIVE" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$NATIVE" --target roverlab_bench_contact roverlab_bench_portable -j"$JOBS"

log "WebAssembly build (Emscripten, Release) in $WASM"
export NODE_PATH=/usr/share/nodejs  # Debian's emcc needs its node modules (acorn)
# The WASM module target is not built here; its output dir is redirected anyway
# so this build can never overwrite web/src/wasm.
emcmake cmake -S . -B "$WASM" -DCMAKE_BUILD_TYPE=Release \
  -DROVERLAB_WASM_OUTPUT_DIR="$ROOT/$WASM/web-wasm" >/dev/null
cmake --build "$WASM" --target roverlab_bench_portable -j"$JOBS"

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

log "Google Benchmark (native) -> $OUT/contact_native.json"
"$NATIVE/tests/bench/roverlab_bench_contact" \
  --benchmark_format=json --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  >"$OUT/contact_native.json"

log "portable benchmark, native -> $OUT/portable_native.json"
"$NATIVE/tests/bench/roverlab_bench_portable" >"$OUT/portable_native.json"

log "portable benchmark, WebAssembly in Node -> $OUT/portable_wasm.json"
node "$WASM/tests/bench/roverlab_bench_portable.cjs" >"$OUT/portable_wasm.json"

LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"

log "summary -> $OUT/summary.json"
python3 tests/bench/summarize.py \
  --out-dir "$OUT" \
  --command "$COMMAND" \
  --load-before "$LOAD_BEFORE" \
  --load-after "$LOAD_AFTER" \
  --native-cxx "$(grep -m1 '^CMAKE_CXX_COMPILER:' "$NATIVE/CMakeCache.txt" | cut -d= -f2)" \
  --core-digest-at-build "$CORE_DIGEST" \
  >"$OUT/summary.json"
cat "$OUT/summary.json"
