#!/usr/bin/env bash
# `npm start`: set up, build the WASM core, serve the web app on localhost.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
bash scripts/setup.sh
step "Building the WASM core (build/wasm)"
bash scripts/build-wasm.sh
step "Serving the web app (Ctrl-C stops)"
exec node_modules/.bin/vite --config web/vite.config.js "$@"
