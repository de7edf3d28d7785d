#!/usr/bin/env python3
"""A step's derivatives from Python (src/python/step_derivatives_bindings; docs/contact-model.md
§9): World.step_jacobians and class Sensitivity.

Known answers: the engine's own numbers, bit for bit (tests/python/step_jacobians_reference.cc,
which ctest names in CONTACTLAB_STEP_JACOBIANS_REFERENCE); a step of free fall, linear in its
start; the box sliding down the incline, whose position moves with μ as under a constant
deceleration; and central differences of whole runs.
"""
import gc
import math
import os
import subprocess
import unittest

import numpy as np

import contactlab

G = 9.81  # m/s², every built-in scene's gravity
SLOPE = math.radians(20)  # the incline's (assets/scenes/incline.yaml)
KEYS = ["dq_dq0", "dq_dv0", "dq_du", "dq_dp", "dv_dq0", "dv_dv0", "dv_du", "dv_dp"]


def sliding_box(model="lagged", friction=0.2, steps=20):
    """The incline's box sliding (μ = 0.2 < tan 20°) after `steps` steps."""
    w = contactlab.World("incline")
    w.set_overrides(model=model, friction=friction)
    assert w.step(steps), w.failure
    return w


def bits(x):
    """The array's doubles, row by row, as their bit patterns (so -0.0 is not 0.0)."""
    return np.ascontiguousarray(x, dtype=np.float64).ravel().view(np.uint64)


class MatchesTheEngine(unittest.TestCase):
    """The module's derivatives are the engine's, bit for bit: the cases of
    step_jacobians_reference.cc (they must stay the same in both files), whose lines
    `CASE.NAME ROWS COLS x…` give each array row by row in C's %a."""

    @classmethod
    def setUpClass(cls):
        program = os.environ["CONTACTLAB_STEP_JACOBIANS_REFERENCE"]
        if not os.path.exists(program):  # built with `all`, not with the module's target
            raise FileNotFoundError(f"{program}: build the target step_jacobians_reference")
        out = subprocess.run([program], check=True, capture_output=True, text=True).stdout
        cls.reference = {}
        for line in out.splitlines():
            name, rows, cols, *values = line.split()
            cls.reference[name] = (int(rows), int(cols),
                                   np.array([float.fromhex(x) for x in values], dtype=np.float64))

    def assertBitForBit(self, name, array):
        rows, cols, values = self.reference[name]
        self.assertEqual(array.shape, (rows, cols), name)
        np.testing.assert_array_equal(bits(array), bits(values), name)

    def test_the_sliding_box_and_its_sensitivity(self):
        w = contactlab.World("incline")
        w.set_overrides(friction=0.2, hunt_crossley=50)
        self.assertTrue(w.step(20))
        J = w.step_jacobians(("friction", "hunt_crossley", "stiction_tolerance"))
        for key in KEYS:
            self.assertBitForBit("incline." + key, J[key])
        s = contactlab.Sensitivity(w, ("friction",))
        self.assertTrue(s.step(30))
        self.assertBitForBit("incline.sensitivity.dq_dp", s.dq_dp)
        self.assertBitForBit("incline.sensitivity.dv_dp", s.dv_dp)

    def test_the_grasped_ball_with_its_pd_targets(self):
        w = contactlab.World("grasp_ball")
        w.set_overrides(friction=1.0)
        self.assertTrue(w.step(5))
        J = w.step_jacobians(["friction"])
        # (q_d, v_d) of the arm's 7 joints and the leader finger (the other follows it).
        self.assertEqual(J["dq_du"].shape[1], 16)
        for key in KEYS:
            self.assertBitForBit("grasp_ball." + key, J[key])


class StepJacobians(unittest.TestCase):
    def test_the_dict_names_its_arrays_and_sizes(self):
        w = contactlab.World("grasp_ball")
        w.set_overrides(friction=1.0, stiffness=1e6)
        J = w.step_jacobians(["friction", "stiffness", "stiction_tolerance"])
        nq, nv, nu = w.num_positions, w.num_velocities, 2 * len(w.pd_joints())
        self.assertEqual(sorted(J), sorted(KEYS + ["pd_bodies", "parameters"]))
        shapes = {"dq_dq0": (nq, nq), "dq_dv0": (nq, nv), "dq_du": (nq, nu), "dq_dp": (nq, 3),
                  "dv_dq0": (nv, nq), "dv_dv0": (nv, nv), "dv_du": (nv, nu), "dv_dp": (nv, 3)}
        for key, shape in shapes.items():
            self.assertEqual(J[key].shape, shape, key)
            self.assertEqual(J[key].dtype, np.float64, key)
            self.assertTrue(np.all(np.isfinite(J[key])), key)
        self.assertEqual(J["pd_bodies"], w.pd_joints())
        self.assertEqual(J["parameters"], ["friction", "stiffness", "stiction_tolerance"])

    def test_without_parameters_p_has_no_columns(self):
        J = sliding_box().step_jacobians()
        self.assertEqual(J["dq_dp"].shape, (7, 0))
        self.assertEqual(J["dv_dp"].shape, (6, 0))
        self.assertEqual(J["dq_du"].shape, (7, 0))
        self.assertEqual(J["parameters"], [])
        self.assertEqual(J["pd_bodies"], [])

    def test_it_takes_the_step_that_step_takes(self):
        linearized, stepped = sliding_box(), sliding_box()
        linearized.step_jacobians(["friction"])
        self.assertTrue(stepped.step())
        self.assertEqual(linearized.time, stepped.time)
        np.testing.assert_array_equal(linearized.q, stepped.q)
        np.testing.assert_array_equal(linearized.v, stepped.v)

    def test_free_fall_is_linear_in_the_steps_start(self):
        """Symplectic Euler out of contact: v₁ = v₀ + δt g and q₁ = q₀ + δt N(q₀) v₁, so at the
        identity orientation ∂v₁/∂v₀ = I, ∂p₁/∂v₀ = δt I along v, ∂quaternion/∂ω = δt/2 along its
        vector part, ∂q₁/∂q₀ = I but for the quaternion's w (renormalized at w = 1: 0), and
        nothing moves with μ."""
        w = contactlab.World("falling_sphere")
        w.set_overrides(friction=0.3)
        J = w.step_jacobians(["friction"])
        dt = w.dt
        dq_dq0 = np.eye(7)
        dq_dq0[3, 3] = 0
        dq_dv0 = np.zeros((7, 6))
        dq_dv0[0:3, 3:6] = dt * np.eye(3)
        dq_dv0[4:7, 0:3] = dt / 2 * np.eye(3)
        np.testing.assert_allclose(J["dq_dq0"], dq_dq0, rtol=0, atol=1e-9)
        np.testing.assert_allclose(J["dq_dv0"], dq_dv0, rtol=0, atol=1e-9 * dt)
        np.testing.assert_allclose(J["dv_dv0"], np.eye(6), rtol=0, atol=1e-9)
        np.testing.assert_allclose(J["dv_dq0"], np.zeros((6, 7)), rtol=0, atol=1e-9)
        np.testing.assert_array_equal(J["dq_dp"], np.zeros((7, 1)))
        np.testing.assert_array_equal(J["dv_dp"], np.zeros((6, 1)))


class Errors(unittest.TestCase):
    """Each refusal is a ValueError with the engine's one line, before the step: the state is
    kept."""

    def assertRefused(self, w, parameters, message):
        t, q = w.time, w.q
        with self.assertRaisesRegex(ValueError, message) as raised:
            w.step_jacobians(parameters)
        self.assertNotIn("\n", str(raised.exception))
        self.assertEqual(w.time, t)
        np.testing.assert_array_equal(w.q, q)

    def test_an_unknown_parameter(self):
        self.assertRefused(sliding_box(), ["frction"],
                           "unknown parameter 'frction': derivatives are taken with respect to "
                           "stiffness, hunt_crossley, relaxation_time, friction, "
                           "stiction_tolerance or hydroelastic_modulus")

    def test_the_hydroelastic_modulus_is_the_compliant_geometries(self):
        # hydro_box's compliant box rests on its faces: its step depends on E_h.
        w = contactlab.World("hydro_box")
        self.assertTrue(w.step(300))
        J = w.step_jacobians(["hydroelastic_modulus"])
        self.assertEqual(J["dv_dp"].shape, (w.num_velocities, 1))
        self.assertGreater(np.abs(J["dv_dp"]).max(), 0)
        self.assertRefused(sliding_box(), ["hydroelastic_modulus"],
                           "no hydroelastic_compliant geometry")

    def test_a_parameter_not_overridden_has_no_one_value(self):
        w = contactlab.World("incline")  # every pair combines its own μ
        self.assertRefused(w, ["friction"], "set --friction to the value to differentiate at")
        self.assertRefused(sliding_box(), ["stiffness"], "set --stiffness")
        # v_s is always one value.
        self.assertEqual(w.step_jacobians(["stiction_tolerance"])["dv_dp"].shape, (6, 1))

    def test_restitution_error_control_and_the_rigid_model(self):
        self.assertRefused(sliding_box(), ["restitution"], "restitution is the rigid model's")
        w = sliding_box()
        w.set_overrides(integrator="error_controlled")
        self.assertRefused(w, ["friction"], "need fixed steps")
        w = sliding_box()
        w.set_overrides(model="drumwright_shell")
        self.assertRefused(w, [], "the rigid model's impulses are not a convex solve's")

    def test_a_failed_step_raises_runtime_error_and_keeps_the_state(self):
        w = sliding_box()
        q, t = w.q, w.time
        w.set_state(q, [0, 0, 0, math.nan, 0, 0])
        with self.assertRaisesRegex(RuntimeError, "box"):
            w.step_jacobians(["friction"])
        self.assertIn("box", w.failure)
        self.assertEqual(w.time, t)
        np.testing.assert_array_equal(w.q, q)

    def test_a_sensitivity_refuses_as_step_jacobians_does(self):
        w = contactlab.World("incline")
        with self.assertRaisesRegex(ValueError, "unknown parameter 'mu'"):
            contactlab.Sensitivity(w, ["mu"])
        with self.assertRaises(TypeError):
            contactlab.Sensitivity(None, ["friction"])
        s = contactlab.Sensitivity(w, ["friction"])  # the settings are read at each step
        with self.assertRaisesRegex(ValueError, "set --friction"):
            s.step()
        self.assertEqual(w.time, 0.0)
        with self.assertRaises(ValueError):
            s.step(-1)
        w.set_state(w.q, [0, 0, 0, math.nan, 0, 0])
        w.set_overrides(friction=0.2)
        self.assertFalse(s.step())
        self.assertIn("box", s.failure)


class Sensitivity(unittest.TestCase):
    def test_it_equals_central_differences_of_whole_runs(self):
        """200 steps of the sliding box from 20 ms, S against (x(μ + h) − x(μ − h)) / 2h of two
        runs from the same state, h = 1e-6 μ: relative 1e-4, or the differences' round-off."""
        for model in ("lagged", "sap"):
            with self.subTest(model=model):
                w = sliding_box(model)
                q0, v0, t0 = w.q, w.v, w.time
                s = contactlab.Sensitivity(w, ["friction"])
                self.assertTrue(s.step(200), s.failure)
                h = 1e-6 * 0.2
                ends = []
                for mu in (0.2 + h, 0.2 - h):
                    run = contactlab.World("incline")
                    run.set_overrides(model=model, friction=mu)
                    run.set_state(q0, v0, time=t0)
                    self.assertTrue(run.step(200))
                    ends.append((run.q, run.v))
                dq = (ends[0][0] - ends[1][0]) / (2 * h)
                dv = (ends[0][1] - ends[1][1]) / (2 * h)
                for S, fd, x in ((s.dq_dp[:, 0], dq, w.q), (s.dv_dp[:, 0], dv, w.v)):
                    round_off = 100 * 2.2e-16 * max(1.0, np.abs(x).max()) / h
                    self.assertLessEqual(np.linalg.norm(S - fd),
                                         1e-4 * np.linalg.norm(fd) + round_off)
                self.assertGreater(np.linalg.norm(dq[:3]), 0.1)  # the box slides less far

    def test_the_box_moves_with_mu_as_under_a_constant_deceleration(self):
        """Sliding, friction decelerates the box by μ g cos 20° along the slope: after n steps of
        symplectic Euler from S = 0, ∂p/∂μ = g cos 20° δt² n(n + 1)/2 up the slope (Lagged's
        soft norm, at v_s = 1e-4 m/s far below the box's speed, leaves 1e-3 of it)."""
        w = sliding_box()
        s = contactlab.Sensitivity(w, ["friction"])
        n = 200
        self.assertTrue(s.step(n))
        up_the_slope = np.array([math.cos(SLOPE), 0, math.sin(SLOPE)])
        expected = G * math.cos(SLOPE) * w.dt**2 * n * (n + 1) / 2 * up_the_slope
        np.testing.assert_allclose(s.dq_dp[:3, 0], expected, rtol=1e-3, atol=1e-3 * 0.2)

    def test_a_step_from_reset_equals_the_steps_own_jacobian(self):
        """From S = 0 one step carries S to ∂x₁/∂p: step_jacobians' dq_dp and dv_dp of the same
        step, bit for bit."""
        carried, linearized = sliding_box(), sliding_box()
        s = contactlab.Sensitivity(carried, ["friction", "stiction_tolerance"])
        self.assertTrue(s.step(10))
        linearized.step(10)
        s.reset()
        np.testing.assert_array_equal(s.dq_dp, np.zeros((7, 2)))
        np.testing.assert_array_equal(s.dv_dp, np.zeros((6, 2)))
        self.assertTrue(s.step())
        J = linearized.step_jacobians(["friction", "stiction_tolerance"])
        np.testing.assert_array_equal(bits(s.dq_dp), bits(J["dq_dp"]))
        np.testing.assert_array_equal(bits(s.dv_dp), bits(J["dv_dp"]))
        self.assertEqual(s.parameters, ["friction", "stiction_tolerance"])

    def test_its_arrays_are_copies(self):
        w = sliding_box()
        s = contactlab.Sensitivity(w, ["friction"])
        s.step()
        dq_dp = s.dq_dp
        before = dq_dp.copy()
        s.step()
        np.testing.assert_array_equal(dq_dp, before)
        dq_dp[0, 0] = 1.0
        self.assertNotEqual(s.dq_dp[0, 0], 1.0)

    def test_it_keeps_its_world_alive(self):
        s = contactlab.Sensitivity(sliding_box(), ["friction"])  # the only reference to it
        gc.collect()
        self.assertTrue(s.step(50))
        self.assertGreater(np.linalg.norm(s.dq_dp), 0)


if __name__ == "__main__":
    unittest.main()
