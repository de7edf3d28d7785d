#!/usr/bin/env python3
"""The SAP paper's spring–cylinder (§VI-B, Figs 5–7) per time-integration scheme (issue 37).

Runs `contactlab --headless --scene spring_cylinder --log` per scheme and reads the oscillator's
energy from the log's joint columns, E = ½ m_x ẋ² + ½ m_z ż² + ½ I ω² + ½ K x² (the spring and
the motion; gravity's is constant but for the contact's micrometres), over 10 s at δt = 25 ms:
its band (max − min) / min without and with friction (μ = 0.5, under SAP as in the paper), and
the last energy over the first. Then the position error against the exact harmonic motion
(x(t) = 0.1 cos ωt, ω² = K / m_eff; m_eff = m + carriages sliding, 1.5 m + carriages rolling
under Similar with v_s = 1e-7 m/s and k = 1e9 N/m) over ten periods at a δt ladder, and its
fitted log-log slope. Writes spring_cylinder_energy.csv / .png (energy over time per scheme) and
spring_cylinder_convergence.csv / .png (error against δt) into --out (default docs/figures).

  scripts/spring_cylinder_study.py [--binary build/contactlab] [--out docs/figures]
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
K, M_X, M_Z, INERTIA, AMPLITUDE = 100.0, 1.02, 1.01, 0.005, 0.1
SCHEMES = ["symplectic_euler", "midpoint", "implicit_euler"]


def run(binary, options, duration):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "log.csv")
        subprocess.run([binary, "--headless", "--scene", "spring_cylinder", "--duration",
                        str(duration), "--log", log] + options, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(log) as f:
            return list(csv.DictReader(f))


def energy(row):
    x, xd = float(row["carriage_x.q"]), float(row["carriage_x.qd"])
    zd, w = float(row["carriage_z.qd"]), float(row["cylinder.qd"])
    return 0.5 * M_X * xd * xd + 0.5 * M_Z * zd * zd + 0.5 * INERTIA * w * w + 0.5 * K * x * x


def slope(xs, ys):
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    n, sx, sy = len(xs), sum(lx), sum(ly)
    sxx, sxy = sum(x * x for x in lx), sum(x * y for x, y in zip(lx, ly))
    return (n * sxy - sx * sy) / (n * sxx - sx * sx)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "contactlab"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "figures"))
    args = parser.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    e0 = 0.5 * K * AMPLITUDE ** 2
    energy_rows, series = [], {}
    for friction in (False, True):
        for scheme in SCHEMES:
            options = ["--integrator", scheme, "--dt", "0.025"]
            options += ["--model", "sap"] if friction else ["--friction", "0"]
            rows = run(args.binary, options, 10.0)
            es = [e0] + [energy(r) for r in rows]
            ts = [0.0] + [float(r["t"]) for r in rows]
            series[(scheme, friction)] = (ts, es)
            energy_rows.append([scheme, "sap mu=0.5" if friction else "frictionless",
                                f"{(max(es) - min(es)) / min(es):.6g}", f"{es[-1] / e0:.6g}"])
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "spring_cylinder_energy.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["integrator", "contact", "band_peak_to_peak_over_min", "final_over_initial"])
        w.writerows(energy_rows)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, friction in zip(axes, (False, True)):
        for scheme in SCHEMES:
            ts, es = series[(scheme, friction)]
            ax.plot(ts, [e / e0 for e in es], label=scheme)
        ax.set_title("spring–cylinder, " + ("rolling (SAP, μ = 0.5)" if friction else "frictionless")
                     + ", δt = 25 ms")
        ax.set_xlabel("t [s]")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("E / E0 (spring + motion)")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "spring_cylinder_energy.png"), dpi=110)

    ladders = {"midpoint": [0.01, 0.005, 0.0025, 0.00125],
               "symplectic_euler": [5e-4, 2.5e-4, 1.25e-4, 6.25e-5],
               "implicit_euler": [5e-4, 2.5e-4, 1.25e-4, 6.25e-5]}
    conv_rows, fig, ax = [], *plt.subplots(figsize=(6, 4.5))
    for scheme, dts in ladders.items():
        for friction in (False, True):
            m_eff = (1.5 if friction else 1.0) + 0.02
            omega = math.sqrt(K / m_eff)
            duration = 10 * 2 * math.pi / omega
            errors = []
            for dt in dts:
                options = ["--integrator", scheme, "--dt", str(dt)]
                options += (["--model", "similar", "--stiction-tolerance", "1e-7",
                             "--stiffness", "1e9"] if friction else ["--friction", "0"])
                rows = run(args.binary, options, duration)
                errors.append(max(abs(float(r["carriage_x.q"]) -
                                      AMPLITUDE * math.cos(omega * float(r["t"]))) for r in rows))
            s = slope(dts, errors)
            label = f"{scheme}, {'rolling' if friction else 'sliding'}: slope {s:.2f}"
            ax.loglog(dts, errors, "o-" if friction else "s--", label=label)
            for dt, e in zip(dts, errors):
                conv_rows.append([scheme, "rolling" if friction else "frictionless", dt, f"{e:.6g}",
                                  f"{s:.3f}"])
            print(label, file=sys.stderr)
    with open(os.path.join(args.out, "spring_cylinder_convergence.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["integrator", "contact", "dt_s", "max_position_error_m", "fitted_slope"])
        w.writerows(conv_rows)
    ax.set_xlabel("δt [s]")
    ax.set_ylabel("max |x − x_exact| over ten periods [m]")
    ax.set_title("spring–cylinder: convergence per scheme")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "spring_cylinder_convergence.png"), dpi=110)
    for r in energy_rows:
        print(",".join(r), file=sys.stderr)


if __name__ == "__main__":
    main()
