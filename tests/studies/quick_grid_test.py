#!/usr/bin/env python3
"""One study's --quick grid through scripts/study.sh: it exits 0, prints exactly the expected
number of PASS lines and no FAIL line, and leaves its checks CSV (studies/README.md).

  quick_grid_test.py STUDY PASS_COUNT

Needs the contactlab binary: CONTACTLAB_BINARY (ctest sets it), else build/contactlab.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("CONTACTLAB_BINARY", os.path.join(ROOT, "build", "contactlab"))


def main(study, pass_count):
    # The process id in the name: ctest -j2 runs tests side by side.
    tmp = tempfile.mkdtemp(prefix=f"contactlab-quick-{study}-{os.getpid()}-")
    try:
        run_dir = os.path.join(tmp, "run")
        r = subprocess.run([os.path.join(ROOT, "scripts", "study.sh"), study, "--quick",
                            "--jobs", "2", "--binary", BINARY, "--run-dir", run_dir],
                           capture_output=True, text=True)
        out = r.stdout + r.stderr
        lines = r.stdout.splitlines()
        passed = [l for l in lines if l.startswith(f"PASS {study}: ")]
        failed = [l for l in lines if l.startswith("FAIL")]
        problems = []
        if r.returncode != 0:
            problems.append(f"exit {r.returncode}")
        if len(passed) != pass_count:
            problems.append(f"{len(passed)} PASS lines, expected {pass_count}")
        if failed:
            problems.append(f"{len(failed)} FAIL lines")
        if not os.path.getsize(os.path.join(run_dir, "results", f"{study}_checks.csv")):
            problems.append("no checks CSV")
        if problems:
            print(out)
            print(f"{study} --quick: " + "; ".join(problems))
            return 1
        print("\n".join(passed))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: quick_grid_test.py STUDY PASS_COUNT")
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
