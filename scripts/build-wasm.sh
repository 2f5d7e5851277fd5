#!/usr/bin/env bash
# Builds the WASM core (build/wasm) into web/src/wasm/. Incremental.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
if [[ ! -f build/wasm/CMakeCache.txt ]]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release
fi
emmake cmake --build build/wasm --target roverlab_wasm -j "$JOBS"
