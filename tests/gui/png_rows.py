"""A PNG read without a library, for the export tests: (width, height, channels, rows), each row
its bytes after the PNG filters are undone (8-bit grey, RGB or RGBA, not interlaced)."""
import struct
import zlib


def read_png(path):
    data = open(path, "rb").read()
    i, idat = 8, b""
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        chunk = data[i + 8:i + 8 + n]
        i += 12 + n
        if kind == b"IHDR":
            w, h = struct.unpack(">II", chunk[:8])
            ch = {0: 1, 2: 3, 6: 4}[chunk[9]]
        elif kind == b"IDAT":
            idat += chunk
    raw = zlib.decompress(idat)
    stride, rows, prev, pos = w * ch, [], bytearray(w * ch), 0
    for _ in range(h):
        f = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for x in range(stride):
            a = line[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            p = {0: 0, 1: a, 2: b, 3: (a + b) // 2}.get(f)
            if p is None:  # Paeth
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[x] = (line[x] + p) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, ch, rows
