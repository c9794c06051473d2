#!/usr/bin/env bash
# Runs a test that reads hostile files under a bound on its virtual memory, so that a reader which
# regresses (an archive inflated whole, a size believed from a header) fails with bad_alloc instead
# of swapping the machine:
#   tests/run_limited.sh KIB COMMAND [ARG...]     ulimit -v KIB (+ 16 MiB a core), exec COMMAND
# CMake passes it for every such test (tests/CMakeLists.txt, ATTNLAB_MEMORY_LIMITED) except in
# sanitizer builds, whose shadow memory needs terabytes of address space.
set -euo pipefail
if [ $# -lt 2 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 KIB COMMAND [ARG...]  (KIB: the virtual-memory bound in KiB)" >&2
  exit 2
fi
# Address space that is not data: each thread's stack (8 MiB) and glibc's malloc arenas (64 MiB of
# address space each, up to 8 per core) grow with the machine's cores, so the bound adds 16 MiB per
# core and caps the arenas at 4; what a test's data may take stays KIB whatever the machine.
cores=$(nproc 2>/dev/null || echo 1)
limit=$(($1 + cores * 16384))
shift
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-4}
ulimit -v "$limit"
exec "$@"
