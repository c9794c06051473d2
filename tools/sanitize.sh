#!/usr/bin/env bash
# The test suite under sanitizers.
#   tools/sanitize.sh asan   AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer):
#                            builds everything, the app included, into build-asan/ and runs the
#                            CTest suite but its layout sweeps (label "sweep")
#   tools/sanitize.sh tsan   ThreadSanitizer: builds into build-tsan/ and runs the threaded
#                            tests: the worker cancel/restart stress test and the core tests
# Any sanitizer report fails the run (exit 1). Uses clang (CC/CXX override); JOBS=N sets the build's
# parallelism (default: all cores); CMAKE_ARGS adds CMake options.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
packages=(clang libclang-rt-14-dev cmake make pkg-config libeigen3-dev libopenblas-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev python3-numpy zlib1g-dev
  libimgui-dev libglfw3-dev libx11-dev python3-glad libstb-dev fonts-dejavu-core libfontconfig-dev xvfb xauth xdotool
  fonts-droid-fallback fonts-unfonts-core fonts-symbola)


# configure BUILD_DIR SANITIZER_FLAGS: an optimised build with line tables only (what a sanitizer's
# stack trace prints: file and line; full debug information makes the build ~20 % slower), without
# the benchmarks (nothing runs them here) and without the Python module (a sanitized module does
# not load into Debian's uninstrumented python3; its C++ is the core's, checked here by the rest).
configure() {
  local dir=$1 flags=$2 optimised="-O2 -gline-tables-only -DNDEBUG"
  # shellcheck disable=SC2086  # CMAKE_ARGS is a list of options
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTNLAB_BUILD_GUI=ON \
    -DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="$optimised" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$optimised" \
    -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DCMAKE_DISABLE_FIND_PACKAGE_pybind11=ON \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" ${CMAKE_ARGS:-} >/dev/null
}

jobs=${JOBS:-$(nproc)}
case "$mode" in
  asan)
    tools/install_packages.sh "${packages[@]}"
    configure build-asan "-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
    cmake --build build-asan -j "$jobs"
    # Sanitizer reports abort the test that caused them, so CTest lists it as failed. The layout
    # sweeps (label "sweep": the same views drawn again at every screen size and font scale) run in
    # the normal suite; here each view is drawn by the single-size tests.
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
    export LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    (cd build-asan && ctest --output-on-failure -j "$jobs" -LE sweep)
    ;;
  tsan)
    tools/install_packages.sh "${packages[@]}"
    configure build-tsan "-fsanitize=thread -fno-omit-frame-pointer"
    cmake --build build-tsan -j "$jobs" --target soak_worker core_tests gui_soak
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:${TSAN_OPTIONS:-}"
    # More start/cancel/restart cycles than the normal suite's 200: the point of this run.
    export ATTNLAB_SOAK_CYCLES=${ATTNLAB_SOAK_CYCLES:-1000}
    # Clang 14's TSan cannot map its shadow memory under the high address-space randomisation of
    # newer kernels; without randomisation it always can.
    no_aslr=()
    setarch "$(uname -m)" -R true 2>/dev/null && no_aslr=(setarch "$(uname -m)" -R)
    "${no_aslr[@]}" build-tsan/tests/soak/soak_worker
    "${no_aslr[@]}" build-tsan/tests/core_tests
    # The app's state under random control changes, its worker superseded and restarted.
    ATTNLAB_GUI_SOAK_CHANGES=${ATTNLAB_GUI_SOAK_CHANGES:-3000} "${no_aslr[@]}" build-tsan/tests/gui/gui_soak
    ;;
  *)
    echo "usage: tools/sanitize.sh asan|tsan" >&2
    exit 2
    ;;
esac
echo "sanitize.sh: $mode: no findings"
