#!/usr/bin/env bash
# Pictures for slides and papers (issue 32), off screen: clean stills at 1920x1080 and 1024x768,
# font 1.5, with no control in them and no text cut; a transparent still whose background is see-
# through and whose maps keep their colours; the pipeline as a GIF that goes from the first stage
# to the last (its first and last frames against stills of those stages); an MP4 where ffmpeg is
# installed, else one clear line; a lesson animated scene by scene; bad names refused in one line.
#   run_picture_export_test.sh ATTNLAB
# Prints "N passed, M failed".
set -u
app=$(realpath "${1:?attnlab binary}")
work=$(mktemp -d)
source "$(dirname "$0")/app_test_setup.sh"
run() {  # ARGS...: the app, its stderr kept in $work/err
  "$app" "$@" >"$work/out" 2>"$work/err"
}

# Clean stills: the size asked, the picture alone (no presenter bar, no tabs, no play button), no
# text cut or overlapping, and the heads drawn.
for size in 1920x1080 1024x768; do
  w=${size%x*} h=${size#*x}
  if run --preset seed003 --stage attend --font-scale 1.5 --export-png "$work/still-$size.png" \
    --width "$w" --height "$h" --dump-layout "$work/still-$size.json"; then
    problems=$(/usr/bin/python3 - "$work/still-$size.png" "$work/still-$size.json" "$w" "$h" <<'PY'
import json, struct, sys
png, layout, w, h = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3]), int(sys.argv[4])
size = struct.unpack(">II", open(png, "rb").read(24)[16:24])
problems = []
if size != (w, h): problems.append(f"{size}, want {(w, h)}")
labels = [i["label"] for i in layout["items"]]
controls = [l for l in labels if l.startswith(("Number of heads", "Play", "Presenter mode", "Leave presenter"))]
if controls: problems.append(f"controls in the picture: {controls[:3]}")
if layout["text_findings"]: problems.append(f"text cut: {layout['text_findings'][:3]}")
if len(layout["heatmaps"]) != 2: problems.append(f"{len(layout['heatmaps'])} heads drawn")
print("; ".join(problems))
PY
)
    [ -z "$problems" ] && ok || bad "still $size: $problems"
  else
    bad "still $size: $(cat "$work/err")"
  fi
done

# A transparent still: its corners let the background through, its maps are opaque and their
# colours those of the opaque still.
run --preset seed003 --stage attend --export-png "$work/opaque.png" --width 1280 --height 720 \
  --dump-layout "$work/opaque.json" && run --preset seed003 --stage attend --export-png \
  "$work/clear.png" --width 1280 --height 720 --transparent || bad "transparent: $(cat "$work/err")"
problems=$(/usr/bin/python3 - "$work/opaque.png" "$work/clear.png" "$work/opaque.json" <<'PY'
import json, sys
from png_rows import read_png as read
w, h, ch, opaque = read(sys.argv[1]); w2, h2, ch2, clear = read(sys.argv[2])
problems = []
if ch2 != 4: problems.append("the transparent still has no alpha")
for (x, y) in [(2, 2), (w - 3, h - 3)]:
    if clear[y][4 * x + 3] != 0: problems.append(f"corner ({x}, {y}) alpha {clear[y][4 * x + 3]}")
m = json.load(open(sys.argv[3]))["heatmaps"][0]["rect"]
x, y = int((m[0] + m[2]) / 2), int(m[1] + (m[3] - m[1]) * 0.05) + 2
px = clear[y][4 * x:4 * x + 4]; want = opaque[y][ch * x:ch * x + 3]
if px[3] != 255 or max(abs(px[c] - want[c]) for c in range(3)) > 3:
    problems.append(f"a map cell {tuple(px)} against the opaque still's {tuple(want)}")
print("; ".join(problems))
PY
)
[ -z "$problems" ] && ok || bad "transparent still: $problems"

# The pipeline as a GIF: its size, at least 12 distinct frames, every stage's second, and from the
# first stage's picture to the last's.
if run --preset seed003 --export-animation "$work/walk.gif" --width 960 --height 540; then
  run --preset seed003 --stage input --export-png "$work/first.png" --width 960 --height 540
  run --preset seed003 --stage output-project --export-png "$work/last.png" --width 960 --height 540
  problems=$(/usr/bin/python3 - "$work/walk.gif" "$work/first.png" "$work/last.png" <<PY
import sys
import gif_frames
from png_rows import read_png
w, h, frames = gif_frames.read_gif(sys.argv[1])
problems = []
if (w, h) != (960, 540): problems.append(f"{w}x{h}")
if len(frames) < 12: problems.append(f"{len(frames)} distinct frames")
total = sum(d for d, _ in frames)
if not 1200 <= total <= 1400: problems.append(f"{total} cs in all, want 13 steps of 1 s")
def png_rgb(path):
    _, _, ch, rows = read_png(path)
    return b"".join(bytes(v for k, v in enumerate(row) if k % ch < 3) for row in rows)
for name, frame, path in [("first", frames[0][1], sys.argv[2]), ("last", frames[-1][1], sys.argv[3])]:
    still = png_rgb(path)
    step = 7  # every 7th byte: the mean difference of the picture
    diff = sum(abs(frame[i] - still[i]) for i in range(0, len(still), step)) / (len(still) / step)
    if diff > 3: problems.append(f"the {name} frame differs from its stage's still by {diff:.1f} a channel")
print("; ".join(problems))
PY
)
  [ -z "$problems" ] && ok || bad "GIF: $problems"
else
  bad "GIF: $(cat "$work/err")"
fi

# An MP4 through ffmpeg, or one line saying ffmpeg is missing.
run --preset seed003 --export-animation "$work/walk.mp4" --width 640 --height 360 --fps 5
code=$?
if command -v ffmpeg >/dev/null; then
  [ "$code" = 0 ] && head -c 12 "$work/walk.mp4" | grep -q ftyp && ok || bad "MP4: exit $code $(cat "$work/err")"
else
  [ "$code" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "needs ffmpeg" "$work/err" && ok ||
    bad "MP4 without ffmpeg: exit $code, $(cat "$work/err")"
  [ -e "$work/walk.mp4" ] && bad "a partial MP4 was left"
fi

# A lesson animated scene by scene: at least one frame a slide.
if run --lesson notebook --export-animation "$work/lesson.gif" --width 640 --height 360 \
  --seconds-per-stage 0.3; then
  frames=$(/usr/bin/python3 -c "import gif_frames; print(len(gif_frames.read_gif('$work/lesson.gif')[2]))")
  [ "$frames" -ge 33 ] && ok || bad "the lesson's animation has $frames frames, want one a slide (33)"
else
  bad "lesson animation: $(cat "$work/err")"
fi

# The maps as SVG, without a display: one cell per weight of both heads, the tokens as text.
if env -u DISPLAY "$app" --preset seed003 --stage attend --export-svg "$work/heads.svg" \
  >"$work/out" 2>"$work/err"; then
  problems=$(/usr/bin/python3 - "$work/heads.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
cells = [r for r in root.iter(ns + "rect") if r.get("class") == "cell"]
queries = [t.text for t in root.iter(ns + "text") if t.get("class") == "query"]
problems = []
if len(cells) < 2 * 11 * 11: problems.append(f"{len(cells)} cells")
if queries[:11] != "The artist painted the portrait of a woman with a brush".split(): problems.append(f"labels {queries[:11]}")
print("; ".join(problems))
PY
)
  [ -z "$problems" ] && ok || bad "SVG: $problems"
else
  bad "SVG: $(cat "$work/err")"
fi

# The same maps as PDF, without a display, read back by poppler (poppler-utils, which setup.sh
# installs): one page, its cells in the SVG's fills (rasterized at 72 dpi: a point a px) and its
# tokens as text.
if env -u DISPLAY "$app" --preset seed003 --stage attend --focus-head 1 --export-pdf \
  "$work/heads.pdf" >"$work/out" 2>"$work/err" && env -u DISPLAY "$app" --preset seed003 \
  --stage attend --focus-head 1 --export-svg "$work/heads-f.svg" >"$work/out" 2>"$work/err"; then
  if ! command -v pdftoppm >/dev/null || ! command -v pdftotext >/dev/null; then
    bad "PDF: pdftoppm and pdftotext are missing: apt-get install poppler-utils (setup.sh does)"
  elif ! pdftoppm -r 72 -png -singlefile "$work/heads.pdf" "$work/heads-pdf" 2>"$work/poppler" ||
    ! pdftotext "$work/heads.pdf" "$work/heads.txt" 2>>"$work/poppler"; then
    bad "PDF: poppler cannot read it: $(head -c 300 "$work/poppler")"
  else
    pages=$(pdfinfo "$work/heads.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
    [ "$pages" = 1 ] && ok || bad "PDF: $pages pages, want 1"
    problems=$(/usr/bin/python3 - "$work/heads-f.svg" "$work/heads-pdf.png" "$work/heads.txt" <<'PY'
import sys, xml.etree.ElementTree as ET
from png_rows import read_png as png
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
w, h, ch, rows = png(sys.argv[2])
problems = []
if (w, h) != (int(float(root.get("width"))), int(float(root.get("height")))):
    problems.append(f"page {w}x{h}, the SVG {root.get('width')}x{root.get('height')}")
cells = [r for r in root.iter(ns + "rect") if r.get("class") == "cell"]
if len(cells) < 3 * 11 * 11: problems.append(f"the SVG has {len(cells)} cells")
checked = 0
for r in cells[::7]:  # every 7th cell of both heads and the focused one, masked ones too
    x = int(float(r.get("x")) + float(r.get("width")) / 2); y = int(float(r.get("y")) + float(r.get("height")) / 2)
    got = rows[y][ch * x:ch * x + 3]; want = bytes.fromhex(r.get("fill")[1:])
    if max(abs(got[c] - want[c]) for c in range(3)) > 3:
        problems.append(f"cell {r.get('data-query')},{r.get('data-key')} at ({x}, {y}): {tuple(got)}, the SVG's {r.get('fill')}")
    checked += 1
text = open(sys.argv[3]).read(); words = text.split()
for token in ["artist", "painted", "portrait", "brush", "head"]:
    if token not in words: problems.append(f"pdftotext finds no '{token}'")
if "(1, 2, 11, 2)" not in text: problems.append("no shape (1, 2, 11, 2) as text")
print("; ".join(problems[:5]) if problems or checked else "no cell checked")
PY
)
    [ -z "$problems" ] && ok || bad "PDF: $problems"
  fi
else
  bad "PDF: $(cat "$work/err")"
fi
# A folder that cannot be written: one line, exit 2, no file; and one export at a time.
run --preset seed003 --export-pdf "$work/no/such/dir/x.pdf"
code=$?
[ "$code" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && [ ! -e "$work/no/such/dir/x.pdf" ] && ok ||
  bad "--export-pdf to a missing folder: exit $code, $(cat "$work/err")"
run --preset seed003 --export-pdf "$work/a.pdf" --export-svg "$work/a.svg"
code=$?
[ "$code" = 2 ] && grep -q -- "--export-pdf" "$work/err" && [ ! -e "$work/a.pdf" ] && ok ||
  bad "--export-pdf with --export-svg: exit $code, $(cat "$work/err")"

# Ctrl+Shift+C in the running app: the picture alone, at the window's size, on the clipboard.
"$app" --preset seed003 --stage attend --width 1100 --height 700 >"$work/out" 2>"$work/err" &
pid=$!
window=$(window_of "$pid")
if [ -n "$window" ]; then
  xdotool key ctrl+shift+c
  sleep 2
  timeout 10 xclip -selection clipboard -t image/png -o >"$work/pasted.png" 2>/dev/null
  size=$(/usr/bin/python3 -c "import struct,sys; print('%dx%d' % struct.unpack('>II', open(sys.argv[1],'rb').read(24)[16:24]))" "$work/pasted.png" 2>/dev/null)
  [ "$size" = 1100x700 ] && ok || bad "Ctrl+Shift+C: the clipboard holds '$size', want a 1100x700 PNG"
else
  bad "Ctrl+Shift+C: no window"
fi
kill -INT "$pid" 2>/dev/null
wait "$pid"

# Bad requests: one line, exit 2, no file.
for args in "--export-animation $work/walk.avi" "--export-png $work/no/such/dir/x.png" \
  "--transparent" "--fps 5" "--export-svg $work/no/such/dir/x.svg"; do
  # shellcheck disable=SC2086
  run --preset seed003 $args
  code=$?
  [ "$code" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && ok || bad "'$args': exit $code, $(cat "$work/err")"
done

report
