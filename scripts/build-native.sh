#!/usr/bin/env bash
# Builds the native core and its Catch2 tests (build/native). Incremental.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null  # quick when configured
cmake --build build/native -j "$JOBS"
