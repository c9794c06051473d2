#!/usr/bin/env bash
# Every output whole, whatever text it holds (issue 43), read by parsers that are not ours: the
# maps' SVG of a Latin-1 sentence by an XML parser (xml.etree), the maps' PDF and a Latin-1 lesson's
# handout by pdftotext (the text after a bad byte is there, the byte shown as U+FFFD); a lesson
# without scenes refused, exit 2, no file; unwritable paths refused in one line, exit 2, no file; the one-file page with
# hostile lessons (</script, <!--<script, <\/, CDATA, bytes that are not UTF-8, a name with quotes,
# 4 MiB of "</") read back exactly by Python's HTML parser (html.parser) and JSON.
#   run_writer_text_test.sh ATTNLAB
# Prints "N passed, M failed".
set -u
app=$(realpath "${1:?attnlab binary}")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
source "$here/app_test_setup.sh"
command -v pdftotext >/dev/null || bad "pdftotext is missing: ./setup.sh installs poppler-utils"
run() {  # ARGS...: the app, its stdout and stderr kept in $work/out and $work/err
  "$app" "$@" >"$work/out" 2>"$work/err"
}
one_line() {  # the run said one line on stderr, and nothing on stdout
  [ "$(wc -l <"$work/err")" = 1 ] && [ ! -s "$work/out" ]
}

# The maps of a sentence in Latin-1: XML that parses, its labels with U+FFFD where the byte was.
sentence=$'caf\xe9 au lait'
if run --preset seed003 --sentence "$sentence" --export-svg "$work/maps.svg"; then
  labels=$(/usr/bin/python3 - "$work/maps.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except ET.ParseError as error:
    sys.exit(f"not well-formed XML: {error}")
ns = "{http://www.w3.org/2000/svg}"
print(" ".join(t.text for t in root.iter(ns + "text") if t.get("class") == "query")[:60])
PY
)
  [[ "$labels" == $'caf\xef\xbf\xbd au lait caf\xef\xbf\xbd'* ]] && ok || bad "the SVG's labels: $labels"
else
  bad "--export-svg of a Latin-1 sentence: $(cat "$work/err")"
fi
if run --preset seed003 --sentence "$sentence" --export-pdf "$work/maps.pdf"; then
  text=$(pdftotext "$work/maps.pdf" - 2>&1)
  [ "$(grep -c $'caf\xef\xbf\xbd' <<<"$text")" -ge 2 ] && grep -q "lait" <<<"$text" && ok ||
    bad "the maps' PDF lacks its labels: $(head -c 300 <<<"$text")"
else
  bad "--export-pdf of a Latin-1 sentence: $(cat "$work/err")"
fi

# A lesson in Latin-1: every page of the handout whole (the caption and notes after the title).
printf '# Le%s\xe7on\n\n## Caf\xe9 first\n```attnlab\n--preset seed003 --stage attend\n```\nCaption: Apr\xe8s the title, the caption-stays.\nNote: the note-stays too \xff.\n\n## Second\n```attnlab\n--preset seed003 --stage concat\n```\nCaption: second-caption-stays.\n' \
  ' ' >"$work/latin1.md"
if run --lesson "$work/latin1.md" --export-slides "$work/slides" --width 640 --height 360; then
  text=$(pdftotext "$work/slides/lesson.pdf" - 2>&1)
  for want in $'Caf\xef\xbf\xbd first' $'Apr\xef\xbf\xbds the title, the caption-stays.' 'note-stays' \
    'second-caption-stays' $'Le \xef\xbf\xbdon'; do
    grep -qF "$want" <<<"$text" && ok || bad "the handout lacks '$want': $(head -c 400 <<<"$text")"
  done
else
  bad "--export-slides of a Latin-1 lesson: exit $?, $(cat "$work/err")"
fi

# A lesson without scenes: exit 2, nothing written, and what stderr says is that (the lesson's own
# problem line, then the refusal).
printf '# Only a title\n\nNo scene here.\n' >"$work/empty.md"
run --lesson "$work/empty.md" --export-slides "$work/empty-slides"
code=$?
[ "$code" = 2 ] && [ ! -s "$work/out" ] && ! grep -qv "no scene" "$work/err" &&
  grep -q "has no scene, so there are no slides to write" "$work/err" && [ ! -e "$work/empty-slides" ] &&
  ok || bad "a lesson without scenes: exit $code, $(cat "$work/err"), $(ls "$work/empty-slides" 2>&1)"

# Unwritable paths: one line, exit 2, no file (nor a temporary) left.
for kind in svg pdf; do
  run --preset seed003 --export-$kind "$work/no-such-dir/maps.$kind"
  code=$?
  [ "$code" = 2 ] && one_line && [ ! -e "$work/no-such-dir" ] && ok ||
    bad "--export-$kind to a missing folder: exit $code, $(cat "$work/err")"
done

# The one-file page: each lesson read back exactly by an HTML parser, as the page reads it.
mkdir "$work/lessons" "$work/pages"
cat >"$work/template.html" <<'HTML'
<!doctype html>
<html><head><meta charset="utf-8"></head><body>
<script type="text/plain" id="attnlab-code">code()</script>
<script>const block = '<script type="application/json" id="attnlab-lesson">';</script>
</body>
</html>
HTML
export ATTNLAB_ONE_PAGE="$work/template.html"
/usr/bin/python3 - "$work/lessons" <<'PY'
import pathlib, sys
folder = pathlib.Path(sys.argv[1])
lessons = {  # file name: bytes (a lesson is read whole; NUL is refused by the reader)
    "script-end.md": b"# A </script> and </SCRIPT >\n</script\t<script>\n",
    "comment.md": b"# <!--<script>\nstill the lesson -->\n",
    "escaped.md": b"# <\\/ stays <\\/ and <\\\\/\n",
    "cdata.md": b"# <![CDATA[ x ]]> &amp; &lt; \\u003c\n",
    "controls.md": b"# Tab\there\r\nCR\rFF\x0c\x01\x7f end\n",
    "latin1.md": b"# Caf\xe9 \xff\xfe\n",
    'quote"amp&lt<gt>.md': b"# The name has quotes\n",
    "wide.md": "# \u732b \U0001F600 \u2028 \ufeff\n".encode(),
    "four-mib.md": b"</" * ((4 << 20) // 2 - 64),
}
for name, data in lessons.items():
    (folder / name).write_bytes(data)
PY
for lesson in "$work/lessons"/*.md; do
  name=$(basename "$lesson")
  run --lesson "$lesson" --export-page "$work/pages/$name.html" ||
    bad "--export-page with $name: $(cat "$work/err")"
done
problems=$(/usr/bin/python3 - "$work/lessons" "$work/pages" <<'PY'
import html.parser, json, pathlib, sys

class Blocks(html.parser.HTMLParser):
    """The text of every <script id="attnlab-lesson">, as a browser's tokenizer splits the page."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.inside, self.scripts = [], None, 0
    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts += 1
            self.inside = [] if dict(attrs).get("id") == "attnlab-lesson" else None
    def handle_data(self, data):
        if self.inside is not None:
            self.inside.append(data)
    def handle_endtag(self, tag):
        if tag == "script" and self.inside is not None:
            self.blocks.append("".join(self.inside))
            self.inside = None

lessons, pages = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
problems = []
for lesson in sorted(lessons.iterdir()):
    page = pages / (lesson.name + ".html")
    if not page.exists():
        problems.append(f"{lesson.name}: no page")
        continue
    parser = Blocks()
    parser.feed(page.read_text(encoding="utf-8"))
    parser.close()
    if len(parser.blocks) != 1 or parser.scripts != 3:  # the template's two and the block
        problems.append(f"{lesson.name}: {len(parser.blocks)} lesson blocks, {parser.scripts} scripts")
        continue
    held = json.loads(parser.blocks[0])
    # Bytes that are not UTF-8 are U+FFFD, one each (those here are single bytes).
    want = lesson.read_bytes().decode("utf-8", errors="replace")
    if held.get("markdown") != want:
        problems.append(f"{lesson.name}: the Markdown read back differs")
    if held.get("name") != lesson.name[:-3]:
        problems.append(f"{lesson.name}: the name read back is {held.get('name')!r}")
print("; ".join(problems))
PY
)
[ -z "$problems" ] && ok || bad "the page's lessons: $problems"

report
