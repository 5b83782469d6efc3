#!/usr/bin/env python3
"""The architecture sweep as a test (ctest fit_every_arch): from a fresh clone, llama.cpp's
test-llama-archs (built from the bundled sources) writes one small random model per architecture
into a temporary directory, bench/fit_every_arch compares fit's metadata model with llama.cpp's
no_alloc dry run on each, and this holds:

- KV (with the recurrent state) within 1 % at both settings, for every architecture except
  KV_EXCEPTIONS (each with the reason);
- the total within TOTAL_TOLERANCE, except TOTAL_EXCEPTIONS. The compute buffer is being
  reworked in parallel (issue #19), so this threshold and list are left wide for now: tighten
  them towards 2 % as compute follows llama.cpp.

A file that llama.cpp cannot load is not fit's concern; a file that rigbench refuses is a failure.
Usage: fit_every_arch_test.py --rigbench BIN --test-llama-archs BIN
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SWEEP = os.path.join(HERE, "..", "..", "bench", "fit_every_arch")

# Files (stem) whose KV may differ from llama.cpp's by more than 1 %, and why.
# None on 2026-11-30: every architecture of the corpus is within 1 % at both settings.
KV_EXCEPTIONS = {
}

# The total: left wide (10 %, and the files below unbounded) while the compute buffer is
# reworked in parallel (#19, helper fitcompute); the KV of every one of them is held above.
# Off by more than 10 % on 2026-11-30, all from the compute buffer:
TOTAL_TOLERANCE = 0.10
COMPUTE = "compute buffer of this graph not modelled yet"
TOTAL_EXCEPTIONS = {name: COMPUTE for name in (
    "deepseek32-moe", "glm-dsa-moe", "minimax-m3-moe", "qwen4exp-moe",  # sparse attention (indexer graphs)
    "deepseek4-moe", "grok-moe", "llama4-moe", "smallthinker-moe", "qwen3tts-dense",
    "mamba-dense", "mamba2-dense", "lfm2-dense", "falcon-h1-dense", "granitehybrid-dense",  # recurrent graphs
    "nemotron_h-dense", "nemotron_h_moe-dense", "qwen35-dense", "qwen35moe-moe", "qwen3next-moe",
    "minimax-01-moe",
)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rigbench", required=True)
    ap.add_argument("--test-llama-archs", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rigbench-sweep-") as tmp:
        out = os.path.join(tmp, "sweep.json")
        r = subprocess.run([sys.executable, SWEEP, "--rigbench", a.rigbench, "--test-llama-archs", a.test_llama_archs,
                            "--json", out], capture_output=True, text=True)
        print(r.stdout)
        if r.returncode != 0:
            print(r.stderr, file=sys.stderr)
            return 1
        with open(out) as f:
            results = json.load(f)
    failures = []
    for setting, rows in results.items():
        for name, row in rows.items():
            if "error" in row:
                if "llama.cpp cannot load" in row["error"]:
                    continue  # llama.cpp's own limits (e.g. an architecture it cannot create a context for)
                failures.append(f"{name} ({setting}): {row['error']}")
                continue
            for comp, tol, exceptions in (("kv", 0.01, KV_EXCEPTIONS), ("total", TOTAL_TOLERANCE, TOTAL_EXCEPTIONS)):
                est, real = row[f"{comp}_est"], row[f"{comp}_llama"]
                off = abs(est - real) / real if real else (0 if est == 0 else 1e9)
                if off > tol and name not in exceptions:
                    failures.append(f"{name} ({setting}): {comp} {est} bytes vs llama.cpp's {real} ({100 * off:.1f} %)")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
