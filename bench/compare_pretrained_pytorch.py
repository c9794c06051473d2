#!/usr/bin/python3
"""Real models, side by side (issue 22): a GPT-2-small-sized checkpoint (12 layers, d 768, 12
heads, vocab 50257, 1024 positions; random weights, F32, as the published gpt2 folder lays them
out) written once, then
  - bench_pretrained: open to the first heatmap, and the whole forward at T = 128 (medians);
  - PyTorch eager (torch.set_num_threads = the same cores): the same forward on the same weights;
  - attnlab-cli --model on it: the peak resident memory against the weights' F32 size.
Prints medians and ratios (ours / PyTorch: below 1 is faster). Not part of the test command.

    bench/compare_pretrained_pytorch.py BUILD_DIR [MODEL_DIR]
"""
import json
import math
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "numpy"))
import hf_checkpoints as ckpt  # noqa: E402

SIZES = dict(d=768, n_layer=12, n_head=12, vocab=50257, n_positions=1024)


def write_model(folder):
    if os.path.exists(os.path.join(folder, "model.safetensors")):
        return
    os.makedirs(folder, exist_ok=True)
    ckpt.write_gpt2(folder, seed=0, **SIZES)


def weights_bytes(folder):
    _, tensors = ckpt.read_folder(folder)
    return 4 * sum(a.size for n, a in tensors.items() if not n.endswith("attn.bias"))


def torch_forward_ms(folder, T, rounds):
    import torch
    torch.set_num_threads(os.cpu_count())
    _, raw = ckpt.read_folder(folder)
    w = {n: torch.from_numpy(a.astype(np.float32)) for n, a in raw.items()}
    d, H = SIZES["d"], SIZES["n_head"]
    ids = torch.tensor([(t * 7919 + 13) % SIZES["vocab"] for t in range(T)])
    causal = torch.ones(T, T, dtype=torch.bool).triu(1)

    def gelu_new(x):
        return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x.pow(3))))

    def forward():
        h = w["wte.weight"][ids] + w["wpe.weight"][:T]  # (T, d)
        for i in range(SIZES["n_layer"]):
            p = f"h.{i}."
            a = torch.nn.functional.layer_norm(h, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"])
            qkv = torch.addmm(w[p + "attn.c_attn.bias"], a, w[p + "attn.c_attn.weight"])
            q, k, v = (t.view(T, H, d // H).transpose(0, 1) for t in qkv.split(d, dim=1))
            s = (q @ k.transpose(-2, -1)) / math.sqrt(d // H)  # (H, T, T)
            s = s.masked_fill(causal, float("-inf")).softmax(-1)
            ctx = (s @ v).transpose(0, 1).reshape(T, d)
            h = h + torch.addmm(w[p + "attn.c_proj.bias"], ctx, w[p + "attn.c_proj.weight"])
            m = torch.nn.functional.layer_norm(h, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"])
            m = gelu_new(torch.addmm(w[p + "mlp.c_fc.bias"], m, w[p + "mlp.c_fc.weight"]))
            h = h + torch.addmm(w[p + "mlp.c_proj.bias"], m, w[p + "mlp.c_proj.weight"])
        h = torch.nn.functional.layer_norm(h, (d,), w["ln_f.weight"], w["ln_f.bias"])
        return h @ w["wte.weight"].T  # (T, vocab)

    times = []
    with torch.no_grad():
        forward()
        for _ in range(rounds):
            start = time.perf_counter()
            forward()
            times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), torch.__version__


def ours(build, folder):
    out = subprocess.run([os.path.join(build, "bench", "bench_pretrained"),
                          "--benchmark_format=json"], env={**os.environ,
                          "ATTNLAB_BENCH_MODEL": folder}, capture_output=True, text=True,
                         check=True)
    runs = json.loads(out.stdout)["benchmarks"]
    median = {r["run_name"]: r["real_time"] for r in runs if r.get("aggregate_name") == "median"}
    return median["BM_OpenToFirstHeatmap/iterations:1/repeats:5"], \
        median["BM_Forward/128/iterations:3/repeats:5"]


def peak_rss_mib(build, folder):
    cli = os.path.join(build, "app", "attnlab-cli")
    out = subprocess.run(["/usr/bin/time", "-f", "%M", cli, "--model", folder, "--tokens",
                          ",".join(str(t) for t in range(16))], capture_output=True, text=True)
    return int(out.stderr.strip().splitlines()[-1]) / 1024


def main():
    build = sys.argv[1]
    folder = sys.argv[2] if len(sys.argv) > 2 else "/tmp/attnlab-bench-gpt2"
    write_model(folder)
    open_ms, fwd_ms = ours(build, folder)
    torch_ms, version = torch_forward_ms(folder, 128, 7)
    f32 = weights_bytes(folder) / 2**20
    rss = peak_rss_mib(build, folder)
    print(f"GPT-2-small-sized checkpoint (124 M parameters, F32, {f32:.0f} MiB), "
          f"{os.cpu_count()} threads, torch {version}")
    print(f"open to first heatmap (16 tokens): {open_ms:.0f} ms (median of 5)")
    print(f"whole forward, T = 128: ours {fwd_ms:.1f} ms, PyTorch eager {torch_ms:.1f} ms "
          f"(medians), ratio ours / PyTorch = {fwd_ms / torch_ms:.2f}")
    print(f"attnlab-cli --model peak memory: {rss:.0f} MiB = {rss / f32:.2f} x the F32 weights")


if __name__ == "__main__":
    main()
