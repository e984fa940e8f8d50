"""hwtrace.dask on a real cluster: a `dask scheduler` and two `dask worker`
processes on 127.0.0.1, started here and stopped (all of them, whatever
happens) before the test ends.

sw_branch recordings of four programs (known_path at two sizes, call_tree,
threads_path with three threads, sig_path) are decoded on the cluster:
the report table and folded stacks are byte-identical to `hwtrace report`
of all captures in one process; the edges of a capture cut into several
units are byte-identical to `hwtrace decode --edges` of it, and those of
all captures equal each capture's edges added up (counted here); so does
the branch profile (`decode --branch-profile`), planned per unit too,
with simpleperf's real LBR capture (no units: decoded whole). A worker
SIGKILLed after the first unit came in leaves the bytes unchanged. A cut
capture is reported missing, with its file and unit, and the output holds
the others (a report of the rest in one process).

Run with Debian's /usr/bin/python3 (python3-distributed); HWTRACE names
the CLI, HWT_BUILD_DIR the build with the test programs.
"""

import collections
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HWTRACE = os.environ["HWTRACE"]
PROGRAMS = os.path.join(os.environ["HWT_BUILD_DIR"], "tests", "programs")
SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def hwtrace(*args):
    """The CLI's standard output (its summaries on stderr are dropped)."""
    return subprocess.run([HWTRACE, *args], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=True).stdout


class Cluster:
    """A scheduler and @n workers (one process each, no nanny), each in a
    process group of its own."""

    def __init__(self, tmp, n, env):
        self.procs = []
        self.workers = []
        self.tmp = tmp
        sched_file = os.path.join(tmp, "scheduler.json")
        self.procs.append(self._start(
            ["dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
             "--no-dashboard", "--scheduler-file", sched_file], env, "scheduler"))
        deadline = time.monotonic() + 120
        while not os.path.exists(sched_file) or not os.path.getsize(sched_file):
            if time.monotonic() > deadline or self.procs[0].poll() is not None:
                raise RuntimeError("the scheduler did not start: " +
                                   self._log("scheduler"))
            time.sleep(0.2)
        time.sleep(0.2)
        with open(sched_file) as f:
            self.address = json.load(f)["address"]
        for i in range(n):
            self.add_worker(f"w{i}", env)

    def add_worker(self, name, env):
        """Starts one more worker, @name."""
        w = self._start(["dask", "worker", self.address, "--no-nanny",
                         "--nthreads", "1", "--no-dashboard",
                         "--name", name, "--local-directory",
                         os.path.join(self.tmp, name)], env, name)
        self.procs.append(w)
        self.workers.append(w)

    def _start(self, args, env, name):
        log = open(os.path.join(self.tmp, name + ".log"), "wb")
        try:
            return subprocess.Popen(args, env=env, stdout=log, stderr=log,
                                    stdin=subprocess.DEVNULL,
                                    start_new_session=True)
        finally:
            log.close()

    def _log(self, name):
        with open(os.path.join(self.tmp, name + ".log"), "rb") as f:
            return f.read().decode(errors="replace")[-2000:]

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


# The sw_branch recordings both Dask tests decode: name, program, its
# arguments; recorded from main.
PROGRAM_RUNS = [("kp2", "known_path", "2"), ("kp5", "known_path", "5"),
                ("ct", "call_tree"), ("tp", "threads_path"),
                ("sp", "sig_path")]


def prepare(owner, prefix):
    """For the test class @owner: a new owner.tmp, owner.env (the tree's
    package on PYTHONPATH, as the workers import it; this process too)
    and owner.files, the recordings of PROGRAM_RUNS in owner.tmp."""
    owner.tmp = tempfile.mkdtemp(prefix=prefix)
    sys.path.insert(0, SOURCE)
    owner.env = dict(os.environ, PYTHONPATH=SOURCE)
    owner.files = []
    for name, prog, *args in PROGRAM_RUNS:
        path = os.path.join(owner.tmp, name + ".data")
        hwtrace("record", "-e", "sw_branch", "--start", "main", "-q",
                "-o", path, "--", os.path.join(PROGRAMS, prog), *args)
        owner.files.append(path)


def start_cluster(owner, n):
    """A cluster of @n workers and a client of it for the test class
    @owner (its tmp and env): owner.cluster, owner.client. On a failure
    what was started is stopped (stop_cluster) and the error raised."""
    owner.cluster = None
    owner.client = None
    try:
        from distributed import Client
        owner.cluster = Cluster(owner.tmp, n, owner.env)
        owner.client = Client(owner.cluster.address, timeout=60)
        owner.client.wait_for_workers(n, timeout=120)
    except BaseException:
        stop_cluster(owner)
        raise


def stop_cluster(owner):
    """Stops @owner's client and cluster (every process checked gone) and
    removes its tmp."""
    if owner.client is not None:
        owner.client.close()
    if owner.cluster is not None:
        owner.cluster.stop()
        for p in owner.cluster.procs:
            assert p.poll() is not None, "a cluster process still runs"
    shutil.rmtree(owner.tmp, ignore_errors=True)


class DaskClusterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        prepare(cls, "hwtrace-dask-")
        start_cluster(cls, 2)

    @classmethod
    def tearDownClass(cls):
        stop_cluster(cls)

    def out(self, name):
        return os.path.join(self.tmp, name)

    def read(self, path):
        with open(path, "rb") as f:
            return f.read()

    def test_report_and_stacks_are_one_process_bytes(self):
        import hwtrace.dask as hd
        want = hwtrace("report", "--top", "0", *self.files)
        self.assertIn(b" kp_run", want)  # positive control: real names
        res = hd.run(self.client, self.files, "report", self.out("r.txt"),
                     hwtrace=HWTRACE, fanin=2)
        self.assertEqual(res.missing, [])
        self.assertEqual(res.tasks, len(self.files))
        self.assertEqual(self.read(self.out("r.txt")), want)
        for weight in ("insns", "calls"):
            want = hwtrace("report", "--collapsed", "--weight", weight,
                           *self.files)
            hd.run(self.client, self.files, "collapsed", self.out("c.txt"),
                   hwtrace=HWTRACE, weight=weight, fanin=3)
            self.assertEqual(self.read(self.out("c.txt")), want, weight)

    def edges_sum(self, files):
        total = collections.Counter()
        for f in files:
            for line in hwtrace("decode", "--edges", f).decode().splitlines():
                edge, count = line.split()
                total[edge] += int(count)
        return sorted(f"{e} {c}" for e, c in total.items())

    def test_edges_by_unit(self):
        import hwtrace.dask as hd
        ct = self.files[2]
        tasks = hd.plan([ct], "edges", HWTRACE)
        self.assertGreater(len(tasks), 1, "call_tree was not cut into units")
        res = hd.run(self.client, [ct], "edges", self.out("ct.edges"),
                     hwtrace=HWTRACE)
        self.assertEqual(res.tasks, len(tasks))
        self.assertEqual(self.read(self.out("ct.edges")),
                         hwtrace("decode", "--edges", ct))
        hd.run(self.client, self.files, "edges", self.out("all.edges"),
               hwtrace=HWTRACE)
        got = self.read(self.out("all.edges")).decode().splitlines()
        self.assertEqual(sorted(got), self.edges_sum(self.files))

    def branch_profile_sum(self, files):
        """Each capture's own `decode --branch-profile` lines added up by
        their FROM->TO and names (the count is the second field)."""
        total = collections.Counter()
        for f in files:
            out = hwtrace("decode", "--branch-profile", f).decode()
            for line in out.splitlines():
                fields = line.split(" ")
                total[" ".join(fields[:1] + fields[2:])] += int(fields[1])
        return total

    def test_branch_profile_by_unit(self):
        import hwtrace.dask as hd
        ct = self.files[2]
        tasks = hd.plan([ct], "branch-profile", HWTRACE)
        self.assertGreater(len(tasks), 1, "call_tree was not cut into units")
        res = hd.run(self.client, [ct], "branch-profile", self.out("ct.bp"),
                     hwtrace=HWTRACE)
        self.assertEqual((res.tasks, res.missing), (len(tasks), []))
        want = hwtrace("decode", "--branch-profile", ct)
        self.assertIn(b" tree_done+", want)  # positive control: names
        self.assertEqual(self.read(self.out("ct.bp")), want)
        # A capture of branch records alone has no unit: one task, whole.
        lbr = os.path.join(os.environ["HWT_TESTDATA"], "perf-data",
                           "simpleperf-lbr", "perf_lbr.data")
        self.assertEqual([t[:2] for t in hd.plan([lbr], "branch-profile",
                                                  HWTRACE)], [(lbr, 0)])
        files = self.files + [lbr]
        hd.run(self.client, files, "branch-profile", self.out("all.bp"),
               hwtrace=HWTRACE, fanin=3)
        got = collections.Counter()
        counts = []
        for line in self.read(self.out("all.bp")).decode().splitlines():
            fields = line.split(" ")
            key = " ".join(fields[:1] + fields[2:])
            self.assertNotIn(key, got, "a branch listed twice")
            got[key] = int(fields[1])
            counts.append(int(fields[1]))
        self.assertEqual(got, self.branch_profile_sum(files))
        self.assertIn("lbr_test_loop", " ".join(got))
        self.assertEqual(counts, sorted(counts, reverse=True))

    def cli(self, *args):
        return subprocess.run([HWTRACE, "cluster", *args], env=self.env,
                              capture_output=True, timeout=300)

    def test_cli_on_the_cluster(self):
        want = hwtrace("report", "--collapsed", "--weight", "calls",
                       *self.files)
        p = self.cli("--scheduler", self.cluster.address, *self.files,
                     "--to", "collapsed", "--weight", "calls",
                     "-o", self.out("cli.folded"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.read(self.out("cli.folded")), want)
        self.assertIn(b"5 of 5 units merged", p.stderr)
        cut = self.out("cli-cut.data")
        with open(self.files[0], "rb") as f, open(cut, "wb") as g:
            g.write(f.read(2000))
        p = self.cli("--scheduler", self.cluster.address, self.files[1], cut,
                     "--to", "report", "-o", self.out("cli-cut.txt"))
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"missing {cut}, unit 0".encode(), p.stderr)
        self.assertEqual(self.read(self.out("cli-cut.txt")),
                         hwtrace("report", self.files[1]))
        p = self.cli("--to", "report", "-o", self.out("x"), self.files[0])
        self.assertEqual(p.returncode, 2, "no --scheduler nor --local")

    def test_cli_local_cluster(self):
        p = self.cli("--local", "1", self.files[2], "--to", "edges",
                     "-o", self.out("local.edges"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.read(self.out("local.edges")),
                         hwtrace("decode", "--edges", self.files[2]))

    def test_worker_killed_mid_run(self):
        import hwtrace.dask as hd
        want = hwtrace("report", "--top", "0", *self.files)
        victim = self.cluster.workers[1]
        killed = []

        def kill_once(done, total):
            if not killed and done < total:
                os.kill(victim.pid, signal.SIGKILL)
                victim.wait()
                killed.append(done)

        # Twice the captures, so that there is work left after the kill.
        res = hd.run(self.client, self.files + self.files, "report",
                     self.out("k.txt"), hwtrace=HWTRACE, fanin=2,
                     on_progress=kill_once)
        self.assertEqual(len(killed), 1, "the worker was not killed mid-run")
        self.assertEqual(res.missing, [])
        want = hwtrace("report", "--top", "0", *(self.files + self.files))
        self.assertEqual(self.read(self.out("k.txt")), want)

    def test_corrupt_capture_is_missing(self):
        import hwtrace.dask as hd
        cut = self.out("cut.data")
        with open(self.files[2], "rb") as f, open(cut, "wb") as g:
            g.write(f.read(3000))
        res = hd.run(self.client, [self.files[0], cut, self.files[1]],
                     "report", self.out("m.txt"), hwtrace=HWTRACE)
        self.assertEqual([(m.file, m.unit) for m in res.missing], [(cut, 0)])
        self.assertIn("cut.data, unit 0", res.missing[0].error)
        self.assertEqual(self.read(self.out("m.txt")),
                         hwtrace("report", "--top", "0", self.files[0],
                                 self.files[1]))


if __name__ == "__main__":
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("SKIP: python3-distributed is not installed (make deps)")
        sys.exit(77)
    unittest.main(verbosity=2)
