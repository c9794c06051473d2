#!/usr/bin/env bash
# Figures of the browser page against the desktop app, measured side by side in one run:
#   weight   build-web/'s files, raw and gzip -9 (what a host serves)
#   page     time to the first frame with heatmaps in headless Chromium (fresh context each
#            load, loopback server), and the page's trace time for seed003 and the slider case
#            (B=1, T=128, d_model=512, h=8), median of RUNS loads
#   native   the desktop app's trace time (the same worker, measured the same way) under Xvfb
# Goals (issue 14): first frame < 2 s, page < 5 MB gzip, traces within 3x native.
# Usage: bench/web_figures.sh [RUNS]   (default 5; needs ./setup.sh test's build and build-web)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
web=$root/build-web
app=$root/build/app/gui/attnlab
for needed in "$web/attnlab.wasm" "$app" "$root/tests/web/node_modules/puppeteer-core"; do
  [ -e "$needed" ] || { echo "web_figures.sh: $needed is missing: run ./setup.sh test first" >&2; exit 2; }
done
work=$(mktemp -d)
xvfb_screen=1920x1080x24
source "$root/tests/gui/start_xvfb.sh"  # a free display, stopped (and $work removed) on exit
export ATTNLAB_CONFIG_DIR="$work/config"

raw=0 zipped=0
for f in index.html isolation.js attnlab.js attnlab.wasm attnlab.data attnlab.worker.js; do
  size=$(stat -c %s "$web/$f")
  gz=$(gzip -9 -c "$web/$f" | wc -c)
  printf 'weight   %-18s raw=%8d gzip=%8d\n' "$f" "$size" "$gz"
  raw=$((raw + size)) zipped=$((zipped + gz))
done
awk -v r="$raw" -v g="$zipped" 'BEGIN { printf "weight   total              raw=%.2f MB gzip=%.2f MB (goal < 5 MB gzip)\n", r / 1e6, g / 1e6 }'

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 "$root/tools/serve_web.py" "$web" --port "$port" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q "open http" "$work/server.log" && break; sleep 0.1; done
seed003="preset=seed003&stage=attend"
slider="preset=base&batch=1&seq-len=128&heads=8&stage=attend"
node "$root/tests/web/page_timing.mjs" "http://127.0.0.1:$port" "$runs" "$seed003" "$slider" | tee "$work/page.txt"
kill $server

native() {  # label, app flags...
  local label=$1
  shift
  local times=()
  for _ in $(seq "$runs"); do
    "$app" "$@" --stage attend --screenshot "$work/n.png" --frames 3 --dump-layout "$work/n.json" || return
    times+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace_ms"])' "$work/n.json")")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk -v label="$label" '{ t[NR] = $1 } END {
    printf "native %s: trace_ms median=%.2f min=%.2f max=%.2f\n", label, t[int((NR + 1) / 2)], t[1], t[NR] }'
}
native "$seed003" --preset seed003 | tee -a "$work/native.txt"
native "$slider" --preset base --batch 1 --seq-len 128 --heads 8 | tee -a "$work/native.txt"
python3 - "$work/page.txt" "$work/native.txt" <<'PY'
import re, sys
page = {m[0]: float(m[1]) for m in re.findall(r"page (\S+): .*trace_ms median=([\d.]+)", open(sys.argv[1]).read())}
native = {m[0]: float(m[1]) for m in re.findall(r"native (\S+): trace_ms median=([\d.]+)", open(sys.argv[2]).read())}
for query, t in page.items():
    if query in native and native[query] > 0:
        print(f"ratio    {query}: page / native trace time = {t / native[query]:.2f}x (goal <= 3x)")
PY
