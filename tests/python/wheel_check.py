"""The wheel a course can host: python3 -m build --wheel --no-isolation over a copy of python/
(the module copied from this build: ATTNLAB_BUILD_DIR), installed into a fresh venv with
--no-index, imported and used from outside the source tree with the source's presets hidden.
Run by CTest (label wheel) as: python3 wheel_check.py SOURCE_DIR BUILD_DIR."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE, BUILD = (os.path.abspath(p) for p in sys.argv[1:3])

# What runs in the venv: a right and a wrong student, graded by the installed package.
USE = r'''
import os, sys
import numpy as np
import attnlab, attnlab.testing
assert attnlab.__file__.startswith(sys.prefix), attnlab.__file__
assert os.environ["ATTNLAB_ASSETS_DIR"].startswith(sys.prefix), os.environ["ATTNLAB_ASSETS_DIR"]
ex = attnlab.exercise("seed003")
h = ex.sizes["n_heads"]

def mha(x, w_q, w_k, w_v, w_o, mask, scale=True):
    B, T, _ = x.shape
    q, k, v = (t.reshape(B, T, h, -1).transpose(0, 2, 1, 3) for t in (x @ w_q, x @ w_k, x @ w_v))
    s = q @ k.transpose(0, 1, 3, 2) / (np.sqrt(q.shape[-1]) if scale else 1)
    s = np.where(mask[:, None], s, -np.inf)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(0, 2, 1, 3).reshape(B, T, -1)

attnlab.testing.assert_mha(mha, ex)
wrong = attnlab.check(lambda *a: mha(*a, scale=False), ex)
print(wrong.passed, wrong.first_wrong, wrong.mistake)
'''


def run(*command, **kw):
    done = subprocess.run(command, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


with tempfile.TemporaryDirectory() as tmp:
    package = os.path.join(tmp, "python")  # a copy: building leaves build/ and egg-info behind
    shutil.copytree(os.path.join(SOURCE, "python"), package,
                    ignore=shutil.ignore_patterns("build", "build-cmake", "dist", "*.egg-info",
                                                  "__pycache__"))
    env = dict(os.environ, ATTNLAB_BUILD_DIR=BUILD, ATTNLAB_SOURCE_DIR=SOURCE)
    env.pop("PYTHONPATH", None)
    dist = os.path.join(tmp, "dist")
    run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, package,
        env=env)
    wheels = glob.glob(os.path.join(dist, "attnlab-*.whl"))
    assert len(wheels) == 1 and wheels[0].endswith("linux_x86_64.whl"), wheels  # a platform wheel
    venv = os.path.join(tmp, "venv")
    run(sys.executable, "-m", "venv", "--system-site-packages", venv)
    python = os.path.join(venv, "bin", "python")
    run(python, "-m", "pip", "install", "--no-index", "--quiet", wheels[0], env=env)
    # Outside the source tree, with neither PYTHONPATH nor the source's presets to fall back on.
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ATTNLAB"))}
    clean["ATTNLAB_NO_SOURCE_ASSETS"] = "1"
    said = run(python, "-c", USE, cwd=tmp, env=clean)
    assert said.strip() == "False out no-scale", said
    print("wheel", os.path.basename(wheels[0]), "installed and graded:", said.strip())
