#!/usr/bin/env python3
"""Runs a study of studies/NAME/ (its parameter grid of contactlab runs) locally or as one Slurm
job array, then collects its CSV, PNG and pass/fail checks (studies/README.md).

  scripts/study.sh NAME [--quick] [--jobs N] [--run-dir DIR] [--binary PATH]
  scripts/study.sh NAME [--quick] [--run-dir DIR] --slurm [--chunk K] [--no-wait] [sbatch options]
  scripts/study.sh NAME [--quick] [--run-dir DIR] --collect

A study is studies/NAME/study.py with FIGURE (the paper's figure or table), points(quick) -> a
list of Point and collect(run, out_dir) -> a list of Check. Each point runs in
RUN_DIR/points/ID/ and is finished when its completion marker `done` exists (written atomically
after contactlab exited 0) with the point's arguments: finished points are never run again, so
an interrupted study resumes where it stopped, and a Slurm run and a local one share the
directory. After --slurm, the options the runner does not know are passed to sbatch.
"""
import argparse
import collections
import concurrent.futures
import importlib.util
import json
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUDIES = os.path.join(ROOT, "studies")
OUTPUT_FILES = {"log": "log.csv", "summary": "summary.json", "solver": "solver.csv",
                "newton": "newton.csv"}
OUTPUT_OPTIONS = {"log": "--log", "summary": "--summary", "solver": "--log-solver",
                  "newton": "--log-newton"}
# contactlab's exit code when a step met NaN, inf or an absurd value: its summary says `failed`
# and its logs end at the last good step (docs/architecture.md, "Errors and exit codes").
EXIT_RUN_FAILED = 3
ID_PATTERN = re.compile(r"^[A-Za-z0-9_.=+-]+$")
# Test hook: the runner kills itself (SIGKILL, no cleanup) once this many points finished, as an
# interrupted run would end (tests/studies/study_test.py).
KILL_AFTER = "STUDY_RUNNER_KILL_AFTER"


class StudyError(Exception):
    """Bad input or a failed run: one line for the user, exit code 1."""


# A run of contactlab: `id` names its folder; `args` are contactlab's options after --headless;
# `outputs` the files the runner asks for ("log" -> --log log.csv, "summary" -> --summary,
# "solver" -> --log-solver solver.csv, "newton" -> --log-newton newton.csv); `columns`, if
# given, the log's columns kept once the run ended (a log has ~100 columns and a row per step:
# a 100 000-step run writes 40 MB, its 5 columns of interest 5 MB); `may_fail`: a run that
# failed (EXIT_RUN_FAILED) is this point's result, finished like one that ended (a stress
# test's outcome), not an error of the study.
Point = collections.namedtuple("Point", "id args outputs columns may_fail",
                               defaults=(None, False))
# One stated result of the paper: `paper` its number or trend, `ours` what the runs gave.
Check = collections.namedtuple("Check", "name paper ours passed")


def atomic_write(path, text):
    """Writes text so that a reader sees the old file or the whole new one, never a part."""
    tmp = f"{path}.tmp-{os.getpid()}-{threading.get_ident()}"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def scene_variant(study, name, scene, substitutions):
    """A variant of the scene file `scene` (a path from the checkout) for a grid that varies
    what only a scene file sets (a generator's count, `sigma`): each (pattern, replacement) of
    `substitutions` must match exactly once (a multi-line regex). Written to
    build/studies/STUDY/scenes/NAME.yaml (generated, not in git); returns that path from the
    checkout, where points run: on a cluster the same file on every node."""
    with open(os.path.join(ROOT, scene)) as f:
        text = f.read()
    for pattern, replacement in substitutions:
        text, n = re.subn(pattern, replacement, text, flags=re.M)
        if n != 1:
            raise StudyError(f"{scene}: '{pattern}' matches {n} times, not once")
    path = os.path.join("build", "studies", study, "scenes", f"{name}.yaml")
    os.makedirs(os.path.dirname(os.path.join(ROOT, path)), exist_ok=True)
    atomic_write(os.path.join(ROOT, path),
                 f"# Written by studies/{study}/study.py from {scene}.\n" + text)
    return path


class RunDir:
    """The run directory of one grid: a point's outputs, read by a study's collect()."""

    def __init__(self, path, points=()):
        self.path = os.path.abspath(path)
        self.points = list(points)  # the grid that ran: collect() reads its points' outputs
        self.ids = {p.id for p in self.points}

    def point_dir(self, point_id):
        return os.path.join(self.path, "points", point_id)

    def output(self, point_id, name):
        return os.path.join(self.point_dir(point_id), OUTPUT_FILES[name])

    def finished(self, point):
        """Its marker exists and records the same run (a changed grid point runs again)."""
        try:
            with open(os.path.join(self.point_dir(point.id), "done")) as f:
                marker = json.load(f)
            return marker["args"] == list(point.args) and marker["columns"] == point.columns
        except (OSError, ValueError, KeyError):
            return False

    def wall(self, point):
        with open(os.path.join(self.point_dir(point.id), "done")) as f:
            return json.load(f)["wall_s"]

    def summary(self, point_id):
        with open(self.output(point_id, "summary")) as f:
            return json.load(f)

    def columns(self, point_id, names, output="log"):
        """A CSV output's ("log", "solver", "newton") columns `names` as lists of floats (only
        these are parsed: logs are large); an empty field is NaN."""
        with open(self.output(point_id, output)) as f:
            header = f.readline().rstrip("\n").split(",")
            missing = [n for n in names if n not in header]
            if missing:
                raise StudyError(f"point {point_id}: its {OUTPUT_FILES[output]} has no column "
                                 f"{missing[0]}")
            index = [header.index(n) for n in names]
            out = [[] for _ in names]
            for line in f:
                fields = line.split(",")
                for column, i in zip(out, index):
                    column.append(float(fields[i]) if fields[i].strip() else math.nan)
        return dict(zip(names, out))


def log_slope(xs, ys):
    """The least-squares slope of log y against log x (a convergence order)."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    n, sx, sy = len(lx), sum(lx), sum(ly)
    sxx, sxy = sum(x * x for x in lx), sum(x * y for x, y in zip(lx, ly))
    return (n * sxy - sx * sy) / (n * sxx - sx * sx)


def write_csv(path, header, rows):
    import csv
    with open(path, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def pyplot():
    import matplotlib
    matplotlib.use("Agg")  # no display: the runner also runs in Slurm tasks and tests
    import matplotlib.pyplot as plt
    return plt


def load_study(name):
    path = os.path.join(STUDIES, name, "study.py")
    if not re.match(r"^[a-z0-9_]+$", name) or not os.path.isfile(path):
        known = sorted(d for d in os.listdir(STUDIES) if os.path.isfile(
            os.path.join(STUDIES, d, "study.py")))
        raise StudyError(f"unknown study '{name}' (studies: {', '.join(known)})")
    spec = importlib.util.spec_from_file_location(f"study_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def grid(study, quick):
    points = study.points(quick)
    seen = set()
    for p in points:
        if not ID_PATTERN.match(p.id) or p.id in seen:
            raise StudyError(f"study grid: point id '{p.id}' is a duplicate or not a file name")
        seen.add(p.id)
    return points


# --- running points --------------------------------------------------------------------------

def run_point(binary, run, point):
    """Runs one point; returns None, or the one-line reason it failed."""
    folder = run.point_dir(point.id)
    os.makedirs(folder, exist_ok=True)
    for stale in ["done", "failed"] + list(OUTPUT_FILES.values()):
        if os.path.exists(os.path.join(folder, stale)):
            os.remove(os.path.join(folder, stale))
    command = [binary, "--headless"] + list(point.args)
    if "--threads" not in point.args:
        command += ["--threads", "1"]  # points run side by side; results are equal on any count
    for name in point.outputs:
        command += [OUTPUT_OPTIONS[name], run.output(point.id, name)]
    # The run counter: one line per launch, so a test can tell that a finished point did not
    # run again. O_APPEND writes of one short line do not interleave.
    with open(os.path.join(run.path, "launches.log"), "a") as f:
        f.write(point.id + "\n")
    start = time.monotonic()
    with open(os.path.join(folder, "stderr.txt"), "w") as err:
        try:
            # From the checkout: a point's relative paths (assets/teleop/…) mean the same file
            # on every node.
            code = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=err,
                                  cwd=ROOT).returncode
        except OSError as e:
            return f"point {point.id}: cannot run {binary}: {e.strerror}"
    if code != 0 and not (point.may_fail and code == EXIT_RUN_FAILED):
        error = f"point {point.id}: contactlab exit {code}: {last_line(folder)}"
        atomic_write(os.path.join(folder, "failed"), error + "\n")  # for collect, on any node
        return error
    if point.columns and "log" in point.outputs:
        keep_columns(run.output(point.id, "log"), point.columns)
    marker = {"args": list(point.args), "columns": point.columns,
              "wall_s": round(time.monotonic() - start, 3)}
    atomic_write(os.path.join(folder, "done"), json.dumps(marker) + "\n")
    return None


def keep_columns(path, names):
    """Rewrites a log with only these columns (the fields' text unchanged: bit for bit)."""
    with open(path) as src, open(path + ".part", "w") as dst:
        header = src.readline().rstrip("\n").split(",")
        index = [header.index(n) for n in names]
        dst.write(",".join(names) + "\n")
        for line in src:
            fields = line.rstrip("\n").split(",")
            dst.write(",".join(fields[i] for i in index) + "\n")
    os.replace(path + ".part", path)


def last_line(folder):
    try:
        with open(os.path.join(folder, "stderr.txt")) as f:
            lines = [l.strip() for l in f if l.strip()]
        return lines[-1] if lines else "(no message)"
    except OSError:
        return "(no message)"


class Progress:
    """One line, rewritten in place on a terminal (once at the end otherwise)."""

    def __init__(self, label, total, done):
        self.label, self.total, self.done, self.earlier = label, total, done, done
        self.running, self.failed, self.start = 0, 0, time.monotonic()
        self.tty, self.lock = sys.stderr.isatty(), threading.Lock()

    def update(self, running=0, done=0, failed=0, final=False):
        with self.lock:
            self.running += running
            self.done += done
            self.failed += failed
            text = (f"{self.label}: {self.done}/{self.total} points done ({self.earlier} earlier), "
                    f"{self.running} running, {self.failed} failed, "
                    f"{time.monotonic() - self.start:.0f} s")
            if self.tty:
                sys.stderr.write("\r" + text + ("\n" if final else ""))
                sys.stderr.flush()
            elif final:
                print(text, file=sys.stderr)


def run_local(binary, run, points, jobs, label):
    pending = [p for p in points if not run.finished(p)]
    progress = Progress(label, len(points), len(points) - len(pending))
    kill_after = int(os.environ.get(KILL_AFTER, "0") or 0)
    failures, stop = [], threading.Event()
    finished_here = [0]

    def work(point):
        if stop.is_set():
            return
        progress.update(running=1)
        error = run_point(binary, run, point)
        progress.update(running=-1, done=0 if error else 1, failed=1 if error else 0)
        with progress.lock:
            if error:
                failures.append(error)
                stop.set()  # fail fast: finish what runs, start nothing new
                return
            finished_here[0] += 1
            if kill_after and finished_here[0] >= kill_after:
                os.kill(os.getpid(), signal.SIGKILL)

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        list(pool.map(work, pending))
    except KeyboardInterrupt:
        # Ctrl-C reached the running contactlabs too (one process group); start no more.
        stop.set()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    progress.update(final=True)
    if failures:
        raise StudyError("; ".join(failures))


# --- Slurm -----------------------------------------------------------------------------------

def run_task(tasks_file):
    """One Slurm array task: its chunk of the pending points, one after the other."""
    with open(tasks_file) as f:
        tasks = json.load(f)
    index = int(os.environ["SLURM_ARRAY_TASK_ID"])
    run = RunDir(tasks["run_dir"])
    failed = False
    for p in tasks["chunks"][index]:
        point = Point(**p)
        if run.finished(point):
            continue
        error = run_point(tasks["binary"], run, point)
        if error:
            print(error, file=sys.stderr)
            failed = True
    return 1 if failed else 0


def job_record(run):
    """The file that names the Slurm job last submitted for this run directory."""
    return os.path.join(run.path, "slurm", "job")


def active_job(run):
    """The job this run directory submitted last, while Slurm still has it (queued or running);
    None once it has ended, or without Slurm here (a run directory copied off the cluster)."""
    try:
        with open(job_record(run)) as f:
            job = f.read().strip()
    except OSError:
        return None
    if shutil.which("squeue") is None:
        return None
    r = subprocess.run(["squeue", "-h", "-j", job, "-o", "%i"], capture_output=True, text=True)
    if r.returncode == 0 and r.stdout.strip():
        return job
    # Once a job has left the controller's memory squeue calls its id invalid; any other
    # failure (the controller unreachable) must not pass for an ended job.
    if r.returncode != 0 and "Invalid job id" not in r.stderr:
        raise StudyError(f"cannot ask Slurm about job {job}: {last_of(r.stderr)}")
    os.remove(job_record(run))
    return None


def wait_for_job(run, points, job, label):
    """Waits, polling squeue, for a job submitted earlier (a waiting runner stopped by Ctrl-C)."""
    print(f"{label}: waiting for Slurm job {job}, submitted earlier for this run directory "
          f"(nothing new is submitted)", file=sys.stderr, flush=True)
    progress = Progress(label + " (Slurm)", len(points), sum(run.finished(p) for p in points))
    while active_job(run) is not None:
        time.sleep(2)
        progress.update(done=sum(run.finished(p) for p in points) - progress.done)
    progress.update(done=sum(run.finished(p) for p in points) - progress.done, final=True)


def run_slurm(binary, run, points, chunk, wait, sbatch_options, label):
    if shutil.which("sbatch") is None:
        raise StudyError("--slurm needs Slurm's sbatch on PATH (not found)")
    job = active_job(run)
    if job is not None:
        if not wait:
            raise StudyError(f"Slurm job {job} of this run directory is still queued or running: "
                             f"nothing submitted (scancel {job} stops it)")
        return wait_for_job(run, points, job, label)
    pending = [p for p in points if not run.finished(p)]
    if not pending:
        print(f"{label}: all {len(points)} points done earlier", file=sys.stderr)
        return
    slurm_dir = os.path.join(run.path, "slurm")
    os.makedirs(slurm_dir, exist_ok=True)
    chunks = [[p._asdict() for p in pending[i:i + chunk]] for i in range(0, len(pending), chunk)]
    stamp = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
    tasks_file = os.path.join(slurm_dir, f"tasks-{stamp}.json")
    atomic_write(tasks_file, json.dumps({"run_dir": run.path, "binary": binary,
                                         "chunks": chunks}) + "\n")
    task = (f"{shlex.quote(sys.executable)} {shlex.quote(os.path.abspath(__file__))} "
            f"--task {shlex.quote(tasks_file)}")
    # The user's options come last: for sbatch the last of a repeated option wins.
    command = ["sbatch", "--parsable", f"--array=0-{len(chunks) - 1}",
               f"--job-name=study-{label.split()[0]}",
               f"--output={os.path.join(slurm_dir, '%A_%a.out')}"]
    command += (["--wait"] if wait else []) + sbatch_options + ["--wrap", task]
    start = time.monotonic()
    sbatch = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not wait:
        out, err = sbatch.communicate()
        if sbatch.returncode != 0:
            raise StudyError(f"sbatch failed: {last_of(err)}")
        atomic_write(job_record(run), out.strip().split(";")[0] + "\n")
        name, quick = label.split()[0], " --quick" if label.endswith("quick") else ""
        print(f"{label}: submitted Slurm job {out.strip()} ({plural(len(chunks), 'task')}, "
              f"{plural(len(pending), 'point')}); collect with: scripts/study.sh {name} "
              f"--collect{quick} --run-dir {shlex.quote(run.path)}")
        return
    # sbatch --parsable prints the job's id once submitted, then waits for it: recorded, a
    # runner stopped while waiting (Ctrl-C) and run again waits for the same job.
    job = sbatch.stdout.readline().strip().split(";")[0]
    if job:
        atomic_write(job_record(run), job + "\n")
    progress = Progress(label + " (Slurm)", len(points), len(points) - len(pending))
    while sbatch.poll() is None:  # the markers are the progress, whatever node wrote them
        time.sleep(1)
        done = sum(run.finished(p) for p in points)
        progress.update(done=done - progress.done)
    out, err = sbatch.communicate()
    if job and os.path.exists(job_record(run)):
        os.remove(job_record(run))
    progress.update(done=sum(run.finished(p) for p in points) - progress.done, final=True)
    print(f"{label}: Slurm job {job or '?'} ended "
          f"after {time.monotonic() - start:.1f} s ({plural(len(chunks), 'task')})",
          file=sys.stderr)
    unfinished = [p for p in points if not run.finished(p)]
    # A point that ran and failed is named by collect(); otherwise sbatch itself failed.
    if sbatch.returncode != 0 and not any(
            os.path.exists(os.path.join(run.point_dir(p.id), "failed")) for p in unfinished):
        raise StudyError(f"sbatch failed: {last_of(err)}")


def plural(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


def last_of(text):
    lines = [l for l in (text or "").splitlines() if l.strip()]
    return lines[-1] if lines else "(no message)"


# --- collecting ------------------------------------------------------------------------------

def collect(study, name, run, points, out_dir):
    for p in points:
        if not run.finished(p):
            failed = os.path.join(run.point_dir(p.id), "failed")
            if os.path.exists(failed):
                with open(failed) as f:
                    raise StudyError(f.read().strip())
            raise StudyError(f"point {p.id} has not run: run the study again to finish it")
    os.makedirs(out_dir, exist_ok=True)
    checks = study.collect(run, out_dir)
    write_csv(os.path.join(out_dir, f"{name}_checks.csv"), ["check", "paper", "ours", "pass"],
              [[c.name, c.paper, c.ours, "pass" if c.passed else "FAIL"] for c in checks])
    for c in checks:
        print(f"{'PASS' if c.passed else 'FAIL'} {name}: {c.name}: paper {c.paper}, ours {c.ours}")
    return checks


TABLE_BEGIN, TABLE_END = "<!-- studies table: scripts/study_runner.py -->", "<!-- end of table -->"
TABLE_HEADER = ("| study | paper | check | paper's value | ours | result | wall (local) "
                "| command |\n"
                "|---|---|---|---|---|---|---|---|\n")


def update_table(name, figure, checks, wall, command):
    """Rewrites this study's rows of studies/README.md's table, keeping the other studies'."""
    path = os.path.join(STUDIES, "README.md")
    with open(path) as f:
        text = f.read()
    if TABLE_BEGIN not in text or TABLE_END not in text:
        raise StudyError(f"{path}: no table markers")
    head, rest = text.split(TABLE_BEGIN, 1)
    table, tail = rest.split(TABLE_END, 1)
    rows = [l for l in table.strip().splitlines()[2:] if l.startswith("| ")]
    kept = [r for r in rows if r.split("|")[1].strip() != f"`{name}`"]
    cell = lambda s: str(s).replace("|", "\\|")
    ours = [f"| `{name}` | {cell(figure) if i == 0 else ''} | {cell(c.name)} | {cell(c.paper)} | "
            f"{cell(c.ours)} | {'pass' if c.passed else '**FAIL**'} | "
            f"{wall if i == 0 else ''} | {f'`{command}`' if i == 0 else ''} |"
            for i, c in enumerate(checks)]
    rows = sorted(kept + ours, key=lambda r: r.split("|")[1].strip())  # stable: a study's order
    atomic_write(path, head + TABLE_BEGIN + "\n" + TABLE_HEADER + "\n".join(rows) + "\n" +
                 TABLE_END + tail)


# --- command line ----------------------------------------------------------------------------

def parse(argv):
    # After --slurm the runner's own options are still recognized; the rest go to sbatch.
    head, tail = (argv[:argv.index("--slurm")], argv[argv.index("--slurm") + 1:]) \
        if "--slurm" in argv else (argv, None)
    parser = argparse.ArgumentParser(prog="scripts/study.sh", allow_abbrev=False,
                                     description=__doc__.split("\n")[0])
    parser.add_argument("name", help="a folder of studies/")
    options = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    for p in (parser, options):
        p.add_argument("--quick", action="store_true", help="the small grid (minutes or less)")
        p.add_argument("--jobs", default=str(os.cpu_count() or 1), help="local processes")
        p.add_argument("--run-dir", help="default build/studies/NAME/quick|full")
        p.add_argument("--binary", default=os.environ.get(
            "CONTACTLAB_BINARY", os.path.join(ROOT, "build", "contactlab")))
        p.add_argument("--chunk", default="1", help="Slurm: points per array task")
        p.add_argument("--no-wait", dest="wait", action="store_false", default=True)
        p.add_argument("--wait", dest="wait", action="store_true")
        p.add_argument("--collect", action="store_true", help="only collect finished runs")
    args = parser.parse_args(head)
    args.slurm, args.sbatch = tail is not None, []
    if tail is not None:
        args, args.sbatch = options.parse_known_args(tail, namespace=args)
    for option in ("jobs", "chunk"):
        value = getattr(args, option)
        if not value.isdigit() or int(value) < 1:
            raise StudyError(f"--{option} must be a positive integer, not '{value}'")
        setattr(args, option, int(value))
    return args


def main(argv):
    if argv[:1] == ["--task"] and len(argv) == 2:
        return run_task(argv[1])
    args = parse(argv)
    study = load_study(args.name)
    points = grid(study, args.quick)
    mode = "quick" if args.quick else "full"
    run = RunDir(args.run_dir or os.path.join(ROOT, "build", "studies", args.name, mode), points)
    label = f"{args.name} {mode}"
    binary = os.path.abspath(args.binary)
    if not args.collect and not os.access(binary, os.X_OK):
        raise StudyError(f"no contactlab binary at {binary} (build it, or pass --binary)")
    os.makedirs(run.path, exist_ok=True)
    start = time.monotonic()
    ran_all_here = not any(run.finished(p) for p in points)
    job = None if args.slurm else active_job(run)
    if job is not None:  # its tasks would run the same points again, or have not written them
        raise StudyError(f"Slurm job {job} of this run directory is still queued or running: "
                         f"wait for it with --slurm, or stop it with scancel {job}")
    if args.collect:
        pass
    elif args.slurm:
        run_slurm(binary, run, points, args.chunk, args.wait, args.sbatch, label)
        if not args.wait:
            return 0
    else:
        run_local(binary, run, points, args.jobs, label)
    elapsed = time.monotonic() - start
    # The full grid's results are the study's record (studies/NAME/results and the table);
    # a quick run's stay in its run directory.
    out_dir = os.path.join(STUDIES, args.name, "results") if not args.quick else \
        os.path.join(run.path, "results")
    checks = collect(study, args.name, run, points, out_dir)
    print(f"{label}: results in {out_dir}", file=sys.stderr)
    if not args.quick:
        if ran_all_here and not args.slurm and not args.collect:
            wall = f"{elapsed:.0f} s, --jobs {args.jobs}"
        else:  # resumed, or run elsewhere: the runs' own times, one after the other
            wall = f"{sum(run.wall(p) for p in points):.0f} s serial"
        update_table(args.name, study.FIGURE, checks, wall, f"scripts/study.sh {args.name}")
    return 0 if all(c.passed for c in checks) else 1


if __name__ == "__main__":
    # Study files import this module by name: let them share this copy (its StudyError is the
    # one caught below) instead of loading a second one.
    sys.modules.setdefault("study_runner", sys.modules[__name__])
    try:
        sys.exit(main(sys.argv[1:]))
    except StudyError as e:
        print(f"study: {e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("\nstudy: interrupted; run the same command again to resume", file=sys.stderr)
        sys.exit(130)
