#!/usr/bin/env bash
# attnlab-cli check on hostile answers, under a 1 GiB virtual memory limit so that a regression
# fails here instead of swapping the machine: the issue's 264 KB answer.npz (64 central-directory
# entries pointing at one deflated member of 256 MiB of zeros), an answer from /dev/zero and a
# zero-byte one. Each is exit 2 with one line on stderr; the first stays under 100 MB resident.
# Prints "N passed, M failed" and exits non-zero on any failure.
set -u
cli=${ATTNLAB_CLI:?set ATTNLAB_CLI to the attnlab-cli binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../expect.sh"

# attnlab-cli under `ulimit -v` (KiB): 1 GiB of address space, far below what inflating would take.
cat >"$work/limited" <<SCRIPT
#!/usr/bin/env bash
ulimit -v 1048576
exec "$cli" "\$@"
SCRIPT
chmod +x "$work/limited"
program=$work/limited
# A sanitizer build's shadow memory reserves terabytes of address space: no ulimit -v there, and
# its resident size is the sanitizer's; the refusals are still checked.
sanitized=${ATTNLAB_SANITIZED:-0}
[ "$sanitized" = 1 ] && program=$cli

"$cli" exercise "$work/ex" --preset seed002 >/dev/null 2>&1 || bad "attnlab-cli exercise failed"

/usr/bin/python3 - "$work/ex/answer.npz" <<'PY'
import struct, sys, zlib
size = 256 << 20
deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
chunk, packed, crc = bytes(1 << 20), [], 0
for _ in range(size // len(chunk)):
    packed.append(deflate.compress(chunk))
    crc = zlib.crc32(chunk, crc)
packed.append(deflate.flush())
packed = b"".join(packed)
local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(packed), size, 6, 0)
local += b"a0.npy" + packed
central = b""
for i in range(64):
    name = f"a{i}.npy".encode()
    central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(packed),
                           size, len(name), 0, 0, 0, 0, 0, 0) + name
end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 64, 64, len(central), len(local), 0)
open(sys.argv[1], "wb").write(local + central + end)
PY
bytes=$(stat -c %s "$work/ex/answer.npz")
[ "$bytes" -lt 300000 ] && ok || bad "the hostile answer is $bytes bytes, not about 264 KB"

expect 2 "that share bytes (from byte 0)" -- check "$work/ex"
# The issue's bound: under 100 MB resident (it grew to 5.5 GB before the archive was checked whole).
peak_kib=$(/usr/bin/python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$cli" check "$work/ex")
[ "$sanitized" = 1 ] || [ "$peak_kib" -lt 102400 ] && ok || bad "check of the hostile answer peaked at $peak_kib KiB resident"
expect 2 "/dev/zero: is not a .npz archive" -- check "$work/ex" --answer /dev/zero
: >"$work/empty.npz"
expect 2 "empty.npz: is empty (0 bytes), not an answer" -- check "$work/ex" --answer "$work/empty.npz"

summary
