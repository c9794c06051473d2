#!/usr/bin/env bash
# Slides compared with stills of the same scene (issue 37): a built-in lesson exported as slides
# (--export-slides, which walks the scenes in order), and a few of its scenes rendered alone as
# stills at the same size (--lesson NAME --scene N --export-png, which jumps straight there). The
# picture above the caption band (the layout's height, from --dump-layout) must be the same pixels
# in both, to a tolerance for anti-aliasing; and each slide must differ from the still of the other
# scenes picked, so a slide that kept the previous scene's picture or tab, or a blank one, fails.
#   run_slide_still_test.sh ATTNLAB
# Prints "N passed, M failed".
set -u
app=$(realpath "${1:?attnlab binary}")
work=$(mktemp -d)
source "$(dirname "$0")/app_test_setup.sh"

lesson=beyond-one-head
width=1024
height=768
# Scenes (from 1) with different tabs and stages: the KV cache tab's tables (their columns as wide
# as their text, walked to or jumped to); GQA's tensors at transpose (a question); the next scene,
# the same tab one sub-step on (expand); the Flash tab's sweep.
scenes="2 3 4 18"

if ! "$app" --lesson "$lesson" --export-slides "$work/slides" --width "$width" --height "$height" \
  >"$work/out" 2>"$work/err"; then
  bad "--export-slides: exit $? $(head -c 500 "$work/err")"
fi
for scene in $scenes; do
  if "$app" --lesson "$lesson" --scene "$scene" --export-png "$work/still-$scene.png" \
    --dump-layout "$work/still-$scene.json" --width "$width" --height "$height" \
    >"$work/out" 2>"$work/err"; then
    ok
  else
    bad "the still of scene $scene: exit $? $(head -c 500 "$work/err")"
  fi
done

# A scene past the lesson's end and --scene without --lesson: one line each, exit 2.
"$app" --lesson "$lesson" --scene 999 --export-png "$work/x.png" >"$work/out" 2>"$work/err"
code=$?
[ "$code" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q -- "--scene 999: the lesson" "$work/err" &&
  ok || bad "--scene 999: exit $code, $(cat "$work/err")"
"$app" --scene 2 --export-png "$work/x.png" >"$work/out" 2>"$work/err"
code=$?
[ "$code" = 2 ] && grep -q -- "--scene needs --lesson" "$work/err" && ok ||
  bad "--scene without --lesson: exit $code, $(cat "$work/err")"

problems=$(python3 - "$work" $scenes <<'PY'
import glob, json, os, sys
from png_rows import read_png

work, scenes = sys.argv[1], [int(s) for s in sys.argv[2:]]
# A channel further apart than this is a different pixel (anti-aliased edges differ by less).
CHANNEL = 48
# At most this share of the picture's pixels may differ between a slide and its scene's still;
# at least ten times this share must differ from another scene's still.
SAME, OTHER = 0.002, 0.02

slides = sorted(p for p in glob.glob(os.path.join(work, "slides", "*.png"))
                if not p.endswith("-answer.png"))  # one per scene, in the scenes' order
problems = []

def rgb_rows(path, rows):
    w, h, ch, data = read_png(path)
    return w, [bytes(b for x in range(0, w * ch, ch) for b in row[x:x + 3]) for row in data[:rows]]

def differing(a, b, enough=None):
    """Pixels of rows a and b further apart than CHANNEL (counted up to `enough`)."""
    count = 0
    for row_a, row_b in zip(a, b):
        if row_a == row_b:
            continue
        for x in range(0, len(row_a), 3):
            if (abs(row_a[x] - row_b[x]) > CHANNEL or abs(row_a[x + 1] - row_b[x + 1]) > CHANNEL
                    or abs(row_a[x + 2] - row_b[x + 2]) > CHANNEL):
                count += 1
        if enough is not None and count >= enough:
            break
    return count

pictures = {}
for scene in scenes:
    layout = json.load(open(os.path.join(work, f"still-{scene}.json")))
    rows = int(layout["layout_height"])
    if not 0 < rows < layout["window"][1]:
        problems.append(f"scene {scene}: the picture is {rows} rows high in a "
                        f"{layout['window'][1]}-row window: no caption band under it")
        continue
    if layout.get("lesson", {}).get("scene") != scene - 1:
        problems.append(f"scene {scene}: the still shows scene index {layout.get('lesson')}")
    w, still = rgb_rows(os.path.join(work, f"still-{scene}.png"), rows)
    _, slide = rgb_rows(slides[scene - 1], rows)
    pictures[scene] = (still, slide)
    colours = {row[x:x + 3] for row in still for x in range(0, len(row), 3)}
    if len(colours) < 16:
        problems.append(f"scene {scene}: the still's picture has {len(colours)} colours: blank")
    pixels = w * rows
    same = differing(slide, still)
    print(f"scene {scene}: {os.path.basename(slides[scene - 1])} vs its still: "
          f"{same} of {pixels} pixels differ", file=sys.stderr)
    if same > SAME * pixels:
        problems.append(f"scene {scene}: {same} of {pixels} pixels of "
                        f"{os.path.basename(slides[scene - 1])} differ from the still")
for scene, (_, slide) in pictures.items():
    for other, (still, _) in pictures.items():
        if other == scene:
            continue
        enough = OTHER * len(slide) * (len(slide[0]) // 3)
        apart = differing(slide, still[:len(slide)], enough)
        if apart < enough:
            problems.append(f"the slide of scene {scene} is within {apart} pixels of the still "
                            f"of scene {other}: it shows that scene, or the comparison cannot "
                            f"tell the two apart")
print("; ".join(problems))
PY
)
[ -z "$problems" ] && ok || bad "$problems"

report
