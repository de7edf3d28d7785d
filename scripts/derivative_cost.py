#!/usr/bin/env python3
"""The cost of a step's derivatives and of a calibration (issue 39's figures).

Derivatives (docs/contact-model.md §9): runs build/bench/step_derivatives_bench (JSON) with
--benchmark_repetitions, interleaved so that a load change on the shared machine falls on every
case alike, and takes each case's median over the repetitions: a plain World::Step (`step`), the
step and its Hessian factored (`factor`), one Jacobian–vector product along ∂/∂μ (`jvp`), the
parameter Jacobian ∂(q₁, v₁)/∂p over the global parameters the model reads (`dp`) and every
Jacobian (`jacobians`), on the settled clutter-40 pile and on peg_in_hole, SAP and Lagged.
Writes docs/figures/derivative_cost.csv (times, and each case as a multiple of the step: in all,
and beyond the step) and derivative_cost.png (the cost beyond the step in steps, log scale,
against the issue's goal of 0.5 step). The JSON goes to a file, not stdout: the peg scene's
script replay logs a line there as each case sets up.

Calibration (docs/contact-model.md §10): logs `contactlab --headless --scene sliding_box` (5 s),
writes a copy with Gaussian noise (σ = 0.1 mm, seeded) on box.px/py/pz, and times `contactlab
calibrate` fitting stiffness, friction and stiction tolerance from 1e6, 0.7, 1e-4 to each; and
logs peg_in_hole's scripted insertion (5 s, its teleop script) and fits the finger pads' E_h and
each pad–peg pair's μ from 5e7 Pa and 0.6 (the runs replay the script). Each
--calibration-repeats times (median wall time, and the process's CPU time, steadier on a shared
machine); the fit's RMS residual before and after and its fitted values as printed. Writes
docs/figures/calibration_time.csv and, beside it, each case's fit plot (calibrate --plot).

Profile (--profile): `perf record --call-graph dwarf` of the parameter Jacobian's case (d) on
the pile, for each model (the Release build has no frame pointers, so `perf record -g` gives
self time only), and each sample put in a stage by its call chain: the World's step, the
rebuild and factorization of StepDerivatives::Step, and the Applies' rebuilt steps (geometry
query, kinematics, free motion, constraint build, ∇ℓ at v₁) and back-substitution. The samples
of the benchmark's setup (settling the pile) are left out. Prints the split; writes nothing to
docs/.

OMP_NUM_THREADS=1 (--omp-threads): the solver module is compiled with OpenMP for CHOLMOD, and
OpenMP's waits cost several times a step on a shared machine (bench/RESULTS.md, issue 38).
Needs Debian's python3-matplotlib: run as /usr/bin/python3 scripts/derivative_cost.py.

  /usr/bin/python3 scripts/derivative_cost.py                  # both, ~5 min on 2 shared cores
  /usr/bin/python3 scripts/derivative_cost.py --skip-calibration --reuse   # the figure again
  /usr/bin/python3 scripts/derivative_cost.py --skip-bench --skip-calibration --profile
"""
import argparse
import csv
import json
import os
import random
import re
import resource
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = ["step", "factor", "jvp", "dp", "jacobians"]
DESCRIPTIONS = {
    "step": "(a) World::Step",
    "factor": "(b) StepDerivatives::Step: the step + H factored at v₁",
    "jvp": "(c) (b) + one Apply along ∂/∂μ (a JVP)",
    "dp": "(d) (b) + ∂(q₁, v₁)/∂p, one Apply per parameter",
    "jacobians": "(e) (b) + Jacobians(): every column",
}
GOAL = 0.5  # the issue's: the Jacobians at most half a step beyond it
PADS = ["friction@peg/panda_leftfinger", "friction@peg/panda_rightfinger"]
# Each calibration: its scene, the parameters fitted and their starts, and the fit plot's name.
CALIBRATIONS = {
    "sliding_box": {"fit": ["stiffness", "friction", "stiction-tolerance"],
                    "from": ["stiffness=1e6", "friction=0.7", "stiction-tolerance=1e-4"]},
    "peg_in_hole": {"fit": ["hydroelastic-modulus"] + PADS,
                    "from": ["hydroelastic-modulus=5e7"] + [f"{p}=0.6" for p in PADS]},
}
NOISE_M = 1e-4
NOISE_COLUMNS = ["box.px", "box.py", "box.pz"]


def run_bench(binary, json_path, repetitions, env):
    subprocess.run([binary, f"--benchmark_repetitions={repetitions}",
                    "--benchmark_enable_random_interleaving=true",
                    f"--benchmark_out={json_path}", "--benchmark_out_format=json",
                    "--benchmark_counters_tabular=true"], check=True, env=env)


def bench_rows(json_path):
    """One row per (scene, model, case): the median over repetitions and its spread. In CPU
    time: the cases run on one thread, and a shared machine's other jobs take the core from
    them for a varying part of the wall time (the real time's median is in the CSV too)."""
    with open(json_path) as f:
        report = json.load(f)
    cpu, real, iterations, counters = {}, {}, {}, {}
    for b in report["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        # "StepCost/<scene>/<model>/<case>[/iterations:N]"
        _, scene, model, case = b["run_name"].split("/")[:4]
        assert b["time_unit"] == "ms"
        cpu.setdefault((scene, model, case), []).append(b["cpu_time"])
        real.setdefault((scene, model, case), []).append(b["real_time"])
        iterations.setdefault((scene, model, case), []).append(b["iterations"])
        counters[(scene, model, case)] = b
    rows = []
    for (scene, model, case), samples in cpu.items():
        step = statistics.median(cpu[(scene, model, "step")])
        median = statistics.median(samples)
        c = counters[(scene, model, case)]
        rows.append({
            "scene": scene, "model": model, "case": case, "description": DESCRIPTIONS[case],
            "nq": int(c["nq"]), "nv": int(c["nv"]), "nu": int(c["nu"]), "np": int(c["np"]),
            "contacts": int(c["contacts"]), "constraints": int(c["constraints"]),
            "newton_iterations": int(c["newton_iterations"]), "repetitions": len(samples),
            "timed_iterations_median": statistics.median(iterations[(scene, model, case)]),
            "cpu_ms_median": median, "cpu_ms_min": min(samples), "cpu_ms_max": max(samples),
            "real_ms_median": statistics.median(real[(scene, model, case)]),
            "multiple_of_step": median / step, "beyond_step": (median - step) / step,
            "meets_goal": "" if case == "step" else ("yes" if median - step <= GOAL * step
                                                     else "no")})
    order = {c: i for i, c in enumerate(CASES)}
    rows.sort(key=lambda r: (r["scene"], r["model"] != "sap", order[r["case"]]))
    return rows


def plot_derivatives(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = []
    for r in rows:
        if (r["scene"], r["model"]) not in groups:
            groups.append((r["scene"], r["model"]))
    cases = CASES[1:]
    fig, ax = plt.subplots(figsize=(8.5, 5.4))
    width = 0.8 / len(cases)
    for j, case in enumerate(cases):
        xs, ys = [], []
        for i, g in enumerate(groups):
            r = next(r for r in rows if (r["scene"], r["model"]) == g and r["case"] == case)
            xs.append(i + (j - (len(cases) - 1) / 2) * width)
            ys.append(r["beyond_step"])
        bars = ax.bar(xs, ys, width, label=DESCRIPTIONS[case], color=f"C{j}")
        ax.bar_label(bars, labels=[f"{y:.3g}" for y in ys], fontsize=7, padding=1)
    ax.axhline(GOAL, color="k", ls="--", lw=1, label=f"the issue's goal: {GOAL:g} step")
    ax.set_yscale("log")
    ax.set_xticks(range(len(groups)))
    step_ms = {(r["scene"], r["model"]): r["cpu_ms_median"] for r in rows if r["case"] == "step"}
    ax.set_xticklabels([f"{s}, {m}\nstep {step_ms[(s, m)] * 1e3:.0f} µs" for s, m in groups],
                       fontsize=8)
    ax.set_ylabel("cost beyond the step [steps]  = (t − t_step) / t_step")
    ax.set_title("Step derivatives: their cost beyond the step, in steps (issue 39; CPU-time "
                 "medians, Release, 2 shared cores)", fontsize=9.5)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.set_ylim(0.1, max(r["beyond_step"] for r in rows) * 3)
    ax.set_xlim(-0.55, len(groups) - 0.45)
    # Below the axes, where no bar is.
    ax.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=130)


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v)
                             for k, v in row.items()})


def add_noise(reference, noisy, seed):
    """The reference log with N(0, NOISE_M²) added to NOISE_COLUMNS, the rest unchanged."""
    rng = random.Random(seed)
    with open(reference, newline="") as f:
        rows = list(csv.reader(f))
    columns = [rows[0].index(c) for c in NOISE_COLUMNS]
    for row in rows[1:]:
        for c in columns:
            row[c] = repr(float(row[c]) + rng.gauss(0.0, NOISE_M))
    with open(noisy, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


SUMMARY = re.compile(r"RMS error (\S+) m before, (\S+) m after \((\d+) residuals\), (\d+) "
                     r"iterations, (\S+) s")


def calibrate_once(binary, scene, reference, work, env, plot=None):
    """Wall time of one `contactlab calibrate`, and what it printed."""
    case = CALIBRATIONS[scene]
    command = [binary, "calibrate", "--scene", scene, "--reference", reference,
               "--fit", ",".join(case["fit"]), "--from", ",".join(case["from"]),
               "--output", os.path.join(work, f"{scene}_fitted.yaml"),
               "--plot", plot or os.path.join(work, f"{scene}_fit.png")]
    start, cpu_start = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, check=True, env=env, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    cpu_end = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_end.ru_utime + cpu_end.ru_stime) - (cpu_start.ru_utime + cpu_start.ru_stime)
    m = SUMMARY.search(out)
    fitted = {}
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] in case["fit"]:
            fitted[parts[0]] = float(parts[2])
    return {"wall_s": wall, "cpu_s": cpu, "rms_before_m": float(m[1]),
            "rms_after_m": float(m[2]), "residuals": int(m[3]), "lm_iterations": int(m[4]),
            "fit_s": float(m[5]), "fitted": fitted}


def calibration_rows(binary, work, out_dir, repeats, env):
    references = []
    for scene in CALIBRATIONS:
        reference = os.path.join(work, f"{scene}_ref.csv")
        subprocess.run([binary, "--headless", "--scene", scene, "--duration", "5", "--log",
                        reference], check=True, env=env, capture_output=True)
        references.append((scene, "exact", reference))
        if scene == "sliding_box":
            noisy = os.path.join(work, "sliding_box_ref_noise_0.1mm.csv")
            add_noise(reference, noisy, seed=39)
            references.append((scene, "noise 0.1 mm", noisy))
    rows = []
    for scene, label, path in references:
        plot = os.path.join(out_dir, f"calibration_{scene}.png") if label == "exact" else None
        runs = [calibrate_once(binary, scene, path, work, env, plot) for _ in range(repeats)]
        walls = [r["wall_s"] for r in runs]
        last = runs[-1]
        row = {"scene": scene, "reference": label, "repetitions": repeats,
               "wall_s_median": statistics.median(walls), "wall_s_min": min(walls),
               "wall_s_max": max(walls),
               "cpu_s_median": statistics.median(r["cpu_s"] for r in runs),
               "fit_s_median": statistics.median(r["fit_s"] for r in runs),
               "lm_iterations": last["lm_iterations"], "residuals": last["residuals"],
               "rms_before_m": last["rms_before_m"], "rms_after_m": last["rms_after_m"],
               "fitted": " ".join(f"{k}={v:.6g}" for k, v in last["fitted"].items())}
        rows.append(row)
        print(f"calibrate {scene} ({label}): {row['wall_s_median']:.3g} s wall (median of "
              f"{repeats}; {min(walls):.3g}–{max(walls):.3g}), {row['cpu_s_median']:.3g} s CPU, "
              f"RMS {row['rms_before_m']:.4g} → {row['rms_after_m']:.4g} m, "
              f"{row['lm_iterations']} iterations, fitted {last['fitted']}", flush=True)
    return rows


# A sample's stage: the first of these whose function is on its call chain (the World's solve
# with its own factorizations; free motion before the build that calls it).
STAGES = [
    ("SolveVelocities", "Newton solve"),
    ("FactorHessianAt", "Hessian factorization"),
    ("SolveFactored", "back-substitution H⁻¹b"),
    ("IntegratePositions", "position update"),
    ("GeometryQuery::Run", "geometry query"),
    ("QueryGeometry", "geometry query"),
    ("FreeMotion::Compute", "free motion"),
    ("ProblemBuilder::Build", "constraint build"),
    ("UpdateKinematics", "kinematics"),
    ("EvaluateCost", "∇ℓ at v₁ (EvaluateCost)"),
]
PARTS = [("StepDerivatives::Apply", "Apply"), ("World::Step", "World::Step"),
         ("StepDerivatives::Step", "StepDerivatives::Step's rebuild")]


def call_chains(perf_data):
    """Each sample's demangled call chain, leaf first."""
    script = subprocess.run(["perf", "script", "-i", perf_data, "-F", "ip,sym", "--no-inline"],
                            check=True, capture_output=True, text=True).stdout
    demangled = subprocess.run(["c++filt"], input=script, check=True, capture_output=True,
                               text=True).stdout
    for block in demangled.split("\n\n"):
        chain = [line.split(None, 1)[1] for line in block.splitlines() if len(line.split()) > 1]
        if chain:
            yield chain


def profile(binary, work, model, env):
    perf_data = os.path.join(work, f"perf_dp_{model}.data")
    subprocess.run(["perf", "record", "-F", "1500", "--call-graph", "dwarf,16384", "-o",
                    perf_data, binary, f"--benchmark_filter=clutter40/{model}/dp$",
                    "--benchmark_min_time=4"], check=True, env=env, capture_output=True)
    stages, add_contact, total = {}, {}, 0
    for chain in call_chains(perf_data):
        if not any("StepCost" in f for f in chain):
            continue
        # The outermost part on the chain: World::Step inside StepDerivatives::Step is the step.
        part = next(((key, label) for key, label in PARTS if any(key in f for f in chain)), None)
        if part is None:
            continue  # SetState, the loop itself
        if part[1] == "World::Step" and not any("StepDerivatives::Step" in f for f in chain):
            continue  # the setup's settling steps
        inner = chain[:next(i for i, f in enumerate(chain) if part[0] in f)]
        stage = next((label for k, label in STAGES if any(k in f for f in inner)), "other")
        stages[(part[1], stage)] = stages.get((part[1], stage), 0) + 1
        total += 1
        if part[1] == "Apply" and any("ProblemBuilder::AddContact" in f for f in inner):
            below = inner[:next(i for i, f in enumerate(inner)
                                if "ProblemBuilder::AddContact" in f)]
            callee = re.sub(r"\(.*", "", below[-1]) if below else "AddContact itself"
            add_contact[callee] = add_contact.get(callee, 0) + 1
    print(f"clutter40 {model} dp: {total} samples in the timed calls")
    for (part, stage), n in sorted(stages.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"  {100 * n / total:5.1f} %  {part}: {stage}")
    print("  Apply's ProblemBuilder::AddContact, by callee:")
    for callee, n in sorted(add_contact.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {100 * n / total:5.1f} %    {callee}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out-dir", default=os.path.join(ROOT, "docs", "figures"))
    parser.add_argument("--work-dir", default=os.path.join(ROOT, "build", "derivative_cost"),
                        help="the benchmark's JSON, the reference logs and the fits")
    parser.add_argument("--repetitions", type=int, default=9)
    parser.add_argument("--calibration-repeats", type=int, default=3)
    parser.add_argument("--omp-threads", type=int, default=1)
    parser.add_argument("--reuse", action="store_true",
                        help="the benchmark's JSON from an earlier run in --work-dir")
    parser.add_argument("--skip-bench", action="store_true")
    parser.add_argument("--skip-calibration", action="store_true")
    parser.add_argument("--profile", action="store_true",
                        help="perf profile of case (d) on the pile (perf data in --work-dir)")
    args = parser.parse_args()

    os.makedirs(args.work_dir, exist_ok=True)
    os.makedirs(args.out_dir, exist_ok=True)
    env = dict(os.environ)
    if args.omp_threads > 0:
        env["OMP_NUM_THREADS"] = str(args.omp_threads)
    if not args.skip_bench:
        json_path = os.path.join(args.work_dir, "step_derivatives_bench.json")
        if not args.reuse:
            run_bench(os.path.join(args.build_dir, "bench", "step_derivatives_bench"), json_path,
                      args.repetitions, env)
        rows = bench_rows(json_path)
        write_csv(rows, os.path.join(args.out_dir, "derivative_cost.csv"))
        plot_derivatives(rows, os.path.join(args.out_dir, "derivative_cost.png"))
        for r in rows:
            print(f"{r['scene']:12s} {r['model']:7s} {r['case']:10s} {r['cpu_ms_median']:9.4g} ms"
                  f" ({r['cpu_ms_min']:.4g}–{r['cpu_ms_max']:.4g}; real "
                  f"{r['real_ms_median']:.4g}), {r['multiple_of_step']:8.3g}× the step, "
                  f"{r['beyond_step']:8.3g} beyond it {r['meets_goal']}")
        print("wrote derivative_cost.csv and derivative_cost.png")
    if not args.skip_calibration:
        rows = calibration_rows(os.path.join(args.build_dir, "contactlab"), args.work_dir,
                                args.out_dir, args.calibration_repeats, env)
        write_csv(rows, os.path.join(args.out_dir, "calibration_time.csv"))
        print("wrote calibration_time.csv")
    if args.profile:
        for model in ("sap", "lagged"):
            profile(os.path.join(args.build_dir, "bench", "step_derivatives_bench"),
                    args.work_dir, model, env)


if __name__ == "__main__":
    main()
