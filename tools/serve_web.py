#!/usr/bin/env python3
"""Serves the browser build (build-web/) on the loopback interface only, with the two headers
that make the page cross-origin isolated (the app's threads need SharedArrayBuffer).
    tools/serve_web.py [DIR] [--port 8000] [--plain]
--plain leaves the headers out, as a static host that cannot send them (the browser test checks
that isolation.js then makes the page isolated by itself).
"""
import argparse
import functools
import http.server
import sys


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript",
                      ".data": "application/octet-stream"}

    isolation_headers = True

    def end_headers(self):
        if self.isolation_headers:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):  # quiet: one line at start is enough
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", default="build-web")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--plain", action="store_true", help="no isolation headers")
    args = parser.parse_args()
    IsolatedHandler.isolation_headers = not args.plain
    handler = functools.partial(IsolatedHandler, directory=args.dir)
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler)
    except OSError as error:
        print(f"serve_web.py: cannot listen on 127.0.0.1:{args.port}: {error.strerror}: "
              f"pass --port with a free port", file=sys.stderr)
        return 2
    print(f"Attention Lab: open http://127.0.0.1:{server.server_port}/ in a browser "
          f"(serving {args.dir}; Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
