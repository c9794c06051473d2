#!/usr/bin/python3
"""Long context (issue 24): the core's tiled FlashAttention kernel against the core's ordinary path
(forward()) and PyTorch 1.13's eager attention, side by side in one run, alternating round after
round, on one attention layer (Q, K, V projections, attention, W_o) at B 1, h 8, d_k 64
(d_model 512), T = 1024, 2048, 4096, full and causal, with the same number of threads.
PyTorch eager is the seeds' forward written out: q @ k^T / sqrt(d_k), masked_fill, softmax, @ v.
Then peak memory (GNU time's maximum resident set size) of one layer at each T: attnlab-cli --flash 64:64
from T = 512 to 16384 and PyTorch eager up to 4096 (its (1, 8, T, T) scores, masked scores and
weights at 8192 would need 6 GiB).
Prints medians of ROUNDS rounds and the ratios tiled / ordinary and tiled / PyTorch (below 1:
the tiled kernel is faster).

Usage: compare_flash_pytorch.py BENCH_FLASH ATTNLAB_CLI [ROUNDS]"""
import json
import math
import os
import statistics
import subprocess
import sys
import time

import torch

D, H = 512, 8
LENGTHS = [1024, 2048, 4096]
THREADS = os.cpu_count()  # the core's pool: std::thread::hardware_concurrency()


def torch_layer(x, w, causal):
    B, T, _ = x.shape
    dk = D // H
    q = (x @ w["q"]).view(B, T, H, dk).transpose(1, 2)
    k = (x @ w["k"]).view(B, T, H, dk).transpose(1, 2)
    v = (x @ w["v"]).view(B, T, H, dk).transpose(1, 2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(dk)
    if causal:
        hidden = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(hidden, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    context = (weights @ v).transpose(1, 2).contiguous().view(B, T, D)
    return context @ w["o"]


def torch_ms(T, causal, runs=5):
    torch.manual_seed(0)
    x = torch.randn(1, T, D)
    w = {name: torch.randn(D, D) / math.sqrt(D) for name in "qkvo"}
    times = []
    with torch.no_grad():
        torch_layer(x, w, causal)  # warm-up
        for _ in range(runs):
            start = time.perf_counter()
            torch_layer(x, w, causal)
            times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def core_ms(binary):
    lengths = "|".join(str(T) for T in LENGTHS)
    out = subprocess.run(
        [binary, f"--benchmark_filter=BM_(Tiled|Ordinary)(Full|Causal)/({lengths})$",
         "--benchmark_format=json", "--benchmark_min_time=0.5"],
        capture_output=True, text=True, check=True).stdout
    return {b["name"]: b["real_time"] for b in json.loads(out)["benchmarks"]}


def peak_mib(command):
    """Peak resident memory of `command`, in MiB, as GNU time reports it (%M, KiB). Measured through
    /usr/bin/time rather than this process's wait4: a child forked from a Python holding torch
    would count the Python's pages in its ru_maxrss."""
    run = subprocess.run(["/usr/bin/time", "-f", "%M", *command], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    assert run.returncode == 0, f"{command} failed: {run.stderr.strip()}"
    return int(run.stderr.strip().splitlines()[-1]) / 1024


def main():
    bench, cli = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    torch.set_num_threads(THREADS)
    rows = {}  # (pattern, T) -> {"tiled": [...], "ordinary": [...], "torch": [...]}
    for r in range(rounds):
        for pattern in ("Full", "Causal"):
            for T in LENGTHS:
                rows.setdefault((pattern, T), {"tiled": [], "ordinary": [], "torch": []})
                rows[(pattern, T)]["torch"].append(torch_ms(T, pattern == "Causal"))
        core = core_ms(bench)
        for (pattern, T), row in rows.items():
            row["tiled"].append(core[f"BM_Tiled{pattern}/{T}"])
            row["ordinary"].append(core[f"BM_Ordinary{pattern}/{T}"])
        print(f"round {r + 1} of {rounds} done", flush=True)
    print(f"\nB=1 h=8 d_k=64 (d_model 512), one layer, {THREADS} threads, torch {torch.__version__},"
          f" median of {rounds} rounds (ms); ratios below 1: the tiled kernel is faster")
    print(f"{'mask':7} {'T':>5} {'tiled':>9} {'ordinary':>9} {'pytorch':>9} "
          f"{'tiled/ordinary':>15} {'tiled/pytorch':>14}")
    for (pattern, T), row in rows.items():
        tiled, ordinary, pt = (statistics.median(row[k]) for k in ("tiled", "ordinary", "torch"))
        print(f"{pattern.lower():7} {T:5d} {tiled:9.1f} {ordinary:9.1f} {pt:9.1f} "
              f"{tiled / ordinary:15.2f} {tiled / pt:14.2f}")
    print("\npeak memory of one layer (MiB, maximum resident set size)")
    torch_script = ("import math, sys, torch; sys.path.insert(0, %r); "
                    "from compare_flash_pytorch import torch_ms; torch_ms(%d, False, runs=1)")
    here = os.path.dirname(os.path.abspath(__file__))
    for T in [512, 1024, 2048, 4096, 8192, 16384]:
        ours = peak_mib([cli, "--flash", "64:64", "--seq-len", str(T), "--d-model", str(D),
                         "--heads", str(H)])
        theirs = (f"{peak_mib([sys.executable, '-c', torch_script % (here, T)]):9.0f}"
                  if T <= 4096 else "        -")
        print(f"T={T:5d}  tiled (attnlab-cli --flash 64:64) {ours:7.0f}   pytorch eager {theirs}")


if __name__ == "__main__":
    main()
