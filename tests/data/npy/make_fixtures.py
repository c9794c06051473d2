"""Writes the .npy fixtures test_npy.cpp reads. Run once with numpy: /usr/bin/python3 make_fixtures.py

Values come from simple formulas so the C++ test can state them exactly.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


def write_version(name, array, version):
    with open(path(name), "wb") as f:
        np.lib.format.write_array(f, array, version=version)


def main():
    # Byte-for-byte references for npy_bytes (np.save of C-order float32).
    np.save(path("f4_2x3.npy"), np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5)
    np.save(path("f4_5.npy"), np.arange(5, dtype=np.float32) - 2)
    np.save(path("f4_scalar.npy"), np.array(2.5, dtype=np.float32))
    # Other layouts the reader accepts.
    np.save(path("f8_3x2.npy"), (np.arange(6, dtype=np.float64).reshape(3, 2) - 2.5) * 0.25)
    np.save(path("f4_big_endian_2x2.npy"), (np.arange(4).reshape(2, 2) + 0.25).astype(">f4"))
    write_version("f4_v2_4.npy", np.array([1.5, -2.0, 3.25, 0.0], dtype=np.float32), (2, 0))
    write_version("f8_v3_2.npy", np.array([-0.125, 8.0], dtype=np.float64), (3, 0))
    # Files the reader must refuse.
    np.save(path("f4_fortran_2x3.npy"), np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
    np.save(path("i8_3.npy"), np.arange(3, dtype=np.int64))
    np.save(path("f2_3.npy"), np.arange(3, dtype=np.float16))
    with_nan = np.zeros((2, 3), dtype=np.float32)
    with_nan[1, 2] = np.nan
    np.save(path("f4_nan_2x3.npy"), with_nan)
    np.save(path("truncated_3x4.npy"), np.ones((3, 4), dtype=np.float32))
    with open(path("truncated_3x4.npy"), "rb") as f:
        data = f.read()
    with open(path("truncated_3x4.npy"), "wb") as f:
        f.write(data[: 128 + 20])  # the 128-byte header and 20 of the 48 data bytes


if __name__ == "__main__":
    main()
