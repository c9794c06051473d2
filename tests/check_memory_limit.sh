#!/usr/bin/env bash
# The bound of tests/run_limited.sh holds: under it a process can take 200 MiB but not 512 MiB
# more than the bound (the allocation fails at once instead of the machine swapping), and the exit
# code of the command is passed on.
#   tests/check_memory_limit.sh KIB
set -uo pipefail
here=$(dirname "$0")
limit=${1:?usage: $0 KIB}
fails=0
bad() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

"$here/run_limited.sh" "$limit" python3 -c 'b = bytearray(200 << 20); b[-1] = 1' ||
  bad "200 MiB could not be allocated under ulimit -v $limit KiB"
over=$(((limit + $(nproc) * 16384) * 1024 + (512 << 20)))  # bytes: the whole bound + 512 MiB
out=$("$here/run_limited.sh" "$limit" python3 -c '
try:
    b = bytearray('"$over"')
    b[-1] = 1
    print("allocated")
except MemoryError:
    print("refused")' 2>&1)
[ "$out" = refused ] || bad "$over bytes under ulimit -v $limit KiB: expected MemoryError, got '$out'"
"$here/run_limited.sh" "$limit" sh -c 'exit 7'
[ $? -eq 7 ] || bad "the command's exit code is not passed on"
"$here/run_limited.sh" x true 2>/dev/null
[ $? -eq 2 ] || bad "a bound that is not a number is not refused with exit 2"

[ "$fails" -eq 0 ] && echo "memory limit: all checks passed"
exit $((fails > 0))
