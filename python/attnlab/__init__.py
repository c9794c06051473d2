"""Attention Lab from Python: the exercise, the trace and the grader of the C++ core.

    import attnlab
    ex = attnlab.exercise("seed003")              # or attnlab.exercise(d_model=8, n_heads=2, ...)
    result = attnlab.check(my_mha, ex)           # my_mha(x, w_q, w_k, w_v, w_o, mask) -> out
    print(result)                                 # attnlab-cli check's report
    attnlab.trace(ex)["q_heads"].array            # every stage, a view of the core's memory

docs/python.md in the repository says more.
"""
import os as _os
import pkgutil as _pkgutil

# In a build tree the compiled module is BUILD/python/attnlab/_core*.so and this folder is
# python/attnlab: with both on sys.path (PYTHONPATH=BUILD/python:python) the package spans them.
__path__ = _pkgutil.extend_path(__path__, __name__)

# An installed wheel carries the presets (setup.py copies them); the core finds them here unless
# ATTNLAB_ASSETS_DIR says otherwise.
_ASSETS = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "assets")
if _os.path.isdir(_os.path.join(_ASSETS, "presets")):
    _os.environ.setdefault("ATTNLAB_ASSETS_DIR", _ASSETS)

from ._exercise import Exercise, Stage, Trace, exercise, trace  # noqa: E402
from ._grading import Result, StageResult, check  # noqa: E402
from . import testing  # noqa: E402

__all__ = ["exercise", "trace", "check", "testing", "Exercise", "Trace", "Stage", "Result",
           "StageResult"]
