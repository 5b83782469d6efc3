#!/usr/bin/env bash
# bench/lib/device_check_md.sh DEVICE_CHECK.json: bench/device_check's markdown summary, from its
# JSON: one row per step (status, seconds of its limit, its headline figure beside its target),
# then the speed rounds and the fit cases.
set -euo pipefail
jq -r '
  def f(d): if . == null then "-" else (. * pow(10; d) | round / pow(10; d) | tostring) end;
  def mib: if . == null then "-" else (. / 1048576 | f(1)) end;
  def yn: if . == true then "yes" elif . == false then "NO" else "-" end;
  def headline:
    if .figures == null then (.error // "")
    elif .name == "kit" then "\(.figures.debs) packages unpacked, \(.figures.prefix_mib) MiB"
    elif .name == "build" then (if .figures.cuda then "CUDA sm_\(.figures.cuda_architectures), \(.figures.seconds) s" else "the existing \(.figures.build_dir) (CPU)" end)
    elif .name == "models" then ([.figures.models[] | "\(.role) \(.size_bytes | mib) MiB"] | join(", "))
    elif .name == "speed" then "pp ratio \(.figures.pp_ratio_median | f(3)), tg ratio \(.figures.tg_ratio_median | f(3)) (target 1.00 +- 0.03: pp \(.figures.pp_within_target | yn), tg \(.figures.tg_within_target | yn))"
    elif .name == "energy" then "\(.figures.rigbench_j_per_token | f(4)) J/token (\(.figures.method)) beside nvidia-smi \(.figures.nvidia_smi_j_per_token | f(4)) (\(.figures.nvidia_smi_field)): ratio \(.figures.ratio | f(3)), within 2 % \(.figures.within_target | yn)"
    elif .name == "fit" then "worst |fit - allocated| \(.figures.worst_pct | f(2)) % of \(.figures.cases | length) cases, all within 2 % \(.figures.within_target | yn)"
    elif .name == "ncmoe" then "pp ratio \(.figures.pp_ratio | f(3)), tg ratio \(.figures.tg_ratio | f(3)); fit \(.figures.memory.fit_vs_allocated_pct | f(2)) % of the allocation"
    else "" end;
  "# rigbench device check (\(.mode)), \(.date_utc)", "",
  "GPU: \(.gpu); \(.host), \(.cores) cores; commit \(.commit[0:12]); \(.seconds) s of \(.budget_s).", "",
  "| step | status | s (limit) | figure |", "|---|---|---|---|",
  (.steps[] | "| \(.name) | \(.status) | \(.seconds) (\(.limit_s)) | \(headline) |"),
  "",
  ((.steps[] | select(.name == "speed" and .figures != null) | .figures) as $s |
    "Speed, \($s.test): rigbench/llama-bench per round", "",
    "| round | llama-bench pp t/s | rigbench pp t/s | llama-bench tg t/s | rigbench tg t/s | pp ratio | tg ratio |",
    "|---|---|---|---|---|---|---|",
    ($s.rounds[] | "| \(.round) | \(.llama_bench_pp_tps | f(2)) | \(.rigbench_pp_tps | f(2)) | \(.llama_bench_tg_tps | f(2)) | \(.rigbench_tg_tps | f(2)) | \(.pp_ratio | f(3)) | \(.tg_ratio | f(3)) |"),
    "") // empty,
  ((.steps[] | select(.name == "fit" and .figures != null) | .figures) as $f |
    "Fit: the plan beside the allocation (MiB; weights + KV + compute)", "",
    "| model | n_ctx | fit | no_alloc | allocated | fit vs allocated | on the device: fit / allocated |", "|---|---|---|---|---|---|---|",
    ($f.cases[] | "| \(.model) | \(.n_ctx) | \(.fit_total_bytes | mib) | \(.no_alloc_total_bytes | mib) | \(.allocated_total_bytes | mib) | \(.fit_vs_allocated_pct | f(2)) % | \(.fit_device_bytes | mib) / \(.allocated_device_bytes | mib) |")) // empty
' "$1"
