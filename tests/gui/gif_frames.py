"""A GIF read without a library, for the export tests: its size, its frames' delays and each
frame's pixels (RGB, through the frame's own colour table when it has one, else the global one),
decoding the LZW data (GIF89a)."""
import struct


def _lzw(data, min_code_size, pixels):
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    size = min_code_size + 1
    table = [bytes([i]) for i in range(clear)] + [b"", b""]
    out, previous, bits, nbits, i = bytearray(), None, 0, 0, 0
    while len(out) < pixels:
        while nbits < size:
            if i >= len(data):
                return bytes(out)
            bits |= data[i] << nbits
            nbits += 8
            i += 1
        code = bits & ((1 << size) - 1)
        bits >>= size
        nbits -= size
        if code == clear:
            size = min_code_size + 1
            table = table[: end + 1]
            previous = None
            continue
        if code == end:
            break
        if previous is None:
            entry = table[code]
        elif code < len(table):
            entry = table[code]
            table.append(previous + entry[:1])
        else:
            entry = previous + previous[:1]
            table.append(entry)
        out += entry
        previous = entry
        if len(table) == (1 << size) and size < 12:
            size += 1
    return bytes(out)


def read_gif(path):
    """(width, height, [(delay_centiseconds, rgb bytes), ...])"""
    data = open(path, "rb").read()
    assert data[:6] == b"GIF89a", "not a GIF89a file"
    width, height, flags = struct.unpack("<HHB", data[6:11])
    pos = 13
    palette = b""
    if flags & 0x80:
        entries = 2 << (flags & 7)
        palette = data[pos : pos + 3 * entries]
        pos += 3 * entries
    frames, delay = [], 0
    while pos < len(data):
        block = data[pos]
        pos += 1
        if block == 0x3B:
            break
        if block == 0x21:
            label = data[pos]
            pos += 1
            while data[pos]:
                size = data[pos]
                if label == 0xF9:
                    delay = struct.unpack("<H", data[pos + 2 : pos + 4])[0]
                pos += 1 + size
            pos += 1
        elif block == 0x2C:
            x, y, w, h, local = struct.unpack("<HHHHB", data[pos : pos + 9])
            pos += 9
            assert (x, y, w, h) == (0, 0, width, height), "whole frames"
            colours = palette
            if local & 0x80:  # the frame's own palette
                entries = 2 << (local & 7)
                colours = data[pos : pos + 3 * entries]
                pos += 3 * entries
            min_code = data[pos]
            pos += 1
            lzw = bytearray()
            while data[pos]:
                lzw += data[pos + 1 : pos + 1 + data[pos]]
                pos += 1 + data[pos]
            pos += 1
            indices = _lzw(bytes(lzw), min_code, w * h)
            rgb = bytearray()
            for index in indices:
                rgb += colours[3 * index : 3 * index + 3]
            frames.append((delay, bytes(rgb)))
        else:
            raise ValueError(f"unknown block {block:#x}")
    return width, height, frames
