#!/usr/bin/python3
"""The same check as numpy_reference.py, with the loss and gradients from PyTorch autograd
(float64, CPU) instead of a hand-derived backward pass. Optional: the test suite uses the NumPy
script; this one is a second, independent opinion (PyTorch 1.13: Debian's python3-torch).

Usage:
    torch_reference.py MODEL_DIR GRADS_DIR [--rtol X] [--mask causal|none|auto]
    torch_reference.py --self-test

The directory format, the loading, the checks on shapes and the comparison
(max|ours - ref| <= rtol * max(1, max|ref|)) are numpy_reference.py's (imported from the same
folder); the forward pass below is written again with torch ops, and the gradients come from
autograd. The conventions (the issue's "The model" section) are the same:
  X = tok_emb[tokens] + pos_emb[:T]; per layer z = z + MHA(z) (q/k/v = z W + b, viewed
  (B, T, h, d) and transposed to (B, h, T, d), scores q k^T / sqrt(d_k), causal mask unless the
  task is bidirectional, softmax over keys, heads concatenated head-major, out = concat W_o + b_o),
  then z = z + relu(z W_1 + b_1) W_2 + b_2 when the layer has an MLP; logits_j = z U_j + c_j;
  loss = sum over outputs of the mean cross-entropy over targets != -1.
  Positions by model.json's "pos" (issue 23, absent = learned): sinusoidal adds numpy_reference's
  table, rope turns q and k (x cos + rotate_half(x) sin, written again here with torch ops), alibi
  adds numpy_reference's bias matrix to the scores; autograd does every backward.

--self-test: writes numpy_reference.py's example (a 2-layer, biased, MLP-on model with 2 outputs
and d_k != d_model/h, its NumPy loss and gradients), checks it here (NumPy vs autograd), runs
torch.autograd.gradcheck (finite differences in float64) on the same loss, and checks that a
corrupted gradient is caught.
"""
import argparse
import math
import os
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_reference as ref  # noqa: E402  (loading, format checks, comparison)

try:
    import torch
except ImportError:
    print("error: PyTorch is not installed for this Python "
          f"({sys.executable}); on Debian: apt-get install -y python3-torch")
    sys.exit(2)


def torch_loss(tp, st, tokens, targets):
    """tp: name -> float64 tensor (requires_grad); returns (total, per-output list)."""
    B, T = tokens.shape
    h = st["heads"]
    pos = st.get("pos", "learned")
    z = tp["tok_emb"][tokens]
    if pos == "learned":
        z = z + tp["pos_emb"][:T].unsqueeze(0)
    elif pos == "sinusoidal":
        z = z + torch.from_numpy(ref.sinusoidal_table(T, st["D"])).unsqueeze(0)
    if st["causal"]:
        hidden = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)  # key j > query i
    else:
        hidden = torch.zeros(T, T, dtype=torch.bool)
    for l, ls in enumerate(st["layers"]):
        pre = f"layer{l}."

        def proj(w, b, width):
            y = z @ tp[pre + w]
            if ls["bias"]:
                y = y + tp[pre + b]
            return y.view(B, T, h, width).transpose(1, 2)
        q = proj("w_q", "b_q", ls["d_k"])
        k = proj("w_k", "b_k", ls["d_k"])
        v = proj("w_v", "b_v", ls["d_v"])
        if pos == "rope":  # (B, h, T, d_k): rotate_half(x) = cat(-x2, x1)
            cos, sin = (torch.from_numpy(a) for a in ref.rope_cos_sin(T, ls["d_k"]))
            half = ls["d_k"] // 2
            q = q * cos + torch.cat([-q[..., half:], q[..., :half]], dim=-1) * sin
            k = k * cos + torch.cat([-k[..., half:], k[..., :half]], dim=-1) * sin
        scale = 1.0 / math.sqrt(ls["d_k"]) if ref.SCALE_BY_SQRT_DK else 1.0
        scores = (q @ k.transpose(-2, -1)) * scale
        if pos == "alibi":
            scores = scores + torch.from_numpy(ref.alibi_bias(T, h)).unsqueeze(0)
        scores = scores.masked_fill(hidden, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        concat = (weights @ v).transpose(1, 2).contiguous().view(B, T, h * ls["d_v"])
        out = concat @ tp[pre + "w_o"]
        if ls["bias"]:
            out = out + tp[pre + "b_o"]
        z = z + out
        if ls["mlp"]:
            z = z + torch.relu(z @ tp[pre + "mlp_w1"] + tp[pre + "mlp_b1"]) @ tp[pre + "mlp_w2"] \
                + tp[pre + "mlp_b2"]
    per = []
    for j in range(st["n_out"]):
        logits = z @ tp[f"unembed{j}"] + tp[f"unembed{j}_bias"]
        tgt = targets[j]
        if bool((tgt != ref.IGNORE_INDEX).any()):
            per.append(torch.nn.functional.cross_entropy(
                logits.reshape(B * T, -1), tgt.reshape(-1), ignore_index=ref.IGNORE_INDEX,
                reduction="mean"))
        else:
            per.append(logits.sum() * 0.0)  # no target: contributes 0
    return sum(per), per


def check(model_dir, grads_dir, rtol=ref.DEFAULT_RTOL, mask="auto", verbose=True, show_ok=True):
    try:
        meta, params, st = ref.load_model(model_dir, verbose=verbose)
        if mask != "auto":
            st["causal"] = mask == "causal"
        tokens, targets, loss_doc, their = ref.load_grads(grads_dir, st["n_out"], verbose=verbose)
        their_loss, their_per = ref.parse_loss(loss_doc)
        if tokens.min() < 0 or tokens.max() >= st["V"]:
            raise ref.FormatError(f"batch tokens outside [0, {st['V']})")
        if "pos_emb" in params and tokens.shape[1] > params["pos_emb"].shape[0]:
            raise ref.FormatError("batch longer than pos_emb")
        for j, t in enumerate(targets):
            Vj = params[f"unembed{j}"].shape[1]
            bad = (t != ref.IGNORE_INDEX) & ((t < 0) | (t >= Vj))
            if bad.any():
                raise ref.FormatError(f"batch_targets{j} has values outside [0, {Vj})")
    except ref.FormatError as e:
        print(f"error: {e}")
        return 2
    tp = {k: torch.tensor(v, dtype=torch.float64, requires_grad=True) for k, v in params.items()}
    tt = torch.from_numpy(tokens)
    tgts = [torch.from_numpy(t) for t in targets]
    total, per = torch_loss(tp, st, tt, tgts)
    total.backward()
    print(f"torch {torch.__version__} autograd, float64; model: task={meta.get('task', '?')} "
          f"V={st['V']} D={st['D']} heads={st['heads']} layers={len(st['layers'])} "
          f"outputs={st['n_out']} mask={'causal' if st['causal'] else 'none'}; "
          f"batch {tuple(tokens.shape)}")
    failures = 0
    ok, line = ref.compare("loss", np.array(their_loss), np.array(total.item()), rtol)
    print(line + f"   (file {their_loss:.8g}, torch {total.item():.8g})")
    failures += not ok
    if their_per is not None:
        ok, line = ref.compare("loss per output", np.array(their_per),
                               np.array([p.item() for p in per]), rtol)
        print(line)
        failures += not ok
    for name in sorted(tp):
        g = tp[name].grad
        g = np.zeros(tp[name].shape) if g is None else g.numpy()
        if name not in their:
            print(f"FAIL {name:22s} grad_{name}.npy is missing")
            failures += 1
            continue
        ok, line = ref.compare(name, their[name], g, rtol)
        if show_ok or not ok:
            print(line)
        failures += not ok
    for name in sorted(set(their) - set(tp)):
        print(f"FAIL grad_{name}.npy has no matching parameter")
        failures += 1
    n = len(tp) + 1 + (their_per is not None)
    print(f"{n - failures} of {n} match (rtol {rtol:g}), {failures} mismatched")
    return 1 if failures else 0


def self_test():
    root = tempfile.mkdtemp(prefix="attnlab_torch_ref_")
    failures = []
    try:
        print("== NumPy example (2 layers, biases, MLP, 2 outputs) against autograd ==")
        ref.make_example(root, seed=3)
        model_dir, grads_dir = os.path.join(root, "model"), os.path.join(root, "grads")
        if check(model_dir, grads_dir) != 0:
            failures.append("NumPy and autograd disagree")

        print("\n== torch.autograd.gradcheck (finite differences, float64) on the same loss ==")
        _, params, st = ref.load_model(model_dir, verbose=False)
        tokens, targets, _, _ = ref.load_grads(grads_dir, st["n_out"], verbose=False)
        names = sorted(params)
        tt = torch.from_numpy(tokens)
        tgts = [torch.from_numpy(t) for t in targets]

        def f(*tensors):
            return torch_loss(dict(zip(names, tensors)), st, tt, tgts)[0]
        inputs = tuple(torch.tensor(params[n], dtype=torch.float64, requires_grad=True)
                       for n in names)
        try:
            torch.autograd.gradcheck(f, inputs, eps=1e-6, atol=1e-5, rtol=1e-4)
            print("gradcheck passed")
        except RuntimeError as e:
            print(f"gradcheck failed: {str(e)[:500]}")
            failures.append("gradcheck")

        print("\n== a corrupted gradient must fail ==")
        path = os.path.join(grads_dir, "grad_layer0.w_v.npy")
        g = np.load(path)
        g.reshape(-1)[0] += 1e-2 * max(1.0, float(np.abs(g).max()))
        np.save(path, g)
        if check(model_dir, grads_dir, verbose=False, show_ok=False) != 1:
            failures.append("corrupted gradient not detected")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print()
    if failures:
        print("SELF-TEST FAILED: " + "; ".join(failures))
        return 1
    print("self-test passed: autograd agrees with the NumPy reference and with finite "
          "differences, and a mismatch is detected")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model_dir", nargs="?")
    ap.add_argument("grads_dir", nargs="?")
    ap.add_argument("--rtol", type=float, default=ref.DEFAULT_RTOL)
    ap.add_argument("--mask", choices=["auto", "causal", "none"], default="auto")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="do not print model.json's keys")
    args = ap.parse_args(argv)
    torch.set_num_threads(2)
    if args.self_test:
        return self_test()
    if not args.model_dir or not args.grads_dir:
        ap.print_usage()
        print("error: MODEL_DIR and GRADS_DIR are required (or --self-test)")
        return 2
    return check(args.model_dir, args.grads_dir, rtol=args.rtol, mask=args.mask,
                 verbose=not args.quiet)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
