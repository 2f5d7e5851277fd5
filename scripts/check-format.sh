#!/usr/bin/env bash
# Checks that every C++ file follows .clang-format (Debian's clang-format);
# lists the files that do not. Fix them with:
#   git ls-files 'core/*.h' 'core/*.cpp' 'tests/*.h' 'tests/*.cpp' | xargs clang-format -i
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bad=()
while IFS= read -r f; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(git ls-files 'core/*.h' 'core/*.cpp' 'tests/*.h' 'tests/*.cpp')
if ((${#bad[@]})); then
  printf 'not formatted (.clang-format): %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "C++ formatting: every file follows .clang-format"
