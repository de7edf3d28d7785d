"""Drumwright & Shell's grasping example (SAC '09 §5, Figs 1–2): the ball's drift in the Panda's
hand per contact model while its shoulder joints follow sin(t)/4 and sin(2t)/4 rad, at the
paper's δt = 1 ms and at 0.1 ms (README.md beside this file)."""
import math
import os

from study_runner import Check, Point, pyplot, write_csv

FIGURE = "Drumwright & Shell §5, Figs 1–2"
MODELS = ["drumwright_shell", "lagged", "similar", "sap"]
DT_PAPER, DT_SMALL = 1e-3, 1e-4  # [s]: the paper's step ("0.001", explicit Euler) and a tenth
DURATION = 25.0  # [s]: the paper's run, four cycles of sin(t)
QUICK_DURATION = 2 * math.pi  # [s]: one cycle of sin(t), two of sin(2t)
PAPER_FINAL_DRIFT = 1e-4  # [m]: Fig. 2, "by the end of the movement, the drift approaches 0.1mm"
# Lagged's and Similar's soft norm lets a held contact creep at v_s r/√(1 − r²)
# (docs/contact-model.md §2.3), r = m g/(2μF): the ball's weight over both pads' friction
# (assets/scenes/grasp_ball.yaml: 45.93 g, μ = 1, F = 2 N, v_s = 1e-4 m/s).
STICTION_TOLERANCE, MASS, GRAVITY, MU, GRIP = 1e-4, 0.04593, 9.81, 1.0, 2.0
RATIO = MASS * GRAVITY / (2 * MU * GRIP)
CREEP_SPEED = STICTION_TOLERANCE * RATIO / math.sqrt(1 - RATIO ** 2)  # 11.3 µm/s
SAMPLE = 0.01  # [s]: the CSV's and the plot's sample period
COLUMNS = ["t", "held_object.drift_m"]


def point_id(model, dt):
    return f"{model}_dt{dt * 1e3:g}ms"


def points(quick):
    duration = QUICK_DURATION if quick else DURATION
    # The paper's δt with the log (the drift over time, Figs 1–2); a tenth of it with the summary
    # only (its final drift: a 0.1 ms log of all columns would be 0.9 GB before it is cut down).
    # The small steps first, so that the last runs to finish are short ones.
    return [Point(point_id(m, dt), ["--scene", "grasp_ball", "--model", m, "--dt", f"{dt:g}",
                                    "--duration", repr(duration)],
                  ["summary"] if dt == DT_SMALL else ["log", "summary"],
                  None if dt == DT_SMALL else COLUMNS)
            for dt in (DT_SMALL, DT_PAPER) for m in MODELS]


def sampled(times, values):
    """The rows at the first step at or after each multiple of SAMPLE."""
    out_t, out_v, k = [], [], 1
    for t, v in zip(times, values):
        if t >= k * SAMPLE - 1e-9:
            out_t.append(t)
            out_v.append(v)
            while k * SAMPLE - 1e-9 <= t:
                k += 1
    return out_t, out_v


def collect(run, out_dir):
    final = {}  # (model, dt) -> the summary's held object: final_drift_m, held_at_end, …
    for m in MODELS:
        for dt in (DT_PAPER, DT_SMALL):
            s = run.summary(point_id(m, dt))
            final[m, dt] = dict(s["task"]["held_object"], failed=s["task"]["failed"],
                                sim_time=s["sim_time"], nonconverged_steps=s["nonconverged_steps"])
    curves = {}
    for m in MODELS:
        c = run.columns(point_id(m, DT_PAPER), COLUMNS)
        curves[m] = sampled(c["t"], c["held_object.drift_m"])
    duration = final[MODELS[0], DT_PAPER]["sim_time"]

    def mm(model, dt):
        return 1e3 * final[model, dt]["final_drift_m"]

    times = curves[MODELS[0]][0]
    write_csv(os.path.join(out_dir, "grasp_drift.csv"),
              ["t_s"] + [f"drift_{m}_m" for m in MODELS],
              [[f"{t:.6g}"] + [f"{curves[m][1][i]:.6g}" for m in MODELS]
               for i, t in enumerate(times)])
    write_csv(os.path.join(out_dir, "grasp_drift_final.csv"),
              ["model", "dt_s", "held_at_end", "final_drift_m", "max_drift_m",
               "nonconverged_steps"],
              [[m, f"{dt:g}", r["held_at_end"] and not r["failed"], f"{r['final_drift_m']:.6g}",
                f"{r['max_drift_m']:.6g}", r["nonconverged_steps"]]
               for (m, dt), r in final.items()])

    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for log_axis, ax in zip((True, False), axes):
        for i, (m, marker) in enumerate(zip(MODELS, "osD^")):  # Lagged's and Similar's meet
            colour = f"C{i}"
            t, d = curves[m]
            # A drift of exactly zero (the first rows) has no logarithm: 1 nm at least.
            ax.plot(t, [max(1e3 * v, 1e-6) if log_axis else 1e3 * v for v in d], color=colour,
                    lw=1.2, label=f"{m}, 1 ms (final {mm(m, DT_PAPER):.3g} mm)")
            ax.plot([duration], [mm(m, DT_SMALL)], marker, color=colour, mfc="none",
                    label=f"{m}, 0.1 ms: final {mm(m, DT_SMALL):.3g} mm")
        ax.axhline(1e3 * PAPER_FINAL_DRIFT, color="k", ls="--", lw=1,
                   label="Drumwright & Shell, Fig. 2: 0.1 mm at the end")
        ax.set_xlabel("t [s]")
        ax.set_ylabel("ball's drift in the hand [mm]")
        ax.grid(True, alpha=0.3)
        if log_axis:
            ax.set_yscale("log")
            ax.set_title("log axis, as the paper's Fig. 1", fontsize=10)
        else:
            ax.set_title("linear axis, as the paper's Fig. 2", fontsize=10)
            ax.legend(fontsize=7, loc="upper left")
    fig.suptitle("grasp_ball: the ball's drift from its initial position in the hand", fontsize=11)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "grasp_drift.png"), dpi=110)

    held = [not r["failed"] and r["held_at_end"] for r in final.values()]
    rigid = "drumwright_shell"
    # The time step's drift (docs/contact-model.md §7): a step moves the free ball by δt v, the
    # hand along its joints' arcs, short of it by ½ δt² J̇q̇; friction holds velocities and never
    # takes it back, so the ball drifts outward from joint 2's axis at ½ δt ω² R. The rigid model
    # has no creep, and SAP's stiction creep σ w_t (m g/2) δt is ∝ δt too: their drift is ∝ δt.
    proportional = {m: mm(m, DT_PAPER) / mm(m, DT_SMALL) for m in (rigid, "sap")}
    creep = CREEP_SPEED * duration
    soft = {m: mm(m, DT_SMALL) / (1e3 * creep) for m in ("lagged", "similar")}
    return [
        Check(f"every model holds the ball to the end ({duration:.3g} s at 1 ms and 0.1 ms)",
              "held (the LCP methods of Fig. 1 drop it within 0.4 s)",
              f"{sum(held)} of {len(held)}", all(held)),
        Check(f"{rigid} at δt = 0.1 ms: final drift within Fig. 2's 0.1 mm (at the paper's 1 ms: "
              f"{mm(rigid, DT_PAPER):.3g} mm, the time step's)",
              "approaches 0.1 mm (δt = 1 ms)", f"{mm(rigid, DT_SMALL):.3g} mm",
              final[rigid, DT_SMALL]["final_drift_m"] <= PAPER_FINAL_DRIFT),
        Check(f"{rigid} and SAP: final drift ∝ δt, the time step's (1 ms over 0.1 ms)",
              "10: ½ δt ω² R ∝ δt", ", ".join(f"{v:.2f}" for v in proportional.values()),
              all(abs(v - 10) <= 1 for v in proportional.values())),
        Check("Lagged and Similar at 0.1 ms: the soft norm's creep remains (final drift over "
              f"v_s r/√(1 − r²) t = {1e3 * creep:.3g} mm)", "1: v_s r/√(1 − r²) t, any δt",
              ", ".join(f"{v:.2f}" for v in soft.values()),
              all(abs(v - 1) <= 0.2 for v in soft.values())),
    ]
