"""attnlab.exercise and attnlab.trace: the core's exercise and traced run, as NumPy views."""
import json
import os
import sys

import numpy as np

from . import _core

_INPUTS = ("x", "w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")


def _label(preset, settings):
    """How reports name an exercise: its preset ("seed003"), folder, or the call that made it."""
    if preset and not settings:
        return preset
    words = ([repr(preset)] if preset else []) + [f"{k}={v!r}" for k, v in settings.items()]
    return "exercise(" + ", ".join(words) + ")"


class Exercise:
    """An exercise: the inputs (x, w_q, w_k, w_v, [w_o], [biases]) as read-only views of the
    core's tensors, the mask (bool (B, T, T): True where query i may see key j), the sizes and the
    stages a student may hand in (name, shape), in pipeline order."""

    def __init__(self, core, label):
        self._core = core
        self.label = label
        doc = json.loads(core.exercise_json())
        self.config = doc["config"]
        self.sizes = dict(doc["sizes"])
        self.stages = [(s["name"], tuple(s["shape"])) for s in doc["stages"]]
        self.mask_description = doc["mask"]["description"]
        self.mask = np.array(doc["mask"]["visible"], dtype=bool)
        self.mask.flags.writeable = False

    def input(self, name):
        """The input of that name ("x", "w_q", ..., "b_o") or None when the exercise has none."""
        if name not in _INPUTS:
            raise KeyError(f"{name!r} is not an input; the inputs are {', '.join(_INPUTS)}")
        return self._core.input(name)

    @property
    def inputs(self):
        """{name: array} of the inputs this exercise has, in the conventions' order."""
        return {name: self._core.input(name) for name in self._core.input_names()}

    x = property(lambda self: self.input("x"), doc="(B, T, d_in)")
    w_q = property(lambda self: self.input("w_q"), doc="(d_in, h*d_k)")
    w_k = property(lambda self: self.input("w_k"), doc="(d_in, n_kv*d_k)")
    w_v = property(lambda self: self.input("w_v"), doc="(d_in, n_kv*d_v)")
    w_o = property(lambda self: self.input("w_o"), doc="(h*d_v, d_model); None without W_o")
    b_q = property(lambda self: self.input("b_q"), doc="(h*d_k,); None without biases")
    b_k = property(lambda self: self.input("b_k"), doc="(n_kv*d_k,); None without biases")
    b_v = property(lambda self: self.input("b_v"), doc="(n_kv*d_v,); None without biases")
    b_o = property(lambda self: self.input("b_o"), doc="(d_model,); None without biases or W_o")

    def save(self, directory, force=False):
        """Writes the exercise folder, as `attnlab-cli exercise DIR` does. A file there that
        differs (a student's mha.py) is kept and named (force=True moves it aside first, to
        mha.py.~1~); a folder of another exercise is refused with nothing written (ValueError).
        Returns the names of the files written."""
        directory = os.fspath(directory)
        done = self._core.save(directory, force)
        if done["moved"]:
            print("attnlab: " + done["moved"], file=sys.stderr)
        if done["kept"]:
            print("attnlab: " + done["kept"] + " (save(..., force=True) replaces them, moving "
                  "the old ones aside)", file=sys.stderr)
        return done["written"]

    def __repr__(self):
        s = self.sizes
        return (f"<attnlab.Exercise {self.label}: B={s['B']} T={s['T']} d_in={s['d_in']} "
                f"h={s['n_heads']} d_k={s['d_k']} d_v={s['d_v']} out {s['d_out']} wide, "
                f"mask {self.mask_description}>")


def exercise(preset=None, /, **settings):
    """The exercise of a preset ("seed003"), of an exercise folder (what `attnlab-cli exercise
    DIR` or Exercise.save wrote), or of settings named as the config's fields (d_model=8,
    n_heads=2, mask="causal", seq_len=11, bias=True, seed=3, ...), over the preset when both are
    given. A setting the command line refuses raises ValueError with its words."""
    if isinstance(preset, Exercise) and not settings:
        return preset
    if preset is not None and not isinstance(preset, (str, os.PathLike)):
        raise TypeError(f"exercise() takes a preset's name or an exercise folder, not "
                        f"{type(preset).__name__}")
    if preset is not None and os.path.isdir(os.fspath(preset)) and not settings:
        folder = os.fspath(preset)
        return Exercise(_core.Exercise.load(folder), folder)
    preset = None if preset is None else os.fspath(preset)
    return Exercise(_core.Exercise.from_settings(preset, settings), _label(preset, settings))


class Stage:
    """One tensor of the traced run: its name, its array (a view of the core's memory), shape,
    strides (the core's, in elements, as torch's .stride(); array.strides are in bytes), offset,
    whether it is a view of an earlier tensor's storage, the storage's owner, its axes, and the
    formula and PyTorch line that made it."""

    __slots__ = ("name", "array", "shape", "strides", "offset", "is_view", "storage", "axes",
                 "formula", "pytorch")

    def __init__(self, record):
        for key in self.__slots__:
            setattr(self, key, record[key])

    def __repr__(self):
        kind = f"view of {self.storage}" if self.is_view else "own storage"
        return (f"<Stage {self.name} {self.shape} {self.axes} strides {self.strides} "
                f"offset {self.offset}, {kind}>")


class Trace:
    """Every stage of a traced run, in order; trace["q_heads"] or trace[3] picks one."""

    def __init__(self, core):
        self._core = core
        self.stages = [Stage(r) for r in core.records()]

    def names(self):
        return [s.name for s in self.stages]

    def __getitem__(self, key):
        if isinstance(key, str):
            for stage in self.stages:
                if stage.name == key:
                    return stage
            raise KeyError(f"{key!r} is not a stage of this trace; its stages are "
                           f"{', '.join(self.names())}")
        return self.stages[key]

    def __iter__(self):
        return iter(self.stages)

    def __len__(self):
        return len(self.stages)

    def __repr__(self):
        rows = [f"  {s.name:<20}{str(s.shape):<18}{s.axes:<18}strides {str(s.strides):<18}"
                f"{'view of ' + s.storage if s.is_view else ''}" for s in self.stages]
        return "<attnlab.Trace\n" + "\n".join(rows) + ">"


def trace(what=None, /, **settings):
    """Every stage of a run: of an exercise (its right answer), or of a preset and settings as
    exercise() takes them (any config the command line traces, not only an exercise's)."""
    if isinstance(what, Exercise):
        if settings:
            raise TypeError("trace(exercise) takes no settings: they are the exercise's")
        return Trace(what._core.trace())
    if what is not None and not isinstance(what, str):
        raise TypeError(f"trace() takes an Exercise, a preset's name or settings, not "
                        f"{type(what).__name__}")
    return Trace(_core.Trace.from_settings(what, settings))
