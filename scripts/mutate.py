#!/usr/bin/env python3
"""Mutation testing: applies one-line mutants of the source one at a time and runs the tests.

Each mutant (scripts/mutants.txt, one a line) is an exact piece of one line of a source file and
its replacement: a flipped sign, a changed comparison, an off-by-one, a dropped term. For each:
the module's test executable (src/engine/solver/... -> engine_solver_test) is built and run;
if it survives, everything is built and the whole suite (ctest) runs. The file is restored
after every mutant, whatever happens. Prints the kill table; the rows also go to
BUILD_DIR/mutants.tsv.

Mutant line:  PATH ORIGINAL ~> REPLACEMENT [## equivalent: WHY]
  PATH         a file under src/ (the module is its folder)
  ORIGINAL     text that occurs exactly once in the file, within one line
  REPLACEMENT  what it becomes
  ## equivalent: WHY   a mutant that cannot change behaviour, and why (not counted)
Blank lines and lines starting with # are comments.

Usage (normally through scripts/mutate.sh, which configures the build directory):
  scripts/mutate.py --build-dir DIR [--list FILE] [--only SUBSTRING] [--module-only] [--jobs N]
                    [--keep-killed TSV]
--keep-killed takes the mutants killed in an earlier run (its mutants.tsv) as killed without
running them again: after adding tests, only the survivors and new mutants run.
Exit code: 0 when every mutant not marked equivalent is killed, 1 otherwise, 2 on a bad list
(a mutant whose ORIGINAL is missing or not unique, or that does not compile).
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEST_TIMEOUT_S = 1800  # one test executable or the whole suite; bounds a hung mutant only


@dataclass
class Mutant:
    line_no: int  # in the list
    path: str
    original: str
    replacement: str
    equivalent: str = ""  # why, for a mutant that cannot change behaviour
    result: str = ""  # killed | survived | equivalent | stale | no-build
    killed_by: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def module(self):
        parts = self.path.split("/")
        if parts[1] == "engine":
            return "engine/" + parts[2]
        return parts[1] if len(parts) > 2 else "main"


def parse_list(path):
    mutants, errors = [], []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            equivalent = ""
            if " ## equivalent:" in line:
                line, equivalent = line.split(" ## equivalent:", 1)
                equivalent = equivalent.strip()
            head, sep, replacement = line.partition(" ~> ")
            file_path, _, original = head.partition(" ")
            if not sep or not original or not file_path.startswith("src/"):
                errors.append(f"{path}:{n}: expected 'src/PATH ORIGINAL ~> REPLACEMENT'")
                continue
            mutants.append(Mutant(n, file_path, original, replacement, equivalent))
    return mutants, errors


def test_targets(module):
    """The module's own test executables (tests/ mirrors src/)."""
    if module == "main":
        return ["app_test"]
    return [module.replace("/", "_") + "_test"]


def run(cmd, timeout=None, cwd=None):
    """(exit code, output); a timeout counts as a failure (exit code -1)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=timeout)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return -1, out + f"\n(timed out after {timeout} s)"


def build(build_dir, jobs, targets=None):
    cmd = ["cmake", "--build", build_dir, "-j", str(jobs)]
    if targets:
        cmd += ["--target", *targets]
    return run(cmd)


def failed_gtests(output):
    return sorted(set(re.findall(r"^\[  FAILED  \] ([\w/.]+(?:\.[\w/]+)?)(?: \(|,|$)",
                                 output, re.M)))


def failed_ctests(output):
    return sorted(set(re.findall(r"^\s*\d+ - (\S+) \(", output, re.M)))


class Runner:
    def __init__(self, args):
        self.build_dir = os.path.abspath(args.build_dir)
        self.jobs = args.jobs
        self.module_only = args.module_only
        self.baseline_passed = {}  # module -> whether its tests pass unmutated

    def failing_module_tests(self, module):
        """The failing tests of the module's executables (built first); raises RuntimeError
        when they do not build."""
        targets = test_targets(module)
        code, out = build(self.build_dir, self.jobs, targets)
        if code != 0:
            raise RuntimeError(out[-3000:])
        failing = []
        for t in targets:
            code, out = run([os.path.join(self.build_dir, "tests", t), "--gtest_brief=1"],
                            timeout=TEST_TIMEOUT_S)
            if code != 0:
                failing += [f"{t}: {name}" for name in failed_gtests(out)] or [
                    f"{t} (exit {code})"]
        return failing

    def whole_suite(self):
        code, out = build(self.build_dir, self.jobs)
        if code != 0:
            raise RuntimeError(out[-3000:])
        code, out = run(["ctest", "-j", str(self.jobs), "--timeout", "900"],
                        timeout=TEST_TIMEOUT_S, cwd=self.build_dir)
        if code == 0:
            return False, []
        return True, ["ctest: " + name for name in failed_ctests(out)] or [f"ctest (exit {code})"]

    def check_baseline(self, mutant):
        """The module's tests must pass unmutated, or every mutant there would look killed."""
        module = mutant.module
        if module not in self.baseline_passed:
            try:
                failing = self.failing_module_tests(module)
            except RuntimeError as e:
                failing = [f"does not build: {str(e)[-500:]}"]
            self.baseline_passed[module] = not failing
            if failing:
                print(f"  baseline: {module}'s tests fail without any mutant: {failing}", flush=True)
        return self.baseline_passed[module]

    def apply(self, mutant):
        path = os.path.join(ROOT, mutant.path)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            mutant.result = "stale"
            mutant.killed_by = [str(e)]
            return
        if text.count(mutant.original) != 1:
            mutant.result = "stale"
            mutant.killed_by = [f"ORIGINAL occurs {text.count(mutant.original)} times"]
            return
        if mutant.equivalent:
            mutant.result = "equivalent"
            return
        if not self.check_baseline(mutant):
            mutant.result = "stale"
            mutant.killed_by = ["the module's tests fail without the mutant"]
            return
        start = time.monotonic()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace(mutant.original, mutant.replacement))
            by = self.failing_module_tests(mutant.module)
            killed = bool(by)
            if not killed and not self.module_only:
                killed, by = self.whole_suite()
            mutant.result = "killed" if killed else "survived"
            mutant.killed_by = by
        except RuntimeError as e:
            mutant.result = "no-build"
            mutant.killed_by = [str(e).strip().splitlines()[-1] if str(e).strip() else "?"]
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            mutant.seconds = time.monotonic() - start


def killed_earlier(tsv_path):
    """(path, original, replacement) -> what killed it, for the killed rows of a mutants.tsv."""
    killed = {}
    with open(tsv_path, encoding="utf-8") as f:
        next(f)  # the header
        for row in f:
            cols = row.rstrip("\n").split("\t")
            if len(cols) >= 6 and cols[4] == "killed":
                killed[(cols[1].rsplit(":", 1)[0], cols[2], cols[3])] = cols[5].split("; ")[0]
    return killed


def where(mutant):
    """file:line of the mutated text (the line in the unmutated file)."""
    try:
        with open(os.path.join(ROOT, mutant.path), encoding="utf-8") as f:
            text = f.read()
        at = text.find(mutant.original)
        if at >= 0:
            return f"{mutant.path}:{text.count(chr(10), 0, at) + 1}"
    except OSError:
        pass
    return mutant.path


def print_table(mutants, tsv_path):
    rows = []
    print("\n# Mutants\n")
    print("| # | module | where | mutation | result | first test that failed | s |")
    print("|---|---|---|---|---|---|---|")
    for i, m in enumerate(mutants, 1):
        mutation = f"`{m.original}` → `{m.replacement}`".replace("|", "\\|")
        first = (m.killed_by[0] if m.killed_by else m.equivalent).replace("|", "\\|")
        print(f"| {i} | {m.module} | {where(m)} | {mutation} | {m.result} | {first} | "
              f"{m.seconds:.0f} |")
        rows.append("\t".join([m.module, where(m), m.original, m.replacement, m.result,
                               "; ".join(m.killed_by) or m.equivalent, f"{m.seconds:.0f}"]))
    with open(tsv_path, "w", encoding="utf-8") as f:
        f.write("module\twhere\toriginal\treplacement\tresult\tdetail\tseconds\n")
        f.write("\n".join(rows) + "\n")

    print("\n# Kill rate per module\n")
    print("| module | mutants | killed | equivalent | survived | kill rate |")
    print("|---|---|---|---|---|---|")
    modules = sorted({m.module for m in mutants})
    for module in modules + ["all"]:
        ms = mutants if module == "all" else [m for m in mutants if m.module == module]
        n = len(ms)
        killed = sum(m.result == "killed" for m in ms)
        equivalent = sum(m.result == "equivalent" for m in ms)
        survived = n - killed - equivalent
        rate = f"{100.0 * killed / (n - equivalent):.0f} %" if n > equivalent else "-"
        print(f"| {module} | {n} | {killed} | {equivalent} | {survived} | {rate} |")
    print(f"\n(kill rate = killed / (mutants - equivalent); rows in {tsv_path})")


def main():
    # A stopped run (SIGTERM, Ctrl+C) still restores the mutated file: SystemExit and
    # KeyboardInterrupt unwind through apply()'s finally.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--list", default=os.path.join(ROOT, "scripts", "mutants.txt"))
    parser.add_argument("--only", default="", help="run the mutants whose line contains this")
    parser.add_argument("--module-only", action="store_true",
                        help="run only the module's tests, not the whole suite for survivors")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--keep-killed", default="",
                        help="an earlier run's mutants.tsv: its killed mutants are not run again")
    args = parser.parse_args()

    mutants, errors = parse_list(args.list)
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        return 2
    if args.only:
        mutants = [m for m in mutants
                   if args.only in f"{m.path} {m.original} ~> {m.replacement}"]
    earlier = killed_earlier(args.keep_killed) if args.keep_killed else {}
    runner = Runner(args)
    for i, m in enumerate(mutants, 1):
        key = (m.path, m.original, m.replacement)
        if key in earlier:
            m.result, m.killed_by = "killed", [earlier[key] + " (earlier run)"]
        else:
            runner.apply(m)
        print(f"[{i}/{len(mutants)}] {m.result:10} {where(m)}: {m.original!r} -> "
              f"{m.replacement!r} ({m.seconds:.0f} s) {'; '.join(m.killed_by)[:160]}", flush=True)
    # The last mutant's objects would stay in the build directory: build the restored source
    # again (ccache hits), so that what is there afterwards is the source as it is.
    if any(m.seconds > 0 for m in mutants):
        build(runner.build_dir, args.jobs)
    print_table(mutants, os.path.join(runner.build_dir, "mutants.tsv"))
    if any(m.result in ("stale", "no-build") for m in mutants):
        return 2
    return 0 if all(m.result in ("killed", "equivalent") for m in mutants) else 1


if __name__ == "__main__":
    sys.exit(main())
