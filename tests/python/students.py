"""Multi-head attention in plain NumPy, written from the formulas and independently of Attention
Lab's core: a reference (every stage, float64) and students as students write them (right, and
with classic mistakes). Each student is f(x, w_q, w_k, w_v, w_o, mask) as attnlab.check calls it;
the number of heads comes from outside (a notebook's global; here a closure)."""
import numpy as np


def softmax(a, axis=-1):
    a = a - np.max(a, axis=axis, keepdims=True)
    e = np.exp(a)
    return e / np.sum(e, axis=axis, keepdims=True)


def reference_stages(x, w_q, w_k, w_v, w_o, mask, h, b_q=None, b_k=None, b_v=None, b_o=None):
    """Every stage by the export's names: Q = X W_q, split into h heads of d_k, move the heads
    forward, Q K^T / sqrt(d_k), -inf where mask is False, softmax over the keys, times V, heads
    back and side by side, times W_o (or the concat itself without W_o); each bias, when given,
    added after its product."""
    add = lambda a, b: a if b is None else a + b.astype(np.float64)
    x, w_q, w_k, w_v = (a.astype(np.float64) for a in (x, w_q, w_k, w_v))
    B, T, _ = x.shape
    q, k, v = add(x @ w_q, b_q), add(x @ w_k, b_k), add(x @ w_v, b_v)
    d_k, d_v = q.shape[-1] // h, v.shape[-1] // h
    s = {"q": q, "k": k, "v": v}
    for name, t, d in (("q", q, d_k), ("k", k, d_k), ("v", v, d_v)):
        s[name + "_split"] = t.reshape(B, T, h, d)
        s[name + "_heads"] = s[name + "_split"].transpose(0, 2, 1, 3)
    s["scores"] = s["q_heads"] @ s["k_heads"].transpose(0, 1, 3, 2)
    s["scaled"] = s["scores"] / np.sqrt(d_k)
    s["masked"] = np.where(mask[:, None, :, :], s["scaled"], -np.inf)
    s["weights"] = softmax(s["masked"])
    s["context"] = s["weights"] @ s["v_heads"]
    s["context_t"] = s["context"].transpose(0, 2, 1, 3)
    s["context_contiguous"] = np.ascontiguousarray(s["context_t"])
    s["concat"] = s["context_contiguous"].reshape(B, T, h * d_v)
    s["out"] = s["concat"] if w_o is None else add(s["concat"] @ w_o.astype(np.float64), b_o)
    return s


def right_student(h):
    def mha(x, w_q, w_k, w_v, w_o, mask):
        B, T, _ = x.shape
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        d_k = q.shape[-1] // h
        qh = q.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
        kh = k.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
        vh = v.reshape(B, T, h, -1).transpose(0, 2, 1, 3)
        scores = qh @ kh.transpose(0, 1, 3, 2) / np.sqrt(d_k)
        scores = np.where(mask[:, None], scores, -np.inf)
        weights = softmax(scores, axis=-1)
        concat = (weights @ vh).transpose(0, 2, 1, 3).reshape(B, T, -1)
        return concat if w_o is None else concat @ w_o
    return mha


def no_scale_student(h):
    """Forgets the 1/sqrt(d_k); hands in the scores and the weights too."""
    def mha(x, w_q, w_k, w_v, w_o, mask):
        B, T, _ = x.shape
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        d_k = q.shape[-1] // h
        qh = q.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
        kh = k.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
        vh = v.reshape(B, T, h, -1).transpose(0, 2, 1, 3)
        scores = qh @ kh.transpose(0, 1, 3, 2)
        weights = softmax(np.where(mask[:, None], scores, -np.inf))
        concat = (weights @ vh).transpose(0, 2, 1, 3).reshape(B, T, -1)
        out = concat if w_o is None else concat @ w_o
        return {"q": q, "weights": weights, "out": out}
    return mha


def softmax_wrong_axis_student(h):
    """Normalises over the queries (axis -2) instead of the keys."""
    def mha(x, w_q, w_k, w_v, w_o, mask):
        B, T, _ = x.shape
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        d_k = q.shape[-1] // h
        qh = q.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
        kh = k.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
        vh = v.reshape(B, T, h, -1).transpose(0, 2, 1, 3)
        scaled = qh @ kh.transpose(0, 1, 3, 2) / np.sqrt(d_k)
        masked = np.where(mask[:, None], scaled, -np.inf)
        weights = softmax(masked, axis=-2)
        concat = (weights @ vh).transpose(0, 2, 1, 3).reshape(B, T, -1)
        out = concat if w_o is None else concat @ w_o
        return {"scaled": scaled, "masked": masked, "weights": weights, "out": out}
    return mha


def no_head_transpose_student(h):
    """Splits the heads but never moves them in front of the tokens: the scores come out
    (B, T, h, h), heads attending to heads; the (T, T) mask no longer fits, so it is dropped."""
    def mha(x, w_q, w_k, w_v, w_o, mask):
        B, T, _ = x.shape
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        d_k = q.shape[-1] // h
        qh = q.reshape(B, T, h, d_k)
        kh = k.reshape(B, T, h, d_k)
        vh = v.reshape(B, T, h, -1)
        scores = qh @ kh.transpose(0, 1, 3, 2)
        weights = softmax(scores / np.sqrt(d_k))
        concat = (weights @ vh).reshape(B, T, -1)
        out = concat if w_o is None else concat @ w_o
        return {"q": q, "scores": scores, "out": out}
    return mha


def reshape_heads_student(h):
    """q.reshape(B, h, T, d_k) straight from (B, T, h*d_k): every shape right, the numbers not."""
    def mha(x, w_q, w_k, w_v, w_o, mask):
        B, T, _ = x.shape
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        d_k = q.shape[-1] // h
        qh, kh, vh = q.reshape(B, h, T, d_k), k.reshape(B, h, T, d_k), v.reshape(B, h, T, -1)
        scores = qh @ kh.transpose(0, 1, 3, 2) / np.sqrt(d_k)
        weights = softmax(np.where(mask[:, None], scores, -np.inf))
        concat = (weights @ vh).transpose(0, 2, 1, 3).reshape(B, T, -1)
        out = concat if w_o is None else concat @ w_o
        return {"q": q, "q_heads": qh, "out": out}
    return mha


def flipped_mask_student(h):
    """np.triu where np.tril was meant: each token sees the future and not the past."""
    def mha(x, w_q, w_k, w_v, w_o, mask):
        B, T, _ = x.shape
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        d_k = q.shape[-1] // h
        qh = q.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
        kh = k.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
        vh = v.reshape(B, T, h, -1).transpose(0, 2, 1, 3)
        scaled = qh @ kh.transpose(0, 1, 3, 2) / np.sqrt(d_k)
        causal = np.triu(np.ones((T, T), dtype=bool))
        masked = np.where(causal, scaled, -np.inf)
        weights = softmax(masked)
        concat = (weights @ vh).transpose(0, 2, 1, 3).reshape(B, T, -1)
        out = concat if w_o is None else concat @ w_o
        return {"scaled": scaled, "masked": masked, "out": out}
    return mha


def missing_mask_student(h):
    """Forgets the causal mask: every token sees every other."""
    def mha(x, w_q, w_k, w_v, w_o, mask):
        B, T, _ = x.shape
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        d_k = q.shape[-1] // h
        qh = q.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
        kh = k.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
        vh = v.reshape(B, T, h, -1).transpose(0, 2, 1, 3)
        weights = softmax(qh @ kh.transpose(0, 1, 3, 2) / np.sqrt(d_k))
        concat = (weights @ vh).transpose(0, 2, 1, 3).reshape(B, T, -1)
        out = concat if w_o is None else concat @ w_o
        return {"weights": weights, "out": out}
    return mha


def out_only(student):
    """The same student handing in out alone."""
    def mha(*args):
        stages = student(*args)
        return stages["out"] if isinstance(stages, dict) else stages
    mha.__name__ = "mha"
    return mha
