#!/usr/bin/env python3
"""The SAP paper's slip-control figure (§VI-D, Fig. 17) from contactlab's `spatula_slip` scene.

Runs the scene headless for its 18 s (`--log`, `--summary`) and writes OUT/spatula_slip.csv,
one row per step:

  t            the step's end time [s] (the log's t)
  grip_force_N the programmed grip force of the step (the scene's square wave at the step's
               start time t − δt, GripForceAt's convention: high on [k·P, k·P + duty·P), low
               on the rest of each period)
  pitch_deg    the spatula's rotation about the grasp axis (world y) from its start, blade
               down positive: atan2(−x_z, x_x) of the handle axis x_S in the world
  contacts     the step's contact constraints (the log's num_contacts: all are handle–pad)
  polygons     the step's contact-surface polygons before fanning (the log's contact_polygons:
               what Drake's default polygon representation, and so the paper, makes one
               constraint each)
  slip_m_per_s the handle's slip relative to the (fixed) pads: its speed at the grasp centre
               (between the pad centres) across the grasp axis plus its rim speed ‖ω‖ · 15 mm

and OUT/spatula_slip.png (pitch and grip force against time, like Fig. 17), and prints the
contacts per phase (mean over the steps of the firm and loose phases) and the run's speed.

`--low N` runs a copy of the scene whose loose grip is N newtons instead (written to
OUT/spatula_slip_lowN.{csv,png}): in our model the paper's controlled pitch of a few degrees per
loose phase takes about 2 N; at the paper's 1 N the spatula swings down to hang from the grasp.

Usage: scripts/spatula_slip.py [--build build] [--out docs/figures] [--duration 18] [--low N]
Needs python3-matplotlib and python3-yaml (scripts/install_deps.sh).
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import matplotlib
import yaml

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
GRASP_CENTRE_W = (0.182, 0.0, 0.3)  # the pad centres' midpoint (assets/scenes/spatula_slip.yaml)
HANDLE_RADIUS_M = 0.015


SCENE = os.path.join(ROOT, "assets", "scenes", "spatula_slip.yaml")


def scene():
    with open(SCENE) as f:
        return yaml.safe_load(f)


def scene_with_low_force(low, tmp):
    """A copy of the scene with `low` N (its robots/ path resolves against assets/ too)."""
    with open(SCENE) as f:
        text = f.read()
    old = "square_wave: {low: 1,"
    assert old in text, "the scene's square wave is no longer written as expected"
    path = os.path.join(tmp, "spatula_slip.yaml")
    with open(path, "w") as f:
        f.write(text.replace(old, f"square_wave: {{low: {low:g},"))
    return path


def yaml_dt():
    return float(scene()["dt"])


def grip_force_at(wave, t):
    period = wave["period"]
    phase = t - math.floor(t / period) * period
    return wave["high"] if phase < wave["duty"] * period else wave["low"]


def run(build, duration, tmp, scene_path):
    paths = {k: os.path.join(tmp, k) for k in ("log.csv", "summary.json")}
    cmd = [os.path.join(build, "contactlab"), "--headless", "--scene", scene_path,
           "--duration", str(duration), "--log", paths["log.csv"], "--summary",
           paths["summary.json"]]
    print(" ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True)
    return paths


def slip_m_per_s(row):
    """The handle's speed at the grasp centre across the grasp axis y, plus its rim speed."""
    p = [float(row["spatula.p" + k]) for k in "xyz"]
    v = [float(row["spatula.v" + k]) for k in "xyz"]
    w = [float(row["spatula.w" + k]) for k in "xyz"]
    r = [c - o for c, o in zip(GRASP_CENTRE_W, p)]
    v_c = [v[0] + w[1] * r[2] - w[2] * r[1], v[1] + w[2] * r[0] - w[0] * r[2],
           v[2] + w[0] * r[1] - w[1] * r[0]]
    return math.hypot(v_c[0], v_c[2]) + HANDLE_RADIUS_M * math.sqrt(sum(c * c for c in w))


def pitch_deg(row):
    w, x, y, z = (float(row["spatula." + k]) for k in ("qw", "qx", "qy", "qz"))
    # First column of the rotation matrix: the handle axis x_S in the world.
    xx, xz = 1 - 2 * (y * y + z * z), 2 * (x * z - w * y)
    return math.degrees(math.atan2(-xz, xx))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "figures"))
    parser.add_argument("--duration", type=float, default=18.0)
    parser.add_argument("--low", type=float, help="the loose grip force [N] (default: the scene's)")
    args = parser.parse_args()
    wave = scene()["teleop"]["grip_force"]["square_wave"]
    name = "spatula_slip"
    if args.low is not None:
        wave["low"] = args.low
        name = f"spatula_slip_low{args.low:g}"
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        scene_path = "spatula_slip"
        if args.low is not None:
            scene_path = scene_with_low_force(args.low, tmp)
        paths = run(args.build, args.duration, tmp, scene_path)
        with open(paths["summary.json"]) as f:
            summary = json.load(f)
        dt = yaml_dt()
        rows = []
        with open(paths["log.csv"]) as f:
            for r in csv.DictReader(f):
                t = float(r["t"])
                rows.append([t, grip_force_at(wave, t - dt), pitch_deg(r), int(r["num_contacts"]),
                             slip_m_per_s(r), int(r["contact_polygons"])])
    csv_path = os.path.join(args.out, name + ".csv")
    with open(csv_path, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["t", "grip_force_N", "pitch_deg", "contacts", "slip_m_per_s", "polygons"])
        for r in rows:
            out.writerow([f"{r[0]:.4f}", f"{r[1]:g}", f"{r[2]:.4f}", r[3], f"{r[4]:.4g}", r[5]])
    report(rows, wave, summary)
    plot(rows, os.path.join(args.out, name + ".png"), wave)
    print(f"wrote {csv_path} and {name}.png", file=sys.stderr)


def report(rows, wave, summary):
    """Contacts, polygons and slip per phase, skipping each phase's first 0.5 s (the switch's
    settling)."""
    period, duty = wave["period"], wave["duty"]

    def settled(r):
        phase = (r[0] - yaml_dt()) % period
        return phase >= 0.5 if r[1] == wave["high"] else phase >= duty * period + 0.5

    for name, force in (("firm (stuck)", wave["high"]), ("loose (slipping)", wave["low"])):
        phase = [r for r in rows if r[1] == force and settled(r)]
        if phase:
            print(f"{name}, settled: {len(phase)} steps, contacts mean "
                  f"{sum(r[3] for r in phase) / len(phase):.0f} (min {min(r[3] for r in phase)},"
                  f" max {max(r[3] for r in phase)}), polygons mean "
                  f"{sum(r[5] for r in phase) / len(phase):.0f} (min {min(r[5] for r in phase)},"
                  f" max {max(r[5] for r in phase)}), slip max {max(r[4] for r in phase):.3g} m/s")
    k = 0
    while (k + duty) * period < rows[-1][0]:
        start = min(rows, key=lambda r: abs(r[0] - (k + duty) * period))
        end = min(rows, key=lambda r: abs(r[0] - (k + 1) * period))
        print(f"loose phase {k + 1}: pitch {start[2]:.2f} -> {end[2]:.2f} deg")
        k += 1
    steps, wall = summary["steps"], summary["wall_time"]
    print(f"summary: {steps} steps in {wall:.2f} s wall: {steps / wall:.0f} steps/s, real-time"
          f" factor {summary['realtime_factor']:.2f}; step_ms mean {summary['step_ms']['mean']:.2f}")


def plot(rows, path, wave):
    t = [r[0] for r in rows]
    fig, (ax_f, ax_p) = plt.subplots(1, 2, figsize=(10, 3.6))
    ax_f.plot(t, [r[1] for r in rows])
    ax_f.set_xlabel("time [s]")
    ax_f.set_ylabel("grip force [N]")
    ax_p.plot(t, [r[2] for r in rows], color="C2")
    ax_p.set_xlabel("time [s]")
    ax_p.set_ylabel("pitch angle [deg] (blade down)")
    for ax in (ax_f, ax_p):
        ax.grid(alpha=0.3)
    fig.suptitle(f"spatula_slip (SAP, dt = 10 ms, sigma = 1e-3; grip {wave['high']:g} N / "
                 f"{wave['low']:g} N)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
