"""What the hwtrace package's tests share: the CLI they check it against
(the oracle: `hwtrace decode --format jsonl`, `hwtrace report`), the real
captures of ../shared/testdata, and a sw_branch recording made once.

Run from CTest (test_python): HWTRACE is the build's CLI, HWTRACE_LIB its
library, HWT_TESTDATA the captures, HWT_SWB_DEMO and HWT_CALL_TREE the
programs recorded."""
import json
import os
import subprocess

import pytest

# The Dask cluster tests start a scheduler and workers of their own: CTest
# runs each as a test of its own (test_dask_cluster), not in this suite.
collect_ignore_glob = ["test_dask*.py"]

ADDRESS_FIELDS = ("start", "end", "from", "to", "at", "ip")


def env_path(name):
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"${name} is not set: run the tests through ctest "
                    "(ctest -R test_python)")
    return value


def data_file(*parts):
    return os.path.join(env_path("HWT_TESTDATA"), *parts)


def cli(*args, check=True):
    """Runs the hwtrace CLI; its standard output."""
    p = subprocess.run([env_path("HWTRACE"), *map(str, args)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        pytest.fail(f"hwtrace {' '.join(map(str, args))}: exit "
                    f"{p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout.decode("utf-8")


def cli_failure(*args):
    """Runs a hwtrace command that must fail: its exit status and its
    message (standard error, without the "hwtrace: " prefix)."""
    p = subprocess.run([env_path("HWTRACE"), *map(str, args)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode != 0, f"hwtrace {args} did not fail"
    msg = p.stderr.decode("utf-8", "replace").strip()
    return p.returncode, msg.split(": ", 1)[1] if ": " in msg else msg


def with_int_addresses(obj):
    """A jsonl object with its hex address strings read as ints (what
    the package's elements hold)."""
    for k in ADDRESS_FIELDS:
        if isinstance(obj.get(k), str):
            obj[k] = int(obj[k], 16)
    for b in obj.get("branches", []) if obj["type"] == "sample" else []:
        with_int_addresses(b)
    return obj


def cli_elements(*args):
    """The elements `hwtrace decode --format jsonl ARGS` prints, after
    its header line, as dicts."""
    lines = cli("decode", "--format", "jsonl", "-j", "1", *args).splitlines()
    header = json.loads(lines[0])
    assert header["type"] == "header" and header["listing"] == "elements"
    return [with_int_addresses(json.loads(l)) for l in lines[1:]]


@pytest.fixture(scope="session")
def etm_symfs(tmp_path_factory):
    """A symfs holding the ETM capture's traced binary where its MMAP2
    record names it (/data/local/tmp/etm_test_loop)."""
    root = tmp_path_factory.mktemp("symfs")
    d = root / "data" / "local" / "tmp"
    d.mkdir(parents=True)
    os.symlink(data_file("perf-data", "simpleperf-etm", "etm_test_loop"),
               d / "etm_test_loop")
    return str(root)


def need_sw_branch():
    """Skips a test on a sw_branch recording where sw_branch cannot
    record (not x86-64, no ptrace), saying why."""
    why = os.environ.get("HWT_SWB_SKIP")
    if why:
        pytest.skip(f"no sw_branch recording: {why}")


@pytest.fixture(scope="session")
def swb_capture(tmp_path_factory):
    """A sw_branch recording of swb_demo from main, made by the CLI."""
    need_sw_branch()
    out = tmp_path_factory.mktemp("swb") / "swb.data"
    cli("record", "-e", "sw_branch", "-q", "--start", "main", "-o", out,
        "--", env_path("HWT_SWB_DEMO"), "60")
    return str(out)


@pytest.fixture(scope="session")
def tree_capture(tmp_path_factory):
    """A sw_branch recording of call_tree, a program of known calls."""
    need_sw_branch()
    out = tmp_path_factory.mktemp("tree") / "tree.data"
    cli("record", "-e", "sw_branch", "-q", "--start", "main", "--stop",
        "tree_done", "-o", out, "--", env_path("HWT_CALL_TREE"))
    return str(out)


@pytest.fixture(scope="session")
def gap_capture(tmp_path_factory):
    """A 1 MiB sw_branch capture of tests/tools/bts_capture: its code
    image covers only part of the addresses, so it has no_image and
    decode_error gaps, and a truncated record at its end."""
    out = tmp_path_factory.mktemp("gaps")
    subprocess.run([env_path("HWT_BTS_CAPTURE"), str(out), "1", "swb"],
                   check=True, stdout=subprocess.DEVNULL)
    return str(out / "bts.data")


@pytest.fixture(scope="session")
def gap_listing(gap_capture):
    """The CLI's elements of gap_capture: [True] with symbols, [False]
    with --no-symbols (decoded once for the tests that read them)."""
    return {True: cli_elements(gap_capture),
            False: cli_elements("--no-symbols", gap_capture)}
