"""attnlab.check: a student's multi-head attention graded by the core, as `attnlab-cli check`
grades an answer.npz (the same grading, the same diagnosis, the same report)."""
import contextlib
import os
import signal
import threading
import traceback

import numpy as np

from ._exercise import Exercise, exercise

ACCEPTED = ("a NumPy function f(x, w_q, w_k, w_v, w_o, mask) returning out or a dict of stages "
            "by their names, or the path of an answer.npz (or of a folder of .npy)")


class StageResult:
    """One stage's grade: given (handed in), shape_ok, values_ok, right, max_error (over the
    entries both finite), tolerance, wrong_entries of entries, worst_index, non_finite (the first
    NaN/Inf where the right value is finite), shape (the right one) and given_shape."""

    __slots__ = ("name", "axes", "shape", "given", "given_shape", "shape_ok", "values_ok",
                 "right", "max_error", "tolerance", "wrong_entries", "entries", "worst_index",
                 "non_finite")

    def __init__(self, grade):
        for key in self.__slots__:
            setattr(self, key, grade[key])

    def __repr__(self):
        if not self.given:
            return f"<{self.name}: not given>"
        if not self.shape_ok:
            return f"<{self.name}: WRONG shape {self.given_shape}, right {self.shape}>"
        return (f"<{self.name}: {'right' if self.right else 'WRONG'}, max error "
                f"{self.max_error:.3g}>")


class Result:
    """What attnlab.check says: passed, first_wrong (a stage's name or None), mistake (a
    --list-mistakes name or None), fix (the right line of code), mistakes (each with name, title,
    symptom, evidence, wrong, fix), stages ({name: StageResult}, in pipeline order), error (why the
    solution could not be graded, or None); str(result) is the report."""

    def __init__(self, passed, report, first_wrong=None, mistakes=(), unexplained=None,
                 stages=(), ignored=(), error=None):
        self.passed = passed
        self.report = report
        self.first_wrong = first_wrong
        self.mistakes = list(mistakes)
        self.mistake = self.mistakes[0]["name"] if self.mistakes else None
        self.fix = self.mistakes[0]["fix"] if self.mistakes else None
        self.unexplained = unexplained
        self.stages = {s["name"]: StageResult(s) for s in stages}
        self.ignored = list(ignored)
        self.error = error

    def __str__(self):
        return self.report

    def __repr__(self):
        return self.report

    def _repr_pretty_(self, printer, cycle):  # IPython shows the report as it is
        printer.text(self.report)


def _solution_error(name, ex, message):
    report = f"Checking {name} against {ex.label}\n\n{message}\n"
    return Result(False, report, error=message)


def _where(error):
    """The student's line the exception came from: the deepest frame outside NumPy and this
    package ("" when the function raised before running a line of its own)."""
    library = tuple(os.path.dirname(os.path.abspath(f)) + os.sep for f in (np.__file__, __file__))
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if not os.path.abspath(f.filename).startswith(library)]
    if not frames:
        return ""
    frame = frames[-1]
    line = f": {frame.line}" if frame.line else ""
    return f"\n  at {os.path.basename(frame.filename)} line {frame.lineno} in {frame.name}{line}"


def _shape_text(shape):
    return "(" + ", ".join(str(n) for n in shape) + ")"


def _stages_of(value, name, ex):
    """The stages a solution returned, {name: float32 array}, or the message saying why not."""
    out_shape = _shape_text(dict(ex.stages)["out"])
    how = (f"return out, an array of shape {out_shape}, or a dict of stages by name, e.g. "
           f'{{"scores": scores, "out": out}}')
    if value is None:
        return None, f"{name} returned None: {how}"
    if isinstance(value, (tuple, list)):
        return None, f"{name} returned a {type(value).__name__} of {len(value)}: {how}"
    stages = value if isinstance(value, dict) else {"out": value}
    arrays = {}
    for key, stage in stages.items():
        if not isinstance(key, str):
            return None, f"{name} returned a dict with the key {key!r}: {how}"
        if stage is None:
            return None, f"{name}'s {key} is None: {how}"
        try:
            arrays[key] = np.asarray(stage, dtype=np.float32)
        except Exception as e:  # a str, a ragged list, a tensor that needs .detach()
            return None, (f"{name}'s {key} is a {type(stage).__name__}, not an array of numbers "
                          f"({type(e).__name__}: {e}); {how}")
    return arrays, None


class _TooLong(BaseException):
    """Raised inside a solution that runs past its time (a BaseException: the student's own
    `except Exception` does not swallow it)."""


@contextlib.contextmanager
def _time_limit(seconds):
    """Stops what runs inside after `seconds` (SIGALRM: in the main thread, as a notebook's or
    pytest's code runs; elsewhere, or with seconds None, no limit)."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise _TooLong()
    before = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def _run(solution, ex, timeout):
    """Calls the student's function on copies of the inputs (their in-place edits stay theirs)."""
    name = getattr(solution, "__name__", type(solution).__name__) + "()"
    args = [None if a is None else np.array(a) for a in (ex.x, ex.w_q, ex.w_k, ex.w_v, ex.w_o)]
    biases = {b: np.array(ex.input(b)) for b in ("b_q", "b_k", "b_v", "b_o")
              if ex.input(b) is not None}
    try:
        with _time_limit(timeout):
            value = solution(*args, np.array(ex.mask), **biases)
    except _TooLong as e:
        return _solution_error(name, ex, f"{name} ran for more than {timeout:g} s and was "
                                         f"stopped{_where(e)}; is a loop not ending?")
    except NotImplementedError:
        return ex._core.grade_arrays({}, True, name, ex.label)
    except Exception as e:  # the student's bug: said, never passed on as a crash of the grader
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        return _solution_error(name, ex, f"{name} raised {last}{_where(e)}")
    arrays, message = _stages_of(value, name, ex)
    if message:
        return _solution_error(name, ex, message)
    return ex._core.grade_arrays(arrays, False, name, ex.label)


def _is_torch_module(solution):
    return any(c.__module__.startswith("torch.") for c in type(solution).__mro__)


def check(solution, ex, timeout=60):
    """Grades `solution` on exercise `ex` (an Exercise, a preset's name or an exercise folder)
    stage by stage and names the mistake, as `attnlab-cli check` does. `solution` is a NumPy
    function f(x, w_q, w_k, w_v, w_o, mask) (with biases also called with b_q=, b_k=, b_v= and
    b_o=) returning out or a dict of stages by the export's names, or the path of an
    answer.npz. A solution that raises, returns NaN or the wrong shape, or runs longer than
    `timeout` seconds (None: no limit; only in the main thread), gets a failed Result whose
    report says so."""
    if not isinstance(ex, Exercise):
        ex = exercise(ex)
    if isinstance(solution, (str, os.PathLike)):
        return _result(ex._core.grade_file(os.fspath(solution), ex.label))
    if _is_torch_module(solution):
        raise TypeError(f"a {type(solution).__name__} (PyTorch) is not accepted yet: give "
                        f"{ACCEPTED}")
    if not callable(solution):
        raise TypeError(f"check() takes {ACCEPTED}; not a {type(solution).__name__}")
    graded = _run(solution, ex, timeout)
    return graded if isinstance(graded, Result) else _result(graded)


def _result(graded):
    return Result(**graded)
