#!/usr/bin/env bash
# Nothing a person wrote is lost, every error caught (issues 37 and 43), as a user meets it:
# `attnlab-cli exercise` over a student's folder keeps their edits byte for byte and says which it
# kept, --force moves them aside, a failed exercise leaves no folder, and what used to abort
# (exercise.json's "format": "1", std::bad_alloc) is one line and exit 2.
# Prints "N passed, M failed" and exits non-zero on any failure.
set -u
cli=${ATTNLAB_CLI:?set ATTNLAB_CLI to the attnlab-cli binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
program=$cli
source "$(dirname "$0")/../expect.sh"
cd "$work" || exit 1

same() {  # same FILE1 FILE2 WHAT: byte for byte
  if cmp -s "$1" "$2"; then ok; else bad "$3: $1 and $2 differ"; fi
}
absent() {  # absent PATH WHAT
  if [ ! -e "$1" ]; then ok; else bad "$2: $1 is there"; fi
}
no_temporaries() {  # nothing named *.tmp-* left in the work folder
  if [ -z "$(find "$work" -name '*.tmp-*' -print -quit)" ]; then ok; else bad "$1: a temporary is left"; fi
}

# [SECTION] a student's folder made again: the edits kept, byte for byte, and named
expect 0 "exercise written to ex" -- exercise ex --preset seed002
expect 0 "exercise written to pristine" -- exercise pristine --preset seed002
printf '\n# my answer, with a byte that is not UTF-8: \xe9\n' >>ex/mha.py
printf 'import torch  # mine\n' >ex/mha_torch.py
cp ex/mha.py edited_mha.py
cp ex/mha_torch.py edited_mha_torch.py
rm ex/README.md
expect 0 "kept mha.py, mha_torch.py in ex: they differ from what would be written" -- exercise ex --preset seed002
if grep -qF -- "--force replaces them" "$work/err"; then ok; else bad "the kept line does not say --force"; fi
same ex/mha.py edited_mha.py "the student's mha.py"
same ex/mha_torch.py edited_mha_torch.py "the student's mha_torch.py"
same ex/README.md pristine/README.md "the missing README.md written again"
absent ex/mha.py.~1~ "no backup without --force"

# The same folder with another exercise: refused whole, nothing written.
cp ex/exercise.json before.json
expect 2 "holds another exercise" -- exercise ex --preset seed003
same ex/exercise.json before.json "another exercise's exercise.json"

# --force: each old file moved aside with its bytes, the starter written anew.
expect 0 "moved mha.py to mha.py.~1~, mha_torch.py to mha_torch.py.~1~ in ex" -- exercise ex --preset seed002 --force
same ex/mha.py.~1~ edited_mha.py "the backup of mha.py"
same ex/mha_torch.py.~1~ edited_mha_torch.py "the backup of mha_torch.py"
same ex/mha.py pristine/mha.py "mha.py written anew"
# Identical files are left: a second --force moves nothing.
expect 0 "exercise written to ex" -- exercise ex --preset seed002 --force
absent ex/mha.py.~2~ "a second --force over identical files"

# [SECTION] a failed exercise leaves no folder behind
expect 2 "" -- exercise bad_flags --d-model 7 --heads 2
absent bad_flags "bad flags"
expect 2 "" -- exercise new/deeper/bad_flags --bogus-flag
absent new "bad flags, missing parents"
# (Not in a sanitizer build: its shadow memory needs more address space than any ulimit -v, and its
# allocator aborts where the plain one throws bad_alloc.)
if [ "${ATTNLAB_SANITIZED:-0}" != 1 ]; then
# Out of memory: the cap raised to the machine's memory (the largest it accepts, read from its
# refusal of more) and a width (W_q..W_o: 4 x 20000^2 floats, 6.4 GB) past the ulimit -v bound.
machine_mb=$("$cli" --memory-cap-mb 100000000 2>&1 | sed -nE 's/.*at most ([0-9]+) MiB.*/\1/p')
[ -n "$machine_mb" ] || bad "the refusal of a cap above the machine names no 'at most N MiB'"
(ulimit -v 2000000; "$cli" exercise oom --d-model 20000 --memory-cap-mb "$machine_mb" >out 2>err)
code=$?
if [ "$code" = 2 ] && grep -q "^attnlab-cli exercise: out of memory: " err && [ "$(wc -l <err)" = 1 ]; then
  ok
else
  bad "exercise out of memory: exit $code, stderr: $(cat err)"
fi
absent oom "out of memory"
fi
# Unwritable midway: a file size limit (SIGXFSZ ignored, so write() fails with EFBIG) lets the
# small inputs through and stops at the README.
(trap '' XFSZ; ulimit -f 2; "$cli" exercise cut --preset seed002 >out 2>err)
code=$?
if [ "$code" = 2 ] && grep -q "^attnlab-cli exercise: cannot write" err && [ "$(wc -l <err)" = 1 ]; then
  ok
else
  bad "exercise cut short: exit $code, stderr: $(cat err)"
fi
absent cut "a write that failed midway"
no_temporaries "a failed exercise"

# [SECTION] what used to abort is one line, exit 2
sed 's/"format": 1/"format": "1"/' pristine/exercise.json >fmt.json
cp -r pristine fmt && mv fmt.json fmt/exercise.json
expect 2 'fmt/exercise.json: key "format" must be a whole number, not "1"' -- check fmt
printf '{"format": 1, "config": 3}' >fmt/exercise.json
expect 2 'key "config" must be an object' -- check fmt
printf '[1, 2]' >fmt/exercise.json
expect 2 "not a JSON object" -- check fmt
if [ "${ATTNLAB_SANITIZED:-0}" != 1 ]; then
(ulimit -v 2000000; "$cli" --d-model 20000 --memory-cap-mb "$machine_mb" >out 2>err)
code=$?
if [ "$code" = 2 ] && grep -q "^attnlab-cli: out of memory: " err && [ "$(wc -l <err)" = 1 ]; then
  ok
else
  bad "trace out of memory: exit $code, stderr: $(cat err)"
fi
fi

summary
