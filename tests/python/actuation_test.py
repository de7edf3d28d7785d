#!/usr/bin/env python3
"""The actuation of contactlab.World (src/python/actuation_bindings): PD targets.

A disk on a vertical revolute joint (gravity exerts no torque about it) with PD gains kp, kd
and inertia I about the axis. Known answers (docs/contact-model.md §3, the PD torque implicit in
the step): from rest at q0 = 0, the first step's rate is v = kp q_d / (I/δt + δt kp + kd); the
joint settles at q = q_d + (kd/kp) v_d, where −kp (q − q_d) − kd (0 − v_d) = 0.
Run by ctest (tests/CMakeLists.txt).
"""
import math
import pathlib
import tempfile
import unittest

import contactlab

KP, KD, INERTIA, DT, SCENE_TARGET = 100.0, 10.0, 0.01, 1e-3, 0.25
SCENE = f"""
scene: pd_disk
dt: {DT}
duration: 1.0
bodies:
  - name: ground
    type: static
    shapes:
      - {{type: half_space}}
  - name: disk
    joint: revolute
    axis: [0, 0, 1]
    mass: 1.0
    inertia: [{INERTIA}, {INERTIA}, {INERTIA}]
    pd: {{kp: {KP}, kd: {KD}, target: {SCENE_TARGET}}}
"""
# The slow pole of I s² + kd s + kp is −10.1/s: 3 s bring the error below 1e-13.
SETTLE_STEPS = 3000


class PdTargets(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.scene = pathlib.Path(cls.folder.name) / "pd_disk.yaml"
        cls.scene.write_text(SCENE)

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_pd_joints_lists_the_controlled_bodies(self):
        self.assertEqual(contactlab.World(self.scene).pd_joints(), ["disk"])
        self.assertEqual(contactlab.World("falling_sphere").pd_joints(), [])

    def test_the_first_step_towards_a_target_is_the_implicit_pd_step(self):
        w = contactlab.World(self.scene)
        w.set_pd_target("disk", 0.5)
        w.step()
        v = KP * 0.5 / (INERTIA / DT + DT * KP + KD)
        self.assertAlmostEqual(w.v[0], v, delta=1e-12)
        self.assertAlmostEqual(w.q[0], DT * v, delta=1e-15)

    def test_the_joint_settles_at_the_target(self):
        w = contactlab.World(self.scene)
        w.set_pd_target("disk", 0.5)
        w.step(SETTLE_STEPS)
        self.assertAlmostEqual(w.q[0], 0.5, delta=1e-9)
        self.assertAlmostEqual(w.v[0], 0.0, delta=1e-9)

    def test_a_target_rate_offsets_where_it_settles(self):
        w = contactlab.World(self.scene)
        w.set_pd_target(1, 0.5, 0.2)  # by index
        w.step(SETTLE_STEPS)
        self.assertAlmostEqual(w.q[0], 0.5 + KD / KP * 0.2, delta=1e-9)

    def test_reset_restores_the_scenes_target(self):
        w = contactlab.World(self.scene)
        w.set_pd_target("disk", 0.5)
        w.step(100)
        w.reset()
        w.step(SETTLE_STEPS)
        self.assertAlmostEqual(w.q[0], SCENE_TARGET, delta=1e-9)

    def test_a_bad_body_or_target_raises(self):
        w = contactlab.World(self.scene)
        with self.assertRaisesRegex(ValueError, "body 'ground' has no PD controller"):
            w.set_pd_target("ground", 0.5)
        with self.assertRaisesRegex(ValueError, "no body named 'wheel'"):
            w.set_pd_target("wheel", 0.5)
        with self.assertRaises(IndexError):
            w.set_pd_target(2, 0.5)
        with self.assertRaises(IndexError):
            w.set_pd_target(-1, 0.5)
        with self.assertRaisesRegex(ValueError, "finite"):
            w.set_pd_target("disk", math.inf)


if __name__ == "__main__":
    unittest.main()
