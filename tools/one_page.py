#!/usr/bin/env python3
"""Writes the one-file page: web/index.html with attnlab.js (its WebAssembly, presets and fonts
already inside, -sSINGLE_FILE) inlined, so the page needs no other file and opens from file://.
    tools/one_page.py INDEX_HTML ATTNLAB_JS OUT_HTML
isolation.js's tag becomes <script type="text/plain" id="attnlab-code">: the code, which
index.html runs itself in place of loading attnlab.js (a one-file page is never cross-origin
isolated, and needs no service worker).
"""
import pathlib
import re
import sys

ISOLATION_TAG = '<script src="isolation.js"></script>'


def main():
    index, code, out = (pathlib.Path(a) for a in sys.argv[1:4])
    page = index.read_text(encoding="utf-8")
    js = code.read_text(encoding="utf-8")
    if page.count(ISOLATION_TAG) != 1:
        sys.exit(f"one_page.py: {index} must hold {ISOLATION_TAG} once")
    # Script text ends at the first "</script"; "<!--" could start an escaped section.
    found = re.search(r"</script|<!--", js, re.IGNORECASE)
    if found:
        sys.exit(f"one_page.py: {code} holds {found.group(0)!r}, which would end its <script> early")
    block = f'<script type="text/plain" id="attnlab-code">{js}</script>'
    temporary = out.with_name(out.name + ".part")
    temporary.write_text(page.replace(ISOLATION_TAG, block), encoding="utf-8")
    temporary.replace(out)


if __name__ == "__main__":
    main()
