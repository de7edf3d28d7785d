#!/usr/bin/env python3
"""Fits the incline's friction coefficient μ to a logged run, by Gauss–Newton on the box's
positions with the trajectory's sensitivity to μ (README.md, "Fitting a parameter from Python").

    PYTHONPATH=build python3 examples/fit_friction.py
"""
import csv
import pathlib
import subprocess
import tempfile

import numpy as np

import contactlab

BINARY = pathlib.Path(contactlab.__file__).with_name("contactlab")  # built beside the module


def fit_friction(log, mu, iterations=4):
    with open(log, newline="") as f:  # one row per step, after the step
        logged = [[float(row[f"box.{c}"]) for c in ("px", "py", "pz")] for row in csv.DictReader(f)]
    w = contactlab.World("incline")
    s = contactlab.Sensitivity(w, ["friction"])
    for _ in range(iterations):
        w.reset()
        w.set_overrides(model="lagged", friction=mu)  # one μ for every pair: ∂/∂μ is defined
        s.reset()
        residuals, jacobians = [], []
        for p in logged:
            if not s.step():
                raise RuntimeError(s.failure)
            residuals.append(w.q[:3] - p)  # the box's position: the first three entries of q
            jacobians.append(s.dq_dp[:3, 0])
        r, J = np.concatenate(residuals), np.concatenate(jacobians)
        print(f"μ = {mu:.6f}: rms position error {np.sqrt(np.mean(r**2)):.2e} m")
        mu -= J @ r / (J @ J)  # the Gauss–Newton step
    return mu


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        log = pathlib.Path(folder) / "ref.csv"
        subprocess.run([BINARY, "--headless", "--scene", "incline", "--duration", "0.5",
                        "--model", "lagged", "--friction", "0.2", "--log", log], check=True)
        print(f"fitted friction: {fit_friction(log, mu=0.35):.6f}")
