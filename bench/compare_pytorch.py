#!/usr/bin/python3
"""Attention Lab's core against PyTorch's nn.MultiheadAttention on the CPU, side by side in one
run, alternating: PyTorch forward, then the core's full trace and bare forward (Google Benchmark),
round after round. Prints medians and the ratios core / PyTorch (lower is faster).

Usage: compare_pytorch.py BENCH_CORE_BINARY [ROUNDS]"""
import json
import statistics
import subprocess
import sys
import time

import torch

B, T, D, H = 32, 128, 512, 8  # the base preset: the theory seed's step-by-step sizes


def pytorch_forward_ms(mha, x, runs=10):
    times = []
    with torch.no_grad():
        for _ in range(runs):
            start = time.perf_counter()
            mha(x, x, x, need_weights=True, average_attn_weights=False)  # per-head weights
            times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def core_ms(binary):
    out = subprocess.run(
        [binary, "--benchmark_filter=BM_(TraceBase|ForwardBase)", "--benchmark_format=json",
         "--benchmark_min_time=1"], capture_output=True, text=True, check=True).stdout
    results = {b["name"].split("/")[0]: b["real_time"] for b in json.loads(out)["benchmarks"]}
    return results["BM_TraceBase"], results["BM_ForwardBase"]


def main():
    binary = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    torch.set_num_threads(2)
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(D, H, batch_first=True).eval()
    x = torch.randn(B, T, D)
    pytorch_forward_ms(mha, x, runs=3)  # warm-up
    torch_times, trace_times, forward_times = [], [], []
    for r in range(rounds):
        torch_times.append(pytorch_forward_ms(mha, x))
        trace, forward = core_ms(binary)
        trace_times.append(trace)
        forward_times.append(forward)
        print(f"round {r + 1}: pytorch {torch_times[-1]:.1f} ms  core trace {trace:.1f} ms  "
              f"core forward {forward:.1f} ms", flush=True)
    pt, tr, fw = (statistics.median(v) for v in (torch_times, trace_times, forward_times))
    print(f"\nB={B} T={T} d_model={D} h={H}, {torch.get_num_threads()} threads, "
          f"torch {torch.__version__}, median of {rounds} rounds")
    print(f"pytorch nn.MultiheadAttention forward: {pt:.1f} ms")
    print(f"core full trace:   {tr:.1f} ms  ratio {tr / pt:.2f}x  (target <= 1.0x)")
    print(f"core bare forward: {fw:.1f} ms  ratio {fw / pt:.2f}x  (target <= 0.7x)")


if __name__ == "__main__":
    main()
