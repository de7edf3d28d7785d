#!/usr/bin/env python3
"""Step time against contact count: Drumwright & Shell's rigid model against Lagged (issue 38).

Runs `contactlab --headless --log --summary` under `--model drumwright_shell` and `--model
lagged` at one time step (default δt = 1 ms) on scenes of growing contact count: the falling
sphere (1 contact), peg_in_hole, the box stack (assets/scenes/box_stack.yaml, 16 contacts),
rows of N resting boxes (4N contacts that all act from the first step: the cleanest measure of
the cost in n) and the ICF clutter at several counts (the clutter generator with another
`count`; its columns take ~0.15 s to land, so its contacts grow over the run). The row and
clutter scenes are written to the work directory, not committed.

The rigid step is O(n³) in its acting contacts (docs/contact-model.md §8), so the expensive
points run fewer steps (POINTS below, or --duration). A step without contacts costs the convex
solve alone, so the step time is taken over the steps that had contacts (the log's
num_contacts > 0); the contact count is the summary's rigid_model.contacts.mean (the acting
contacts, over the steps in which one acted) for the rigid model and the mean of the log's
num_contacts over those steps for Lagged (the contacts in its problem, the margin's included).
The summary's whole-run step time, iterations, non-convergence and failure go to the CSV too
(docs/architecture.md, Summary JSON).

Writes docs/figures/rigid_step_time.{csv,png}: step time (log) against contacts (log) for both
models, the real-time line step time = δt, and a power law fitted to the rigid model's points
of one family (--fit-family, default the box rows: the same resting dynamics at every size, so
that the fit measures the size's cost and not the iterations a scene's dynamics asks for). Prints
that fit, the fit over every rigid point with at least --fit-min-contacts contacts, where each
crosses δt, and every run that did not converge or failed.

Both models run on one thread (--threads 1) and with OMP_NUM_THREADS=1 by default: on a machine
shared with other jobs a second thread's hand-off costs a step up to ~0.6 ms, and Eigen's dense
products, which run in OpenMP threads in the solver's translation units (the solver links
OpenMP for CHOLMOD), cost the rigid model 7–10× in the threads' waits (bench/RESULTS.md).
--threads 0 and --omp-threads 0 leave contactlab's and the environment's defaults.

  scripts/rigid_scaling.py                      # every point: ~12 min on 2 shared cores
  scripts/rigid_scaling.py --only box_row_8 clutter_10 --repeats 1
  scripts/rigid_scaling.py --reuse              # the figure again from the runs kept

Runs one simulation at a time: the machine may be shared. Repeats a point (--repeats, the
median of each statistic) while its runs have taken less than --repeat-budget seconds.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ["drumwright_shell", "lagged"]
# (name, scene: a built-in name or a generator below, simulated seconds).
POINTS = [
    ("falling_sphere", "falling_sphere", 0.3),
    ("peg_in_hole", "peg_in_hole", 0.3),
    ("box_stack", "box_stack", 0.2),
    ("box_row_2", "box_row:2", 0.2),
    ("box_row_4", "box_row:4", 0.2),
    ("box_row_8", "box_row:8", 0.1),
    ("box_row_16", "box_row:16", 0.05),
    ("box_row_32", "box_row:32", 0.02),
    ("clutter_5", "clutter:5", 0.5),
    ("clutter_10", "clutter:10", 0.5),
    ("clutter_20", "clutter:20", 0.5),
    ("clutter_40", "clutter:40", 0.4),
]
COLUMNS = ["scene", "model", "dt_s", "steps", "contact_steps", "contacts_mean", "contacts_max",
           "contact_step_ms_median", "contact_step_ms_mean", "step_ms_median", "step_ms_p99",
           "step_ms_mean", "solve_ms_median", "rigid_passes_mean", "rigid_outer_iterations_mean",
           "rigid_inner_iterations_mean", "rigid_rank_deficient_steps", "nonconverged_steps",
           "failed", "runs", "wall_s"]


def box_row_scene(count):
    """`count` 10 cm boxes of 1 kg resting on the ground 10 cm apart: 4 contacts each."""
    lines = [f"scene: box_row_{count}", "dt: 1.0e-3", "duration: 1.0", "model: lagged",
             "default_contact: {stiffness: 1.0e7, hunt_crossley: 10.0, relaxation_time: 1.0e-3,"
             " friction: 0.5}", "bodies:", "  - name: ground", "    type: static",
             "    shapes: [{type: half_space, stiffness: .inf}]"]
    for i in range(count):
        lines.append(f"  - {{name: box{i}, mass: 1.0, position: [{0.2 * i:.1f}, 0, 0.05],"
                     " shapes: [{type: box, size: [0.1, 0.1, 0.1]}]}")
    return "\n".join(lines) + "\n"


def clutter_scene(count):
    """assets/scenes/clutter.yaml with `count` objects instead of 40."""
    with open(os.path.join(ROOT, "assets", "scenes", "clutter.yaml")) as f:
        text = f.read()
    if text.count("count: 40") != 1:
        sys.exit("rigid_scaling: clutter.yaml no longer has one `count: 40` to replace")
    return text.replace("scene: clutter", f"scene: clutter_{count}").replace(
        "count: 40", f"count: {count}")


def scene_argument(name, scene, work):
    kind, _, count = scene.partition(":")
    if not count:
        return scene
    path = os.path.join(work, f"{name}.yaml")
    with open(path, "w") as f:
        f.write({"box_row": box_row_scene, "clutter": clutter_scene}[kind](int(count)))
    return path


def contact_steps(log):
    """(step_ms, num_contacts) of the steps that had contacts, from a --log CSV."""
    with open(log) as f:
        rows = [(float(r["step_ms"]), int(r["num_contacts"])) for r in csv.DictReader(f)]
    return [r for r in rows if r[1] > 0]


def run_once(binary, name, scene, model, dt, duration, work, env, threads):
    stem = os.path.join(work, f"{name}.{model}")
    command = [binary, "--headless", "--scene", scene, "--model", model, "--dt", str(dt),
               "--duration", str(duration), "--log", stem + ".csv", "--summary", stem + ".json"]
    if threads > 0:
        command += ["--threads", str(threads)]
    start = time.monotonic()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    # Exit code 3 is a failed run (non-finite state): its summary says so and it is a result.
    if done.returncode not in (0, 3):
        sys.exit(f"rigid_scaling: {' '.join(command)} exited {done.returncode}:\n{done.stderr}")
    with open(stem + ".json") as f:
        summary = json.load(f)
    steps = contact_steps(stem + ".csv")
    rigid = summary.get("rigid_model")
    if rigid:
        contacts_mean, contacts_max = rigid["contacts"]["mean"], rigid["contacts"]["max"]
    else:
        contacts_mean = statistics.mean(c for _, c in steps) if steps else 0.0
        contacts_max = summary["contacts"]["max"]
    ms = [s for s, _ in steps]
    return {
        "steps": summary["steps"],
        "contact_steps": len(steps),
        "contacts_mean": contacts_mean,
        "contacts_max": contacts_max,
        "contact_step_ms_median": statistics.median(ms) if ms else math.nan,
        "contact_step_ms_mean": statistics.mean(ms) if ms else math.nan,
        "step_ms_median": summary["step_ms"]["median"],
        "step_ms_p99": summary["step_ms"]["p99"],
        "step_ms_mean": summary["step_ms"]["mean"],
        "solve_ms_median": summary["solve_ms"]["median"],
        "rigid_passes_mean": rigid["passes"]["mean"] if rigid else "",
        "rigid_outer_iterations_mean": rigid["outer_iterations"]["mean"] if rigid else "",
        "rigid_inner_iterations_mean": rigid["inner_iterations"]["mean"] if rigid else "",
        "rigid_rank_deficient_steps": rigid["rank_deficient_steps"] if rigid else "",
        "nonconverged_steps": summary["nonconverged_steps"],
        "failed": summary["failed"],
        "wall_s": wall,
        "command": command,
        "rigid_nonconverged": rigid["nonconverged_steps"] if rigid else 0,
    }


def measure(binary, name, scene, model, dt, duration, work, env, threads, repeats, budget,
            reuse):
    """The point's statistics, each the median over its runs (the runs differ in timing only);
    with `reuse`, those a previous call saved in the work directory for the same run."""
    saved = os.path.join(work, f"{name}.{model}.row.json")
    if reuse and os.path.exists(saved):
        with open(saved) as f:
            row = json.load(f)
        if (row["duration"], row["dt"], row["threads"]) == (duration, dt, threads):
            return row
    runs = [run_once(binary, name, scene, model, dt, duration, work, env, threads)]
    while len(runs) < repeats and sum(r["wall_s"] for r in runs) < budget:
        runs.append(run_once(binary, name, scene, model, dt, duration, work, env, threads))
    row = dict(runs[0])
    for key in ("contact_step_ms_median", "contact_step_ms_mean", "step_ms_median", "step_ms_p99",
                "step_ms_mean", "solve_ms_median", "wall_s"):
        row[key] = statistics.median(r[key] for r in runs)
    row.update(runs=len(runs), duration=duration, dt=dt, threads=threads)
    with open(saved, "w") as f:
        json.dump(row, f)
    return row


def fit_power_law(points):
    """Least-squares line through (log n, log t): t = a n^p; returns (a, p)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    p = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return math.exp(my - p * mx), p


def plot(rows, dt, fits, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 5.2))
    style = {"drumwright_shell": ("C3", "o", "Drumwright & Shell (acting contacts)"),
             "lagged": ("C0", "s", "Lagged (contacts in its problem)")}
    for model, (color, marker, label) in style.items():
        pts = [r for r in rows if r["model"] == model and r["contact_steps"] > 0]
        ax.scatter([r["contacts_mean"] for r in pts], [r["contact_step_ms_median"] for r in pts],
                   color=color, marker=marker, label=label + ", median", zorder=3)
        ax.scatter([r["contacts_mean"] for r in pts], [r["contact_step_ms_mean"] for r in pts],
                   facecolors="none", edgecolors=color, marker=marker, label=label + ", mean",
                   zorder=3)
        if model == "drumwright_shell":
            for r in pts:
                # Labels below and right of their points, but where another point sits there.
                xytext, ha = {"box_stack": ((-5, 3), "right"), "clutter_5": ((-5, 3), "right"),
                              "box_row_32": ((-5, -10), "right")}.get(r["scene"],
                                                                     ((4, -9), "left"))
                ax.annotate(r["scene"], (r["contacts_mean"], r["contact_step_ms_median"]),
                            textcoords="offset points", xytext=xytext, ha=ha, fontsize=6.5,
                            color="0.3")
    ax.axhline(dt * 1e3, color="k", ls="--", lw=1)
    ax.text(1.05, dt * 1e3 * 1.25, f"real time at δt = {dt * 1e3:g} ms", fontsize=8)
    for label, (a, p, n) in fits.items():
        ax.plot(n, [a * x ** p for x in n], color="C3", lw=1,
                ls="-" if label.endswith("*") else ":",
                label=f"rigid fit, {label}: {a:.2g} ms · n^{p:.2f}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("mean contacts over the steps with contact")
    ax.set_ylabel("step time over the steps with contact [ms]")
    ax.set_title("Step time against contact count (issue 38)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=130)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "contactlab"))
    parser.add_argument("--out-dir", default=os.path.join(ROOT, "docs", "figures"))
    parser.add_argument("--work-dir", default=os.path.join(ROOT, "build", "rigid_scaling"),
                        help="scene files, logs and summaries of the runs")
    parser.add_argument("--dt", type=float, default=1e-3)
    parser.add_argument("--duration", type=float,
                        help="simulated seconds of every point instead of POINTS' own")
    parser.add_argument("--only", nargs="+", help="these points of POINTS only")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--repeat-budget", type=float, default=60,
                        help="repeat a point only while its runs took less than this [s]")
    parser.add_argument("--fit-min-contacts", type=float, default=4)
    parser.add_argument("--fit-family", default="box_row",
                        help="fit the rigid points whose name starts with this")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--omp-threads", type=int, default=1)
    parser.add_argument("--reuse", action="store_true",
                        help="take a point's statistics from an earlier run in --work-dir")
    args = parser.parse_args()

    os.makedirs(args.work_dir, exist_ok=True)
    os.makedirs(args.out_dir, exist_ok=True)
    env = dict(os.environ)
    if args.omp_threads > 0:
        env["OMP_NUM_THREADS"] = str(args.omp_threads)
    points = [p for p in POINTS if not args.only or p[0] in args.only]
    rows, findings = [], []
    for name, scene, duration in points:
        scene_arg = scene_argument(name, scene, args.work_dir)
        for model in MODELS:
            row = measure(args.binary, name, scene_arg, model, args.dt,
                          args.duration or duration, args.work_dir, env, args.threads,
                          args.repeats, args.repeat_budget, args.reuse)
            row.update(scene=name, model=model, dt_s=args.dt)
            rows.append(row)
            print(f"{name:15s} {model:17s} contacts {row['contacts_mean']:7.2f} "
                  f"(max {row['contacts_max']}) step {row['contact_step_ms_median']:.4g} ms "
                  f"median, {row['contact_step_ms_mean']:.4g} ms mean over "
                  f"{row['contact_steps']} of {row['steps']} steps; {row['runs']} run(s), "
                  f"{row['wall_s']:.1f} s wall", flush=True)
            if row["nonconverged_steps"] or row["rigid_nonconverged"] or row["failed"]:
                findings.append(f"{name} {model}: nonconverged_steps {row['nonconverged_steps']}"
                                f" (rigid_model {row['rigid_nonconverged']}), failed "
                                f"{row['failed']}: {' '.join(row['command'])}")

    csv_path = os.path.join(args.out_dir, "rigid_step_time.csv")
    with open(csv_path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v)
                             for k, v in row.items()})
    fits = {}
    for label, chosen in (
            (f"{args.fit_family}*", lambda r: r["scene"].startswith(args.fit_family)),
            (f"every rigid point, n ≥ {args.fit_min_contacts:g}",
             lambda r: r["contacts_mean"] >= args.fit_min_contacts)):
        pts = [(r["contacts_mean"], r["contact_step_ms_median"]) for r in rows
               if r["model"] == MODELS[0] and r["contact_steps"] > 0 and chosen(r)]
        if len(pts) < 2:
            continue
        a, p = fit_power_law(pts)
        fits[label] = (a, p, [min(n for n, _ in pts), max(n for n, _ in pts)])
        print(f"rigid fit ({label}, {len(pts)} points): {a:.3g} ms · n^{p:.2f}; "
              f"step time = δt at n = {(args.dt * 1e3 / a) ** (1 / p):.1f} contacts")
    plot(rows, args.dt, fits, os.path.join(args.out_dir, "rigid_step_time.png"))
    print(f"wrote {csv_path} and rigid_step_time.png")
    for finding in findings:
        print("not converged or failed: " + finding)


if __name__ == "__main__":
    main()
