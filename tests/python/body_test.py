#!/usr/bin/env python3
"""The bodies of contactlab.World (src/python/body_bindings): names, poses, velocities.

Known answers: a floating body's pose and velocity are its joint's q and v (a root's parent is
the world); a kinematic body follows its prescribed motion s(t) = A sin(2π f t + φ), and reports
the mean velocity of the last step. Run by ctest (tests/CMakeLists.txt).
"""
import math
import unittest

import numpy as np

import contactlab


class Names(unittest.TestCase):
    def test_a_body_by_name_or_by_index(self):
        w = contactlab.World("conveyor")
        self.assertEqual(w.body_names, ["belt", "box", "floor"])
        for index, name in enumerate(w.body_names):
            p_by_name, quaternion_by_name = w.body_pose(name)
            p_by_index, quaternion_by_index = w.body_pose(index)
            np.testing.assert_array_equal(p_by_index, p_by_name)
            np.testing.assert_array_equal(quaternion_by_index, quaternion_by_name)

    def test_an_unknown_body_raises(self):
        w = contactlab.World("conveyor")
        with self.assertRaisesRegex(ValueError, "no body named 'cup' in scene 'conveyor'"):
            w.body_pose("cup")
        with self.assertRaisesRegex(IndexError, "body 3 out of range: the scene has 3 bodies"):
            w.body_velocity(3)
        with self.assertRaises(IndexError):
            w.body_pose(-1)


class FloatingBody(unittest.TestCase):
    def test_pose_and_velocity_are_the_joints_state(self):
        w = contactlab.World("falling_sphere")
        angle = 0.3  # about the axis (1, 2, 2)/3
        quaternion = [math.cos(angle / 2)] + [math.sin(angle / 2) * c / 3 for c in (1, 2, 2)]
        w.set_state([0.1, -0.2, 0.3] + quaternion, [1, 2, 3, 4, 5, 6])
        p, q_WB = w.body_pose("sphere")
        np.testing.assert_array_equal(p, [0.1, -0.2, 0.3])
        np.testing.assert_allclose(q_WB, quaternion, rtol=0, atol=1e-15)
        np.testing.assert_array_equal(w.body_velocity("sphere"), [1, 2, 3, 4, 5, 6])

    def test_a_static_body_stays_at_its_pose(self):
        w = contactlab.World("conveyor")
        w.step(10)
        p, quaternion = w.body_pose("floor")
        np.testing.assert_array_equal(p, [0, 0, -0.5])
        np.testing.assert_array_equal(quaternion, [1, 0, 0, 0])
        np.testing.assert_array_equal(w.body_velocity("floor"), np.zeros(6))


class KinematicBody(unittest.TestCase):
    def test_the_belt_follows_its_motion(self):
        # assets/scenes/conveyor.yaml: s(t) = 0.2 sin(2π t − π/2) along x, from z = −0.025.
        def s(t):
            return 0.2 * math.sin(2 * math.pi * t - math.pi / 2)

        w = contactlab.World("conveyor")
        for _ in range(25):
            t0 = w.time
            w.step()
            p, quaternion = w.body_pose("belt")
            self.assertAlmostEqual(p[0], s(w.time), delta=1e-15)
            self.assertEqual(list(p[1:]), [0, -0.025])
            np.testing.assert_array_equal(quaternion, [1, 0, 0, 0])
            V = w.body_velocity("belt")
            self.assertAlmostEqual(V[3], (s(w.time) - s(t0)) / (w.time - t0), delta=1e-12)
            np.testing.assert_array_equal(V[[0, 1, 2, 4, 5]], np.zeros(5))


if __name__ == "__main__":
    unittest.main()
