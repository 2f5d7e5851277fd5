#!/usr/bin/env bash
# Builds the Python package (docs/python.md): the extension roverlab._core in
# build/native (target roverlab_python), then build/python/roverlab = the
# extension + python/roverlab/*.py. Use it with PYTHONPATH=build/python.
# The interpreter is Debian's python3, which holds the packages setup.sh
# installs (python3-numpy, python3-dask, ...); ROVERLAB_PYTHON names another.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
PYTHON="${ROVERLAB_PYTHON:-/usr/bin/python3}"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DPYTHON_EXECUTABLE="$PYTHON" >/dev/null
cmake --build build/native -j "$JOBS" --target roverlab_python
extension=(build/native/_core*.so)
[[ -f "${extension[0]}" ]] || {
  echo "build-python: no extension in build/native (is pybind11-dev installed?)" >&2
  exit 1
}
rm -rf build/python/roverlab
mkdir -p build/python/roverlab
cp python/roverlab/*.py build/python/roverlab/
cp "${extension[0]}" build/python/roverlab/
echo "build-python: build/python/roverlab ($(basename "${extension[0]}"))"
