# Sourced by the scripts that run the real app (needs $work, a temp folder): a virtual display
# (start_xvfb.sh), settings in $work/config, sanitizer reports without leak checks, and the
# pass/fail counters: ok, bad "what failed", and report (prints "N passed, M failed"; fails if any).
source "$(dirname "${BASH_SOURCE[0]}")/start_xvfb.sh"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
export ATTNLAB_CONFIG_DIR="$work/config"
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}
report() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
