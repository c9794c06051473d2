"""Zero-copy: the arrays are views of the core's tensors (their base the C++ owner, views of one
storage share memory, strides as the core has them), and the trace's values are an independent
NumPy's."""
import gc

import numpy as np
import pytest

import attnlab
import students


@pytest.fixture(scope="module")
def ex():
    return attnlab.exercise(d_model=8, n_heads=2, mask="causal", seq_len=11)


def test_inputs_are_views_of_the_exercise(ex):
    x = ex.x
    assert x.base is ex._core and not x.flags.owndata
    assert np.shares_memory(ex.x, ex.x)  # two views of one tensor
    assert not x.flags.writeable
    with pytest.raises(ValueError):
        x[0, 0, 0] = 1.0


def test_trace_stages_are_the_cores_tensors(ex):
    tr = attnlab.trace(ex)
    assert tr.names()[:2] == ["x", "q"] and tr.names()[-1] == "out"
    q, q_split, q_heads = tr["q"], tr["q_split"], tr["q_heads"]
    assert q_split.array.base is tr._core
    # view(B, T, h, d_k) and transpose(1, 2) of q: one storage, no copy.
    assert q_split.is_view and q_heads.is_view and q_heads.storage == "q"
    assert np.shares_memory(q.array, q_split.array) and np.shares_memory(q.array, q_heads.array)
    # The transposed stage keeps the core's strides: (B, h, T, d_k) read with q's row length.
    B, T, hd = q.shape
    h, d_k = ex.sizes["n_heads"], ex.sizes["d_k"]
    assert q_heads.shape == (B, h, T, d_k)
    assert q_heads.strides == (T * hd, d_k, hd, 1)
    assert q_heads.array.strides == tuple(4 * s for s in q_heads.strides)
    assert not q_heads.array.flags.c_contiguous
    np.testing.assert_array_equal(q_heads.array, q.array.reshape(B, T, h, d_k).transpose(0, 2, 1, 3))
    # A stage that made its own storage.
    assert not tr["scores"].is_view and tr["scores"].array.flags.c_contiguous


def test_trace_values_match_an_independent_numpy(ex):
    tr = attnlab.trace(ex)
    ref = students.reference_stages(ex.x, ex.w_q, ex.w_k, ex.w_v, ex.w_o, ex.mask,
                                    ex.sizes["n_heads"])
    for name in ref:
        np.testing.assert_allclose(tr[name].array, ref[name], rtol=1e-5, atol=1e-5, err_msg=name)


def test_arrays_keep_their_owner_alive():
    def stage_of_a_dropped_exercise():
        return attnlab.trace(attnlab.exercise("seed003"))["k_heads"].array
    k_heads = stage_of_a_dropped_exercise()
    gc.collect()
    filler = [np.full(4096, 7.0, np.float32) for _ in range(64)]  # would reuse freed memory
    ex = attnlab.exercise("seed003")
    np.testing.assert_array_equal(k_heads, attnlab.trace(ex)["k_heads"].array)
    del filler


def test_trace_of_settings_the_exercise_refuses():
    # trace() runs any config the command line traces: cross-attention is no exercise.
    tr = attnlab.trace("seed002", sentence_kv="le chat dort")
    assert tr["k"].shape[1] == 3  # T_k: the three key/value words
    with pytest.raises(ValueError, match="cross-attention"):
        attnlab.exercise("seed002", sentence_kv="le chat dort")
