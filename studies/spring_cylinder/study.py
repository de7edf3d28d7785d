"""The SAP paper's spring–cylinder (§VI-B, Figs 5–7) per time-integration scheme: energy bands
over 10 s at δt = 25 ms, and the convergence order against the exact harmonic motion over a δt
ladder (README.md beside this file)."""
import math
import os

from study_runner import Check, Point, log_slope, pyplot, write_csv

FIGURE = "SAP paper §VI-B, Figs 5–7"
K, M_X, M_Z, INERTIA, AMPLITUDE = 100.0, 1.02, 1.01, 0.005, 0.1  # the scene's spring and masses
E0 = 0.5 * K * AMPLITUDE ** 2
SCHEMES = ["symplectic_euler", "midpoint", "implicit_euler"]
CONTACTS = {"frictionless": ["--friction", "0"], "sap": ["--model", "sap"]}
# Rolling without slip under Similar, with a stiction tolerance and stiffness that make its creep
# and compression negligible, so that the exact answer is the rolling one (m + I/r²).
ROLLING = ["--model", "similar", "--stiction-tolerance", "1e-7", "--stiffness", "1e9"]
# The Euler schemes' ladders are small: their O(δt) error must dominate the O(δt² t) phase drift.
LADDERS = {"midpoint": [0.01, 0.005, 0.0025, 0.00125],
           "symplectic_euler": [5e-4, 2.5e-4, 1.25e-4, 6.25e-5],
           "implicit_euler": [5e-4, 2.5e-4, 1.25e-4, 6.25e-5]}
ENERGY_COLUMNS = ["t", "carriage_x.q", "carriage_x.qd", "carriage_z.qd", "cylinder.qd"]


def omega(rolling):
    return math.sqrt(K / ((1.5 if rolling else 1.0) + 0.02))  # the carriages slide along


def energy_id(scheme, contact):
    return f"energy_{scheme}_{contact}"


def ladder_id(scheme, rolling, dt):
    return f"order_{scheme}_{'rolling' if rolling else 'sliding'}_dt{dt:g}"


def points(quick):
    grid = [Point(energy_id(s, c), ["--scene", "spring_cylinder", "--duration", "10",
                                     "--integrator", s, "--dt", "0.025"] + options, ["log"],
                  ENERGY_COLUMNS)
            for c, options in CONTACTS.items() for s in SCHEMES]
    for scheme, dts in LADDERS.items():
        for rolling in (False, True):
            duration = 10 * 2 * math.pi / omega(rolling)  # ten periods
            for dt in dts[:3] if quick else dts:  # quick: the three largest steps
                grid.append(Point(ladder_id(scheme, rolling, dt),
                                  ["--scene", "spring_cylinder", "--duration", repr(duration),
                                   "--integrator", scheme, "--dt", repr(dt)]
                                  + (ROLLING if rolling else ["--friction", "0"]), ["log"],
                                  ["t", "carriage_x.q"]))
    return grid


def energies(run, point_id):
    """The oscillator's energy per step: motion and spring (gravity's is constant but for the
    contact's micrometres), E0 first, the start of the log."""
    c = run.columns(point_id, ENERGY_COLUMNS)
    es = [0.5 * M_X * xd * xd + 0.5 * M_Z * zd * zd + 0.5 * INERTIA * w * w + 0.5 * K * x * x
          for x, xd, zd, w in zip(c["carriage_x.q"], c["carriage_x.qd"], c["carriage_z.qd"],
                                  c["cylinder.qd"])]
    return [0.0] + c["t"], [E0] + es


def collect(run, out_dir):
    plt = pyplot()
    band, final, peak = {}, {}, {}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, contact in zip(axes, CONTACTS):
        for scheme in SCHEMES:
            ts, es = energies(run, energy_id(scheme, contact))
            band[scheme, contact] = (max(es) - min(es)) / min(es)
            final[scheme, contact], peak[scheme, contact] = es[-1] / E0, max(es) / E0
            ax.plot(ts, [e / E0 for e in es], label=scheme)
        name = "rolling (SAP, μ = 0.5)" if contact == "sap" else contact
        ax.set_title(f"spring–cylinder, {name}, δt = 25 ms")
        ax.set_xlabel("t [s]")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("E / E0 (spring + motion)")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "spring_cylinder_energy.png"), dpi=110)
    write_csv(os.path.join(out_dir, "spring_cylinder_energy.csv"),
              ["integrator", "contact", "band_peak_to_peak_over_min", "final_over_initial"],
              [[s, "sap mu=0.5" if c == "sap" else c, f"{band[s, c]:.6g}", f"{final[s, c]:.6g}"]
               for c in CONTACTS
               for s in SCHEMES])

    slopes, rows = {}, []
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for scheme, dts in LADDERS.items():
        for rolling in (False, True):
            dts_run = [dt for dt in dts if ladder_id(scheme, rolling, dt) in run.ids]
            w, errors = omega(rolling), []
            for dt in dts_run:
                c = run.columns(ladder_id(scheme, rolling, dt), ["t", "carriage_x.q"])
                errors.append(max(abs(x - AMPLITUDE * math.cos(w * t))
                                  for t, x in zip(c["t"], c["carriage_x.q"])))
            s = slopes[scheme, rolling] = log_slope(dts_run, errors)
            ax.loglog(dts_run, errors, "o-" if rolling else "s--",
                      label=f"{scheme}, {'rolling' if rolling else 'sliding'}: slope {s:.2f}")
            rows += [[scheme, "rolling" if rolling else "frictionless", dt, f"{e:.6g}", f"{s:.3f}"]
                     for dt, e in zip(dts_run, errors)]
    ax.set_xlabel("δt [s]")
    ax.set_ylabel("max |x − x_exact| over ten periods [m]")
    ax.set_title("spring–cylinder: convergence per scheme")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "spring_cylinder_convergence.png"), dpi=110)
    write_csv(os.path.join(out_dir, "spring_cylinder_convergence.csv"),
              ["integrator", "contact", "dt_s", "max_position_error_m", "fitted_slope"], rows)

    def order(scheme, paper):
        ours = [slopes[scheme, r] for r in (False, True)]
        return Check(f"{scheme}: convergence order (sliding, rolling)", f"{paper}",
                     ", ".join(f"{s:.2f}" for s in ours), all(abs(s - paper) <= 0.2 for s in ours))

    se, mp, ie = "symplectic_euler", "midpoint", "implicit_euler"
    return [
        Check("symplectic Euler: energy band (max−min)/min, frictionless", "28 %",
              f"{band[se, 'frictionless']:.1%}", abs(band[se, "frictionless"] - 0.28) <= 0.03),
        Check("symplectic Euler: energy stays bounded (max E/E0, frictionless and SAP)",
              "bounded", f"{peak[se, 'frictionless']:.3f}, {peak[se, 'sap']:.3f}",
              max(peak[se, c] for c in CONTACTS) < 1.2),
        Check("midpoint: energy band, frictionless", "exact (0)",
              f"{band[mp, 'frictionless']:.1e}", band[mp, "frictionless"] < 1e-6),
        Check("midpoint: energy band, rolling (SAP, μ = 0.5)", "0.16 %",
              f"{band[mp, 'sap']:.2%}", band[mp, "sap"] < 3e-3),
        Check("implicit Euler: dissipates (final E/E0, frictionless and SAP)", "→ 0",
              f"{final[ie, 'frictionless']:.1e}, {final[ie, 'sap']:.1e}",
              max(final[ie, c] for c in CONTACTS) < 0.1),
        order(mp, 2), order(se, 1), order(ie, 1),
    ]
