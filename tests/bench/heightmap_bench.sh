#!/usr/bin/env bash
# Builds and runs the heightmap benchmark (tests/bench/heightmap_bench.cpp),
# native and WebAssembly (Node), and writes docs/benchmarks/heightmap.json.
#
#   bash tests/bench/heightmap_bench.sh     (PROCESSES=N: speed-only processes, default 5)
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
# The rough/flat ratios of PROCESSES more processes of the speed section
# alone, natively and in WASM: a process's memory layout (and in WASM its
# compiled code) moves the ratio by a few hundredths, more than the runs
# within one process do; the median over processes is the figure to quote.
# The mesh patch's ratios likewise (--meshes-only, meshes_by_process).
PROCESSES="${PROCESSES:-5}"
speedRuns=""
meshRuns=""
for k in $(seq "$PROCESSES"); do
  speedRuns+="$(build/bench-native/tests/bench/roverlab_bench_heightmap --speed-only | tr -d '\n')"$'\n'
  speedRuns+="$(node build/bench-wasm/tests/bench/roverlab_bench_heightmap.cjs --speed-only | tr -d '\n')"$'\n'
  meshRuns+="$(build/bench-native/tests/bench/roverlab_bench_heightmap --meshes-only | tr -d '\n')"$'\n'
  meshRuns+="$(node build/bench-wasm/tests/bench/roverlab_bench_heightmap.cjs --meshes-only | tr -d '\n')"$'\n'
done
# byProcess RUNS SECTION RATIO: per platform and preset, the RATIO of each
# process's SECTION entries ("speed" or "meshes.speed") and their median.
byProcess() {
  printf '%s' "$1" | node -e '
    const [section, ratio] = process.argv.slice(1);
    const lines = require("fs").readFileSync(0, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const entries = (run) => section.split(".").reduce((o, k) => o[k], run);
    const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
    const out = { processes: lines.length / 2 };
    for (const [platform, first] of [["native", 0], ["wasm", 1]]) {
      const runs = lines.filter((_, i) => i % 2 === first);
      out[platform] = {};
      for (const { preset } of entries(runs[0])) {
        const ratios = runs.map((r) => entries(r).find((s) => s.preset === preset)[ratio]);
        out[platform][preset] = { [ratio]: ratios, median: median(ratios) };
      }
    }
    process.stdout.write(JSON.stringify(out));
  ' "$2" "$3"
}
speedByProcess="$(byProcess "$speedRuns" speed rough_over_flat)"
meshByProcess="$(byProcess "$meshRuns" meshes.speed patch_over_flat)"
cat >docs/benchmarks/heightmap.json <<JSON
{
  "command": "bash tests/bench/heightmap_bench.sh",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "load_average_before": "$LOAD",
  "native": $native,
  "wasm": $wasm,
  "speed_by_process": $speedByProcess,
  "meshes_by_process": $meshByProcess
}
JSON
cat docs/benchmarks/heightmap.json
