#!/usr/bin/env python3
"""The page's .zip download against the native CLI's --export folder of the same config: the
archive must pass zipfile's CRC check, hold the same files, and every .npy must equal the native
one to float32 rounding (the page computes with Eigen's own products, the desktop with OpenBLAS).
    compare_zip.py PAGE.zip NATIVE_EXPORT_DIR"""
import io
import os
import sys
import zipfile

import numpy as np


def main():
    archive, native = sys.argv[1], sys.argv[2]
    failed = 0
    with zipfile.ZipFile(archive) as z:
        bad = z.testzip()
        if bad:
            print(f"FAIL zip: {bad} fails its CRC check")
            return 1
        names = sorted(z.namelist())
        expected = sorted(os.listdir(native))
        if names != expected:
            print(f"FAIL zip: files differ: only in page {set(names) - set(expected)}, "
                  f"only native {set(expected) - set(names)}")
            return 1
        worst = 0.0
        for name in names:
            if not name.endswith(".npy"):
                continue
            page = np.load(io.BytesIO(z.read(name)))
            desktop = np.load(os.path.join(native, name))
            if page.shape != desktop.shape or page.dtype != np.float32:
                print(f"FAIL zip: {name}: {page.shape} {page.dtype} vs {desktop.shape}")
                failed += 1
                continue
            finite = np.isfinite(desktop)  # masked scores are -inf in both
            if not np.array_equal(finite, np.isfinite(page)):
                print(f"FAIL zip: {name}: infinities in different places")
                failed += 1
                continue
            diff = float(np.max(np.abs(page[finite] - desktop[finite]))) if finite.any() else 0.0
            worst = max(worst, diff)
            if not np.allclose(page, desktop, rtol=1e-5, atol=1e-6):
                print(f"FAIL zip: {name}: max |page - native| = {diff:.3g}")
                failed += 1
    print(f"{'ok  ' if not failed else 'FAIL'} zip: {len(names)} files, every .npy matches the "
          f"native export (max |diff| {worst:.2g})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
