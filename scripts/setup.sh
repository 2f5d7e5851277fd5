#!/usr/bin/env bash
# Makes this machine ready to build and test Roverlab: the Debian packages
# (installed with apt-get only when missing) and the npm packages (`npm ci` only
# when node_modules is missing or older than package-lock.json). Idempotent and
# quick when nothing changed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"

PACKAGES=(emscripten libeigen3-dev catch2 nlohmann-json3-dev libstb-dev libbenchmark-dev librapidxml-dev python3-pybind11 pybind11-dev python3-numpy python3-dask python3-distributed chromium cmake g++ clang-14 lld-14 llvm-14 make clang-format)

if command -v dpkg-query >/dev/null; then
  missing=()
  for package in "${PACKAGES[@]}"; do
    if [[ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" != "install ok installed" ]]; then
      missing+=("$package")
    fi
  done
  if ((${#missing[@]})); then
    step "Installing Debian packages: ${missing[*]}"
    sudo=()
    if ((EUID != 0)); then
      command -v sudo >/dev/null || {
        echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
        exit 1
      }
      sudo=(sudo)
    fi
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
  fi
else
  echo "setup: dpkg-query not found; not a Debian system, assuming these are installed:" \
    "${PACKAGES[*]}" >&2
fi

# Vite 8 needs Node >= 20.19.
node -e '
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`setup: Node ${process.versions.node} is too old; Roverlab needs Node >= 20.19`);
    process.exit(1);
  }'

if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  step "Installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi
