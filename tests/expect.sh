# Sourced by the command-line test scripts: runs $program as a user would and counts the results.
# Needs $program (the binary) and $work (a temp folder). Finish with `summary`.
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect CODE PHRASE [--] ARGS...: exit code CODE, PHRASE in stdout or stderr, and an error
# (code 2) said in exactly one line on stderr.
expect() {
  local code=$1 phrase=$2
  shift 2
  [ "${1:-}" = "--" ] && shift
  "$program" "$@" >"$work/out" 2>"$work/err"
  local got=$?
  if [ "$got" != "$code" ]; then bad "exit $got (wanted $code): $*  stderr: $(cat "$work/err")"; return; fi
  if [ -n "$phrase" ] && ! grep -qF -- "$phrase" "$work/out" "$work/err"; then
    bad "no '$phrase' in the output of: $*  stderr: $(cat "$work/err")"; return
  fi
  if [ "$code" = 2 ] && [ "$(wc -l <"$work/err")" != 1 ]; then
    bad "error is not one line: $*"; cat "$work/err"; return
  fi
  ok
}

# Prints "N passed, M failed" and fails when anything did.
summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
