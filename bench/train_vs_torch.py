#!/usr/bin/python3
"""Training speed of issue 12's model in PyTorch 1.13 (CPU), and side by side with
`attnlab-cli train` when --cli is given, alternating in one run.

The model (the issue's "The model" section; the same as tests/training/numpy_reference.py):
tok_emb (V, D) + pos_emb (T, D); per layer z = z + MHA(z) with W_q, W_k, W_v (D, h*d_k),
W_o (h*d_k, D), optional biases, scores / sqrt(d_k), causal mask; optional ReLU MLP (4 D);
logits_j = z U_j + c_j; loss = sum over outputs of the mean cross-entropy over targets != -1.
Trained with AdamW (betas 0.9, 0.999, eps 1e-8, weight decay 0 unless --weight-decay), float32,
torch.set_num_threads(2) (--threads).

The task, previous-and-first, generated on the fly from the seed (a fresh batch every step):
  tokens uniform in [0, V), shape (B, T);
  output 0: target at position t = token at t-1 for t >= 1, -1 (no target) at t = 0;
  output 1: target at position t = token at position 0 for t >= 1, -1 at t = 0.
Accuracy is measured on each step's training batch (from that step's forward, before the
update), per output, over the positions with a target; "100 %" = both outputs at 1.0 on the
same step. A final accuracy on a fresh batch of 1024 sequences is also printed.

Initialisation (PyTorch's usual defaults; the C++ trainer's may differ, which changes the steps
to 100 % but not the time per step): tok_emb, pos_emb ~ N(0, 1) (nn.Embedding); projections and
unembeddings as nn.Linear (U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weights and biases).

Per step time = data generation + forward + loss + backward + optimizer step (accuracy
bookkeeping excluded); the median over all steps of a run is reported.

With --cli PATH, each round runs, alternating: PyTorch (N steps), then
  PATH train --task previous-and-first --layers L --heads H --d-model D --seq-len T --vocab V
       --steps N --batch-size B --lr X --seed S --out DIR
and the same with --steps N0 (N0 = N/10 by default); the CLI's time per step is
(wall(N) - wall(N0)) / (N - N0), which removes process start-up and file writing; wall(N) / N
is printed too. Its steps to 100 % come from DIR/history.json when it can be read. If PATH does
not exist or fails, the script says so and reports PyTorch alone.

Usage:
  bench/train_vs_torch.py [--steps 1500] [--rounds 3] [--cli build/app/attnlab-cli]
                          [--heads 2] [--layers 1] [--d-model 32] [--seq-len 12] [--vocab 16]
                          [--batch-size 64] [--lr 3e-3] [--seed 0] [--bias|--no-bias] [--mlp]
"""
import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import torch
except ImportError:
    print("error: PyTorch is not installed for this Python "
          f"({sys.executable}); on Debian: apt-get install -y python3-torch")
    sys.exit(2)

IGNORE_INDEX = -1


# ---- the task ------------------------------------------------------------------------------------
def previous_and_first_batch(gen, B, T, V):
    """tokens (B, T) uniform in [0, V); targets: [previous token, first token], -1 at t = 0."""
    tokens = torch.randint(0, V, (B, T), generator=gen)
    prev = torch.full((B, T), IGNORE_INDEX, dtype=torch.long)
    prev[:, 1:] = tokens[:, :-1]
    first = torch.full((B, T), IGNORE_INDEX, dtype=torch.long)
    first[:, 1:] = tokens[:, :1]
    return tokens, [prev, first]


# ---- the model -----------------------------------------------------------------------------------
class AttentionOnly(torch.nn.Module):
    def __init__(self, V, T, D, heads, d_k, layers, bias, mlp, out_vocabs):
        super().__init__()
        self.h, self.d_k = heads, d_k
        self.tok_emb = torch.nn.Embedding(V, D)
        self.pos_emb = torch.nn.Embedding(T, D)
        self.layers = torch.nn.ModuleList()
        for _ in range(layers):
            m = torch.nn.Module()
            m.q = torch.nn.Linear(D, heads * d_k, bias=bias)
            m.k = torch.nn.Linear(D, heads * d_k, bias=bias)
            m.v = torch.nn.Linear(D, heads * d_k, bias=bias)
            m.o = torch.nn.Linear(heads * d_k, D, bias=bias)
            m.mlp = torch.nn.Sequential(torch.nn.Linear(D, 4 * D), torch.nn.ReLU(),
                                        torch.nn.Linear(4 * D, D)) if mlp else None
            self.layers.append(m)
        self.unembed = torch.nn.ModuleList(torch.nn.Linear(D, Vj) for Vj in out_vocabs)
        self.register_buffer("hidden", torch.triu(torch.ones(T, T, dtype=torch.bool), 1))

    def forward(self, tokens, return_weights=False):
        B, T = tokens.shape
        z = self.tok_emb(tokens) + self.pos_emb.weight[:T]
        all_weights = []
        for m in self.layers:
            q = m.q(z).view(B, T, self.h, self.d_k).transpose(1, 2)
            k = m.k(z).view(B, T, self.h, self.d_k).transpose(1, 2)
            v = m.v(z).view(B, T, self.h, self.d_k).transpose(1, 2)
            scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.d_k)
            w = torch.softmax(scores.masked_fill(self.hidden[:T, :T], float("-inf")), dim=-1)
            all_weights.append(w)
            z = z + m.o((w @ v).transpose(1, 2).reshape(B, T, self.h * self.d_k))
            if m.mlp is not None:
                z = z + m.mlp(z)
        logits = [u(z) for u in self.unembed]
        return (logits, all_weights) if return_weights else logits


def loss_fn(logits, targets):
    return sum(torch.nn.functional.cross_entropy(l.reshape(-1, l.shape[-1]), t.reshape(-1),
                                                 ignore_index=IGNORE_INDEX)
               for l, t in zip(logits, targets))


def accuracies(logits, targets):
    out = []
    for l, t in zip(logits, targets):
        valid = t != IGNORE_INDEX
        out.append(((l.argmax(-1) == t) & valid).sum().item() / max(1, valid.sum().item()))
    return out


def train_torch(args):
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed + 1)
    d_k = args.d_k or args.d_model // args.heads
    model = AttentionOnly(args.vocab, args.seq_len, args.d_model, args.heads, d_k, args.layers,
                          args.bias, args.mlp, [args.vocab, args.vocab])
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.999), eps=1e-8,
                            weight_decay=args.weight_decay)
    times, first_100, first_100_wall = [], None, None
    start = time.perf_counter()
    for step in range(1, args.steps + 1):
        t0 = time.perf_counter()
        tokens, targets = previous_and_first_batch(gen, args.batch_size, args.seq_len, args.vocab)
        logits = model(tokens)
        loss = loss_fn(logits, targets)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        times.append(time.perf_counter() - t0)
        if first_100 is None:
            with torch.no_grad():
                if min(accuracies(logits, targets)) == 1.0:
                    first_100, first_100_wall = step, time.perf_counter() - start
    total = time.perf_counter() - start
    with torch.no_grad():  # held-out accuracy and the head pattern (layer 0) on a fresh batch
        tokens, targets = previous_and_first_batch(gen, 1024, args.seq_len, args.vocab)
        logits, weights = model(tokens, return_weights=True)
        acc = accuracies(logits, targets)
        w = weights[0][:, :, 1:, :]  # queries t >= 1: (B, h, T-1, T)
        t_idx = torch.arange(1, args.seq_len)
        on_prev = w[:, :, torch.arange(args.seq_len - 1), t_idx - 1].mean(dim=(0, 2)).tolist()
        on_first = w[..., 0].mean(dim=(0, 2)).tolist()
    return {"median_ms": statistics.median(times) * 1e3, "first_100": first_100,
            "first_100_wall": first_100_wall, "total_s": total, "final_loss": loss.item(),
            "eval_acc": acc, "on_prev": on_prev, "on_first": on_first}


# ---- the CLI -------------------------------------------------------------------------------------
def cli_command(args, steps, out_dir):
    cmd = [args.cli, "train", "--task", "previous-and-first", "--layers", str(args.layers),
           "--heads", str(args.heads), "--d-model", str(args.d_model), "--seq-len",
           str(args.seq_len), "--vocab", str(args.vocab), "--steps", str(steps),
           "--batch-size", str(args.batch_size), "--lr", str(args.lr), "--seed", str(args.seed),
           "--out", out_dir]
    if args.d_k:
        cmd += ["--d-k", str(args.d_k)]
    if args.bias_flag is not None:
        cmd += ["--bias" if args.bias else "--no-bias"]
    if args.mlp:
        cmd += ["--mlp"]
    if args.weight_decay:
        cmd += ["--weight-decay", str(args.weight_decay)]
    if args.cli_log_every:
        cmd += ["--log-every", str(args.cli_log_every)]
    return cmd


def run_cli(args, steps):
    """(wall seconds, out dir) or raises RuntimeError with the CLI's message."""
    out_dir = tempfile.mkdtemp(prefix="attnlab_train_bench_")
    shutil.rmtree(out_dir)  # let the CLI create it (atomic save may want a fresh path)
    cmd = cli_command(args, steps, out_dir)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.cli_timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"timed out after {args.cli_timeout} s: {' '.join(cmd)}")
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        msg = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
        raise RuntimeError(f"exit {proc.returncode}: {' '.join(cmd)}\n    "
                           + ("\n    ".join(msg[-5:]) if msg else "(no output)"))
    return wall, out_dir


def _records(history):
    """history.json as a list of per-step dicts, whatever its exact layout."""
    if isinstance(history, list):
        return [r for r in history if isinstance(r, dict)]
    if isinstance(history, dict):
        for key in ("history", "steps", "log", "records", "entries"):
            if isinstance(history.get(key), list) and history[key] and \
                    isinstance(history[key][0], dict):
                return history[key]
        # a dict of parallel arrays: {"step": [...], "loss": [...], "accuracy": [[...], ...]}
        if isinstance(history.get("step"), list):
            n = len(history["step"])
            cols = {k: v for k, v in history.items() if isinstance(v, list) and len(v) == n}
            return [{k: v[i] for k, v in cols.items()} for i in range(n)]
    return []


def _accs(rec):
    for key in ("accuracy", "accuracies", "acc"):
        v = rec.get(key)
        if isinstance(v, list) and v and all(isinstance(x, (int, float)) for x in v):
            return [float(x) for x in v]
        if isinstance(v, (int, float)):
            return [float(v)]
    v = [float(rec[k]) for k in sorted(rec) if k.startswith("acc") and
         isinstance(rec[k], (int, float))]
    return v or None


def cli_history_first_100(out_dir):
    """(first logged step with every output's accuracy at 1.0 or None, a note)."""
    path = os.path.join(out_dir, "history.json")
    if not os.path.isfile(path):
        return None, "no history.json"
    try:
        with open(path) as f:
            recs = _records(json.load(f))
    except (OSError, ValueError) as e:
        return None, f"history.json unreadable ({e})"
    if not recs:
        return None, "history.json: no per-step records found"
    logged = 0
    for rec in recs:
        accs = _accs(rec)
        if accs is None:
            continue
        logged += 1
        scale = 100.0 if max(accs) > 1.0 + 1e-9 else 1.0  # percent or fraction
        if len(accs) >= 2 and min(accs) >= scale * (1 - 1e-9):
            return rec.get("step"), f"{logged} logged records read"
    return None, f"not reached in {logged} logged records"


def cli_model_json_mismatch(args, out_dir):
    path = os.path.join(out_dir, "model.json")
    try:
        with open(path) as f:
            meta = json.load(f)
    except (OSError, ValueError):
        return "model.json missing or unreadable"
    want = {"layers": args.layers, "heads": args.heads, "d_model": args.d_model,
            "seq_len": args.seq_len, "vocab": args.vocab, "batch_size": args.batch_size,
            "bias": args.bias, "mlp": args.mlp}
    diff = [f"{k}: cli {meta[k]!r} vs torch {v!r}" for k, v in want.items()
            if k in meta and meta[k] != v]
    return "; ".join(diff)


# ---- main ----------------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--heads", type=int, default=2)
    ap.add_argument("--d-model", type=int, default=32)
    ap.add_argument("--d-k", type=int, default=0, help="0 = d_model / heads (not passed)")
    ap.add_argument("--seq-len", type=int, default=12)
    ap.add_argument("--vocab", type=int, default=16)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--weight-decay", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bias", dest="bias_flag", action="store_true", default=None,
                    help="biases in PyTorch and --bias to the CLI")
    ap.add_argument("--no-bias", dest="bias_flag", action="store_false",
                    help="no biases in PyTorch and --no-bias to the CLI (default: no biases in "
                         "PyTorch and no flag to the CLI; a mismatch in its model.json is "
                         "reported)")
    ap.add_argument("--mlp", action="store_true")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cli", metavar="PATH", help="attnlab-cli to run alternately")
    ap.add_argument("--cli-small-steps", type=int, default=0,
                    help="N0 for the start-up correction (default N/10)")
    ap.add_argument("--cli-log-every", type=int, default=0, help="pass --log-every N to the CLI")
    ap.add_argument("--cli-timeout", type=float, default=600)
    args = ap.parse_args()
    args.bias = bool(args.bias_flag)
    torch.set_num_threads(args.threads)

    cli_ok = False
    if args.cli:
        if not (os.path.isfile(args.cli) and os.access(args.cli, os.X_OK)):
            print(f"note: --cli {args.cli}: no such executable; reporting PyTorch alone "
                  "(build attnlab-cli with the trainer first)")
        else:
            cli_ok = True
    n_small = args.cli_small_steps or max(1, args.steps // 10)

    print(f"previous-and-first: layers {args.layers}, heads {args.heads}, d_model "
          f"{args.d_model}, d_k {args.d_k or args.d_model // args.heads}, T {args.seq_len}, "
          f"V {args.vocab}, batch {args.batch_size}, AdamW lr {args.lr:g} wd "
          f"{args.weight_decay:g}, bias {args.bias}, mlp {args.mlp}, seed {args.seed}, "
          f"{args.steps} steps, {args.rounds} rounds; torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f} (other work on the machine skews the times)", flush=True)
    torch_runs, cli_runs = [], []
    for r in range(1, args.rounds + 1):
        res = train_torch(args)
        torch_runs.append(res)
        hit = (f"100 % at step {res['first_100']} ({res['first_100_wall']:.2f} s)"
               if res["first_100"] else "100 % not reached")
        print(f"round {r}: pytorch {res['median_ms']:.3f} ms/step (median), {hit}, "
              f"{res['total_s']:.2f} s total, final loss {res['final_loss']:.4f}, held-out acc "
              f"{' / '.join(f'{a:.3f}' for a in res['eval_acc'])}; layer 0 heads on previous "
              f"{' / '.join(f'{x:.2f}' for x in res['on_prev'])}, on first "
              f"{' / '.join(f'{x:.2f}' for x in res['on_first'])}", flush=True)
        if not cli_ok:
            continue
        try:
            wall_n, out_n = run_cli(args, args.steps)
            wall_0, out_0 = run_cli(args, n_small)
        except RuntimeError as e:
            print(f"round {r}: the CLI failed, reporting PyTorch alone from here: {e}")
            cli_ok = False
            continue
        per_step = (wall_n - wall_0) / (args.steps - n_small) if args.steps > n_small else \
            wall_n / args.steps
        first, note = cli_history_first_100(out_n)
        mismatch = cli_model_json_mismatch(args, out_n)
        cli_runs.append({"per_step_ms": per_step * 1e3, "wall_n": wall_n, "wall_0": wall_0,
                         "first_100": first})
        est = ""
        if first is not None:
            est = f", 100 % at logged step {first} (~{wall_0 + per_step * (first - n_small):.2f}" \
                  " s wall incl. start-up, estimated)"
        print(f"round {r}: cli     {per_step * 1e3:.3f} ms/step ((wall {args.steps} - wall "
              f"{n_small}) / {args.steps - n_small}; wall {wall_n:.2f} s = "
              f"{wall_n / args.steps * 1e3:.3f} ms/step raw){est}; history: {note}"
              + (f"; SETTINGS DIFFER: {mismatch}" if mismatch else ""), flush=True)
        shutil.rmtree(out_n, ignore_errors=True)
        shutil.rmtree(out_0, ignore_errors=True)

    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    pt = statistics.median(r["median_ms"] for r in torch_runs)
    hits = [r for r in torch_runs if r["first_100"]]
    print(f"\nPyTorch: {pt:.3f} ms per step (median of {len(torch_runs)} rounds' medians)")
    if hits:
        print(f"PyTorch: 100 % on both outputs in {len(hits)} of {len(torch_runs)} rounds, at "
              f"step {statistics.median(r['first_100'] for r in hits):g} and "
              f"{statistics.median(r['first_100_wall'] for r in hits):.2f} s wall (medians)")
    else:
        print(f"PyTorch: 100 % on both outputs not reached within {args.steps} steps")
    if cli_runs:
        cl = statistics.median(r["per_step_ms"] for r in cli_runs)
        print(f"CLI:     {cl:.3f} ms per step (median of {len(cli_runs)} rounds)")
        print(f"side by side: pytorch {pt:.3f} ms/step, cli {cl:.3f} ms/step, "
              f"speed-up {pt / cl:.2f}x (goal >= 5x)")
        cf = [r["first_100"] for r in cli_runs if r["first_100"] is not None]
        if cf:
            print(f"CLI: 100 % at logged step {statistics.median(cf):g} (median of {len(cf)})")
    elif args.cli:
        print("CLI: no timing (see the notes above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
