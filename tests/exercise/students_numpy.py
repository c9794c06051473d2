"""Students' multi-head attention in NumPy, written the way students write it, independently of
Attention Lab's core: the right one and one per classic mistake, plus bugs no known mistake
explains. Each returns the dict of stages mha.py saves (the export's names)."""
import json
import os

import numpy as np


def load_exercise(folder):
    ex = json.load(open(os.path.join(folder, "exercise.json")))

    def load(name):
        path = os.path.join(folder, name + ".npy")
        return np.load(path).astype(np.float64) if os.path.exists(path) else None

    p = {n: load(n) for n in ["x", "w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o"]}
    p["visible"] = np.array(ex["mask"]["visible"], dtype=bool)
    p["sizes"] = ex["sizes"]
    return p


def softmax(s, axis=-1):
    m = np.max(s, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m)
    total = e.sum(axis=axis, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def student_mha(p, bug=None):
    """bug: None (right), a mistake's name, one of the unknown bugs ("interleaved-heads",
    "residual-added"), or several joined by '+' (students combine mistakes)."""
    bugs = set(bug.split("+")) if bug else set()
    x, s = p["x"], p["sizes"]
    B, T, _ = x.shape
    h, n_kv, dk, dv = s["n_heads"], s["n_kv_heads"], s["d_k"], s["d_v"]
    add = lambda a, b: a if b is None else a + b
    q = add(x @ p["w_q"], p["b_q"])
    k = add(x @ (p["w_q"] if "shared-qk-projection" in bugs else p["w_k"]), p["b_k"])
    v = add(x @ p["w_v"], p["b_v"])
    st = {"q": q, "k": k, "v": v}
    if bugs & {"forget-transpose", "forget-transpose-both"}:
        # The heads are never moved to a batch axis; the (T, T) mask no longer fits the
        # (B, T, h, h) scores, so it is dropped to make the code run. "forget-transpose" keeps
        # the transpose back before the concat, "-both" leaves that out too.
        qh = q.reshape(B, T, h, dk)
        kh = k.reshape(B, T, n_kv, dk).repeat(h // n_kv, axis=2)
        vh = v.reshape(B, T, n_kv, dv).repeat(h // n_kv, axis=2)
        scores = qh @ kh.transpose(0, 1, 3, 2)                    # (B, T, h, h)
        weights = softmax(scores / np.sqrt(dk))
        context = weights @ vh                                    # (B, T, h, d_v)
        if "forget-transpose" in bugs:
            concat = context.transpose(0, 2, 1, 3).reshape(B, T, h * dv)
        else:
            concat = context.reshape(B, T, h * dv)
        out = concat @ p["w_o"] if p["w_o"] is not None else concat
        if p["b_o"] is not None:
            out = out + p["b_o"]
        st.update(q_split=qh, scores=scores, weights=weights, context=context, concat=concat,
                  out=out)
        return st
    if "interleaved-heads" in bugs:
        # Splits each row as (d_k, h) and swaps: head i gets every h-th column.
        q_split = q.reshape(B, T, dk, h).transpose(0, 1, 3, 2)
        k_split = k.reshape(B, T, dk, n_kv).transpose(0, 1, 3, 2)
        v_split = v.reshape(B, T, dv, n_kv).transpose(0, 1, 3, 2)
    else:
        q_split = q.reshape(B, T, h, dk)
        k_split = k.reshape(B, T, n_kv, dk)
        v_split = v.reshape(B, T, n_kv, dv)
    q_heads = q_split.transpose(0, 2, 1, 3)                      # (B, h, T, d_k)
    k_heads = np.repeat(k_split.transpose(0, 2, 1, 3), h // n_kv, axis=1)
    v_heads = np.repeat(v_split.transpose(0, 2, 1, 3), h // n_kv, axis=1)
    scores = q_heads @ k_heads.transpose(0, 1, 3, 2)             # (B, h, T, T)
    if "no-scale" in bugs:
        scaled = scores
    elif "scale-d-model" in bugs:
        scaled = scores / np.sqrt(s["d_model"])
    else:
        scaled = scores / np.sqrt(dk)
    vis = p["visible"][:, None, :, :]                            # (B, 1, T, T)
    if "mask-zero" in bugs:
        masked = np.where(vis, scaled, 0.0)
    elif "mask-after-softmax" in bugs:
        masked = scaled
    else:
        masked = np.where(vis, scaled, -np.inf)
    if "softmax-wrong-axis" in bugs:
        weights = softmax(masked, axis=-2)
    else:
        weights = softmax(masked, axis=-1)
    if "mask-after-softmax" in bugs:
        weights = weights * vis
    context = weights @ v_heads                                  # (B, h, T, d_v)
    context_t = context.transpose(0, 2, 1, 3)                    # (B, T, h, d_v)
    if "concat-no-transpose" in bugs:
        concat = context.reshape(B, T, h * dv)
    else:
        concat = context_t.reshape(B, T, h * dv)
    if p["w_o"] is None or "no-output-projection" in bugs:
        out = concat
    else:
        out = concat @ p["w_o"]
        if p["b_o"] is not None:
            out = out + p["b_o"]
    if "residual-added" in bugs:
        out = out + x[..., : out.shape[-1]]
    st.update(q_split=q_split, q_heads=q_heads, scores=scores, scaled=scaled, weights=weights,
              context=context, context_t=context_t, concat=concat, out=out)
    if "mask-after-softmax" not in bugs:
        st["masked"] = masked
    return st
