#!/usr/bin/env python3
"""The settings of contactlab.World (src/python/settings_bindings): set_overrides and settings.

Known answers: the scene's settings, free fall at an overridden δt, and a frictionless landing
that leaves the horizontal velocity as it was. Run by ctest (tests/CMakeLists.txt).
"""
import unittest

import contactlab

G = 9.81  # m/s²

# assets/scenes/falling_sphere.yaml: δt = 0.5 ms, Lagged, v_s and σ the defaults; no pair
# property is overridden (its default_contact gives the geometries theirs).
SCENE_SETTINGS = {"dt": 5e-4, "model": "lagged", "integrator": "symplectic_euler",
                  "stiction_tolerance": 1e-4, "sigma": 1e-3, "stiffness": None,
                  "hunt_crossley": None, "relaxation_time": None, "friction": None,
                  "restitution": None}


class Overrides(unittest.TestCase):
    def test_settings_are_the_scenes(self):
        self.assertEqual(contactlab.World("falling_sphere").settings, SCENE_SETTINGS)

    def test_each_keyword_sets_its_setting(self):
        w = contactlab.World("falling_sphere")
        changes = {"stiffness": 2e6, "hunt_crossley": 20.0, "relaxation_time": 0.01,
                   "friction": 0.3, "restitution": 0.5, "stiction_tolerance": 1e-3, "dt": 1e-3,
                   "model": "sap", "integrator": "implicit_euler"}
        w.set_overrides(**changes)
        self.assertEqual(w.settings, {**SCENE_SETTINGS, **changes})
        self.assertEqual(w.approximation, "sap")
        self.assertEqual(w.dt, 1e-3)

    def test_a_keyword_left_out_keeps_its_value(self):
        w = contactlab.World("falling_sphere")
        w.set_overrides(friction=0.3)
        w.set_overrides(stiffness=2e6)
        self.assertEqual(w.settings["friction"], 0.3)
        self.assertEqual(w.settings["stiffness"], 2e6)

    def test_reset_keeps_the_settings(self):
        w = contactlab.World("falling_sphere")
        w.set_overrides(model="similar", friction=0.1)
        w.step(10)
        w.reset()
        self.assertEqual(w.settings["model"], "similar")
        self.assertEqual(w.settings["friction"], 0.1)

    def test_a_value_out_of_range_raises_value_error_and_changes_nothing(self):
        w = contactlab.World("falling_sphere")
        for keywords, option in [({"stiffness": -1.0}, "--stiffness"), ({"dt": 0.0}, "--dt"),
                                 ({"friction": -0.1}, "--friction"),
                                 ({"restitution": 1.5}, "--restitution"),
                                 ({"stiction_tolerance": 0.0}, "--stiction-tolerance"),
                                 ({"hunt_crossley": float("nan")}, "--hunt-crossley"),
                                 ({"friction": 0.2, "stiffness": -1.0}, "--stiffness")]:
            with self.subTest(keywords=keywords):
                with self.assertRaisesRegex(ValueError, option):
                    w.set_overrides(**keywords)
                self.assertEqual(w.settings, SCENE_SETTINGS)

    def test_an_unknown_name_raises_value_error(self):
        w = contactlab.World("falling_sphere")
        with self.assertRaisesRegex(ValueError, "model must be sap, lagged.* got 'bogus'"):
            w.set_overrides(model="bogus")
        with self.assertRaisesRegex(ValueError, "integrator must be .* got 'rk4'"):
            w.set_overrides(integrator="rk4")
        with self.assertRaises(TypeError):  # keywords only
            w.set_overrides(1e6)
        self.assertEqual(w.settings, SCENE_SETTINGS)


class OverridesInTheStep(unittest.TestCase):
    def test_free_fall_at_an_overridden_dt(self):
        w = contactlab.World("falling_sphere")
        w.set_overrides(dt=1e-3)
        w.step(20)
        self.assertAlmostEqual(w.time, 0.02, delta=1e-15)
        self.assertAlmostEqual(w.v[5], -G * 0.02, delta=1e-14)

    def test_a_frictionless_landing_keeps_the_horizontal_velocity(self):
        # μ = 0: the ground pushes along its normal, z, only. The sphere lands at 2 m/s along x
        # and slides on without spinning (with the scene's μ = 0.5 it rolls at 5/7 of that:
        # contact_test.py).
        w = contactlab.World("falling_sphere")
        w.set_overrides(friction=0.0)
        self.assertTrue(w.step(800))
        self.assertGreater(w.contacts()["normal_force"][0], 4.0)  # resting on the ground
        V = w.body_velocity("sphere")
        self.assertAlmostEqual(V[3], 2.0, delta=1e-12)
        for i in (0, 1, 2, 4):
            self.assertAlmostEqual(V[i], 0.0, delta=1e-12)


if __name__ == "__main__":
    unittest.main()
