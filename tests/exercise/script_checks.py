"""What the exercise scripts share: one line per check ("ok" or "FAIL"), the failures kept for the
exit code, and attnlab-cli run with its exit code and output."""
import os
import subprocess

CLI = os.environ.get("ATTNLAB_CLI", "build/app/attnlab-cli")
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def run(*args):
    r = subprocess.run([CLI, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr
