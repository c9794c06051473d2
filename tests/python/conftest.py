"""The package under test is the build tree's (PYTHONPATH=BUILD/python:python, set by CTest);
ATTNLAB_CLI is the attnlab-cli of the same build, for comparing with the command line."""
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("ATTNLAB_CLI")
    assert path and os.path.exists(path), "ATTNLAB_CLI must name the built attnlab-cli"

    def run(*args):
        return subprocess.run([path, *args], capture_output=True, text=True)
    return run
