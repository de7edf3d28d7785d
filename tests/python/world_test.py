#!/usr/bin/env python3
"""contactlab.World from Python (src/python/world_bindings): loading, stepping, the state.

Known answers: free fall under symplectic Euler, and the command line's own run of the same
scene, bit for bit. Run by ctest with the build directory on PYTHONPATH and CONTACTLAB_BINARY
naming the contactlab binary (tests/CMakeLists.txt).
"""
import csv
import math
import os
import pathlib
import subprocess
import tempfile
import unittest

import numpy as np

import contactlab

ASSETS = pathlib.Path(__file__).resolve().parents[2] / "assets"
G = 9.81  # m/s², every built-in scene's gravity

# falling_sphere (assets/scenes/falling_sphere.yaml): its lowest point 5 cm above the ground,
# moving at 2 m/s along x; its geometry enters the 1 cm contact margin after 4 cm of fall.
SPHERE_Z0 = 0.075
SPHERE_VX0 = 2.0
SPHERE_DT = 5e-4


class Loading(unittest.TestCase):
    def test_a_name_and_its_path_load_the_same_scene(self):
        by_name = contactlab.World("falling_sphere")
        by_path = contactlab.World(ASSETS / "scenes" / "falling_sphere.yaml")
        self.assertEqual(by_name.body_names, ["ground", "sphere"])
        self.assertEqual(by_path.body_names, by_name.body_names)
        by_name.step(20)
        by_path.step(20)
        np.testing.assert_array_equal(by_path.q, by_name.q)

    def test_the_scene_sets_the_step_model_and_sizes(self):
        w = contactlab.World("falling_sphere")
        self.assertEqual(w.dt, SPHERE_DT)
        self.assertEqual(w.approximation, "lagged")
        self.assertEqual((w.num_positions, w.num_velocities), (7, 6))  # one floating body
        self.assertEqual(w.time, 0.0)
        self.assertEqual(w.failure, "")
        np.testing.assert_array_equal(w.q, [0, 0, SPHERE_Z0, 1, 0, 0, 0])
        np.testing.assert_array_equal(w.v, [0, 0, 0, SPHERE_VX0, 0, 0])

    def test_an_unknown_scene_raises_the_loaders_one_line_message(self):
        with self.assertRaises(ValueError) as raised:
            contactlab.World("no_such_scene")
        message = str(raised.exception)
        self.assertIn("scene 'no_such_scene': no such file and no built-in scene", message)
        self.assertIn("falling_sphere", message)  # it lists the built-in scenes
        self.assertNotIn("\n", message)

    def test_a_bad_scene_file_raises_its_file_line_and_field(self):
        with tempfile.TemporaryDirectory() as folder:
            path = pathlib.Path(folder) / "bad.yaml"
            path.write_text("scene: bad\ndt: -1.0\nbodies: []\n")
            with self.assertRaises(ValueError) as raised:
                contactlab.World(str(path))
        message = str(raised.exception)
        self.assertIn("bad.yaml:2", message)
        self.assertIn("dt", message)
        self.assertNotIn("\n", message)


class FreeFall(unittest.TestCase):
    """Before contact, symplectic Euler's step is v ← v + δt g, then q ← q + δt v: after n steps
    v_z = −g n δt and z = z0 − g δt² n(n + 1)/2 (explicit Euler's would be n(n − 1)/2), exactly
    but for rounding; x moves at 2 m/s."""

    def test_velocity_and_height_follow_symplectic_euler(self):
        w = contactlab.World("falling_sphere")
        h = w.dt
        for n in range(1, 151):  # 2.8 cm of fall: the sphere stays out of the contact margin
            self.assertTrue(w.step())
            self.assertEqual(len(w.contacts()["normal_force"]), 0)
            self.assertAlmostEqual(w.time, n * h, delta=1e-15 * n)
            q, v = w.q, w.v
            self.assertAlmostEqual(v[5], -G * n * h, delta=1e-15 * n)
            self.assertAlmostEqual(q[2], SPHERE_Z0 - G * h * h * n * (n + 1) / 2, delta=1e-15 * n)
            self.assertAlmostEqual(q[0], SPHERE_VX0 * n * h, delta=1e-15 * n)
            np.testing.assert_array_equal(v[:3], [0, 0, 0])  # no rotation
            np.testing.assert_array_equal(q[3:], [1, 0, 0, 0])

    def test_step_n_takes_n_steps(self):
        one_by_one = contactlab.World("falling_sphere")
        for _ in range(30):
            one_by_one.step()
        at_once = contactlab.World("falling_sphere")
        self.assertTrue(at_once.step(30))
        np.testing.assert_array_equal(at_once.q, one_by_one.q)
        self.assertEqual(at_once.time, one_by_one.time)
        self.assertTrue(at_once.step(0))
        self.assertEqual(at_once.time, one_by_one.time)
        with self.assertRaises(ValueError):
            at_once.step(-1)


class MatchesTheCommandLine(unittest.TestCase):
    """The same scene through `contactlab --headless --log`: the sphere's state columns (printed
    in their shortest round-trip form) equal the module's, bit for bit, through the fall, the
    impact and the rolling."""

    def test_falling_sphere_equals_the_logged_run_bit_for_bit(self):
        with tempfile.TemporaryDirectory() as folder:
            log = pathlib.Path(folder) / "log.csv"
            subprocess.run([os.environ["CONTACTLAB_BINARY"], "--headless", "--scene",
                            "falling_sphere", "--log", str(log)], check=True,
                           stderr=subprocess.DEVNULL)
            with open(log, newline="") as f:
                rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 800)  # the scene's 0.4 s at 0.5 ms
        w = contactlab.World("falling_sphere")
        contact_steps = 0
        for step, row in enumerate(rows, 1):
            self.assertTrue(w.step())
            contact_steps += len(w.contacts()["normal_force"]) > 0
            p, quaternion = w.body_pose("sphere")
            V = w.body_velocity("sphere")
            logged = [float(row["sphere." + c]) for c in ("px", "py", "pz", "qw", "qx", "qy",
                                                          "qz", "vx", "vy", "vz", "wx", "wy",
                                                          "wz")]
            ours = list(p) + list(quaternion) + list(V[3:]) + list(V[:3])
            self.assertEqual(ours, logged, f"step {step}")
        self.assertGreater(contact_steps, 500)  # most of the run is in contact


class State(unittest.TestCase):
    def test_q_and_v_are_copies_that_a_step_leaves_alone(self):
        w = contactlab.World("falling_sphere")
        q, v = w.q, w.v
        w.step()
        np.testing.assert_array_equal(q, [0, 0, SPHERE_Z0, 1, 0, 0, 0])
        np.testing.assert_array_equal(v, [0, 0, 0, SPHERE_VX0, 0, 0])
        q[2] = 1.0
        self.assertNotEqual(w.q[2], 1.0)

    def test_a_saved_state_replays_bit_for_bit(self):
        w = contactlab.World("falling_sphere")
        w.step(150)
        q0, v0, t0 = w.q, w.v, w.time
        w.step(100)  # into contact
        q1, t1 = w.q, w.time
        w.set_state(q0, v0, time=t0)
        self.assertEqual(w.time, t0)
        w.step(100)
        np.testing.assert_array_equal(w.q, q1)
        self.assertEqual(w.time, t1)

    def test_set_state_without_time_keeps_it(self):
        w = contactlab.World("falling_sphere")
        w.step(10)
        t = w.time
        w.set_state([0, 0, 1, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0])
        self.assertEqual(w.time, t)
        np.testing.assert_array_equal(w.q, [0, 0, 1, 1, 0, 0, 0])
        w.step()
        self.assertAlmostEqual(w.v[5], -G * w.dt, delta=1e-15)

    def test_set_state_of_the_wrong_size_raises_value_error(self):
        w = contactlab.World("falling_sphere")
        with self.assertRaisesRegex(ValueError, "q has 6 entries; the scene has 7 positions"):
            w.set_state(np.zeros(6), w.v)
        with self.assertRaisesRegex(ValueError, "v has 7 entries; the scene has 6 velocities"):
            w.set_state(w.q, np.zeros(7))
        with self.assertRaises(ValueError):
            w.set_state(w.q, w.v, time=math.nan)
        np.testing.assert_array_equal(w.q, [0, 0, SPHERE_Z0, 1, 0, 0, 0])  # unchanged

    def test_a_failed_step_returns_false_says_why_and_keeps_the_state(self):
        w = contactlab.World("falling_sphere")
        w.step(10)
        q, t = w.q, w.time
        w.set_state(q, [0, 0, 0, math.nan, 0, 0])
        self.assertFalse(w.step(5))
        self.assertEqual(w.time, t)
        np.testing.assert_array_equal(w.q, q)
        self.assertIn("sphere", w.failure)
        w.set_state(q, [0, 0, 0, 0, 0, 0])
        self.assertTrue(w.step())
        self.assertEqual(w.failure, "")

    def test_reset_restores_the_initial_state(self):
        w = contactlab.World("falling_sphere")
        w.step(400)
        w.reset()
        self.assertEqual(w.time, 0.0)
        np.testing.assert_array_equal(w.q, [0, 0, SPHERE_Z0, 1, 0, 0, 0])
        np.testing.assert_array_equal(w.v, [0, 0, 0, SPHERE_VX0, 0, 0])
        self.assertEqual(len(w.contacts()["normal_force"]), 0)

    def test_repr_names_the_scene_and_time(self):
        w = contactlab.World("falling_sphere")
        self.assertEqual(repr(w), "<contactlab.World 'falling_sphere': 2 bodies, t = 0 s>")


if __name__ == "__main__":
    unittest.main()
