#!/usr/bin/env python3
"""The contacts of contactlab.World (src/python/contact_bindings).

Known answers from falling_sphere (0.5 kg, r = 2.5 cm, k = 1e7 N/m against a rigid ground,
μ = 0.5, landing at 2 m/s along x): once it rests on the ground the normal force is its weight
m g and the compliant contact's penetration m g / k; the frictional impact leaves it rolling at
5/7 of its speed (ICF paper §VI-B), without slip at the contact point. Run by ctest
(tests/CMakeLists.txt).
"""
import unittest

import numpy as np

import contactlab

MASS, RADIUS, STIFFNESS, G = 0.5, 0.025, 1e7, 9.81
KEYS = ["position", "normal", "force", "normal_force", "slip_speed", "signed_distance", "body_a",
        "body_b"]


class Contacts(unittest.TestCase):
    def test_none_before_the_first_step(self):
        contacts = contactlab.World("falling_sphere").contacts()
        self.assertEqual(sorted(contacts), sorted(KEYS))
        self.assertEqual(contacts["position"].shape, (0, 3))
        self.assertEqual(contacts["normal_force"].shape, (0,))

    def test_the_rolling_sphere_rests_on_the_ground(self):
        w = contactlab.World("falling_sphere")
        self.assertTrue(w.step(800))  # 0.4 s: landed at 45 ms, rolling from 60 ms
        c = w.contacts()
        self.assertEqual(len(c["normal_force"]), 1)
        self.assertEqual(w.body_names[c["body_a"][0]], "ground")
        self.assertEqual(w.body_names[c["body_b"][0]], "sphere")
        np.testing.assert_array_equal(c["normal"][0], [0, 0, 1])
        weight = MASS * G
        self.assertAlmostEqual(c["normal_force"][0], weight, delta=1e-6 * weight)
        self.assertAlmostEqual(c["force"][0][2], weight, delta=1e-6 * weight)
        penetration = weight / STIFFNESS
        self.assertAlmostEqual(c["signed_distance"][0], -penetration, delta=1e-6 * penetration)

        p, _ = w.body_pose("sphere")
        V = w.body_velocity("sphere")
        # Under the centre where the step started: p − δt v (the contacts are found at its start).
        np.testing.assert_allclose(c["position"][0][:2], p[:2] - w.dt * V[3:5], rtol=0, atol=1e-12)
        self.assertAlmostEqual(V[3], 5 / 7 * 2.0, delta=1e-4)
        # Rolling: the contact point's velocity v + ω × (position − p) is zero along x.
        self.assertAlmostEqual(V[3] + V[1] * (c["position"][0][2] - p[2]), 0.0, delta=1e-9)
        self.assertLess(c["slip_speed"][0], 1e-9)

    def test_reset_clears_them(self):
        w = contactlab.World("falling_sphere")
        w.step(800)
        w.reset()
        self.assertEqual(len(w.contacts()["normal_force"]), 0)


if __name__ == "__main__":
    unittest.main()
