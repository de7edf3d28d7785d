#!/usr/bin/env python3
"""The SAP paper's slip-control figure (§VI-D, Fig. 17) from contactlab's `spatula_slip` scene.

Runs the scene headless for its 18 s (`--log`, `--log-contacts`, `--summary`) and writes
OUT/spatula_slip.csv, one row per step:

  t            step start time [s]
  grip_force_N the programmed grip force (the scene's square wave, GripForceAt's convention:
               high on [k·P, k·P + duty·P), low on the rest of each period)
  squeeze_N    measured: the normal force the left pad presses the handle with (sum over the
               step's pressed spatula–left-finger contacts)
  pitch_deg    the spatula's rotation about the grasp axis (world y) from its start, blade
               down positive: atan2(−x_z, x_x) of the handle axis x_S in the world
  contacts     the step's contact constraints (the log's num_contacts)
  pad_contacts pressed (stick or slip) spatula–pad contacts
  slip_m_per_s the largest slip speed among them

and OUT/spatula_slip.png (pitch and grip force against time, like Fig. 17), and prints the
contacts per phase (mean over the steps of the firm and loose phases) and the run's speed.

Usage: scripts/spatula_slip.py [--build build] [--out docs/figures] [--duration 18]
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
PADS = ("wsg50_left_finger", "wsg50_right_finger")


def grip_force_at(wave, t):
    period = wave["period"]
    phase = t - math.floor(t / period) * period
    return wave["high"] if phase < wave["duty"] * period else wave["low"]


def run(build, duration, tmp):
    paths = {k: os.path.join(tmp, k) for k in ("log.csv", "contacts.csv", "summary.json")}
    cmd = [os.path.join(build, "contactlab"), "--headless", "--scene", "spatula_slip",
           "--duration", str(duration), "--log", paths["log.csv"], "--log-contacts",
           paths["contacts.csv"], "--summary", paths["summary.json"]]
    print(" ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True)
    return paths


def pad_contacts(path):
    """Per step time: (count, left-pad normal force, max slip speed) of pressed pad contacts."""
    per_t = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            bodies = (row["body_a"], row["body_b"])
            if "spatula" not in bodies or not any(p in bodies for p in PADS):
                continue
            if row["state"] not in ("stick", "slip"):
                continue
            c = per_t.setdefault(row["t"], [0, 0.0, 0.0])
            c[0] += 1
            if PADS[0] in bodies:
                c[1] += float(row["normal_force"])
            c[2] = max(c[2], float(row["slip_speed"]))
    return per_t


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
    args = parser.parse_args()
    with open(os.path.join(ROOT, "assets", "scenes", "spatula_slip.yaml")) as f:
        wave = yaml.safe_load(f)["teleop"]["grip_force"]["square_wave"]
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        paths = run(args.build, args.duration, tmp)
        pads = pad_contacts(paths["contacts.csv"])
        with open(paths["summary.json"]) as f:
            summary = json.load(f)
        rows = []
        with open(paths["log.csv"]) as f:
            for r in csv.DictReader(f):
                n, squeeze, slip = pads.get(r["t"], [0, 0.0, 0.0])
                t = float(r["t"])
                rows.append([t, grip_force_at(wave, t), squeeze, pitch_deg(r),
                             int(r["num_contacts"]), n, slip])
    csv_path = os.path.join(args.out, "spatula_slip.csv")
    with open(csv_path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["t", "grip_force_N", "squeeze_N", "pitch_deg", "contacts", "pad_contacts",
                      "slip_m_per_s"])
        for r in rows:
            out.writerow([f"{r[0]:.4f}", f"{r[1]:g}", f"{r[2]:.4f}", f"{r[3]:.4f}", r[4], r[5],
                          f"{r[6]:.4g}"])
    report(rows, wave, summary)
    plot(rows, os.path.join(args.out, "spatula_slip.png"))
    print(f"wrote {csv_path} and spatula_slip.png", file=sys.stderr)


def report(rows, wave, summary):
    firm = [r for r in rows if r[1] == wave["high"]]
    loose = [r for r in rows if r[1] == wave["low"]]
    for name, phase in (("firm (stuck)", firm), ("loose (slipping)", loose)):
        if phase:
            print(f"{name}: {len(phase)} steps, contacts mean {sum(r[4] for r in phase) / len(phase):.1f}"
                  f" (pad contacts {sum(r[5] for r in phase) / len(phase):.1f}),"
                  f" max slip {max(r[6] for r in phase):.3g} m/s")
    # Pitch gained in each loose phase (from its start to the next firm phase's start).
    period, duty = wave["period"], wave["duty"]
    k = 0
    while (k + duty) * period < rows[-1][0]:
        start = min(rows, key=lambda r: abs(r[0] - (k + duty) * period))
        end = min(rows, key=lambda r: abs(r[0] - (k + 1) * period))
        print(f"loose phase {k + 1}: pitch {start[3]:.2f} -> {end[3]:.2f} deg")
        k += 1
    steps, step_ms = summary.get("steps"), summary.get("step_ms", {}).get("mean")
    print(f"summary: steps {steps}, mean step {step_ms} ms, wall {summary.get('wall_time_s')} s")


def plot(rows, path):
    t = [r[0] for r in rows]
    fig, (ax_f, ax_p) = plt.subplots(1, 2, figsize=(10, 3.6))
    ax_f.plot(t, [r[1] for r in rows], label="programmed")
    ax_f.plot(t, [r[2] for r in rows], label="measured (left pad)", lw=0.8)
    ax_f.set_xlabel("time [s]")
    ax_f.set_ylabel("grip force [N]")
    ax_f.legend()
    ax_p.plot(t, [r[3] for r in rows], color="C2")
    ax_p.set_xlabel("time [s]")
    ax_p.set_ylabel("pitch angle [deg] (blade down)")
    for ax in (ax_f, ax_p):
        ax.grid(alpha=0.3)
    fig.suptitle("spatula_slip (SAP, dt = 10 ms, sigma = 1e-3)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
