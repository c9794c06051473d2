#!/usr/bin/env python3
"""Training step: attnlab (bench_training) against PyTorch on the same model, task, batch and
optimiser, alternating, in one run; and attnlab-cli train's gradients against PyTorch autograd.
  /usr/bin/python3 bench/compare_training_pytorch.py build/bench/bench_training build/app/attnlab-cli [ROUNDS]
Model: previous-and-first, 1 layer, h=2, d_model 32, T 12, V 16, biases, batch 64, AdamW lr 3e-3.
PyTorch runs on 2 threads (torch.set_num_threads(2)), as the issue's reference run did."""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

bench, cli = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
torch.set_num_threads(2)
B, T, V, D, H = 64, 12, 16, 32, 2


class Model(torch.nn.Module):
    """The attnlab model: X = E[tok] + P; z = z + MHA(z) [+ MLP]; logits_j = z U_j + c_j."""

    def __init__(s, D, V, T, h, dk, layers, outputs, bias, mlp, causal):
        super().__init__()
        s.h, s.dk, s.causal, s.mlp = h, dk, causal, mlp
        s.tok_emb = torch.nn.Parameter(torch.randn(V, D))
        s.pos_emb = torch.nn.Parameter(torch.randn(T, D))
        s.layers = torch.nn.ModuleList()
        for _ in range(layers):
            l = torch.nn.Module()
            l.q = torch.nn.Linear(D, h * dk, bias=bias)
            l.k = torch.nn.Linear(D, h * dk, bias=bias)
            l.v = torch.nn.Linear(D, h * dk, bias=bias)
            l.o = torch.nn.Linear(h * dk, D, bias=bias)
            if mlp:
                l.w1 = torch.nn.Linear(D, 4 * D)
                l.w2 = torch.nn.Linear(4 * D, D)
            s.layers.append(l)
        s.unembed = torch.nn.ModuleList(torch.nn.Linear(D, v) for v in outputs)

    def forward(s, tokens, targets):
        Bn, Tn = tokens.shape
        z = s.tok_emb[tokens] + s.pos_emb[:Tn]
        for l in s.layers:
            q = l.q(z).view(Bn, Tn, s.h, s.dk).transpose(1, 2)
            k = l.k(z).view(Bn, Tn, s.h, s.dk).transpose(1, 2)
            v = l.v(z).view(Bn, Tn, s.h, s.dk).transpose(1, 2)
            scores = q @ k.transpose(-2, -1) / s.dk ** 0.5
            if s.causal:
                scores = scores.masked_fill(~torch.ones(Tn, Tn, dtype=torch.bool).tril(), float("-inf"))
            ctx = (scores.softmax(-1) @ v).transpose(1, 2).contiguous().view(Bn, Tn, -1)
            z = z + l.o(ctx)
            if s.mlp:
                z = z + l.w2(torch.relu(l.w1(z)))
        return sum(torch.nn.functional.cross_entropy(u(z).flatten(0, 1), y.flatten(), ignore_index=-1)
                   for u, y in zip(s.unembed, targets))


def name_map(model, cfg):
    """attnlab parameter name -> the PyTorch tensor holding it (Linear stores W transposed)."""
    m = {"tok_emb": (model.tok_emb, False), "pos_emb": (model.pos_emb, False)}
    for i, l in enumerate(model.layers):
        for a, lin in (("q", l.q), ("k", l.k), ("v", l.v), ("o", l.o)):
            m[f"layer{i}.w_{a}"] = (lin.weight, True)
            if cfg["bias"]:
                m[f"layer{i}.b_{a}"] = (lin.bias, False)
        if cfg["mlp"]:
            m[f"layer{i}.mlp_w1"], m[f"layer{i}.mlp_b1"] = (l.w1.weight, True), (l.w1.bias, False)
            m[f"layer{i}.mlp_w2"], m[f"layer{i}.mlp_b2"] = (l.w2.weight, True), (l.w2.bias, False)
    for j, u in enumerate(model.unembed):
        m[f"unembed{j}"], m[f"unembed{j}_bias"] = (u.weight, True), (u.bias, False)
    return m


def check_gradients():
    with tempfile.TemporaryDirectory() as work:
        out, grads = os.path.join(work, "m"), os.path.join(work, "g")
        subprocess.run([cli, "train", "--task", "previous-and-first", "--layers", "2", "--heads", "2",
                        "--d-model", "16", "--d-k", "6", "--seq-len", "8", "--vocab", "10", "--mlp",
                        "--bias", "--steps", "0", "--batch-size", "16", "--lr", "1e-3", "--seed",
                        "3", "--out", out, "--grads", grads], check=True, capture_output=True)
        cfg = json.load(open(os.path.join(out, "model.json")))
        model = Model(cfg["d_model"], cfg["vocab"], cfg["seq_len"], cfg["heads"], cfg["d_k"],
                      cfg["layers"], cfg["outputs"], cfg["bias"], cfg["mlp"], cfg["causal"]).double()
        names = name_map(model, cfg)
        with torch.no_grad():
            for name, (t, transposed) in names.items():
                a = torch.from_numpy(np.load(os.path.join(out, name + ".npy"))).double()
                t.copy_(a.T if transposed else a)
        tokens = torch.from_numpy(np.load(os.path.join(grads, "batch_tokens.npy")))
        targets = [torch.from_numpy(np.load(os.path.join(grads, f"batch_targets{j}.npy")))
                   for j in range(len(cfg["outputs"]))]
        loss = model(tokens, targets)
        loss.backward()
        ours = json.load(open(os.path.join(grads, "loss.json")))["loss"]
        print(f"loss: PyTorch {loss.item():.7f}, attnlab {ours:.7f}")
        worst = 0.0
        for name, (t, transposed) in names.items():
            g = t.grad.T if transposed else t.grad
            mine = np.load(os.path.join(grads, "grad_" + name + ".npy"))
            diff = np.abs(g.numpy() - mine).max() / max(np.abs(g.numpy()).max(), 1e-3)
            worst = max(worst, diff)
        print(f"gradients of {len(names)} parameters against autograd: worst relative error {worst:.2e}")
        return worst < 1e-4 and abs(loss.item() - ours) < 1e-5


def torch_step_time(steps=300):
    torch.manual_seed(0)
    model = Model(D, V, T, H, D // H, 1, [V, V], True, False, True)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.0)
    g = torch.Generator().manual_seed(0)
    batches = []
    for _ in range(16):
        tok = torch.randint(0, V, (B, T), generator=g)
        prev = torch.full((B, T), -1)
        prev[:, 1:] = tok[:, :-1]
        first = torch.full((B, T), -1)
        first[:, 1:] = tok[:, :1]
        batches.append((tok, [prev, first]))
    for i in range(20):  # warm-up
        loss = model(*batches[i % 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    start = time.perf_counter()
    for i in range(steps):
        loss = model(*batches[i % 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    return (time.perf_counter() - start) / steps


def attnlab_step_time():
    r = subprocess.run([bench, "--benchmark_filter=TrainingStep/2$", "--benchmark_format=json"],
                       check=True, capture_output=True, text=True)
    run = json.loads(r.stdout)["benchmarks"][0]
    return run["real_time"] * {"us": 1e-6, "ms": 1e-3, "ns": 1e-9}[run["time_unit"]]


ok = check_gradients()
ours, theirs = [], []
for r in range(rounds):
    ours.append(attnlab_step_time())
    theirs.append(torch_step_time())
    print(f"round {r + 1}: attnlab {ours[-1] * 1e6:.0f} us/step, PyTorch {theirs[-1] * 1e6:.0f} us/step")
a, t = float(np.median(ours)), float(np.median(theirs))
print(f"median over {rounds} rounds: attnlab {a * 1e6:.0f} us/step, PyTorch {torch.__version__} "
      f"{t * 1e6:.0f} us/step, {t / a:.1f}x faster")
sys.exit(0 if ok else 1)
