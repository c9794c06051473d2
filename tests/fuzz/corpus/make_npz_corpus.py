"""Writes the .npz answer reader's seed corpus (tests/fuzz/corpus/npz/): what np.savez and
np.savez_compressed write, and broken archives next to each refusal (truncated, a flipped
deflate stream, a lying size, an entry that is not .npy, encryption flag, not a zip at all).

Run with Debian's numpy: /usr/bin/python3 tests/fuzz/corpus/make_npz_corpus.py
The outputs are committed; rerun only to change them."""
import io
import os
import struct
import zipfile

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "npz")


def savez(compressed=False, **arrays):
    buffer = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buffer, **arrays)
    return buffer.getvalue()


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    q = np.arange(12, dtype=np.float32).reshape(1, 3, 4) / 7
    w = np.full((1, 2, 3, 3), 1 / 3, dtype=np.float32)
    masked = np.triu(np.full((3, 3), -np.inf, dtype=np.float32), 1)[None, None]
    stored = savez(q=q, weights=w)
    deflated = savez(True, q=q, weights=w, masked=masked)
    write("stored.npz", stored)
    write("deflated.npz", deflated)
    write("float64.npz", savez(out=q.astype(np.float64)))
    write("not_implemented.npz", savez(not_implemented=np.zeros(0, np.float32)))
    write("empty.npz", savez())
    write("truncated_half.npz", stored[: len(stored) // 2])
    write("truncated_tail.npz", deflated[:-7])
    flipped = bytearray(deflated)
    for i in range(70, 90):
        flipped[i] ^= 0x5A
    write("flipped_deflate.npz", bytes(flipped))
    # The central directory's uncompressed size of the first entry made huge.
    lying = bytearray(deflated)
    at = lying.find(b"PK\x01\x02")
    lying[at + 24: at + 28] = struct.pack("<I", 0x7FFFFFF0)
    write("lying_size.npz", bytes(lying))
    encrypted = bytearray(stored)
    at = encrypted.find(b"PK\x01\x02")
    encrypted[at + 8] |= 1
    write("encrypted_flag.npz", bytes(encrypted))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("notes.txt", "not an array")
    write("not_npy_entry.npz", buffer.getvalue())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_BZIP2) as z:
        z.writestr("q.npy", stored[:100])
    write("bzip2_entry.npz", buffer.getvalue())
    write("not_a_zip.npz", b"just some text, not an archive\n")


if __name__ == "__main__":
    main()
