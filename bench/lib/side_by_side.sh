# bench/lib/side_by_side.sh: rigbench bench beside llama-bench on the same model and parameters,
# sourced by bench/vs_llama_bench and bench/device_check. The caller sets:
#   rigbench, llama_bench   the two binaries (of one build: the same llama.cpp)
#   P N R T                 llama-bench's -p, -n, -r and -t
#   knobs                   an array of further flags both take, in llama-bench's spelling (-ngl 99)
#   MALLOC_PIN              1 (default): both tools run with the same pinned glibc malloc thresholds; 0: as they start
#
# Why MALLOC_PIN: glibc's malloc raises its mmap threshold after a large chunk is freed (the
# dynamic M_MMAP_THRESHOLD), so a process's heap history decides whether a later large allocation
# comes from the heap or from a fresh mmap that page-faults every time it is touched. On lavapipe,
# whose dispatches allocate such scratch, that alone moved a MoE's pp with the experts in host RAM
# (-ngl 99 -ncmoe 6 -nopo 1, -p 64): llama-bench 14.7 t/s as it starts, 16.7 with the thresholds
# pinned; rigbench, whose start-up frees large buffers, 16.3 either way (docs/measurement.md).
# Pinned in both, neither tool's heap history is measured.
tool_env=(env)
if [ "${MALLOC_PIN:-1}" = 1 ]; then
  tool_env+=("GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456")
fi

# run_llama_bench MODEL: prints "pp_tps tg_tps", llama-bench's avg_ts of its pp and tg tests.
run_llama_bench() {
  "${tool_env[@]}" "$llama_bench" -m "$1" -p "$P" -n "$N" -r "$R" -t "$T" "${knobs[@]}" -o json 2>/dev/null |
    jq -r '[(.[] | select(.n_gen == 0) | .avg_ts), (.[] | select(.n_prompt == 0) | .avg_ts)] | @tsv'
}
# run_rigbench MODEL: prints "pp_tps tg_tps", the mean of rigbench's per-repetition rates.
run_rigbench() {
  # --force: llama-bench has no memory preflight, so rigbench runs whatever it runs (lavapipe
  # states 2 GiB, less the 1 GiB llama.cpp's --fit keeps free, too little for a 1B's plan).
  "${tool_env[@]}" "$rigbench" bench "$1" -p "$P" -n "$N" -r "$R" -t "$T" "${knobs[@]}" --force --energy off --no-db -o json 2>/dev/null |
    jq -r '[(.[] | .results.pp.avg_tps // empty), (.[] | .results.tg.avg_tps // empty)] | @tsv'  # one record per test
}
# run_round ROUND MODEL: one alternation, llama-bench first in odd rounds and rigbench first in
# even ones; prints "lb_pp lb_tg rb_pp rb_tg"; returns 1 when a tool printed no figure.
run_round() {
  local lb_pp= lb_tg= rb_pp= rb_tg=
  if (($1 % 2)); then
    read -r lb_pp lb_tg < <(run_llama_bench "$2")
    read -r rb_pp rb_tg < <(run_rigbench "$2")
  else
    read -r rb_pp rb_tg < <(run_rigbench "$2")
    read -r lb_pp lb_tg < <(run_llama_bench "$2")
  fi
  [ -n "$lb_pp" ] && [ -n "$lb_tg" ] && [ -n "$rb_pp" ] && [ -n "$rb_tg" ] || return 1
  echo "$lb_pp $lb_tg $rb_pp $rb_tg"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f", m }'; }
