"""attnlab.check: students written independently of the core, graded and diagnosed by the core;
bad solutions said in one clear message; str(result) is attnlab-cli check's report."""
import numpy as np
import pytest

import attnlab
import attnlab.testing
import students

EXERCISES = {
    "seed003": lambda: attnlab.exercise("seed003"),
    "causal, 2 heads, W_o": lambda: attnlab.exercise(d_model=8, n_heads=2, mask="causal",
                                                     seq_len=11),
}


@pytest.fixture(params=list(EXERCISES), scope="module")
def ex(request):
    return EXERCISES[request.param]()


def heads(ex):
    return ex.sizes["n_heads"]


def test_the_reference_is_the_cores_answer(ex):
    # The independent reference agrees with the core's traced run, stage by stage.
    ref = students.reference_stages(ex.x, ex.w_q, ex.w_k, ex.w_v, ex.w_o, ex.mask, heads(ex))
    tr = attnlab.trace(ex)
    for name, _ in ex.stages:
        np.testing.assert_allclose(tr[name].array, ref[name], rtol=1e-5, atol=1e-5, err_msg=name)


def test_right_student_passes(ex):
    result = attnlab.check(students.right_student(heads(ex)), ex)
    assert result.passed, str(result)
    assert result.first_wrong is None and result.mistake is None and result.fix is None
    assert result.stages["out"].given and result.stages["out"].shape_ok
    assert result.stages["out"].max_error < 1e-5
    assert not result.stages["q"].given
    assert "Every given stage is right (1 of" in str(result)
    assert attnlab.testing.assert_mha(students.right_student(heads(ex)), ex).passed


def test_reference_stages_all_pass(ex):
    # Every stage handed in, from the reference: all right.
    def mha(x, w_q, w_k, w_v, w_o, mask):
        return students.reference_stages(x, w_q, w_k, w_v, w_o, mask, heads(ex))
    result = attnlab.check(mha, ex)
    assert result.passed, str(result)
    assert all(s.given and s.values_ok for s in result.stages.values())


def test_biases_are_given_by_keyword():
    ex = attnlab.exercise(d_model=8, n_heads=2, seq_len=5, bias=True, mask="causal")
    calls = []

    def mha(x, w_q, w_k, w_v, w_o, mask, b_q, b_k, b_v, b_o):
        calls.append((b_q.shape, b_o.shape))
        return students.reference_stages(x, w_q, w_k, w_v, w_o, mask, 2, b_q, b_k, b_v, b_o)
    assert attnlab.check(mha, ex).passed
    assert calls == [((8,), (8,))]
    # Forgetting b_o: out is wrong, every stage before it right.
    def no_b_o(x, w_q, w_k, w_v, w_o, mask, b_q, b_k, b_v, b_o):
        return students.reference_stages(x, w_q, w_k, w_v, w_o, mask, 2, b_q, b_k, b_v)
    result = attnlab.check(no_b_o, ex)
    assert result.first_wrong == "out" and result.stages["concat"].right


# (student, stages, first wrong stage, the core's mistake name or None for "nothing known")
MISTAKES = [
    (students.no_scale_student, "weights", "no-scale"),
    (students.softmax_wrong_axis_student, "weights", "softmax-wrong-axis"),
    (students.no_head_transpose_student, "scores", "forget-transpose"),
    (students.reshape_heads_student, "q_heads", None),
    (students.flipped_mask_student, "masked", None),
    (students.missing_mask_student, "weights", "mask-missing"),
]


@pytest.mark.parametrize("student, first_wrong, mistake", MISTAKES,
                         ids=[m[0].__name__ for m in MISTAKES])
def test_mistake_named_from_the_stages(ex, student, first_wrong, mistake):
    result = attnlab.check(student(heads(ex)), ex)
    assert not result.passed
    assert result.first_wrong == first_wrong, str(result)
    assert result.mistake == mistake, str(result)
    report = str(result)
    assert f"First wrong stage: {first_wrong}" in report
    if mistake:
        assert f"Mistake: {mistake} (" in report and result.fix and result.fix in report
    else:
        assert result.mistakes == [] and "Diagnosis: nothing known" in report
    with pytest.raises(AssertionError) as failed:
        attnlab.testing.assert_mha(student(heads(ex)), ex)
    assert str(failed.value) == report


# From out alone: the first wrong stage is out; the mistake as far as out shows it.
OUT_ONLY = [
    (students.no_scale_student, "no-scale"),
    (students.softmax_wrong_axis_student, "softmax-wrong-axis"),
    (students.reshape_heads_student, None),
    (students.flipped_mask_student, None),
    (students.missing_mask_student, None),
    (students.no_head_transpose_student, None),
]


@pytest.mark.parametrize("student, mistake", OUT_ONLY, ids=[m[0].__name__ for m in OUT_ONLY])
def test_mistake_named_from_out_alone(ex, student, mistake):
    result = attnlab.check(students.out_only(student(heads(ex))), ex)
    assert result.first_wrong == "out", str(result)
    assert result.mistake == mistake, str(result)


def test_a_raising_solution_is_said_with_its_last_line(ex):
    def mha(x, w_q, w_k, w_v, w_o, mask):
        q = x @ w_q
        return q.reshape(x.shape[0], x.shape[1], 3, -1)  # h*d_k is no multiple of 3
    result = attnlab.check(mha, ex)
    assert not result.passed and result.first_wrong is None
    assert result.error.startswith("mha() raised ValueError: cannot reshape array of size ")
    assert "test_check.py line" in result.error and "return q.reshape(" in result.error
    assert str(result).startswith(f"Checking mha() against {ex.label}\n")
    with pytest.raises(AssertionError, match=r"mha\(\) raised ValueError"):
        attnlab.testing.assert_mha(mha, ex)


def test_a_solution_that_runs_too_long_is_stopped(ex):
    def mha(x, w_q, w_k, w_v, w_o, mask):
        out = x @ w_q
        while True:
            try:
                out = out + 0
            except Exception:  # a student's catch-all does not swallow the stop
                pass
    result = attnlab.check(mha, ex, timeout=0.3)
    assert not result.passed
    assert result.error.startswith("mha() ran for more than 0.3 s and was stopped\n  at "
                                   "test_check.py line "), result.error
    assert "is a loop not ending?" in result.error
    # The alarm is off again: a right solution after it is graded as usual.
    assert attnlab.check(students.right_student(heads(ex)), ex, timeout=0.3).passed


def test_not_implemented_is_the_starters_message(ex):
    def mha(x, w_q, w_k, w_v, w_o, mask):
        raise NotImplementedError("still to write")
    result = attnlab.check(mha, ex)
    assert not result.passed
    assert str(result) == ("mha(): mha() is not implemented yet: fill in its body in mha.py (or "
                           "mha_torch.py), run it again, then check\n")


def test_nan_is_named_with_its_index(ex):
    right = students.right_student(heads(ex))

    def mha(*args):
        out = right(*args).copy()
        out[0, 2, 1] = np.nan
        return out
    result = attnlab.check(mha, ex)
    assert result.first_wrong == "out"
    assert result.stages["out"].non_finite == "NaN at index (0, 2, 1)"
    assert "NaN at index (0, 2, 1)" in str(result)


def test_wrong_shape_is_said_in_shapes(ex):
    right = students.right_student(heads(ex))
    result = attnlab.check(lambda *args: right(*args)[0], ex)  # the batch axis dropped
    B, T, d = ex.stages[-1][1]
    assert result.first_wrong == "out" and not result.stages["out"].shape_ok
    assert (f"WRONG shape: out is ({T}, {d}); this exercise's out is ({B}, {T}, {d})"
            in str(result))


@pytest.mark.parametrize("returned, said", [
    (None, "returned None: return out, an array of shape"),
    ((1, 2), "returned a tuple of 2: return out"),
    ({"out": "nope"}, "'s out is a str, not an array of numbers"),
    ({3: np.zeros(3)}, "returned a dict with the key 3"),
    ({"weights": None}, "'s weights is None: return out"),
])
def test_wrong_type_is_said(ex, returned, said):
    def mha(*args):
        return returned
    result = attnlab.check(mha, ex)
    assert not result.passed and said in result.error, result.error


def test_what_is_not_a_solution_is_a_type_error(ex):
    with pytest.raises(TypeError, match="a NumPy function f\\(x, w_q, w_k, w_v, w_o, mask\\)"):
        attnlab.check(42, ex)

    class Linear:  # stands for torch.nn.Module: a class whose module is torch's
        __module__ = "torch.nn.modules.linear"

        def __call__(self, x):
            return x
    with pytest.raises(TypeError, match="PyTorch.* is not accepted yet: give a NumPy function"):
        attnlab.check(Linear(), ex)


def test_report_is_the_command_lines(cli, tmp_path):
    ex = attnlab.exercise("seed003")
    folder = tmp_path / "ex"
    ex.save(folder)
    answer = folder / "answer.npz"
    for student in (students.right_student, students.softmax_wrong_axis_student,
                    students.reshape_heads_student):
        stages = student(2)(ex.x, ex.w_q, ex.w_k, ex.w_v, ex.w_o, ex.mask)
        np.savez(answer, **(stages if isinstance(stages, dict) else {"out": stages}))
        said = cli("check", str(folder))
        result = attnlab.check(str(answer), str(folder))
        assert str(result) == said.stdout and said.stdout.startswith("Checking ")
        assert result.passed == (said.returncode == 0)
