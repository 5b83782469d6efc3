#!/usr/bin/env python3
"""A fake NVIDIA GPU for bench/device_check --dry-run (tests/e2e/device_check_e2e_test.cpp).

fake_gpu.py drive STATE SECONDS BASE_W RAMP_W_PER_S
    rewrites STATE, the fake NVML library's state file (tests/fakes/fake_nvml.cpp, selected with
    RIGBENCH_NVML_LIBRARY and RIGBENCH_FAKE_NVML_STATE), every 10 ms for SECONDS: a GPU whose
    power rises linearly, P(t) = BASE_W + RAMP_W_PER_S * t, its energy counter (mJ) the integral
    of P and its instantaneous power P(t). A rising power makes a window cut at the wrong
    instants read the wrong energy, so matching figures mean matching windows.
fake_gpu.py smi STATE --query-gpu=FIELDS --format=csv,noheader,nounits [-lms MS] [-i 0]
    nvidia-smi's --query-gpu, reading the same state: fields timestamp (nvidia-smi's
    "YYYY/MM/DD HH:MM:SS.mmm", local time), total_energy_consumption (mJ), power.draw.instant
    (W), name; with -lms a line every MS ms until killed. Another field: nvidia-smi's message
    and exit 2.
"""
import datetime
import os
import sys
import time


def drive(state, seconds, base_w, ramp):
    t0 = time.monotonic()
    e0 = 5_000_000  # mJ already on the counter
    while True:
        t = time.monotonic() - t0
        p = base_w + ramp * t
        e = e0 + 1000 * (base_w * t + ramp * t * t / 2)
        tmp = state + ".tmp"
        with open(tmp, "w") as f:
            f.write(f"init=ok\ncount=1\ngpu0.name=Fake H200\ngpu0.energy_mj={int(e)}\n"
                    f"gpu0.power_instant_mw={int(p * 1000)}\n")
        os.replace(tmp, state)  # a reader never sees half a file
        if t > seconds:
            return 0
        time.sleep(0.01)


def read_state(state):
    kv = {}
    try:
        with open(state) as f:
            for line in f:
                k, _, v = line.strip().partition("=")
                kv[k] = v
    except FileNotFoundError:
        pass
    return kv


def smi(state, args):
    fields, period_ms = [], 0
    for i, a in enumerate(args):
        if a.startswith("--query-gpu="):
            fields = a.split("=", 1)[1].split(",")
        elif a == "-lms":
            period_ms = int(args[i + 1])
    known = {"timestamp", "total_energy_consumption", "power.draw.instant", "name"}
    for f in fields:
        if f not in known:
            print(f'Field "{f}" is not a valid field to query.', file=sys.stderr)
            return 2
    while True:
        kv = read_state(state)
        now = datetime.datetime.now().strftime("%Y/%m/%d %H:%M:%S.%f")[:-3]
        values = {"timestamp": now, "total_energy_consumption": kv.get("gpu0.energy_mj", "[N/A]"),
                  "power.draw.instant": f'{int(kv.get("gpu0.power_instant_mw", "0")) / 1000:.2f}',
                  "name": kv.get("gpu0.name", "")}
        print(", ".join(values[f] for f in fields), flush=True)
        if not period_ms:
            return 0
        time.sleep(period_ms / 1000)


if __name__ == "__main__":
    if len(sys.argv) >= 6 and sys.argv[1] == "drive":
        sys.exit(drive(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])))
    if len(sys.argv) >= 3 and sys.argv[1] == "smi":
        sys.exit(smi(sys.argv[2], sys.argv[3:]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
