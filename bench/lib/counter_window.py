#!/usr/bin/env python3
"""bench/lib/counter_window.py LOG FIELD START_UNIX_S END_UNIX_S: the GPU's energy over one window
from a log of `nvidia-smi --query-gpu=timestamp,FIELD --format=csv,noheader,nounits -lms N`
(bench/device_check), printed as one JSON object:

  energy_j     joules between START and END (seconds since the Unix epoch, bench's
               energy.tg.start_unix_s / end_unix_s): for FIELD total_energy_consumption (the
               counter, mJ) its value linearly interpolated at START and END between the reads on
               either side, the difference; for power.draw.instant (W) the trapezoid integral of
               the reads, cut at START and END
  span_s       END - START
  power_w      energy_j / span_s
  n_reads      reads inside the window; first_read_s / last_read_s: the log's first and last
               read relative to START

nvidia-smi's timestamp ("2026/12/02 08:15:00.123") is local time, read as such. Exit 1 with
one line when the log does not cover the window (no read at or before START, or at or after
END) or a line does not parse; 2 on bad usage.
"""
import datetime
import json
import sys


def reads(path):
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                stamp, value = [x.strip() for x in line.split(",")[:2]]
                t = datetime.datetime.strptime(stamp, "%Y/%m/%d %H:%M:%S.%f").timestamp()
                out.append((t, float(value)))
            except ValueError:
                raise SystemExit(f"{path}:{n}: not 'timestamp, number': {line!r}")
    return out


def at(points, t):  # linear interpolation of (time, value) at t; points cover t
    for (t0, v0), (t1, v1) in zip(points, points[1:]):
        if t0 <= t <= t1:
            return v0 if t1 == t0 else v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    raise ValueError


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    path, field, start, end = argv[1], argv[2], float(argv[3]), float(argv[4])
    points = reads(path)
    if not points or points[0][0] > start or points[-1][0] < end or end <= start:
        first = f"{points[0][0] - start:+.3f} s" if points else "none"
        last = f"{points[-1][0] - end:+.3f} s" if points else "none"
        print(f"{path}: the reads do not cover the window {start:.3f}-{end:.3f} "
              f"(first read {first} from its start, last {last} from its end)", file=sys.stderr)
        return 1
    if field == "total_energy_consumption":
        energy_j = (at(points, end) - at(points, start)) / 1000.0
    elif field == "power.draw.instant":
        cut = [(start, at(points, start))] + [p for p in points if start < p[0] < end] + [(end, at(points, end))]
        energy_j = sum((t1 - t0) * (p0 + p1) / 2 for (t0, p0), (t1, p1) in zip(cut, cut[1:]))
    else:
        print(f"field '{field}': not total_energy_consumption or power.draw.instant", file=sys.stderr)
        return 2
    span = end - start
    print(json.dumps({"field": field, "energy_j": energy_j, "span_s": span, "power_w": energy_j / span,
                      "n_reads": sum(1 for t, _ in points if start <= t <= end),
                      "first_read_s": points[0][0] - start, "last_read_s": points[-1][0] - start}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
