#!/usr/bin/env bash
# Fuzzes the .npy reader, the .npz answer reader (zip + inflate) and the preset reader (+ validate + run, the variants included: K/V heads,
# cross-attention, decoding, MLA; each checked against its second path), the model folder's
# .safetensors header reader and config.json reader, the lesson reader (each scene's options
# through the app's own parser: the GUI's logic library is built too), and the writers' text input
# (the handout and maps' PDFs, the SVG read back by expat, the one-file page's lesson block), with
# libFuzzer.
#   tools/fuzz.sh [SECONDS]     each target for SECONDS (default 60)
#   TARGETS="writers lesson" tools/fuzz.sh 60     only those targets (default: all of them)
# Builds build-fuzz/ with clang (-fsanitize=fuzzer-no-link,address,undefined), starts each target
# from the committed seeds in tests/fuzz/corpus/<target>/ and prints executions and time per
# target. Inputs it discovers go to build-fuzz/corpus/ (kept between runs, not committed); a crash
# goes to build-fuzz/findings/<target>/ and makes the script exit 1. Turn each crash into a
# regression: copy it to tests/fuzz/regressions/<target>/ (the fuzz_replay tests replay it).
# JOBS=N sets the build's parallelism (default: all cores).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
build="build-fuzz"
all_targets=(npy npz preset safetensors model_config lesson writers)
read -r -a targets <<<"${TARGETS:-${all_targets[*]}}"
for target in "${targets[@]}"; do
  if [[ " ${all_targets[*]} " != *" $target "* ]]; then
    echo "fuzz.sh: no fuzz target \"$target\" in TARGETS: choose among ${all_targets[*]}" >&2
    exit 2
  fi
done
packages=(clang libclang-rt-14-dev cmake make pkg-config libeigen3-dev libopenblas-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev zlib1g-dev libimgui-dev libglfw3-dev libx11-dev python3-glad libstb-dev fonts-dejavu-core
  libfontconfig-dev libcairo2-dev libgif-dev libexpat1-dev)


build_targets() {
  # Debug keeps assert() and Eigen's bounds checks on; -O1 keeps the fuzzer fast enough.
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DATTNLAB_BUILD_GUI=ON -DATTNLAB_FUZZ=ON \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="-O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
    >/dev/null
  cmake --build "$build" -j "${JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"
}

# Prints "target executions seconds exec/s corpus result" from a libFuzzer log.
summarize() {
  local target=$1 log=$2 status=$3
  local runs secs rate=- result=ok
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  [ -n "$secs" ] && [ "$secs" -gt 0 ] && rate=$((${runs:-0} / secs))
  [ "$status" -eq 0 ] || result="CRASH (exit $status, see $log)"
  printf '%-12s %12s %8s %10s %8s  %s\n' "fuzz_$target" "${runs:--}" "${secs:--}s" "$rate" \
    "$(find "$build/corpus/$target" -type f | wc -l)" "$result"
}

tools/install_packages.sh "${packages[@]}"
build_targets

failed=0
summaries=()
for target in "${targets[@]}"; do
  mkdir -p "$build/corpus/$target" "$build/findings/$target"
  log="$build/fuzz_$target.log"
  echo "fuzz.sh: fuzz_$target for ${seconds}s (log: $log)"
  # The first corpus folder receives new inputs; the committed seeds and regressions stay untouched.
  corpora=("$build/corpus/$target" "tests/fuzz/corpus/$target")
  [ -d "tests/fuzz/regressions/$target" ] && corpora+=("tests/fuzz/regressions/$target")
  [ "$target" = lesson ] && corpora+=(lessons)  # the built-in lessons, as seeds
  touch "$build/findings/.started"
  # A .npy or .safetensors of at most 8 KiB must never make the reader allocate more than a few
  # MiB: a lying header that did would be reported as a malloc over the limit.
  malloc_limit_mb=2048
  case "$target" in npy | npz | safetensors | model_config) malloc_limit_mb=64 ;; esac
  # The writers write their files in a folder of their own under $TMPDIR: in memory when it can be.
  tmpdir=${TMPDIR:-/tmp}
  [ "$target" = writers ] && [ -d /dev/shm ] && [ -w /dev/shm ] && tmpdir=/dev/shm
  status=0
  # fontconfig's process-wide tables (the writers' cairo text) are freed only by FcFini: the same
  # suppressions as tools/sanitize.sh asan.
  TMPDIR="$tmpdir" ASAN_OPTIONS=detect_leaks=1 \
    LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0" \
    "$build/tests/fuzz/fuzz_$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb="$malloc_limit_mb" \
    -max_len=8192 \
    -dict="tests/fuzz/$target.dict" -artifact_prefix="$build/findings/$target/" \
    -print_final_stats=1 "${corpora[@]}" >"$log" 2>&1 || status=$?
  summaries+=("$(summarize "$target" "$log" "$status")")
  if [ "$status" -ne 0 ]; then
    failed=1
    grep -m1 -E "ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error|terminate called" \
      "$log" || true
    find "$build/findings/$target" -type f -newer "$build/findings/.started"
  fi
done

echo
printf '%-12s %12s %8s %10s %8s  %s\n' target executions time exec/s corpus result
printf '%s\n' "${summaries[@]}"
if [ "$failed" -ne 0 ]; then
  echo "fuzz.sh: crash found; replay with build-fuzz/tests/fuzz/fuzz_TARGET FILE, then copy FILE" \
    "to tests/fuzz/regressions/TARGET/" >&2
fi
exit "$failed"
