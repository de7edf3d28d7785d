#!/usr/bin/env python3
"""The ball's drift in the hand in Drumwright & Shell's grasping example, per contact model.

Runs `contactlab --headless --scene grasp_ball --model M --log --summary` for each model (the
Panda holds a ball between its finger pads while its two shoulder joints follow sin(t)/4 and
sin(2t)/4 rad for 25 s at δt = 1 ms: assets/scenes/grasp_ball.yaml, docs/contact-model.md §7)
and reads the log's `held_object.drift_m`, the distance of the ball's centre in the hand frame
from where it started (docs/architecture.md §7, Log CSV). Writes a CSV (t and each model's
drift, every --every seconds) and, beside it, a PNG of the drift against time on a log axis,
as the paper's Fig. 1, with its Fig. 2's 0.1 mm at the end as a reference line; prints each
model's final and largest drift and the run's wall time.

A model whose run fails (e.g. `drumwright_shell` on a build that does not have it yet: the
command line rejects an unknown --model) is skipped with a message; the others are plotted.

  scripts/grasp_drift_study.py                      # 25 s each, 2 runs at a time (~40 min)
  scripts/grasp_drift_study.py --quick              # 1 s each, to build/grasp_drift_quick.csv
  scripts/grasp_drift_study.py --models lagged sap --dt 1e-4 --out /tmp/drift.csv

Runs are niced (+10): the machine may be shared.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ["drumwright_shell", "lagged", "similar", "sap"]
PAPER_FINAL_DRIFT_M = 1e-4  # Fig. 2: "by the end of the movement, the drift approaches 0.1mm"
QUICK_DURATION_S = 1.0


def decimate(times, values, every_s):
    """The samples at the first row at or after each multiple of every_s (t > 0)."""
    out_t, out_v, k = [], [], 1
    for t, v in zip(times, values):
        if t >= k * every_s - 1e-9:
            out_t.append(t)
            out_v.append(v)
            while k * every_s - 1e-9 <= t:
                k += 1
    return out_t, out_v


def run(binary, scene, model, duration_s, dt_s, every_s):
    """One run: a dict with the decimated drift, or with `error` (one line) if it failed."""
    with tempfile.TemporaryDirectory() as tmp:
        log, summary = os.path.join(tmp, "log.csv"), os.path.join(tmp, "summary.json")
        cmd = ["nice", "-n", "10", binary, "--headless", "--scene", scene, "--model", model,
               "--log", log, "--summary", summary]
        if duration_s:
            cmd += ["--duration", str(duration_s)]
        if dt_s:
            cmd += ["--dt", str(dt_s)]
        result = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if result.returncode != 0 or not os.path.exists(summary):
            lines = [l for l in (result.stderr + result.stdout).splitlines() if l.strip()]
            why = lines[-1] if lines else "no output"
            return {"model": model, "error": f"exit code {result.returncode}: {why}"}
        times, drifts = [], []
        with open(log) as f:
            for row in csv.DictReader(f):
                times.append(float(row["t"]))
                drifts.append(float(row["held_object.drift_m"]))
        with open(summary) as f:
            s = json.load(f)
    held = s["task"]["held_object"]
    t, d = decimate(times, drifts, every_s)
    return {"model": model, "t": t, "drift_m": d, "final_drift_m": drifts[-1],
            "max_drift_m": max(drifts), "held_at_end": held["held_at_end"],
            "failed": s["task"]["failed"], "time_to_failure_s": s["task"]["time_to_failure"],
            "wall_time_s": s["wall_time"], "sim_time_s": s["sim_time"], "dt_s": s["dt"],
            "nonconverged_steps": s["nonconverged_steps"]}


def write_csv(runs, path):
    """t_s, then drift_<model>_m per model (the runs share their time rows; a run that ended
    early, e.g. a non-finite step, leaves its later cells empty)."""
    longest = max(runs, key=lambda r: len(r["t"]))
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["t_s"] + [f"drift_{r['model']}_m" for r in runs])
        for i, t in enumerate(longest["t"]):
            w.writerow([f"{t:.6g}"] + [f"{r['drift_m'][i]:.6g}" if i < len(r["drift_m"]) else ""
                                       for r in runs])


def plot(runs, scene, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    floor_mm = 1e-6  # 1 nm: a drift of exactly zero (the first rows) has no log
    for r in runs:
        ax.plot(r["t"], [max(1e3 * d, floor_mm) for d in r["drift_m"]], lw=1.2,
                label=f"{r['model']} (final {1e3 * r['final_drift_m']:.3g} mm)")
    ax.axhline(1e3 * PAPER_FINAL_DRIFT_M, color="k", ls="--", lw=1,
               label="Drumwright & Shell, Fig. 2: 0.1 mm at the end")
    ax.set_yscale("log")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("ball's drift in the hand [mm]")
    dts = ", ".join(sorted({f"{1e3 * r['dt_s']:g} ms" for r in runs}))
    ax.set_title(f"{os.path.basename(scene).removesuffix('.yaml')}: the ball's drift from its "
                 f"initial position in the hand (δt = {dts})", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=9, loc="lower right")
    fig.tight_layout()
    fig.savefig(png, dpi=120)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--models", nargs="+", default=MODELS)
    p.add_argument("--quick", action="store_true",
                   help=f"{QUICK_DURATION_S:g} s runs (default out: build/grasp_drift_quick.csv)")
    p.add_argument("--duration", type=float, default=0,
                   help="simulated time [s]; 0: the scene's (25 s), or the quick runs'")
    p.add_argument("--dt", type=float, default=0, help="time step [s]; 0: the scene's (1 ms)")
    p.add_argument("--every", type=float, default=0.01, help="CSV and plot sample period [s]")
    p.add_argument("--jobs", type=int, default=2, help="runs at a time")
    p.add_argument("--scene", default="grasp_ball")
    p.add_argument("--binary", default=os.path.join(ROOT, "build", "contactlab"))
    p.add_argument("--out", default="", help="CSV path (the PNG beside it); default "
                   "docs/figures/grasp_drift.csv")
    a = p.parse_args()
    duration = a.duration or (QUICK_DURATION_S if a.quick else 0)
    out = a.out or os.path.join(ROOT, *(("build", "grasp_drift_quick.csv") if a.quick else
                                        ("docs", "figures", "grasp_drift.csv")))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        results = list(pool.map(lambda m: run(a.binary, a.scene, m, duration, a.dt, a.every),
                                a.models))
    runs = []
    for r in results:
        if "error" in r:
            print(f"grasp_drift_study: {r['model']} skipped: {r['error']}", file=sys.stderr)
            continue
        runs.append(r)
        lost = f", lost at t = {r['time_to_failure_s']:.3f} s" if r["failed"] else ""
        print(f"{r['model']:>16}: final drift {1e3 * r['final_drift_m']:.4g} mm at "
              f"t = {r['sim_time_s']:.3f} s (largest {1e3 * r['max_drift_m']:.4g} mm"
              f"{lost}; held at the end: {r['held_at_end']}); {r['wall_time_s']:.1f} s wall, "
              f"{r['nonconverged_steps']} steps not converged", flush=True)
    if not runs:
        sys.exit("grasp_drift_study: no model ran")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    write_csv(runs, out)
    png = os.path.splitext(out)[0] + ".png"
    plot(runs, a.scene, png)
    print(f"wrote {out} and {png}")


if __name__ == "__main__":
    main()
