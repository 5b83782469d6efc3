import sys, os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gguf_tool import *
# A Cohere2 (Command R7B) shape, small: llama.cpp's cohere2 takes a sliding-window period of 4 when
# the file has no pattern key (3 layers of n_swa cells, then one global layer), a parallel
# attention + FFN block with one norm, and the output tied to token_embd. Defaults are tiny (so that
# llama.cpp's no_alloc plan takes well under a second); the tensor names are llama.cpp's
# (src/models/cohere2.cpp).
def build(path, n_layer=8, n_embd=256, n_head=2, n_kv=2, hd=128, n_ff=384, n_vocab=512, swa=64, ctx=8192, wt='F32'):
    a = 'cohere2'
    kvs = [('general.architecture', T_STR, a), ('general.name', T_STR, 'cohere2-test'),
           (a+'.context_length', T_U32, ctx), (a+'.embedding_length', T_U32, n_embd), (a+'.block_count', T_U32, n_layer),
           (a+'.feed_forward_length', T_U32, n_ff), (a+'.attention.head_count', T_U32, n_head), (a+'.attention.head_count_kv', T_U32, n_kv),
           (a+'.attention.key_length', T_U32, hd), (a+'.attention.value_length', T_U32, hd),
           (a+'.attention.layer_norm_epsilon', T_F32, 1e-5), (a+'.rope.freq_base', T_F32, 5e4),
           (a+'.rope.dimension_count', T_U32, hd), (a+'.logit_scale', T_F32, 0.25),
           (a+'.attention.sliding_window', T_U32, swa)]
    kvs += tokenizer_kvs(n_vocab)
    ts = [('token_embd.weight', [n_embd, n_vocab], wt), ('output_norm.weight', [n_embd], 'F32')]
    for i in range(n_layer):
        p = 'blk.%d.' % i
        ts += [(p+'attn_norm.weight', [n_embd], 'F32'), (p+'attn_q.weight', [n_embd, hd*n_head], wt),
               (p+'attn_k.weight', [n_embd, hd*n_kv], wt), (p+'attn_v.weight', [n_embd, hd*n_kv], wt),
               (p+'attn_output.weight', [hd*n_head, n_embd], wt), (p+'ffn_gate.weight', [n_embd, n_ff], wt),
               (p+'ffn_up.weight', [n_embd, n_ff], wt), (p+'ffn_down.weight', [n_ff, n_embd], wt)]
    return write(path, kvs, ts)
if __name__ == '__main__':
    print(build(sys.argv[1]))
