#!/usr/bin/env bash
# Runs the core suites once per OpenBLAS kernel set. OpenBLAS picks its GEMM kernels for the
# processor it runs on (AVX-512 on one machine, AVX2 on an AMD EPYC), and each kernel set sums in
# its own order, so a test that holds on one processor and fails on another compares two different
# computations bit for bit. OPENBLAS_CORETYPE forces the kernel set any x86-64 processor that has
# its instructions can run; each run here must pass.
#   tools/test_core_types.sh [BUILD_DIR] [CORETYPE ...]
# BUILD_DIR defaults to build; the core types to "unset" (OpenBLAS's own choice: OpenBLAS 0.3.21
# falls back to Prescott on a processor it does not know), Haswell (AVX2, as on most machines),
# Zen (an AMD EPYC's), SkylakeX (AVX-512), SandyBridge (AVX) and Prescott (SSE3); a type needs a
# processor with its instructions. Build the suites first:
#   cmake --build build --target core_tests variant_tests flash_tests position_tests \
#     training_tests pretrained_tests fuzz_replay spine_tests soak_core attnlab-cli
# Each run also runs the CLI tests and the NumPy checks (ctest -R 'cli_tests|numpy'), which read
# attnlab-cli's output and exports (NumPy's own products go through OpenBLAS too).
# Exit status: 0 when every suite passed under every core type; the failures are listed.
set -u
build=${1:-build}
shift || true
types=("$@")
[ ${#types[@]} -eq 0 ] && types=(unset Haswell Zen SkylakeX SandyBridge Prescott)

# The GoogleTest suites; and two runs that compare paths within a tolerance on random configs
# (the core soak, 500 changes against the per-head loop; the fuzzers' corpus replayed).
suites=(tests/core_tests tests/variants/variant_tests tests/flash/flash_tests
  tests/position/position_tests tests/training/training_tests tests/pretrained/pretrained_tests
  tests/fuzz/fuzz_replay tests/spine/spine_tests)
soak=tests/soak/soak_core
for suite in "${suites[@]}" "$soak" app/attnlab-cli; do
  if [ ! -x "$build/$suite" ]; then
    echo "test_core_types: $build/$suite is not built; build the targets listed in $0's header" >&2
    exit 2
  fi
done

log_dir=$(mktemp -d)
failures=()
for type in "${types[@]}"; do
  if [ "$type" = unset ]; then
    unset OPENBLAS_CORETYPE
  else
    export OPENBLAS_CORETYPE=$type
  fi
  # OpenBLAS names the kernel set it loaded ("Core: Haswell") when OPENBLAS_VERBOSE=2; a name it
  # does not know leaves its own choice in force, which would test nothing new.
  core=$(OPENBLAS_VERBOSE=2 "$build/tests/core_tests" --gtest_filter=FusedQkv.* 2>&1 |
    sed -n 's/^Core: //p' | head -n 1)
  echo "== OPENBLAS_CORETYPE=$type: OpenBLAS runs ${core:-its default} kernels"
  if [ "$type" != unset ] && [ -n "$core" ] && [ "${core,,}" != "${type,,}" ]; then
    failures+=("$type: OpenBLAS loaded $core instead")
  fi
  for suite in "${suites[@]}"; do
    log="$log_dir/${type}_$(basename "$suite").log"
    if "$build/$suite" --gtest_brief=1 >"$log" 2>&1; then
      echo "   $(basename "$suite"): $(grep -m1 -o '[0-9]* tests\? from [0-9]* test suites\? ran' "$log")"
    else
      echo "   $(basename "$suite"): FAILED (log: $log)"
      grep '^\[  FAILED  \]' "$log" | sed 's/^/     /'
      failures+=("$type: $(basename "$suite")")
    fi
  done
  log="$log_dir/${type}_soak_core.log"
  if "$build/$soak" 500 >"$log" 2>&1; then
    echo "   soak_core 500: $(tail -n 1 "$log")"
  else
    echo "   soak_core 500: FAILED (log: $log)"
    tail -n 5 "$log" | sed 's/^/     /'
    failures+=("$type: soak_core")
  fi
  log="$log_dir/${type}_ctest.log"
  if ctest --test-dir "$build" -R 'cli_tests|numpy' --no-tests=error --output-on-failure >"$log" 2>&1; then
    echo "   cli and numpy checks: $(grep -m1 -o '[0-9]*% tests passed.*' "$log")"
  else
    echo "   cli and numpy checks: FAILED (log: $log)"
    grep -E '^ *[0-9]+/[0-9]+ Test.*\*\*\*' "$log" | sed 's/^/     /'
    failures+=("$type: cli and numpy checks")
  fi
done

if [ ${#failures[@]} -gt 0 ]; then
  printf 'FAILED under: %s\n' "${failures[@]}"
  exit 1
fi
echo "every suite passed under: ${types[*]}"
