#!/usr/bin/env bash
# The browser test (ctest: browser_page): serves build-web/ on a free loopback port with the
# isolation headers, runs browser_test.mjs in Debian's chromium, then checks the page's .zip
# download against the native CLI's export of the same config with Python's zipfile and NumPy. The
# one-file page (tools/build_web.sh --single-file) is copied alone into an empty folder and opened
# from there, from file://.
# With ATTNLAB (the desktop app), the page it writes with a lesson inside (--export-page) is
# opened alone from file:// and played too.
#   run_browser_test.sh BUILD_WEB_DIR GUI_PIXEL_CHECK ATTNLAB_CLI ONE_PAGE_HTML [ATTNLAB]
set -u
here=$(cd "$(dirname "$0")" && pwd)
web=${1:?build-web folder}
check=${2:?gui_pixel_check binary}
cli=${3:?attnlab-cli binary}
one_page=${4:?the one-file page, build-web-single/attnlab.html}
app=${5:-}
for needed in "$web/attnlab.js" "$web/index.html" "$one_page" /usr/bin/chromium "$here/node_modules/puppeteer-core"; do
  [ -e "$needed" ] || { echo "FAIL: $needed is missing: run ./setup.sh test (it builds the page and installs the browser)"; exit 1; }
done
out=$(mktemp -d)
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port=$(free_port)
plain_port=$(free_port)
python3 "$here/../../tools/serve_web.py" "$web" --port "$port" >"$out/server.log" 2>&1 &
server=$!
# The same page from a server that sends no isolation headers, as a plain static host.
python3 "$here/../../tools/serve_web.py" "$web" --port "$plain_port" --plain >"$out/plain.log" 2>&1 &
plain=$!
trap 'kill $server $plain 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 50); do grep -q "open http" "$out/server.log" "$out/plain.log" && break; sleep 0.1; done
# Two exercise folders for the Check tab, each with an np.savez_compressed answer: the right
# stages (the CLI's export of the same config) and forget-transpose's (the simulator's export).
for kind in right forget-transpose; do
  "$cli" exercise "$out/exercises/$kind" --preset seed003 >/dev/null || exit 1
  mistake=()
  [ "$kind" = right ] || mistake=(--mistake "$kind")
  "$cli" --preset seed003 "${mistake[@]}" --export "$out/exports/$kind" >/dev/null || exit 1
  /usr/bin/python3 - "$out/exports/$kind" "$out/exercises/$kind/answer.npz" <<'PY' || exit 1
import pathlib, sys
import numpy as np
names = ["q", "k", "v", "q_split", "q_heads", "scores", "scaled", "masked", "weights", "context",
         "context_t", "concat", "out"]
folder = pathlib.Path(sys.argv[1])
np.savez_compressed(sys.argv[2], **{n: np.load(folder / f"{n}.npy") for n in names
                                    if (folder / f"{n}.npy").exists()})
PY
done
# The one-file page alone, as on a USB stick: nothing beside it that it could load.
mkdir "$out/usb"
cp "$one_page" "$out/usb/attnlab.html"
desktop_page=()
if [ -n "$app" ]; then  # a lesson of the course's own, written into the page by the desktop app
  mkdir "$out/desktop"
  printf '%s\n' '# Written by the desktop </script>' '' '## First' '```attnlab' '--preset seed003 --stage attend' \
    '```' 'Caption: The first scene.' '' '## Second' '```attnlab' '--preset seed003 --stage concat' '```' \
    'Caption: The second, </b>, <!--<script> and <\/ all.' >"$out/course.md"
  ATTNLAB_ONE_PAGE="$one_page" "$app" --lesson "$out/course.md" \
    --export-page "$out/desktop/attnlab-course.html" >/dev/null || exit 1
  desktop_page=("file://$out/desktop/attnlab-course.html")
fi
node "$here/browser_test.mjs" "http://127.0.0.1:$port" "$out/run" "$check" "http://127.0.0.1:$plain_port" \
  "$out/exercises" "file://$out/usb/attnlab.html" "${desktop_page[@]}"
status=$?
if [ -f "$out/run/tensors.zip" ]; then
  "$cli" --preset seed003 --heads 4 --export "$out/native" >/dev/null || status=1
  # Debian's python3, which has python3-numpy.
  /usr/bin/python3 "$here/compare_zip.py" "$out/run/tensors.zip" "$out/native" || status=1
else
  status=1
fi
[ -n "${ATTNLAB_KEEP_BROWSER_TEST:-}" ] && cp -r "$out/run/." "$ATTNLAB_KEEP_BROWSER_TEST/"
exit $status
