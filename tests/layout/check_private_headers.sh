#!/usr/bin/env bash
# Headers private to a part are included only inside it: core/kernels/ by the core, app/gui/ by
# the app (and its tests), app/cli/ by the command line. Prints "N passed, M failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
passed=0
failed=0
# only_from HEADER_DIR ALLOWED_DIR...: fails when a file elsewhere includes a header of HEADER_DIR.
only_from() {
  local dir=$1
  shift
  local allowed="^($(IFS='|'; echo "$*"))/"
  local offenders
  offenders=$(grep -rlE "#include \"$dir/" core app tests bench 2>/dev/null | grep -vE "$allowed")
  if [ -n "$offenders" ]; then
    echo "FAIL: $dir/ is private, but included by: $offenders"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}
only_from core/kernels core
only_from app/gui app/gui tests/gui tests/fuzz
only_from app/cli app/cli
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
