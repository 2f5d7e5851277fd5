#!/usr/bin/env bash
# `npm test`: set up, then every test suite. All suites run even when one fails;
# a summary comes last and the exit status is non-zero if anything failed.
#   format   every C++ file follows .clang-format (scripts/check-format.sh)
#   lint     ESLint over the web app and the JavaScript tests (eslint.config.js)
#   native   cmake Release build (build/native) + ctest (Catch2: roverlab_tests)
#   python   the Python package (scripts/build-python.sh) + unittest tests/python
#            (run, World, Study, the Dask runner on real scheduler and worker processes)
#   wasm     the WASM core (build/wasm -> web/src/wasm)
#   js       vitest tests/js: the WASM core in Node, JS unit tests
#   browser  vitest tests/browser: the web app in headless Chromium (playwright-core)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
# Plain text for CI logs.
[[ -t 1 ]] || export NO_COLOR=1

results=()
failed=0
run() {
  local name="$1"
  shift
  step "$name"
  local start=$SECONDS
  if "$@"; then
    results+=("PASS  $name ($((SECONDS - start)) s)")
  else
    results+=("FAIL  $name ($((SECONDS - start)) s)")
    failed=1
  fi
}

total_start=$SECONDS
bash scripts/setup.sh || {
  echo "npm test: setup failed" >&2
  exit 1
}

native_tests() {
  bash scripts/build-native.sh && ctest --test-dir build/native --output-on-failure
}
# Debian's python3, which holds python3-numpy and python3-dask (as in build-python.sh).
python_tests() {
  bash scripts/build-python.sh &&
    PYTHONPATH=build/python "${ROVERLAB_PYTHON:-/usr/bin/python3}" -m unittest discover -s tests/python -v
}
run "format: clang-format" bash scripts/check-format.sh
run "lint: eslint" node_modules/.bin/eslint .
run "native: build + ctest" native_tests
run "python: build + unittest tests/python" python_tests
run "wasm: build the core" bash scripts/build-wasm.sh
run "js: vitest tests/js" node_modules/.bin/vitest run tests/js/
# One browser test file at a time: each drives its own Chromium and dev server,
# and on two cores running them side by side only makes each slower.
run "browser: vitest tests/browser" node_modules/.bin/vitest run --no-file-parallelism tests/browser/

step "Summary"
printf '%s\n' "${results[@]}"
passed=$(printf '%s\n' "${results[@]}" | grep -c '^PASS' || true)
echo "npm test: $((SECONDS - total_start)) s"
echo "suites: $passed passed, $((${#results[@]} - passed)) failed"
exit "$failed"
