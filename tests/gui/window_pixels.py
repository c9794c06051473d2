#!/usr/bin/python3
"""Counts a window's pixels of given colours, read from the X server (XGetImage: what the window
shows now, with no event sent to the app), through ctypes and NumPy.

    window_pixels.py WINDOW_ID R,G,B [R,G,B ...]   # prints one count per colour, space-separated
                                                     # DISPLAY names the X server"""
import ctypes
import sys

import numpy as np


class XImage(ctypes.Structure):  # Xlib's XImage, up to the fields read here
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.POINTER(ctypes.c_ubyte)),
                ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
                ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
                ("bits_per_pixel", ctypes.c_int)]


Z_PIXMAP = 2
ALL_PLANES = 0xFFFFFFFF


def main():
    window = int(sys.argv[1], 0)
    colours = [tuple(int(c) for c in text.split(",")) for text in sys.argv[2:]]
    x = ctypes.cdll.LoadLibrary("libX11.so.6")
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    uint = ctypes.c_uint
    x.XGetGeometry.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
                               ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                               ctypes.POINTER(uint), ctypes.POINTER(uint), ctypes.POINTER(uint),
                               ctypes.POINTER(uint)]
    x.XGetImage.restype = ctypes.POINTER(XImage)
    x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, uint,
                            uint, ctypes.c_ulong, ctypes.c_int]
    display = x.XOpenDisplay(None)
    if not display:
        sys.exit("window_pixels.py: cannot open the display")
    root, px, py = ctypes.c_ulong(), ctypes.c_int(), ctypes.c_int()
    width, height, border, depth = uint(), uint(), uint(), uint()
    if not x.XGetGeometry(display, window, ctypes.byref(root), ctypes.byref(px), ctypes.byref(py),
                          ctypes.byref(width), ctypes.byref(height), ctypes.byref(border),
                          ctypes.byref(depth)):
        sys.exit("window_pixels.py: no such window")
    image = x.XGetImage(display, window, 0, 0, width, height, ALL_PLANES, Z_PIXMAP)
    if not image or image.contents.bits_per_pixel != 32:
        sys.exit("window_pixels.py: the window's pixels could not be read as 32-bit")
    im = image.contents
    raw = np.ctypeslib.as_array(im.data, shape=(im.height * im.bytes_per_line,))
    rows = raw.reshape(im.height, im.bytes_per_line)[:, :im.width * 4].reshape(im.height, im.width, 4)
    rgb = rows[:, :, [2, 1, 0]]  # the server's 24-bit TrueColor, little-endian: B, G, R, X
    counts = [int(np.all(rgb == np.array(c, dtype=np.uint8), axis=2).sum()) for c in colours]
    print(" ".join(str(c) for c in counts))


if __name__ == "__main__":
    main()
