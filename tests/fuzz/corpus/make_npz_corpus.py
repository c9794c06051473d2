"""Writes the .npz answer reader's seed corpus (tests/fuzz/corpus/npz/): what np.savez and
np.savez_compressed write, and broken archives next to each refusal (truncated, a flipped
deflate stream, a lying size, an entry that is not .npy, encryption flag, not a zip at all), and
the whole-archive limits' cases (one deflated member listed several times, overlapping members,
a nested archive, a name twice).

Run with Debian's numpy: /usr/bin/python3 tests/fuzz/corpus/make_npz_corpus.py
The outputs are committed; rerun only to change them."""
import io
import os
import struct
import zipfile
import zlib

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "npz")


def savez(compressed=False, **arrays):
    buffer = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buffer, **arrays)
    return buffer.getvalue()


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def with_directory(data, members):
    """`data` followed by a central directory of (name, method, crc, packed, size, offset)."""
    central = b""
    for name, method, crc, packed, size, offset in members:
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0, crc,
                               packed, size, len(name), 0, 0, 0, 0, 0, offset) + name
    return data + central + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members),
                                        len(members), len(central), len(data), 0)


def savez_files(files):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buffer.getvalue()


def twice(stored):
    """Two entries named q.npy (zipfile warns, and writes them)."""
    import warnings
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w") as z:
        warnings.simplefilter("ignore")
        z.writestr("q.npy", stored[:64])
        z.writestr("q.npy", stored[:64])
    return buffer.getvalue()


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
    # One deflated member of 64 KiB of zeros listed 8 times at the same offset (the issue's
    # 64 x 256 MiB archive, small enough for a seed).
    zeros = bytes(64 << 10)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = deflate.compress(zeros) + deflate.flush()
    crc = zlib.crc32(zeros)
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(packed), len(zeros),
                        6, 0) + b"a0.npy" + packed
    write("shared_member.npz", with_directory(local, [(f"a{i}.npy".encode(), 8, crc, len(packed),
                                                      len(zeros), 0) for i in range(8)]))
    # b.npy's local record inside a.npy's stored data.
    inner = b"b contents"
    b_local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, zlib.crc32(inner),
                          len(inner), len(inner), 5, 0) + b"b.npy"
    a_data = bytes(16) + b_local + inner
    a_local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, zlib.crc32(a_data),
                          len(a_data), len(a_data), 5, 0) + b"a.npy"
    write("overlapping.npz", with_directory(a_local + a_data, [
        (b"a.npy", 0, zlib.crc32(a_data), len(a_data), len(a_data), 0),
        (b"b.npy", 0, zlib.crc32(inner), len(inner), len(inner), len(a_local) + 16)]))
    write("nested.npz", savez_files({"inner.npy": stored}))
    write("name_twice.npz", twice(stored))


if __name__ == "__main__":
    main()
