#!/usr/bin/env python3
"""scripts/study.sh run locally (studies/README.md): the spring–cylinder's and the pressure-field
sphere's quick grids pass their checks, an interrupted run resumes without running its finished
points again, and bad input or a failed point ends with one line naming it and a non-zero exit
(unless the point may fail and its run failed: then that is its result).

Needs the contactlab binary: CONTACTLAB_BINARY (ctest sets it), else build/contactlab.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUDY = os.path.join(ROOT, "scripts", "study.sh")
BINARY = os.environ.get("CONTACTLAB_BINARY", os.path.join(ROOT, "build", "contactlab"))
QUICK_POINTS = 24  # studies/spring_cylinder/study.py: 6 energy runs, 3 ladders of 3 steps × 2


def study(*args, env=None):
    return subprocess.run([STUDY, *args], capture_output=True, text=True,
                          env=dict(os.environ, **(env or {})))


def error_lines(result):
    return [l for l in result.stderr.splitlines() if l.startswith("study: ")]


class StudyTest(unittest.TestCase):
    def setUp(self):
        # The process id in the name: ctest -j2 runs tests side by side.
        self.tmp = tempfile.mkdtemp(prefix=f"contactlab-study-{os.getpid()}-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.run_dir = os.path.join(self.tmp, "run")

    def quick(self, *extra, env=None):
        return study("spring_cylinder", "--quick", "--binary", BINARY, "--run-dir", self.run_dir,
                     *extra, env=env)

    def markers(self):
        points = os.path.join(self.run_dir, "points")
        return {p: os.stat(os.path.join(points, p, "done")).st_mtime_ns
                for p in os.listdir(points) if os.path.exists(os.path.join(points, p, "done"))}

    def test_quick_grid_passes_its_checks(self):
        r = self.quick("--jobs", "2")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        lines = r.stdout.splitlines()
        passed = [l for l in lines if l.startswith("PASS spring_cylinder: ")]
        self.assertEqual(len(passed), 8, r.stdout)
        self.assertFalse([l for l in lines if l.startswith("FAIL")], r.stdout)
        for name in ("energy.csv", "energy.png", "convergence.csv", "convergence.png",
                     "checks.csv"):
            self.assertTrue(os.path.getsize(os.path.join(self.run_dir, "results",
                                                         "spring_cylinder_" + name)) > 0, name)

    def test_pressure_field_sphere_quick_grid_passes_its_checks(self):
        r = study("pressure_field_sphere", "--quick", "--binary", BINARY, "--run-dir",
                  self.run_dir, "--jobs", "2")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len([l for l in lines if l.startswith("PASS pressure_field_sphere: ")]),
                         6, r.stdout)
        self.assertFalse([l for l in lines if l.startswith("FAIL")], r.stdout)
        for name in (".csv", ".png", "_checks.csv"):
            self.assertTrue(os.path.getsize(os.path.join(
                self.run_dir, "results", "pressure_field_sphere" + name)) > 0, name)

    def test_an_interrupted_run_resumes_without_rerunning_finished_points(self):
        # The hook kills the runner (SIGKILL, as an interruption would) after 3 points.
        r = self.quick("--jobs", "1", env={"STUDY_RUNNER_KILL_AFTER": "3"})
        self.assertNotEqual(r.returncode, 0)
        before = self.markers()
        self.assertEqual(len(before), 3, before)
        r = self.quick("--jobs", "2")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        after = self.markers()
        self.assertEqual(len(after), QUICK_POINTS)
        for point, mtime in before.items():
            self.assertEqual(after[point], mtime, point)  # its marker was not written again
        with open(os.path.join(self.run_dir, "launches.log")) as f:
            launches = f.read().split()
        self.assertEqual(sorted(launches), sorted(after), "each point ran exactly once")
        # A third run runs nothing and collects the same.
        r = self.quick("--jobs", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(self.run_dir, "launches.log")) as f:
            self.assertEqual(len(f.read().split()), QUICK_POINTS)

    def test_a_failed_point_is_named_with_contactlab_s_error(self):
        fake = os.path.join(self.tmp, "contactlab")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\necho 'contactlab: error: --dt: must be positive' >&2\nexit 2\n")
        os.chmod(fake, 0o755)
        r = study("spring_cylinder", "--quick", "--jobs", "1", "--binary", fake,
                  "--run-dir", self.run_dir)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(error_lines(r), [
            "study: point energy_symplectic_euler_frictionless: contactlab exit 2: "
            "contactlab: error: --dt: must be positive"])
        # Collecting later (as after a Slurm job) names the same point and error.
        r = self.quick("--collect")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(error_lines(r), [
            "study: point energy_symplectic_euler_frictionless: contactlab exit 2: "
            "contactlab: error: --dt: must be positive"])

    def test_a_point_allowed_to_fail_is_finished_by_a_failed_run_only(self):
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        from study_runner import Point, RunDir, run_point
        run = RunDir(self.run_dir)
        os.makedirs(run.path)

        def fake(code):
            path = os.path.join(self.tmp, f"contactlab{code}")
            with open(path, "w") as f:
                f.write("#!/bin/sh\nwhile [ $# -gt 0 ]; do\n"
                        "  [ \"$1\" = --summary ] && echo '{\"failed\": true}' > \"$2\"\n"
                        "  shift\ndone\n"
                        f"echo 'contactlab: error: the run failed at step 7' >&2\nexit {code}\n")
            os.chmod(path, 0o755)
            return path

        # Exit 3 (the run failed) is the result of a point that may fail, with its summary...
        stress = Point("stress", ["--stiffness", "1e13"], ["summary"], may_fail=True)
        self.assertIsNone(run_point(fake(3), run, stress))
        self.assertTrue(run.finished(stress))
        self.assertTrue(run.summary("stress")["failed"])
        # ...and an error for any other point, or with any other exit code.
        strict = stress._replace(id="strict", may_fail=False)
        self.assertEqual(run_point(fake(3), run, strict), "point strict: contactlab exit 3: "
                         "contactlab: error: the run failed at step 7")
        self.assertFalse(run.finished(strict))
        bad_input = stress._replace(id="bad_input")
        self.assertIn("contactlab exit 2", run_point(fake(2), run, bad_input))
        self.assertFalse(run.finished(bad_input))

    def test_bad_input_gets_one_line_and_a_non_zero_exit(self):
        cases = [
            (["no_such_study"], "unknown study 'no_such_study'"),
            (["spring_cylinder", "--jobs", "0"], "--jobs must be a positive integer"),
            (["spring_cylinder", "--jobs", "two"], "--jobs must be a positive integer"),
            (["spring_cylinder", "--binary", os.path.join(self.tmp, "none")],
             "no contactlab binary"),
            (["spring_cylinder", "--quick", "--run-dir", self.run_dir, "--collect"], "has not run"),
        ]
        for args, message in cases:
            r = study(*args)
            self.assertEqual(r.returncode, 1, args)
            self.assertEqual(len(error_lines(r)), 1, r.stderr)
            self.assertIn(message, r.stderr, args)
        # --slurm without Slurm's sbatch on PATH: only bash on it (Python is found by its path).
        bin_dir = os.path.join(self.tmp, "bin")
        os.makedirs(bin_dir)
        os.symlink(shutil.which("bash"), os.path.join(bin_dir, "bash"))
        r = study("spring_cylinder", "--quick", "--binary", BINARY, "--run-dir", self.run_dir,
                  "--slurm", env={"PATH": bin_dir})
        self.assertEqual(r.returncode, 1)
        self.assertEqual(error_lines(r),
                         ["study: --slurm needs Slurm's sbatch on PATH (not found)"])
        r = study("spring_cylinder", "--chunk", "0", "--slurm")
        self.assertEqual(error_lines(r), ["study: --chunk must be a positive integer, not '0'"])


if __name__ == "__main__":
    unittest.main()
