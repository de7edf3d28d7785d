#!/usr/bin/env python3
"""scripts/study.sh --slurm on a real one-node Slurm cluster started in a temporary folder: the
spring–cylinder's quick grid as one job array collects the same CSVs, bit for bit, as a local
run (waiting, after --no-wait, and after a waiting runner was interrupted and run again: that
runner's job is waited for, never submitted twice). The cluster (munged, slurmctld, slurmd: Debian's munge and slurm-wlm, see
scripts/install_deps.sh) uses its own munge socket and key, free ports and files of its own,
and is shut down by its daemons' PIDs whatever happens. Exit 77 (skipped) without Slurm or
without root (slurmd runs the tasks as the submitting user only when it is root).

Waits are polls with generous limits; nothing here depends on how fast the machine is.
"""
import atexit
import filecmp
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUDY = os.path.join(ROOT, "scripts", "study.sh")
BINARY = os.environ.get("CONTACTLAB_BINARY", os.path.join(ROOT, "build", "contactlab"))
DAEMONS = ("munged", "slurmctld", "slurmd", "sbatch", "sinfo")
STARTUP_LIMIT_S = 300  # a loaded CI machine: a limit for a hung daemon, not a speed assertion


def free_port():
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


def wait_for(what, condition, limit=STARTUP_LIMIT_S):
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            sys.exit(f"slurm_test: {what} did not happen within {limit} s")
        time.sleep(0.5)


class Cluster:
    def __init__(self, tmp):
        self.tmp, self.pid_files = tmp, []
        self.host = socket.gethostname().split(".")[0]
        self.env = dict(os.environ, SLURM_CONF=os.path.join(tmp, "slurm.conf"))

    def path(self, name):
        return os.path.join(self.tmp, name)

    def start(self):
        key = self.path("munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        socket_path = self.path("munge.socket")
        self.pid_files.append(self.path("munged.pid"))
        subprocess.run(["munged", "-f", f"--socket={socket_path}", f"--key-file={key}",
                        f"--pid-file={self.pid_files[-1]}", f"--log-file={self.path('munged.log')}",
                        f"--seed-file={self.path('munged.seed')}"], check=True)
        for d in ("state", "spool"):
            os.makedirs(self.path(d))
        conf = f"""ClusterName=studytest
SlurmctldHost={self.host}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={socket_path}
CredType=cred/munge
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
StateSaveLocation={self.path('state')}
SlurmdSpoolDir={self.path('spool')}
SlurmctldPidFile={self.path('slurmctld.pid')}
SlurmdPidFile={self.path('slurmd.pid')}
SlurmctldLogFile={self.path('slurmctld.log')}
SlurmdLogFile={self.path('slurmd.log')}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName={self.host} CPUs={os.cpu_count()} RealMemory=512 State=UNKNOWN
PartitionName=debug Nodes={self.host} Default=YES MaxTime=INFINITE State=UP
"""
        with open(self.env["SLURM_CONF"], "w") as f:
            f.write(conf)
        for daemon, args in (("slurmctld", ["-i"]), ("slurmd", [])):
            self.pid_files.append(self.path(f"{daemon}.pid"))
            subprocess.run([daemon] + args, env=self.env, check=True)
        wait_for("the node turning idle", lambda: subprocess.run(
            ["sinfo", "-h", "-n", self.host, "-o", "%T"], env=self.env, capture_output=True,
            text=True).stdout.strip() == "idle")

    def stop(self):
        """Ends each daemon by the PID it wrote, the last started first."""
        for pid_file in reversed(self.pid_files):
            try:
                with open(pid_file) as f:
                    pid = int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                continue
            try:
                os.kill(pid, signal.SIGTERM)
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    os.kill(pid, 0)
                    time.sleep(0.2)
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.pid_files = []


def main():
    missing = [d for d in DAEMONS if shutil.which(d) is None and
               not os.path.exists(f"/usr/sbin/{d}")]
    if missing or os.geteuid() != 0:
        print(f"slurm_test: skipped ({'missing ' + ', '.join(missing) if missing else 'not root'})")
        return 77
    os.environ["PATH"] += ":/usr/sbin"
    tmp = tempfile.mkdtemp(prefix=f"contactlab-slurm-{os.getpid()}-")
    cluster = Cluster(tmp)
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    atexit.register(cluster.stop)  # runs before the removal (atexit is last in, first out)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("slurm_test: terminated"))
    try:
        cluster.start()
    except subprocess.CalledProcessError as e:
        logs = [cluster.path(n) for n in ("munged.log", "slurmctld.log", "slurmd.log")]
        tails = {n: open(n).read()[-800:] for n in logs if os.path.exists(n)}
        sys.exit(f"slurm_test: {e}; logs: {tails}")

    results = {}
    for mode, extra in (("local", ["--jobs", "2"]),
                        ("slurm", ["--slurm", "--chunk", "5", "--partition=debug", "--time=30"])):
        run_dir = os.path.join(tmp, mode)
        start = time.monotonic()
        r = subprocess.run([STUDY, "spring_cylinder", "--quick", "--binary", BINARY,
                            "--run-dir", run_dir] + extra, env=cluster.env, capture_output=True,
                           text=True)
        print(f"{mode}: exit {r.returncode} after {time.monotonic() - start:.1f} s\n{r.stdout}"
              f"{r.stderr}")
        if r.returncode != 0:
            with open(cluster.path("slurmctld.log")) as f:
                print(f.read()[-2000:])
            return 1
        results[mode] = os.path.join(run_dir, "results")
    # A waiting runner stopped by Ctrl-C (SIGINT to its process group, as a terminal sends it)
    # leaves its job to run: here held (--hold passes through to sbatch), so that it is
    # certainly still queued for what follows. While it is, --no-wait, a local run and
    # --collect are refused in one line and a second --slurm submits nothing: it waits for that
    # job. A later --collect collects what the tasks wrote.
    run_dir = os.path.join(tmp, "interrupted")
    quick = [STUDY, "spring_cylinder", "--quick", "--binary", BINARY, "--run-dir", run_dir]
    waiting = subprocess.Popen(quick + ["--slurm", "--chunk", "24", "--hold"], env=cluster.env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    record = os.path.join(run_dir, "slurm", "job")
    wait_for("the job record", lambda: os.path.exists(record))
    os.killpg(waiting.pid, signal.SIGINT)
    out, err = waiting.communicate()
    with open(record) as f:
        job = f.read().strip()
    queued = subprocess.run(["squeue", "-h", "-j", job], env=cluster.env, capture_output=True,
                            text=True).stdout.strip()
    print(f"interrupted: exit {waiting.returncode}, job {job} queued: {queued}\n{err}")
    if waiting.returncode != 130 or not queued:
        return 1
    refusal = (f"study: Slurm job {job} of this run directory is still queued or running: "
               f"wait for it with --slurm, or stop it with scancel {job}")
    for extra, expected in ((["--jobs", "2"], refusal), (["--collect"], refusal),
                            (["--slurm", "--no-wait"],
                             f"study: Slurm job {job} of this run directory is still queued or "
                             f"running: nothing submitted (scancel {job} stops it)")):
        r = subprocess.run(quick + extra, env=cluster.env, capture_output=True, text=True)
        if r.returncode != 1 or r.stderr.strip().splitlines()[-1:] != [expected]:
            print(f"slurm_test: {extra[0]} while job {job} is queued: exit {r.returncode}, "
                  f"expected the line '{expected}':\n{r.stderr}")
            return 1
    again = subprocess.Popen(quick + ["--slurm", "--chunk", "24"], env=cluster.env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = again.stderr.readline()
    if f"waiting for Slurm job {job}" not in first:
        print(f"slurm_test: a second --slurm did not wait for job {job}: {first}")
        again.kill()
        return 1
    subprocess.run(["scontrol", "release", job], env=cluster.env, check=True)
    out, err = again.communicate()
    print(f"second --slurm: exit {again.returncode}\n{first}{out}{err}")
    tasks_files = [n for n in os.listdir(os.path.join(run_dir, "slurm"))
                   if n.startswith("tasks-")]
    with open(os.path.join(run_dir, "launches.log")) as f:
        launches = f.read().split()
    if again.returncode != 0 or len(tasks_files) != 1 or len(launches) != len(set(launches)):
        print(f"slurm_test: the second --slurm submitted again: {len(tasks_files)} task files, "
              f"{len(launches)} launches of {len(set(launches))} points")
        return 1
    r = subprocess.run(quick + ["--collect"], env=cluster.env, capture_output=True, text=True)
    print(f"collect: exit {r.returncode}\n{r.stdout}{r.stderr}")
    if r.returncode != 0:
        return 1
    results["interrupted"] = os.path.join(run_dir, "results")

    # --no-wait returns once submitted; a --collect after the job ended collects what its
    # tasks wrote, and names a run that failed in a task with contactlab's error.
    fake = os.path.join(tmp, "failing_contactlab")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\necho 'contactlab: error: --dt: must be positive' >&2\nexit 2\n")
    os.chmod(fake, 0o755)
    for mode, binary in (("nowait", BINARY), ("failing", fake)):
        run_dir = os.path.join(tmp, mode)
        quick = [STUDY, "spring_cylinder", "--quick", "--binary", binary, "--run-dir", run_dir]
        r = subprocess.run(quick + ["--slurm", "--no-wait", "--chunk", "24"], env=cluster.env,
                           capture_output=True, text=True)
        print(f"{mode} --no-wait: exit {r.returncode}\n{r.stdout}{r.stderr}")
        job = r.stdout.split("Slurm job ")[1].split()[0] if "Slurm job " in r.stdout else None
        if r.returncode != 0 or not job:
            return 1
        squeue = ["squeue", "-h", "-j", job]
        wait_for(f"job {job} ending", lambda: not subprocess.run(
            squeue, env=cluster.env, capture_output=True, text=True).stdout.strip())
        r = subprocess.run(quick + ["--collect"], env=cluster.env, capture_output=True,
                           text=True)
        print(f"{mode} --collect: exit {r.returncode}\n{r.stdout}{r.stderr}")
        results[mode] = os.path.join(run_dir, "results")
    expected = ("study: point energy_symplectic_euler_frictionless: contactlab exit 2: "
                "contactlab: error: --dt: must be positive")
    if r.returncode != 1 or expected not in r.stderr.splitlines():
        print(f"slurm_test: a failing run: exit {r.returncode}, expected the line '{expected}':\n"
              f"{r.stderr}")
        return 1
    print(f"slurm_test: a failing run in a task is named: {expected}")

    names = sorted(n for n in os.listdir(results["local"]) if n.endswith(".csv"))
    for mode in ("slurm", "interrupted", "nowait"):
        _, mismatch, errors = filecmp.cmpfiles(results["local"], results[mode], names,
                                               shallow=False)
        if len(names) < 3 or mismatch or errors:
            print(f"slurm_test: CSVs differ between the local and the {mode} run: "
                  f"{mismatch + errors}")
            return 1
    print(f"slurm_test: {', '.join(names)} equal bit for bit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
