#!/usr/bin/env python3
"""Creep rates of the held object per scene and contact model (issue 36's figure).

Runs `contactlab --headless --summary` for each scene × model at one time step (each scene's
own duration and teleop program, unless --duration is given) and reads the summary's
task.held_object (docs/architecture.md §7, Summary JSON): the mean creep rate over the held
phase, the path length of the held body's origin in the hand frame divided by the held time.
Writes a CSV and, beside it, a PNG bar chart in µm/s on a log axis with the goal line at 1 µm/s.
Every scene must declare `held_object` (assets/scenes/README.md). A scene may carry options of
its own after a colon, comma-separated, e.g. `grasp_stress:--circle-frequency=0.5` or
`spatula_slip:--duration=4.5` (its first firm phase), and a time window before that,
`scene@T0-T1`, over which the rate is the mean slip speed of the held steps instead, read from
the run's `--log` (held_object.v_slip_*, held): e.g. `spatula_slip@1-4.5:--duration=4.5`, the
firm phase after the soft pads have settled. The issue's figure:

  scripts/creep_rates.py --scenes peg_in_hole peg_in_hole:--stiction-tolerance=2e-5 \
      grasp_stress:--circle-frequency=0.5 spatula_slip@1-4.5:--duration=4.5

Runs one simulation at a time (nice +10): the machine may be shared.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLUMNS = ["scene", "model", "dt_s", "held_time_s", "creep_path_length_m",
           "mean_creep_rate_um_per_s", "max_slip_speed_mm_per_s",
           "final_relative_displacement_um", "creep_angle_mrad", "nonconverged_steps", "failed"]


def split_scene(arg):
    """`scene[@t0-t1]:--opt=v,--opt2=w` -> (scene, [options], window or None)."""
    scene, _, options = arg.partition(":--")
    scene, _, window = scene.partition("@")
    window = tuple(float(t) for t in window.split("-")) if window else None
    return scene, (["--" + o for o in options.split(",--")] if options else []), window


def window_creep_rate(log, t0, t1):
    """The mean slip speed [m/s] of the held steps ending in (t0, t1], from a --log CSV."""
    speeds = []
    with open(log) as f:
        for row in csv.DictReader(f):
            t = float(row["t"])
            if t0 < t <= t1 and row["held_object.held"] == "1":
                speeds.append(sum(float(row[f"held_object.v_slip_{a}"]) ** 2
                                  for a in "xyz") ** 0.5)
    if not speeds:
        sys.exit(f"creep_rates: no held step in ({t0}, {t1}] s")
    return sum(speeds) / len(speeds), len(speeds)


def run(binary, scene_arg, model, dt, duration, extra):
    scene, own, window = split_scene(scene_arg)
    extra = own + extra
    with tempfile.TemporaryDirectory() as tmp:
        summary = os.path.join(tmp, "summary.json")
        log = os.path.join(tmp, "log.csv")
        cmd = ["nice", "-n", "10", binary, "--headless", "--scene", scene, "--model", model,
               "--dt", str(dt), "--summary", summary] + (["--log", log] if window else []) + extra
        if duration:
            cmd += ["--duration", str(duration)]
        result = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if not os.path.exists(summary):
            sys.exit(f"creep_rates: {' '.join(cmd)} failed ({result.returncode}): "
                     f"{result.stderr.strip()[-400:]}")
        with open(summary) as f:
            s = json.load(f)
        held = s["task"].get("held_object")
        if held is None:
            sys.exit(f"creep_rates: scene {scene} declares no held_object")
        rate, held_time = held["mean_creep_rate_m_per_s"], held["held_time_s"]
        if window:
            rate, steps = window_creep_rate(log, *window)
            held_time = steps * dt
    return {
        "scene": scene_arg, "model": model, "dt_s": dt,
        "held_time_s": held_time,
        "creep_path_length_m": held["creep_path_length_m"],
        "mean_creep_rate_um_per_s": 1e6 * rate,
        "max_slip_speed_mm_per_s": 1e3 * held["max_slip_speed_m_per_s"],
        "final_relative_displacement_um": 1e6 * held["final_relative_displacement_m"],
        "creep_angle_mrad": 1e3 * held["creep_angle_rad"],
        "nonconverged_steps": s["nonconverged_steps"], "failed": s["failed"],
    }


def plot(rows, scenes, models, goal_um_per_s, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 + 0.9 * len(scenes) * len(models)), 4.5))
    width = 0.8 / len(models)
    top = goal_um_per_s
    for j, model in enumerate(models):
        xs, ys = [], []
        for i, scene in enumerate(scenes):
            for r in rows:
                if r["scene_arg"] == scene and r["model"] == model:
                    xs.append(i + (j - (len(models) - 1) / 2) * width)
                    ys.append(max(r["mean_creep_rate_um_per_s"], 1e-3))
        top = max([top] + ys)
        bars = ax.bar(xs, ys, width, label=model)
        ax.bar_label(bars, labels=[f"{y:.3g}" for y in ys], fontsize=9, padding=2)
    ax.axhline(goal_um_per_s, color="k", ls="--", lw=1, label=f"goal {goal_um_per_s:g} µm/s")
    ax.set_yscale("log")
    ax.set_ylim(goal_um_per_s / 10, top * 5)
    ax.set_xlim(-0.6, len(scenes) - 0.4)
    labels = []
    for arg in scenes:
        scene, own, window = split_scene(arg)
        labels.append("\n".join([os.path.basename(scene).removesuffix(".yaml")] +
                                 ([f"{window[0]:g}-{window[1]:g} s"] if window else []) +
                                 [o.removeprefix("--") for o in own]))
    ax.set_xticks(range(len(scenes)), labels, fontsize=8)
    ax.set_ylabel("mean creep rate, held phase [µm/s]")
    dts = sorted({r["dt_s"] for r in rows})
    ax.set_title("Held object's creep in the hand (δt = " +
                 ", ".join(f"{d * 1e3:g} ms" for d in dts) + ")", fontsize=11)
    ax.legend(fontsize=9, loc="upper left", ncol=len(models) + 1)
    fig.tight_layout()
    fig.savefig(png, dpi=120)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scenes", nargs="+", default=["peg_in_hole"],
                   help="scene names or paths, each declaring held_object")
    p.add_argument("--models", nargs="+", default=["lagged", "similar", "sap"])
    p.add_argument("--dt", type=float, default=1e-3)
    p.add_argument("--duration", type=float, default=0, help="s; 0: each scene's own")
    p.add_argument("--binary", default=os.path.join(ROOT, "build", "contactlab"))
    p.add_argument("--goal", type=float, default=1.0, help="the goal line [µm/s]")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "figures", "creep_rates.csv"))
    p.add_argument("extra", nargs="*", help="after --: more contactlab options for every run")
    a = p.parse_args()
    rows = []
    for scene in a.scenes:
        for model in a.models:
            r = run(a.binary, scene, model, a.dt, a.duration, a.extra)
            r["scene_arg"] = scene
            print(f"{scene:>44} {model:>8}: {r['mean_creep_rate_um_per_s']:.4g} µm/s over "
                  f"{r['held_time_s']:.3f} s (max slip {r['max_slip_speed_mm_per_s']:.3g} mm/s)",
                  flush=True)
            rows.append(r)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for r in rows:  # six significant digits: what the figure and a reader need
            w.writerow({k: f"{v:.6g}" if isinstance(v, float) else v for k, v in r.items()})
    png = os.path.splitext(a.out)[0] + ".png"
    plot(rows, a.scenes, a.models, a.goal, png)
    print(f"wrote {a.out} and {png}")


if __name__ == "__main__":
    main()
