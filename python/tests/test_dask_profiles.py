"""hwtrace.dask with the per-binary profiles (autofdo, bolt, bolt-preagg),
the pprof profile and the SQLite database on a real cluster: a `dask scheduler` with one `dask worker`, then a
second worker added, all on 127.0.0.1, started here and stopped (all of
them, whatever happens) before the test ends.

Captures: sw_branch recordings of four programs (known_path at two sizes,
call_tree, threads_path with three threads, sig_path), simpleperf's real
LBR capture (branch records) and, in a build with libipt, the real Intel
PT capture of testdata replayed through the kernel emulator. For each
kind, with one worker and with two, and for merges of 2, 3 and 4 parts at
a time, the files the cluster writes are byte-identical to those of one
`hwtrace export FILE... --to KIND` of all captures, with the same names
(pprof, sqlite: the one file; the database's binaries, read by Python's
sqlite3, include the programs recorded and the LBR capture's).
The planner gives these kinds one task per capture (their counts run
across the units of a capture), checked here too. A cut capture is
reported missing with its file and unit; the files hold the others.
`hwtrace cluster --to bolt` and `--to sqlite` write the same files as the
export.

Run with Debian's /usr/bin/python3 (python3-distributed); HWTRACE names
the CLI, HWT_BUILD_DIR the build with the test programs.
"""

import gzip
import os
import sqlite3
import subprocess
import sys
import unittest

from test_dask_cluster import prepare, start_cluster, stop_cluster

HWTRACE = os.environ["HWTRACE"]
TESTDATA = os.path.join(os.environ["HWT_TESTDATA"], "perf-data")
KINDS = ("autofdo", "bolt", "bolt-preagg", "pprof", "sqlite")
# The kinds whose output is one file, not one per binary.
ONE_FILE = ("pprof", "sqlite")


def hwtrace(*args):
    subprocess.run([HWTRACE, *args], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)


def files_of(directory):
    """{name: bytes} of the files in @directory (or of the one file)."""
    if os.path.isfile(directory):
        with open(directory, "rb") as f:
            return {os.path.basename(directory): f.read()}
    out = {}
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name), "rb") as f:
            out[name] = f.read()
    return out


class DaskProfilesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        prepare(cls, "hwtrace-dask-pgo-")
        cls.files.append(os.path.join(TESTDATA, "simpleperf-lbr",
                                      "perf_lbr.data"))
        if os.environ.get("HWT_HAVE_LIBIPT", "1") == "1":
            replay = os.path.join(cls.tmp, "qr.data")
            hwtrace("record", "--emulate",
                    os.path.join(TESTDATA, "quipper",
                                 "perf.data.intel_pt-4.14"), "-o", replay)
            cls.files.append(replay)
        cls.want = {}
        for kind in KINDS:
            out = os.path.join(cls.tmp, "one." + kind)
            if kind not in ONE_FILE:
                os.mkdir(out)
            hwtrace("export", *cls.files, "--to", kind, "-o", out)
            cls.want[kind] = files_of(out)
            if kind in ONE_FILE:  # named as the cluster's output is
                cls.want[kind] = {"out": cls.want[kind][os.path.basename(out)]}
        with sqlite3.connect(os.path.join(cls.tmp, "one.sqlite")) as db:
            cls.sqlite_dsos = " ".join(
                r[0] for r in db.execute("SELECT long_name FROM dsos"))
        start_cluster(cls, 1)

    @classmethod
    def tearDownClass(cls):
        stop_cluster(cls)

    def run_kind(self, kind, name, files, fanin=4):
        import hwtrace.dask as hd
        out = os.path.join(self.tmp, name)
        os.mkdir(out)
        if kind in ONE_FILE:  # one file, not one per binary
            out = os.path.join(out, "out")
        res = hd.run(self.client, files, kind, out, hwtrace=HWTRACE,
                     fanin=fanin)
        return res, files_of(out)

    def add_worker(self):
        self.cluster.add_worker("w1", self.env)
        self.client.wait_for_workers(2, timeout=120)

    def test_profiles_are_one_process_bytes(self):
        import hwtrace.dask as hd
        for kind in KINDS:
            # Positive control: the export has profiles of the programs
            # recorded and of the LBR capture's binary.
            if kind == "pprof":  # the binaries name its mappings
                names = gzip.decompress(self.want[kind]["out"]).decode(
                    "utf-8", "replace")
            elif kind == "sqlite":
                names = self.sqlite_dsos
            else:
                names = " ".join(self.want[kind])
            self.assertIn("known_path", names, kind)
            self.assertIn("lbr_test_loop", names, kind)
            self.assertEqual(
                [(t[0], t[1]) for t in hd.plan(self.files, kind, HWTRACE)],
                sorted([(f, 0) for f in self.files],
                       key=lambda t: -os.path.getsize(t[0])), kind)
        for workers in (1, 2):
            if workers == 2:
                self.add_worker()
            self.assertEqual(
                len(self.client.scheduler_info()["workers"]), workers)
            for kind in KINDS:
                for fanin in (2, 3, 4):
                    res, got = self.run_kind(
                        kind, f"{kind}.{workers}.{fanin}", self.files, fanin)
                    self.assertEqual(res.missing, [])
                    self.assertEqual(res.tasks, len(self.files))
                    self.assertEqual(got, self.want[kind],
                                     f"{kind}, {workers} workers, fanin {fanin}")

    def test_cli_on_the_cluster(self):
        out = os.path.join(self.tmp, "cli.bolt")
        os.mkdir(out)
        p = subprocess.run([HWTRACE, "cluster", "--scheduler",
                            self.cluster.address, *self.files, "--to", "bolt",
                            "-o", out], env=self.env, capture_output=True,
                           timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(files_of(out), self.want["bolt"])
        n = len(self.files)
        self.assertIn(f"{n} of {n} units merged".encode(), p.stderr)

    def test_cli_sqlite_on_the_cluster(self):
        out = os.path.join(self.tmp, "cli.db")
        p = subprocess.run([HWTRACE, "cluster", "--scheduler",
                            self.cluster.address, *self.files, "--to",
                            "sqlite", "-o", out], env=self.env,
                           capture_output=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(files_of(out)["cli.db"], self.want["sqlite"]["out"])

    def test_cut_capture_is_missing(self):
        cut = os.path.join(self.tmp, "cut.data")
        with open(self.files[2], "rb") as f, open(cut, "wb") as g:
            g.write(f.read(3000))
        res, got = self.run_kind("autofdo", "cut.out",
                                 [self.files[0], cut, self.files[1]])
        self.assertEqual([(m.file, m.unit) for m in res.missing], [(cut, 0)])
        self.assertIn("cut.data, unit 0", res.missing[0].error)
        want = os.path.join(self.tmp, "cut.want")
        os.mkdir(want)
        hwtrace("export", self.files[0], self.files[1], "--to", "autofdo",
                "-o", want)
        self.assertEqual(got, files_of(want))


if __name__ == "__main__":
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("SKIP: python3-distributed is not installed (make deps)")
        sys.exit(77)
    unittest.main(verbosity=2)
