#!/usr/bin/env python3
"""Error-controlled stepping against fixed steps (issue 37's table, bench/RESULTS.md).

Runs `contactlab --headless --summary` for clutter (3 s) and peg_in_hole (its scripted
insertion) at fixed-step Lagged δt = 2 ms and 1 ms and under error control at ε = 1e-2, 1e-3,
1e-4 with δt_max = 10 ms, one run at a time, and prints a Markdown table (wall time, steps,
rejected attempts, mean and smallest step, iterations per step, the task's outcome) and writes
the same rows as CSV. Build Release first (scripts/build.sh); the machine should be quiet.

  scripts/integrator_bench.py [--binary build/contactlab] [--csv out.csv]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = [("fixed 2 ms", ["--dt", "0.002"]), ("fixed 1 ms", ["--dt", "0.001"])] + [
    (f"ε = {a}", ["--integrator", "error_controlled", "--accuracy", a, "--dt-max", "0.01"])
    for a in ("1e-2", "1e-3", "1e-4")]
SCENES = [("clutter", ["--duration", "3"]), ("peg_in_hole", [])]


def outcome(scene, task):
    if scene == "peg_in_hole":
        return f"inserted {task.get('inserted')}, depth {1e3 * task.get('insertion_depth', 0):.1f} mm"
    return f"max penetration {1e3 * task.get('max_penetration', 0):.2f} mm"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "contactlab"))
    parser.add_argument("--csv", default="")
    args = parser.parse_args()
    rows = []
    for scene, scene_options in SCENES:
        for label, options in RUNS:
            with tempfile.TemporaryDirectory() as tmp:
                summary = os.path.join(tmp, "s.json")
                subprocess.run([args.binary, "--headless", "--scene", scene, "--model", "lagged",
                                "--summary", summary] + scene_options + options, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                with open(summary) as f:
                    s = json.load(f)
            i = s["integration"]
            rows.append([scene, label, f"{s['wall_time']:.2f}", s["steps"],
                         i.get("rejected_steps", 0), f"{1e3 * i['step_size']['mean']:.3f}",
                         f"{1e3 * i['step_size']['min']:.4f}", f"{s['iterations']['mean']:.1f}",
                         f"{s['sim_time'] / s['wall_time']:.2f}", outcome(scene, s["task"])])
            print(" | ".join(str(c) for c in rows[-1]), file=sys.stderr)
    header = ["scene", "stepping", "wall [s]", "steps", "rejected", "mean δt [ms]",
              "min δt [ms]", "iterations/step", "real-time factor", "outcome"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header)
            w.writerows(rows)


if __name__ == "__main__":
    main()
