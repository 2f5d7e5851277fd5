#!/usr/bin/env bash
# `npm test`: set up, then every test suite. All suites run even when one fails;
# a summary comes last and the exit status is non-zero if anything failed.
#   format   every C++ file follows .clang-format (scripts/check-format.sh)
#   lint     ESLint over the web app and the JavaScript tests (eslint.config.js)
#   native   cmake Release build (build/native) + ctest (Catch2: roverlab_tests),
#            then js, beside the browser suite (below)
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
# The native and js suites, in the background: a result line per suite in $1.
native_and_js() {
  local out="$1" start=$SECONDS
  if native_tests; then
    echo "PASS  native: build + ctest ($((SECONDS - start)) s)" >>"$out"
  else
    echo "FAIL  native: build + ctest ($((SECONDS - start)) s)" >>"$out"
  fi
  start=$SECONDS
  if node_modules/.bin/vitest run tests/js/; then
    echo "PASS  js: vitest tests/js ($((SECONDS - start)) s)" >>"$out"
  else
    echo "FAIL  js: vitest tests/js ($((SECONDS - start)) s)" >>"$out"
  fi
}
run "format: clang-format" bash scripts/check-format.sh
run "lint: eslint" node_modules/.bin/eslint .
run "wasm: build the core" bash scripts/build-wasm.sh
# The browser suite needs only the WASM core and mostly waits on Chromium
# (about a fifth of one core), so the native build, ctest and the js suite
# (which needs the native tool) run beside it at the lowest priority, where
# they take the cores the browser leaves idle; their output follows the
# browser suite's.
side_log="$(mktemp)"
side_results="$(mktemp)"
(
  renice -n 19 -p "$BASHPID" >/dev/null
  native_and_js "$side_results"
) >"$side_log" 2>&1 &
side_pid=$!
# One browser test file at a time: each drives its own Chromium and dev server,
# and on two cores running them side by side only makes each slower.
run "browser: vitest tests/browser" node_modules/.bin/vitest run --no-file-parallelism tests/browser/
wait "$side_pid"
step "native and js (run beside the browser suite)"
cat "$side_log"
mapfile -t side < "$side_results"
[[ ${#side[@]} -eq 2 ]] || side+=("FAIL  native and js: did not finish")
for line in "${side[@]}"; do
  results+=("$line")
  [[ $line == PASS* ]] || failed=1
done
rm -f "$side_log" "$side_results"

step "Summary"
printf '%s\n' "${results[@]}"
passed=$(printf '%s\n' "${results[@]}" | grep -c '^PASS' || true)
echo "npm test: $((SECONDS - total_start)) s"
echo "suites: $passed passed, $((${#results[@]} - passed)) failed"
exit "$failed"
