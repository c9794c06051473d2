#!/usr/bin/env bash
# Lessons from the command line (issue 31): every built-in lesson exported as slides (a question
# scene gives two) at a size the test picks, each PNG of that size, and a PDF handout with one page
# per scene (a question and its answer on one page, issue 38); the real-model lesson on a tiny GPT-2 written in the published layout. A lesson file
# with a scene that cannot be built exports the rest and names the file, line and reason; missing
# lessons and unwritable folders say so in one line and exit 2; the real clicker's PageDown (xdotool)
# moves the running app through the scenes, after a click on a control, and the scene it reached
# is saved with the settings.
#   run_lesson_export_test.sh ATTNLAB
# Prints "N passed, M failed".
set -u
app=$(realpath "${1:?attnlab binary}")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
source "$(dirname "$0")/app_test_setup.sh"

# SLIDE_DIR W H SCENES QUESTIONS: the PNGs' count and size, the PDF's pages.
check_slides() {
  python3 - "$@" <<'PY'
import glob, os, re, struct, subprocess, sys
from png_rows import read_png
folder, w, h, scenes, questions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
pngs = sorted(glob.glob(os.path.join(folder, "*.png")))
want = scenes + questions
problems = []
if len(pngs) != want:
    problems.append(f"{len(pngs)} slides, want {want} ({scenes} scenes + {questions} answers)")
if len([p for p in pngs if p.endswith("-answer.png")]) != questions:
    problems.append("not one -answer slide per question")
for i, p in enumerate(pngs):
    data = open(p, "rb").read(32)
    pw, ph = struct.unpack(">II", data[16:24])
    if (pw, ph) != (w, h):
        problems.append(f"{os.path.basename(p)} is {pw}x{ph}, want {w}x{h}")
    if not re.match(r"%02d-[a-z0-9-]+\.png$" % (i + 1), os.path.basename(p)):
        problems.append(f"{os.path.basename(p)}: not NN-scene.png")
# The handout read back by poppler (poppler-utils, which setup.sh installs): its pages, each
# page's heading ("N. scene title") and the answers as text (each on its question's page), and
# each page drawn (the slide's picture on it, not a blank page).
pdf = os.path.join(folder, "lesson.pdf")
info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True)
found = re.search(r"^Pages:\s*(\d+)", info.stdout, re.M)
pages = int(found.group(1)) if info.returncode == 0 and found else None
if pages != scenes:
    problems.append(f"lesson.pdf: pdfinfo reads {pages} pages ({info.stderr.strip()[:200]}), want {scenes}, one per scene")
else:
    answers = 0
    for page in range(1, pages + 1):
        text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), pdf, "-"],
                              capture_output=True, text=True).stdout
        if not re.search(r"^\d+\. \S", text, re.M):
            problems.append(f"lesson.pdf page {page} has no heading 'N. title' as text")
        answered = "Answer:" in text
        answers += answered
        if answered and "Question:" not in text:
            problems.append(f"lesson.pdf page {page} has an answer without its question")
        drawn = os.path.join(folder, f"page-{page}")
        subprocess.run(["pdftoppm", "-r", "24", "-f", str(page), "-l", str(page), "-singlefile",
                        "-png", pdf, drawn], check=False)
        try:
            pw, ph, ch, rows = read_png(drawn + ".png")
            inked = sum(1 for row in rows for x in range(0, pw * ch, ch) if min(row[x:x + 3]) < 200)
            if inked < pw * ph // 100:
                problems.append(f"lesson.pdf page {page} is nearly blank ({inked} of {pw * ph} pixels inked)")
        except (OSError, ValueError) as error:
            problems.append(f"lesson.pdf page {page}: pdftoppm drew nothing readable ({error})")
        finally:
            if os.path.exists(drawn + ".png"):
                os.remove(drawn + ".png")
    if answers != questions:
        problems.append(f"lesson.pdf: {answers} pages show an answer, want {questions}")
print("; ".join(problems))
PY
}

/usr/bin/python3 "$here/../numpy/hf_checkpoints.py" "$work/ckpt" >/dev/null 2>&1 || bad "no tiny checkpoints"
gpt2="$work/ckpt/gpt2-f32-tied"

listed=$("$app" --list-lessons)
for name in beyond-one-head notebook real-model ten-minutes; do
  line=$(grep "^$name " <<<"$listed")
  [ -n "$line" ] || { bad "--list-lessons lacks $name"; continue; }
  scenes=$(sed -E 's/.*\(([0-9]+) scenes, ([0-9]+) questions\)/\1/' <<<"$line")
  questions=$(sed -E 's/.*\(([0-9]+) scenes, ([0-9]+) questions\)/\2/' <<<"$line")
  extra=()
  [ "$name" = real-model ] && extra=(--model "$gpt2")
  out="$work/slides-$name"
  if "$app" --lesson "$name" "${extra[@]}" --export-slides "$out" --width 960 --height 540 \
    >"$work/out" 2>"$work/err"; then
    problems=$(check_slides "$out" 960 540 "$scenes" "$questions")
    [ -z "$problems" ] && ok || bad "$name: $problems"
    [ -s "$work/err" ] && bad "$name wrote to stderr: $(head -c 500 "$work/err")"
  else
    bad "$name: exit $? $(head -c 500 "$work/err")"
  fi
done

# A lesson with a scene that cannot be built: the others are exported, the problem named.
cat >"$work/broken.md" <<'MD'
# Broken on purpose

## Fine
```attnlab
--preset seed003 --stage split
```
A scene that builds.

## Unknown option
```attnlab
--preset seed003 --bogus 3
```
This one cannot be built.

## Fine again
```attnlab
--preset seed003 --heads 1 --stage attend
```
Question: How many maps?
Answer: 1
MD
"$app" --lesson "$work/broken.md" --export-slides "$work/broken" --width 800 --height 600 \
  >"$work/out" 2>"$work/err"
code=$?
[ "$code" = 2 ] && ok || bad "a broken scene: exit $code, want 2"
grep -q "^attnlab: $work/broken.md:11: .*--bogus" "$work/err" && ok ||
  bad "the broken scene is not named by file and line: $(cat "$work/err")"
problems=$(check_slides "$work/broken" 800 600 2 1)
[ -z "$problems" ] && ok || bad "the rest of the broken lesson: $problems"

# One line and exit 2: no such lesson; a folder that cannot be made.
"$app" --lesson no-such-lesson --export-slides "$work/x" >"$work/out" 2>"$work/err"
code=$?
[ "$code" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "no lesson file or built-in" "$work/err" &&
  ok || bad "no such lesson: exit $code, $(cat "$work/err")"
touch "$work/a-file"
"$app" --lesson notebook --export-slides "$work/a-file/slides" >"$work/out" 2>"$work/err"
code=$?
[ "$code" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && ok ||
  bad "an unwritable folder: exit $code, $(cat "$work/err")"

# The real clicker: PageDown sent to the window, after a click on a control, moves through the
# scenes; Ctrl+C saves the scene reached.
rm -rf "$ATTNLAB_CONFIG_DIR"
mkdir -p "$ATTNLAB_CONFIG_DIR"
echo '{"first_start_done": true}' >"$ATTNLAB_CONFIG_DIR/settings.json"
"$app" --lesson notebook --present --width 1280 --height 720 >"$work/out" 2>"$work/err" &
pid=$!
window=$(window_of "$pid")
if [ -n "$window" ]; then
  xdotool mousemove --window "$window" 330 36 click 1  # the presenter bar's n_heads slider
  for _ in 1 2 3 4 5; do
    xdotool mousemove --window "$window" $((RANDOM % 1200)) $((RANDOM % 500)) key Next
    sleep 0.4
  done
  sleep 1
fi
kill -INT "$pid" 2>/dev/null
wait "$pid"
scene=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('lesson',{}).get('scene',-1))" \
  "$ATTNLAB_CONFIG_DIR/settings.json" 2>/dev/null)
# Five presses from scene 1: questions take one press to reveal, so scene 3 to 6 (index 2 to 5).
if [ -n "$scene" ] && [ "$scene" -ge 2 ] && [ "$scene" -le 5 ]; then ok; else
  bad "after five PageDowns the saved scene is '$scene' $(head -c 300 "$work/err")"
fi

report
