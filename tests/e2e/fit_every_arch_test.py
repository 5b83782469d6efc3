#!/usr/bin/env python3
"""The architecture sweep as a test (ctest fit_every_arch): from a fresh clone, llama.cpp's
test-llama-archs (built from the bundled sources) writes one small random model per architecture
into a temporary directory, bench/fit_every_arch compares fit's metadata model with llama.cpp's
no_alloc dry run on each, and this holds:

- KV (with the recurrent state) within 1 % at every setting of the sweep (its five defaults), for
  every architecture except
  KV_EXCEPTIONS (each with the reason);
- the total within 2 % (TOTAL_TOLERANCE), except TOTAL_EXCEPTIONS (each with the reason), and
  an exception that has come within 2 % is reported, so the list only shrinks.

A file that llama.cpp cannot load is not fit's concern, nor a cache type llama.cpp refuses for it
(Grok's quantized V without flash attention, which rigbench refuses as llama.cpp does); a file
that rigbench refuses otherwise is a failure.
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
# None on 2026-12-04: every architecture of the corpus is within 1 % at every setting (Grok at
# q8_0 aside: refused, as llama.cpp refuses it).
KV_EXCEPTIONS = {
}

# The total within 2 % (issue #19's target), except the files below, whose compute buffer does
# not follow llama.cpp's yet (their KV is held above). Measured 2026-11-30 with
# bench/fit_every_arch: 105 of 110 within 2 % at -c 4096, 109 of 110 at -c 32768 -fa on (94 and 105
# before the kinds traced in tests/unit/fit/fit_compute_kinds_test.cpp: per-head indexers
# (qwen4exp, minimax-m3), lightning attention (minimax-01), DeepSeek-V4's compressed attention,
# absorbed MLA beside linear attention or an indexer (kimi-linear, kimi-k3, bailingmoe3),
# decompressed MLA (minicpm3), a padded narrow output (qwen3tts), attention beside an SSM
# (falcon-h1) and a fused-QKV MoE (dbrx); 88 and 103 before the FFN phase held only the masks a
# later block reads, ...; 86 and 99 before the window cache's mask and the F16 K/V copy of
# cache-less attention).
# A file that comes within 2 % should leave this list; one that falls out of it fails.
TOTAL_TOLERANCE = 0.02
TOTAL_EXCEPTIONS = {
    # hybrids whose attention block llama.cpp builds with Q/K norms and RoPE in place: traced, the
    # tiny models' attention (block 0 alone) peaks at 4 n_embd + q + k where the generic form counts
    # V too; the same change moves Jamba and PLaMo-2 (same layout) 1.4 % away, so it is not one rule
    # yet. Real LFM2 files attend in later blocks too.
    "lfm2-dense": "LFM2's attention block (+5.4 % / +5.4 %; the short-conv block, not modelled, is "
                  "0.05 % above it)",
    "lfm2moe-moe": "LFM2's attention block (+2.9 % at 4096, +0.7 % at 32768)",
    # the routed experts' output waits beside the shared expert in Llama 4's MoE blocks (traced:
    # 5 n_embd + 3 x the shared n_ff beside both masks); the same rule puts DeepSeek-MoE, dots1
    # and GLM-4.5, whose MoE blocks are not their peak, 5.6 % high: not one rule yet
    "llama4-moe": "MoE after dense blocks with a shared expert (-3.1 % / -1.1 %)",
    "jais-dense": "fused QKV with a gated FFN: block 1's QKV lands above a 2 n_embd hole, "
                  "8 n_embd beside the mask where fit counts 7 (-2.5 % at 4096, -0.5 % at 32768)",
    # issue #31's settings (measured 2026-12-04: 105, 105 and 108 of 110 within 2 % at -c 8192 -fa off
    # -np 2, -c 32768 -ub 1024 -np 4 and -c 32768 -ctk/-ctv q8_0; 92, 102 and 86 before the kinds
    # traced without flash attention in tests/unit/fit/fit_compute_kinds_test.cpp)
    "deepseek2-moe": "absorbed MLA without flash attention: block 0's query path (the q_lora row, the "
                     "absorbed nope part and the concatenated Q) sits below V's copy (-2.3 % at -fa off "
                     "-np 2; the shape has no q_lora_rank to count it by)",
    "mistral4-moe": "as deepseek2-moe (the same graph): -2.3 % at -fa off -np 2",
    "gemma2-dense": "sliding-window caches with several streams: one n_embd-wide slot fewer live at KQ "
                    "than fit counts (+2.4 % at -fa off -np 2; +1.4 % at -ub 1024 -np 4, +2.3 % at "
                    "-c 16384 there)",
    "gpt-oss-moe": "as gemma2-dense (one window and one full cache): +2.2 % at -fa off -np 2",
    "mamba2-dense": "Mamba-2's scan with several sequences: the per-sequence states and the scan's "
                    "output interleave with holes not modelled (-3.7 % at -np 2, -4.3 % at -np 4)",
    "deepseek32-moe": "DeepSeek sparse attention with four streams: the indexer's scores per stream "
                      "(+5.2 % at -c 32768 -ub 1024 -np 4)",
    "glm-dsa-moe": "as deepseek32-moe (the same indexer): +5.2 % at -ub 1024 -np 4",
    "refact-moe": "llama.cpp's Refact graph is dense and never reads the expert tensors that "
                  "test-llama-archs writes (its FFN is empty: the attention phase alone); fit counts "
                  "the experts (+5.7 % at 4096; no real Refact has experts)",
}


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
                if "llama.cpp cannot load" in row["error"] or "which a quantized V cache needs" in row["error"]:
                    continue  # llama.cpp's own limits (an architecture it cannot create a context for)
                failures.append(f"{name} ({setting}): {row['error']}")
                continue
            for comp, tol, exceptions in (("kv", 0.01, KV_EXCEPTIONS), ("total", TOTAL_TOLERANCE, TOTAL_EXCEPTIONS)):
                est, real = row[f"{comp}_est"], row[f"{comp}_llama"]
                off = abs(est - real) / real if real else (0 if est == 0 else 1e9)
                if off > tol and name not in exceptions:
                    failures.append(f"{name} ({setting}): {comp} {est} bytes vs llama.cpp's {real} ({100 * off:.1f} %)")
    for name in sorted(TOTAL_EXCEPTIONS):
        rows = [r for setting in results.values() for n, r in setting.items() if n == name and "error" not in r]
        if rows and all(abs(r["total_est"] - r["total_llama"]) <= TOTAL_TOLERANCE * r["total_llama"] for r in rows):
            failures.append(f"{name}: now within {100 * TOTAL_TOLERANCE:.0f} % at every setting; take it off TOTAL_EXCEPTIONS")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
