# The shapes of the fit cases users reported (issue #19), written header-only (sparse) with the
# writers copied from the shared cases (README there): `python3 cases.py NAME OUT.gguf`.
import sys, os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mk_cohere2, mk_gemma3, mk_mamba, mk_openelm, mk_qwen35

CASES = {
    # Gemma-3-12B text shape, no sliding_window_pattern key (llama.cpp takes 6)
    'gemma3_12b': lambda p: mk_gemma3.build(p),
    # Gemma-3-4B text shape (google/gemma-3-4b-it text_config), no pattern key
    'gemma3_4b': lambda p: mk_gemma3.build(p, n_layer=34, n_embd=2560, n_head=8, n_kv=4, hd=256, n_ff=10240),
    # Gemma-3-270M shape (pattern 6 given)
    'gemma3_270m': lambda p: mk_gemma3.build(p, n_layer=18, n_embd=640, n_head=4, n_kv=1, hd=256, n_ff=2048,
                                             n_vocab=262144, swa=512, ctx=32768, wt='F16', pattern=6),
    'qwen35_9b': lambda p: mk_qwen35.build(p),
    'falcon_mamba_7b': lambda p: mk_mamba.build(p),
    'openelm_270m': lambda p: mk_openelm.build(p),
    # a small Cohere2 (Command R7B's kind): sliding-window period 4 by default, tied output
    'cohere2_small': lambda p: mk_cohere2.build(p),
}

if __name__ == '__main__':
    print(CASES[sys.argv[1]](sys.argv[2]))
