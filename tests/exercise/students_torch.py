"""Students' multi-head attention in PyTorch, written the way students write it (view, transpose,
masked_fill, F.softmax), independently of Attention Lab's core. Same bugs as students_numpy.py;
returns the stages as NumPy arrays."""
import math

import torch
import torch.nn.functional as F

from students_numpy import load_exercise  # noqa: F401  (the runner loads through this module)


def student_mha(p, bug=None):
    bugs = set(bug.split("+")) if bug else set()
    t = lambda a: None if a is None else torch.from_numpy(a).double()
    x, w_q, w_k, w_v, w_o = (t(p[n]) for n in ["x", "w_q", "w_k", "w_v", "w_o"])
    b_q, b_k, b_v, b_o = (t(p[n]) for n in ["b_q", "b_k", "b_v", "b_o"])
    visible = torch.from_numpy(p["visible"])[:, None]          # (B, 1, T, T)
    s = p["sizes"]
    B, T, _ = x.shape
    h, n_kv, d_k, d_v = s["n_heads"], s["n_kv_heads"], s["d_k"], s["d_v"]
    lin = lambda a, w, b: a @ w if b is None else a @ w + b
    q = lin(x, w_q, b_q)
    k = lin(x, w_q if "shared-qk-projection" in bugs else w_k, b_k)
    v = lin(x, w_v, b_v)
    st = {"q": q, "k": k, "v": v}
    g = h // n_kv
    if bugs & {"forget-transpose", "forget-transpose-both"}:
        q_split = q.view(B, T, h, d_k)                          # no .transpose(1, 2)
        k_split = k.view(B, T, n_kv, d_k).repeat_interleave(g, dim=2)
        v_split = v.view(B, T, n_kv, d_v).repeat_interleave(g, dim=2)
        scores = q_split @ k_split.transpose(-2, -1)            # (B, T, h, h)
        weights = F.softmax(scores / math.sqrt(d_k), dim=-1)  # the (T, T) mask no longer fits
        context = weights @ v_split
        if "forget-transpose" in bugs:
            concat = context.transpose(1, 2).contiguous().view(B, T, h * d_v)
        else:
            concat = context.reshape(B, T, h * d_v)
        out = concat if w_o is None else lin(concat, w_o, b_o)
        st.update(q_split=q_split, scores=scores, weights=weights, context=context,
                  concat=concat, out=out)
        return {n: a.numpy() for n, a in st.items()}
    if "interleaved-heads" in bugs:
        q_split = q.view(B, T, d_k, h).transpose(2, 3)
        k_split = k.view(B, T, d_k, n_kv).transpose(2, 3)
        v_split = v.view(B, T, d_v, n_kv).transpose(2, 3)
    else:
        q_split = q.view(B, T, h, d_k)
        k_split = k.view(B, T, n_kv, d_k)
        v_split = v.view(B, T, n_kv, d_v)
    q_heads = q_split.transpose(1, 2)
    k_heads = k_split.transpose(1, 2).repeat_interleave(g, dim=1)
    v_heads = v_split.transpose(1, 2).repeat_interleave(g, dim=1)
    scores = q_heads @ k_heads.transpose(-2, -1)
    if "no-scale" in bugs:
        scaled = scores
    elif "scale-d-model" in bugs:
        scaled = scores / math.sqrt(s["d_model"])
    else:
        scaled = scores / math.sqrt(d_k)
    if "mask-zero" in bugs:
        masked = scaled.masked_fill(~visible, 0)
    elif "mask-after-softmax" in bugs:
        masked = scaled
    else:
        masked = scaled.masked_fill(~visible, float("-inf"))
    weights = F.softmax(masked, dim=-2 if "softmax-wrong-axis" in bugs else -1)
    if "mask-after-softmax" in bugs:
        weights = weights.masked_fill(~visible, 0)
    context = weights @ v_heads
    context_t = context.transpose(1, 2)
    if "concat-no-transpose" in bugs:
        concat = context.contiguous().view(B, T, h * d_v)
    else:
        concat = context_t.contiguous().view(B, T, h * d_v)
    out = concat if w_o is None or "no-output-projection" in bugs else lin(concat, w_o, b_o)
    if "residual-added" in bugs:
        out = out + x[..., : out.shape[-1]]
    st.update(q_split=q_split, q_heads=q_heads, scores=scores, scaled=scaled, weights=weights,
              context=context, context_t=context_t, concat=concat, out=out)
    if "mask-after-softmax" not in bugs:
        st["masked"] = masked
    return {n: a.numpy() for n, a in st.items()}
