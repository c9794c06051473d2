#!/usr/bin/env bash
# Keeps the README and docs/ honest: the README stays short and keeps the two set-up commands CI
# reads; every relative link (and #anchor) in README.md and docs/*.md leads somewhere; every
# --flag they mention is one the programs accept (or one of the few other tools' flags listed
# below, each checked in the file that defines it); every preset they name exists, and
# docs/presets.md lists them all; no count of tests is quoted (it goes stale: say what to run).
#   check_readme.sh ATTNLAB_CLI ATTNLAB      (the built programs; their --help is the reference)
# Prints "N passed, M failed".
set -u
cli=${1:?attnlab-cli binary}
gui=${2:?attnlab binary}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}
shopt -s nullglob
docs=(README.md docs/*.md)

# [1] A newcomer's README: short, with the set-up commands exactly as CI and the hook read them.
lines=$(wc -l <README.md)
if [ "$lines" -lt 150 ]; then pass; else fail "README.md has $lines lines: keep it under 150 (details go to docs/)"; fi
for command in "./setup.sh run" "./setup.sh test"; do
  if grep -qxF "    $command" README.md; then pass; else fail "README.md lacks the line \"    $command\""; fi
done

# [2] Relative links lead to a file, and an #anchor to a heading of it (GitHub's slugs).
slugs() {  # FILE: the anchors of its headings
  grep -E '^#{1,6} ' "$1" | sed -E 's/^#+ //' | tr '[:upper:]' '[:lower:]' |
    sed -E 's/[^a-z0-9 _-]//g; s/ /-/g'
}
for doc in "${docs[@]}"; do
  while IFS= read -r target; do
    case "$target" in http://* | https://* | mailto:*) continue ;; esac
    file=${target%%#*}
    anchor=
    [[ "$target" == *"#"* ]] && anchor=${target#*#}
    path=$doc
    [ -n "$file" ] && path=$(dirname "$doc")/$file
    if [ ! -e "$path" ]; then
      fail "$doc links to $target: $path does not exist"
    elif [ -n "$anchor" ] && ! slugs "$path" | grep -qxF -- "$anchor"; then
      fail "$doc links to $target: $path has no heading with that anchor"
    else
      pass
    fi
  done < <(grep -oE '\]\([^) ]+\)' "$doc" | sed -E 's/^\]\((.*)\)$/\1/')
done

# [3] Every --flag mentioned exists. The programs' own flags come from their --help; the few
# flags of other tools the docs mention are listed with the file that defines them.
help=$("$cli" --help; "$cli" train --help; "$cli" check --help; "$cli" exercise --help; "$gui" --help)
# FLAG, then a command whose output names it (the tool's help, or the file that defines it).
other_tools=(
  "--port cat setup.sh"                                        # ./setup.sh web --port N
  "--single-file cat setup.sh"                                 # ./setup.sh web --single-file
  "--torch cat tests/numpy/check_variants.py"                  # check_variants.py --torch
  "--self-test cat tests/training/numpy_reference.py"          # numpy_reference.py --self-test
  "--build cmake --help"                                       # cmake --build build
  "--install cmake --help"                                     # cmake --install build
  "--prefix cmake --install"                                   # cmake --install build --prefix DIR
  "--benchmark_repetitions cat /usr/include/benchmark/benchmark.h"  # Google Benchmark's option
  "--animate cat app/lessons/lesson.cpp"                       # a lesson scene's own option
  "--show-answer-text cat app/lessons/lesson.cpp"              # a lesson scene's own option
  "--heds cat tests/gui/test_scene_options.cpp"                # the misspelling docs/lessons.md shows
  "--target cmake --build"                                     # cmake --build build --target T
  "--no-build-isolation /usr/bin/python3 -m pip install --help" # docs/python.md: pip install ./python
  "--no-index /usr/bin/python3 -m pip install --help"         # docs/python.md: the wheel offline
  "--wheel /usr/bin/python3 -m build --help"                  # docs/python.md: python3 -m build
  "--no-isolation /usr/bin/python3 -m build --help"           # docs/python.md: python3 -m build
  "--system-site-packages /usr/bin/python3 -m venv --help"    # docs/python.md: the venv
)
known_elsewhere() {  # FLAG: listed above, and really in its command's output
  local entry
  for entry in "${other_tools[@]}"; do
    # shellcheck disable=SC2086  # the command is a list of words
    [ "${entry%% *}" = "$1" ] && ${entry#* } 2>&1 | grep -qF -- "${1#--}" && return 0
  done
  return 1
}
while IFS= read -r flag; do
  if grep -qE -- "(^|[ ,])$flag([ ,=]|$)" <<<"$help" || known_elsewhere "$flag"; then
    pass
  else
    fail "$flag is mentioned in README.md or docs/ but no program accepts it"
  fi
done < <(grep -ohE -- '(^|[^a-zA-Z0-9_#-])--[a-z][a-z0-9_-]*' "${docs[@]}" | sed -E 's/^[^-]+//' | sort -u)

# [4] Every preset named exists, and docs/presets.md lists every preset.
presets=$("$cli" --list-presets | awk '{print $1}')
listed=$(grep -E '^\| `' docs/presets.md | cut -d'|' -f2 | grep -oE '`[^`]+`' | tr -d '`' | sort -u)
named=$( (grep -ohE -- '--preset [a-z0-9-]+' "${docs[@]}" | awk '{print $2}'; echo "$listed") | sort -u)
for name in $named; do
  if grep -qxF -- "$name" <<<"$presets"; then pass; else fail "preset $name is named in the docs but attnlab-cli --list-presets lacks it"; fi
done
for name in $presets; do
  if grep -qxF -- "$name" <<<"$listed"; then pass; else fail "preset $name is missing from the table in docs/presets.md"; fi
done

# [5] No count of tests (it goes stale at the next test added).
stale=$(grep -nE -i -- '([0-9][0-9,]* (tests|test cases) (pass|passed|ran))|(all [0-9][0-9,]* tests)|([0-9]+/[0-9]+ (tests|passed|pass))' "${docs[@]}")
if [ -z "$stale" ]; then pass; else fail "a count of tests, which goes stale: $stale"; fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
