#!/usr/bin/env bash
# The desktop app under valgrind (memcheck) with the files a lecture receives from others (issue
# 37): the app must survive both and valgrind must report no error.
#   1. --lesson tests/data/hostile/typos.md: a lesson of every reviewed typo (`Answer: head
#      99999999999`, a never-closed block, invalid UTF-8, `--export-svg` in a scene, `--heds 4`, a
#      byte-order mark, `--help=1`, a four-backtick fence), walked with PageDown;
#   2. --check on an exercise folder (attnlab-cli exercise) holding a hostile answer.npz: 64
#      central-directory entries sharing one deflated 256 MiB member (a 264 KB zip bomb, built here
#      with python3's zlib);
#   3. issue 43's files: a lesson in Latin-1 (`caf\xe9`), a settings.json whose font_scale is
#      "big" beside a stale settings.json.tmp-PID of 8 MiB, and an exercise.json whose format is a
#      string, checked from the Check tab.
# Each run (a soak): the window shown under Xvfb, then six rounds of PageDown and a click at a
# place drawn from a fixed seed (xdotool), then the window closed (WM_DELETE_WINDOW, as a window
# manager's close button sends it) whatever still runs, then valgrind's error summary.
#   tools/valgrind_hostile.sh [BUILD_DIR]     (default build; needs app/gui/attnlab, app/attnlab-cli)
# tools/valgrind.supp suppresses what the system's own code reports (glibc's loader), nothing else.
# Needs valgrind, xvfb, xdotool, python3 (apt-get install -y valgrind xvfb xauth xdotool python3).
# Exits 0 when both runs end cleanly with no valgrind error; 1 on an error, a crash or a window that
# never showed (valgrind's logs are kept in the folder it prints); 2 when something it needs is missing.
# Slow: the app runs 20-50 times slower under valgrind (WAIT_SECONDS, default 600, bounds each wait).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-$root/build}")
app="$build/app/gui/attnlab"
cli="$build/app/attnlab-cli"
lesson="$root/tests/data/hostile/typos.md"
wait_seconds=${WAIT_SECONDS:-600}

for tool in valgrind Xvfb xdotool python3; do
  command -v "$tool" >/dev/null ||
    { echo "valgrind_hostile: $tool is missing (apt-get install -y valgrind xvfb xdotool python3)" >&2; exit 2; }
done
for binary in "$app" "$cli"; do
  [ -x "$binary" ] || { echo "valgrind_hostile: no $binary: build it (cmake --build $build --target attnlab attnlab-cli)" >&2; exit 2; }
done
[ -f "$lesson" ] || { echo "valgrind_hostile: no $lesson" >&2; exit 2; }

work=$(mktemp -d)
logs=$(mktemp -d /tmp/valgrind_hostile.XXXXXX)
source "$root/tests/gui/start_xvfb.sh"  # DISPLAY; removes $work on exit
export ATTNLAB_CONFIG_DIR="$work/config"
# Mesa's software renderer without its LLVM JIT: code valgrind can follow.
export LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=softpipe

# [SECTION] the hostile answer: 64 entries, one shared deflated member of 256 MiB

make_zip_bomb() {
  python3 - "$1" <<'PY'
import struct, sys, zlib
MEMBER = 256 << 20  # inflated bytes of the one member every entry points at
header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % ((MEMBER - 64) // 4)
header = b"\x93NUMPY\x01\x00" + struct.pack("<H", 64 - 10) + header.ljust(64 - 10 - 1) + b"\n"
deflate = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate, as zip stores it
crc, chunks, zeros = zlib.crc32(header), [deflate.compress(header)], bytes(1 << 20)
for _ in range((MEMBER - len(header)) // len(zeros)):
    crc = zlib.crc32(zeros, crc)
    chunks.append(deflate.compress(zeros))
tail = bytes(MEMBER - len(header) - (MEMBER - len(header)) // len(zeros) * len(zeros))
crc = zlib.crc32(tail, crc)
chunks += [deflate.compress(tail), deflate.flush()]
data = b"".join(chunks)
name = b"out.npy"
local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(data), MEMBER, len(name), 0)
archive = local + name + data
central = b""
names = [b"x", b"q", b"k", b"v", b"scores", b"scaled", b"weights", b"context", b"concat", b"out"]
names += [b"extra_%02d" % i for i in range(64 - len(names))]
for n in names:  # every entry at offset 0: the same member
    n += b".npy"
    central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(data),
                           MEMBER, len(n), 0, 0, 0, 0, 0, 0) + n
end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(names), len(names), len(central),
                  len(archive), 0)
open(sys.argv[1], "wb").write(archive + central + end)
PY
}

# [SECTION] one run under valgrind

# close_window WINDOW: WM_DELETE_WINDOW sent to it (glfw closes on it), through libX11.
close_window() {
  python3 - "$1" <<'PY'
import ctypes, ctypes.util, sys
x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
x.XOpenDisplay.restype = ctypes.c_void_p
x.XInternAtom.restype = ctypes.c_ulong
x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
display = x.XOpenDisplay(None)
if not display:
    sys.exit("cannot open the display")
class ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong),
                ("message_type", ctypes.c_ulong), ("format", ctypes.c_int),
                ("data", ctypes.c_long * 5)]
class Event(ctypes.Union):
    _fields_ = [("client", ClientMessage), ("pad", ctypes.c_long * 24)]
window = int(sys.argv[1])
event = Event()
event.client.type = 33  # ClientMessage
event.client.window = window
event.client.message_type = x.XInternAtom(display, b"WM_PROTOCOLS", 0)
event.client.format = 32
event.client.data[0] = x.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long,
                         ctypes.c_void_p]
x.XSendEvent(display, window, 0, 0, ctypes.byref(event))
x.XFlush.argtypes = [ctypes.c_void_p]
x.XFlush(display)
PY
}

failures=0
# run_case NAME ARGS... [--setup FUNCTION]: the app under valgrind, PageDown pressed and clicks,
# the window closed; its summary.
run_case() {
  local name=$1
  shift
  local log="$logs/$name.valgrind.log" err="$logs/$name.stderr" setup=
  local args=()
  while [ $# -gt 0 ]; do  # --setup FUNCTION: writes the config folder instead of the default
    if [ "$1" = --setup ]; then setup=$2 && shift 2; else args+=("$1") && shift; fi
  done
  set -- "${args[@]}"
  rm -rf "$ATTNLAB_CONFIG_DIR" && mkdir -p "$ATTNLAB_CONFIG_DIR"
  echo '{"first_start_done": true}' >"$ATTNLAB_CONFIG_DIR/settings.json"
  [ -n "$setup" ] && "$setup"
  valgrind --tool=memcheck --error-exitcode=99 --track-origins=no --leak-check=no \
    --suppressions="$root/tools/valgrind.supp" \
    --log-file="$log" "$app" "$@" --width 1280 --height 720 >"$logs/$name.stdout" 2>"$err" &
  local pid=$! window= waited=0
  while [ -z "$window" ] && [ "$waited" -lt "$wait_seconds" ] && kill -0 "$pid" 2>/dev/null; do
    window=$(xdotool search --pid "$pid" --name "^Attention Lab$" 2>/dev/null | head -n1)
    [ -n "$window" ] || { sleep 2; waited=$((waited + 2)); }
  done
  if [ -z "$window" ]; then
    echo "FAIL $name: no window within ${waited} s"
    kill -INT "$pid" 2>/dev/null
  else
    sleep 20  # first frames, slow under valgrind
    RANDOM=37  # the same clicks every run
    for _ in 1 2 3 4 5 6; do
      xdotool windowfocus "$window" key --window "$window" Next 2>/dev/null
      sleep 5
      xdotool mousemove --window "$window" $((RANDOM % 1280)) $((RANDOM % 720)) click 1 2>/dev/null
      sleep 5
    done
    close_window "$window" || kill -INT "$pid" 2>/dev/null
  fi
  local code=0 slept=0
  while kill -0 "$pid" 2>/dev/null && [ "$slept" -lt "$wait_seconds" ]; do
    sleep 2
    slept=$((slept + 2))
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "FAIL $name: still running ${wait_seconds} s after the window was closed"
    kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid"
  code=$?
  local summary
  summary=$(grep -h "ERROR SUMMARY" "$log" | tail -n1 | sed 's/^==[0-9]*== //')
  echo "$name: exit $code; ${summary:-no valgrind summary (the process did not end normally)}"
  grep -m3 "^attnlab" "$err" | sed 's/^/  stderr: /'
  if [ -z "$window" ] || [ "$code" -ne 0 ] || ! grep -q "ERROR SUMMARY: 0 errors" "$log"; then
    [ "$code" -ge 128 ] && echo "  the app died of signal $((code - 128))"
    grep -m1 -A12 "^==[0-9]*== [A-Z].*\(Invalid\|uninitialised\|Mismatched\|overlap\|Process terminating\)" \
      "$log" | sed 's/^/  /'
    failures=$((failures + 1))
  fi
}

run_case lesson --lesson "$lesson" --present

folder="$work/exercise"
if "$cli" exercise "$folder" >"$logs/exercise.out" 2>&1; then
  make_zip_bomb "$folder/answer.npz"
  echo "answer.npz: $(stat -c %s "$folder/answer.npz") bytes, 64 entries sharing one 256 MiB member"
  run_case check --check "$folder"
else
  echo "FAIL: attnlab-cli exercise $folder: $(head -c 300 "$logs/exercise.out")"
  failures=$((failures + 1))
fi

# [SECTION] issue 43's files: Latin-1 text, a wrong settings field beside a stale temporary, a
# string where exercise.json's format is a number

latin1="$work/latin1.md"
printf '# Caf\xe9 lesson\n\n## Scene 1: caf\xe9 au lait\n\n```attnlab\n--preset seed003 --sentence caf\xe9\n```\n\nThe caf\xe9 caption.\n' >"$latin1"
odd="$work/odd-exercise"
if "$cli" exercise "$odd" >"$logs/odd-exercise.out" 2>&1 &&
  python3 - "$odd/exercise.json" <<'PY'; then
import json, sys
path = sys.argv[1]
data = json.load(open(path))
data["format"] = "1"
json.dump(data, open(path, "w"))
PY
  settings_case() {
    mkdir -p "$ATTNLAB_CONFIG_DIR"
    echo '{"first_start_done": true, "font_scale": "big"}' >"$ATTNLAB_CONFIG_DIR/settings.json"
    head -c $((8 << 20)) /dev/zero >"$ATTNLAB_CONFIG_DIR/settings.json.tmp-999999"
  }
  run_case files --lesson "$latin1" --check "$odd" --present --setup settings_case
  if [ -e "$ATTNLAB_CONFIG_DIR/settings.json.tmp-999999" ]; then
    echo "FAIL files: the stale settings.json.tmp-999999 is still there"
    failures=$((failures + 1))
  fi
else
  echo "FAIL: attnlab-cli exercise $odd: $(head -c 300 "$logs/odd-exercise.out")"
  failures=$((failures + 1))
fi

echo "valgrind logs: $logs"
[ "$failures" -eq 0 ] && echo "valgrind_hostile: no error, no crash" && exit 0
echo "valgrind_hostile: $failures run(s) failed"
exit 1
