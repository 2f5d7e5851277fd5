# Shared settings of the scripts in this folder (sourced, not run).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JOBS="${ROVERLAB_JOBS:-2}"
# Debian's emscripten needs Debian's node modules (acorn, ...).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

if [[ -t 1 ]]; then
  step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
else
  step() { printf '\n==> %s\n' "$*"; }
fi
