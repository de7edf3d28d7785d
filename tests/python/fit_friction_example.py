#!/usr/bin/env python3
"""examples/fit_friction.py, the README's example, run as a user runs it (ctest
Python.fit_friction_example, the build directory on PYTHONPATH): from μ = 0.35 it fits the
incline's friction to the log the command line made at μ = 0.2, to within 1e-3, and says so on its
last line. The README shows its code as it is.
"""
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fit_friction.py"


class FitFrictionExample(unittest.TestCase):
    def test_it_fits_the_logged_friction(self):
        with tempfile.TemporaryDirectory() as folder:  # wherever it is run from
            run = subprocess.run([sys.executable, EXAMPLE], cwd=folder, capture_output=True,
                                 text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        last = run.stdout.splitlines()[-1]
        self.assertTrue(last.startswith("fitted friction: "), run.stdout)
        self.assertAlmostEqual(float(last.split(": ")[1]), 0.2, delta=1e-3)

    def test_the_readme_shows_its_code(self):
        example = EXAMPLE.read_text()
        code = example[example.index("import csv"):]  # after the docstring
        self.assertIn(f"```python\n{code}```\n", (ROOT / "README.md").read_text())


if __name__ == "__main__":
    unittest.main()
