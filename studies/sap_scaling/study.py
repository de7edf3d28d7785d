"""The SAP paper's scalability study (§VI-C1, Figs 11–12): SAP on the clutter of 10 … 640
bodies with and without walls, the contacts at the end and the step's wall time against the
number of bodies (README.md beside this file)."""
import math
import os

from study_runner import Check, Point, log_slope, pyplot, scene_variant, write_csv

FIGURE = "SAP paper §VI-C1, Figs 11–12"
SCENE = "assets/scenes/clutter.yaml"  # the 40-body clutter: its contact, δt, σ
COUNTS = [10, 20, 40, 80, 160, 320, 640]
# --quick: with walls only (README.md), a factor 4 apart: the fit's span, not its points, keeps
# a shared machine's noise small against the exponent.
QUICK_COUNTS = [20, 80, 320]
DT = 2e-3  # [s], the scene's
DURATION, QUICK_DURATION = 10.0, 3.0  # [s]: §VI-C's 10 s, the piles at rest (README.md)
# §VI-C: "The dissipation time scale is set to equal the time step" (the scene's is 0.1 ms).
SAP = ["--model", "sap", "--dt", f"{DT:g}", "--relaxation-time", f"{DT:g}"]
# A sparse factorization of the pile's contact graph: the pile keeps its depth (container below)
# and spreads over the floor, a planar graph, whose nested-dissection Cholesky costs O(n^1.5)
# (dense: n³). The step's exponent over the largest counts must stay below it.
EXPONENT_BOUND = 1.5
FIT_POINTS = 3  # the largest counts: the fixed cost per step no longer flattens the fit
# Contacts per body: about constant (a body rests on a few others whatever the pile's size), so
# the contacts grow about ∝ N; a pile that did not settle, or lost bodies, leaves this range.
CONTACT_EXPONENT = (0.85, 1.15)


def container(count):
    """bench/clutter_bench.cc's rule: the 80 cm box of 40 bodies, its floor growing ∝ count
    beyond, so that the pile keeps its depth (640 bodies would overflow the 80 cm box)."""
    return 0.8 * max(1.0, math.sqrt(count / 40))


def walls_name(walls):
    return "walls" if walls else "no_walls"


def point_id(count, walls):
    return f"n{count}_{walls_name(walls)}"


def clutter_scene(count, walls):
    """The clutter scene with count, container and walls set (study_runner.scene_variant)."""
    return scene_variant("sap_scaling", f"clutter_{point_id(count, walls)}", SCENE,
                         [(r"count: 40, size: 0.1, container: 0.8, walls: true",
                           f"count: {count}, size: 0.1, container: {container(count):.6g}, "
                           f"walls: {'true' if walls else 'false'}")])


def points(quick):
    counts, duration = (QUICK_COUNTS, QUICK_DURATION) if quick else (COUNTS, DURATION)
    # The largest first, so that the last runs to finish are short ones.
    settings = (True,) if quick else (True, False)
    return [Point(point_id(n, w), ["--scene", clutter_scene(n, w), "--duration", f"{duration:g}"]
                  + SAP, ["solver", "summary"])
            for n in sorted(counts, reverse=True) for w in settings]


def collect(run, out_dir):
    results = {}  # (count, walls) -> the run's numbers
    for n in COUNTS:
        for w in (True, False):
            if point_id(n, w) not in run.ids:
                continue
            c = run.columns(point_id(n, w), ["contacts", "pressed_contacts"], "solver")
            s = run.summary(point_id(n, w))
            results[n, w] = {"contacts": int(c["contacts"][-1]),
                             "pressed": int(c["pressed_contacts"][-1]),
                             "step_ms": s["step_ms"]["mean"],
                             "steady_step_ms": s["last_second"]["step_ms_median"],
                             "iterations": s["iterations"]["mean"],
                             "steady_iterations": s["last_second"]["iterations_mean"],
                             "nonconverged": s["nonconverged_steps"], "failed": s["failed"]}
    counts = sorted({n for n, _ in results})
    settings = [w for w in (True, False) if any(key[1] == w for key in results)]
    write_csv(os.path.join(out_dir, "sap_scaling.csv"),
              ["bodies", "walls", "container_m", "final_contacts", "final_pressed_contacts",
               "mean_step_ms", "last_second_median_step_ms", "mean_iterations",
               "last_second_mean_iterations", "nonconverged_steps"],
              [[n, walls_name(w), f"{container(n):.4g}", r["contacts"], r["pressed"],
                f"{r['step_ms']:.4g}", f"{r['steady_step_ms']:.4g}", f"{r['iterations']:.3g}",
                f"{r['steady_iterations']:.3g}", r["nonconverged"]]
               for (n, w), r in sorted(results.items())])

    # Per setting: the exponent over all counts and over the largest (the check's), of the
    # run's mean step (the paper's measure, wall time over the run) and, beside it, of the pile
    # at rest (the last second's median).
    fits = {}
    big = counts[-FIT_POINTS:]
    for w in settings:
        fits[w] = (log_slope(counts, [results[n, w]["step_ms"] for n in counts]),
                   log_slope(big, [results[n, w]["step_ms"] for n in big]),
                   log_slope(big, [results[n, w]["steady_step_ms"] for n in big]))
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for w in settings:
        mark = "o-" if w else "s-"
        axes[0].loglog(counts, [results[n, w]["contacts"] for n in counts], mark,
                       label=f"{walls_name(w)}: contacts")
        axes[0].loglog(counts, [results[n, w]["pressed"] for n in counts], mark, mfc="none",
                       alpha=0.6, label=f"{walls_name(w)}: pressed (carry force)")
        ms = [results[n, w]["step_ms"] for n in counts]
        axes[1].loglog(counts, ms, mark, label=f"{walls_name(w)}: mean over the run")
        colour = axes[1].lines[-1].get_color()
        p, p_big, p_rest = fits[w]
        # The power law through the largest counts, drawn over the whole range.
        n0, m0 = counts[-1], ms[-1]
        axes[1].loglog(counts, [m0 * (n / n0) ** p_big for n in counts], ":", color=colour,
                       label=f"{walls_name(w)}: ∝ N^{p_big:.2f} (largest {FIT_POINTS}; all: "
                             f"N^{p:.2f})")
        axes[1].loglog(counts, [results[n, w]["steady_step_ms"] for n in counts], mark[0],
                       color=colour, mfc="none",
                       label=f"{walls_name(w)}: at rest, last second's median (largest "
                             f"{FIT_POINTS}: N^{p_rest:.2f})")
    axes[0].set_ylabel("contact constraints at the end")
    axes[0].set_title("problem size at rest (Fig. 11)")
    axes[1].set_ylabel("wall-clock time per step [ms] (one thread)")
    axes[1].set_title("SAP's step time (Fig. 12 is a speedup against Gurobi)")
    for ax in axes:
        ax.set_xlabel("bodies")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "sap_scaling.png"), dpi=110)

    # Fig. 11 counts Drake's point contacts, which are the pairs that touch: our problem adds the
    # margin's contacts that may close within a step (docs/contact-model.md §4.3), so the
    # paper's count is ours that carry force.
    checks = []
    if len(settings) == 2:
        per_body = lambda n, w: results[n, w]["pressed"] / n
        checks.append(Check(
            "pressed contacts per body at the end: more without walls than with, at every count "
            f"({', '.join(str(n) for n in counts)} bodies; without / with)",
            "more without walls (boxes lie flat: multi-contact)",
            ", ".join(f"{per_body(n, False):.2f}/{per_body(n, True):.2f}" for n in counts),
            all(per_body(n, False) > per_body(n, True) for n in counts)))
    # Fig. 11: the problem grows with the pile, about linearly (every body rests on a few).
    checks += [
        Check(f"{walls_name(w).replace('_', ' ')}: pressed contacts at the end ∝ N^p, p within "
              f"{CONTACT_EXPONENT[0]}–{CONTACT_EXPONENT[1]} (log-log slope over "
              f"{counts[0]}–{counts[-1]} bodies)", "grows with the bodies (Fig. 11)",
              f"{contact_slope:.2f}", CONTACT_EXPONENT[0] <= contact_slope <= CONTACT_EXPONENT[1])
        for w in settings
        for contact_slope in [log_slope(counts, [results[n, w]["pressed"] for n in counts])]]
    # Wall times are measurements of a machine, not results: checked on the full grid, which is
    # run once for the record, never in ctest (a loaded machine skews one point's time).
    timed = settings if counts == COUNTS else []
    checks += [
        Check(f"{walls_name(w).replace('_', ' ')}: step time ∝ N^p over the {FIT_POINTS} largest "
              f"counts, p < {EXPONENT_BOUND} (a measurement on a shared machine: the exponent, "
              "not the times)", "sparse: below a dense factorization's 3",
              f"{fits[w][1]:.2f} (all counts: {fits[w][0]:.2f}; at rest, the last second's "
              f"median step: {fits[w][2]:.2f})", fits[w][1] < EXPONENT_BOUND)
        for w in timed]
    bad = [point_id(n, w) for (n, w), r in results.items() if r["nonconverged"] or r["failed"]]
    checks.append(Check("every step of every run converges", "SAP converges (§IV)",
                        f"{len(results) - len(bad)} of {len(results)} runs", not bad))
    return checks
