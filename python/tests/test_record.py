"""hwtrace.record and Recording on the emulated intel-client machine
(tests/fixtures/sysfs/intel-client, `hwtrace record --sysfs`): the file
equals the CLI's with the same arguments (its jsonl decode and packet
listing exactly, perf's record listing with what timing sets masked),
perf 6.1 reads it, an existing file is kept, a bad event raises the
library's message, and a stop from another thread, a duration or SIGINT
ends it with a complete file."""
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

import hwtrace
from conftest import cli, data_file, env_path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "sysfs", "intel-client")
PT_STREAM_BYTES = 314   # dump-all-packets.pt: every Intel PT packet kind


def stream():
    return data_file("ptt", "expected", "dump-all-packets.pt")


def cli_record(out, *args):
    """`hwtrace record --sysfs` with @args; its per-CPU byte counts."""
    p = subprocess.run([env_path("HWTRACE"), "record", "--sysfs", FIXTURE,
                        *args, "-o", str(out)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = p.stderr.decode()
    assert p.returncode == 0, err
    return {int(c): (int(b), int(n)) for c, b, n in re.findall(
        r"cpu (\d+): (\d+) bytes captured in (\d+) chunks", err)}


def perf_records(path):
    """`perf report -D`'s records, without what differs by timing or by
    the header's size: sample times, file offsets, and the AUXTRACE
    records' references (perf takes them from the clock) and their
    split into chunks (where a poll cut the stream), whose sizes are
    summed per CPU instead."""
    perf = shutil.which("perf")
    assert perf, "perf (Debian's linux-perf) is needed: the file's oracle"
    p = subprocess.run([perf, "report", "-D", "-i", str(path)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    records, aux = [], {}
    for line in p.stdout.decode(errors="replace").splitlines():
        m = re.match(r"\S+ \S+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]: (PERF_RECORD_\w+)"
                     r"(.*)", line)
        if not m:
            continue
        kind, rest = m.groups()
        if kind == "PERF_RECORD_AUXTRACE":
            f = dict(re.findall(r"(\w+): +(\S+)", rest))
            aux[f["cpu"]] = aux.get(f["cpu"], 0) + int(f["size"], 16)
        elif kind != "PERF_RECORD_FINISHED_ROUND":
            records.append(kind + rest.rstrip())
    return records, aux


def test_the_file_equals_the_cli_one(tmp_path):
    py, ref = tmp_path / "py.data", tmp_path / "cli.data"
    s = hwtrace.record(str(py), "intel_pt//", cpus="0", sysfs=FIXTURE,
                       emulate_trace=stream())
    want = cli_record(ref, "--emulate-trace", stream(), "-e", "intel_pt//",
                      "-C", "0")
    assert want == {0: (PT_STREAM_BYTES, s.chunks)}
    assert (s.bytes, s.lost, s.stopped) == (PT_STREAM_BYTES, 0, False)
    assert [r.cpu for r in s.rings] == [0]
    assert s.rings[0].bytes == PT_STREAM_BYTES
    assert s.file_bytes > PT_STREAM_BYTES
    # No time conversion on the emulated machine by default: nothing in
    # the decode depends on when it ran.
    got = cli("decode", "--format", "jsonl", py)
    assert got == cli("decode", "--format", "jsonl", ref)
    assert '"type":"gap","cpu":0,"reason":"no_sync","bytes":320' in got
    packets = cli("decode", "--packets", py)
    assert packets == cli("decode", "--packets", ref)
    assert len(packets.splitlines()) == 72     # ptdump's 70 packets, 2 pads
    assert perf_records(py) == perf_records(ref)


def test_perf_reads_the_file(tmp_path):
    out = tmp_path / "pt.data"
    s = hwtrace.record(str(out), "intel_pt//", sysfs=FIXTURE,
                       emulate_trace=stream())
    # Every CPU of the fixture (0-3), each with the stream.
    assert [(r.cpu, r.bytes) for r in s.rings] == \
        [(c, PT_STREAM_BYTES) for c in range(4)]
    records, aux = perf_records(out)
    assert "PERF_RECORD_AUXTRACE_INFO type: 1" in records   # intel_pt
    # Each CPU's 314 bytes, padded to 8 as perf pads AUXTRACE records.
    assert aux == {str(c): 320 for c in range(4)}
    p = subprocess.run(["perf", "script", "-D", "-i", str(out)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr.decode(errors="replace")


def test_an_existing_file_is_kept(tmp_path):
    out = tmp_path / "perf.data"
    out.write_bytes(b"keep me")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        hwtrace.record(str(out), "intel_pt//", sysfs=FIXTURE,
                       emulate_trace=stream())
    assert out.read_bytes() == b"keep me"
    assert sorted(os.listdir(tmp_path)) == ["perf.data"]
    # Asked to, it replaces it.
    s = hwtrace.record(str(out), "intel_pt//", cpus="0", sysfs=FIXTURE,
                       emulate_trace=stream(), overwrite=True)
    assert s.bytes == PT_STREAM_BYTES
    assert "PERF_RECORD_AUXTRACE_INFO type: 1" in perf_records(out)[0]
    # The trace file is an input: never an output.
    with pytest.raises(hwtrace.HwtraceError, match="dump-all-packets.pt"):
        hwtrace.record(stream(), "intel_pt//", sysfs=FIXTURE,
                       emulate_trace=stream(), overwrite=True)


def test_a_bad_event_raises_the_library_message(tmp_path):
    out = tmp_path / "x.data"
    p = subprocess.run([env_path("HWTRACE"), "record", "--sysfs", FIXTURE,
                        "-e", "intel_pt/nosuchterm/", "-o", str(out)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 2      # a usage error: the event
    want = p.stderr.decode().strip()
    with pytest.raises(hwtrace.HwtraceError) as e:
        hwtrace.record(str(out), "intel_pt/nosuchterm/", sysfs=FIXTURE)
    assert "nosuchterm" in str(e.value)
    assert want == f"hwtrace: {e.value}"
    assert e.value.name == "config"
    with pytest.raises(hwtrace.HwtraceError) as e:
        hwtrace.record(str(out), "cs_etm//", sysfs=FIXTURE)
    assert e.value.name == "noent" and "cs_etm" in str(e.value)
    assert os.listdir(tmp_path) == []     # no file, no temporary


def test_bad_arguments():
    with pytest.raises(TypeError, match="event=5"):
        hwtrace.record("x.data", 5, sysfs=FIXTURE)
    with pytest.raises(ValueError, match="which trace"):
        hwtrace.record("x.data", sysfs=FIXTURE)
    with pytest.raises(ValueError, match="need sysfs"):
        hwtrace.record("x.data", "intel_pt//", emulate_trace=stream())
    with pytest.raises(ValueError, match="duration=-1"):
        hwtrace.record("x.data", "intel_pt//", duration=-1, sysfs=FIXTURE)
    assert not os.path.exists("x.data")


def slow_stream(tmp_path):
    """1 MB that the emulated trace unit writes at 20 KB/s: about 50 s,
    far longer than any test waits, so only a stop ends it."""
    path = tmp_path / "slow.pt"
    path.write_bytes(bytes(range(256)) * 4096)
    return str(path)


def test_stop_from_another_thread(tmp_path):
    out = tmp_path / "stop.data"
    rec = hwtrace.Recording(str(out), "intel_pt//", cpus="0", sysfs=FIXTURE,
                            emulate_trace=slow_stream(tmp_path),
                            emulate_rate=20000)
    rec.start()
    assert rec.running() and not out.exists()
    t0 = time.monotonic()
    threading.Timer(0.5, rec.stop).start()
    s = rec.wait()
    took = time.monotonic() - t0
    assert 0.5 <= took < 10, took
    assert s.stopped and not rec.running()
    assert 0 < s.bytes < 1 << 20
    assert perf_records(out)[1] == {"0": (s.bytes + 7) // 8 * 8}
    assert rec.wait() is s


def test_duration(tmp_path):
    out = tmp_path / "dur.data"
    t0 = time.monotonic()
    s = hwtrace.record(str(out), "intel_pt//", cpus="0", sysfs=FIXTURE,
                       emulate_trace=slow_stream(tmp_path),
                       emulate_rate=20000, duration=0.5)
    assert 0.5 <= time.monotonic() - t0 < 10
    assert s.stopped and 0 < s.bytes < 1 << 20
    assert perf_records(out)[1] == {"0": (s.bytes + 7) // 8 * 8}


SIGINT_SCRIPT = """
import sys, hwtrace
print("recording", flush=True)
s = hwtrace.record(sys.argv[1], "intel_pt//", cpus="0", sysfs=sys.argv[2],
                   emulate_trace=sys.argv[3], emulate_rate=20000)
print(s.stopped, s.bytes, flush=True)
"""


def test_sigint_ends_with_a_complete_file(tmp_path):
    out = tmp_path / "int.data"
    p = subprocess.Popen([sys.executable, "-c", SIGINT_SCRIPT, str(out),
                          FIXTURE, slow_stream(tmp_path)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         # A test runner in the background hands its
                         # children SIGINT ignored; Python then keeps it so.
                         preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                          signal.SIG_DFL))
    try:
        assert p.stdout.readline() == b"recording\n"
        # SIGINT once the loop has written trace (the writer's temporary
        # has grown past the header), so that the file has some.
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(
                f.name.startswith("int.data.tmp.") and
                f.stat().st_size > 8192 for f in tmp_path.iterdir()):
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        got, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0, err.decode(errors="replace")
    stopped, nbytes = got.decode().split()
    assert stopped == "True" and 0 < int(nbytes) < 1 << 20
    assert perf_records(out)[1] == {"0": (int(nbytes) + 7) // 8 * 8}
    assert sorted(os.listdir(tmp_path)) == ["int.data", "slow.pt"]


def test_a_snapshot_profile_copies_the_buffer_at_the_end(tmp_path):
    out = tmp_path / "snap.data"
    profile = os.path.join(ROOT, "configs", "intel_pt_snapshot.ini")
    s = hwtrace.record(str(out), profile=profile, cpus="0", sysfs=FIXTURE,
                       emulate_trace=stream())
    assert [(r.cpu, r.snapshots, r.bytes) for r in s.rings] == \
        [(0, 1, PT_STREAM_BYTES)]
    assert perf_records(out)[1] == {"0": 320}


def test_stop_from_a_signal_handler(tmp_path):
    out = tmp_path / "alarm.data"
    rec = hwtrace.Recording(str(out), "intel_pt//", cpus="0", sysfs=FIXTURE,
                            emulate_trace=slow_stream(tmp_path),
                            emulate_rate=20000)
    old = signal.signal(signal.SIGALRM, lambda *_: rec.stop())
    try:
        rec.start()
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        t0 = time.monotonic()
        s = rec.wait()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert 0.4 <= time.monotonic() - t0 < 10
    assert s.stopped and 0 < s.bytes < 1 << 20
    assert perf_records(out)[1] == {"0": (s.bytes + 7) // 8 * 8}


def test_sigint_while_opening_is_held_until_open(tmp_path):
    # The positive control of the mask: SIGINT sent to this process from
    # a thread while start() runs with the signal blocked ends the
    # recording once it is open, with a complete file.
    out = tmp_path / "held.data"
    rec = hwtrace.Recording(str(out), "intel_pt//", cpus="0", sysfs=FIXTURE,
                            emulate_trace=slow_stream(tmp_path),
                            emulate_rate=20000)
    real = rec._start

    def start_then_interrupt(*a):
        real(*a)
        os.kill(os.getpid(), signal.SIGINT)   # pending: blocked here
    rec._start = start_then_interrupt
    with pytest.raises(KeyboardInterrupt):
        rec.start()
    assert rec.running()
    rec.stop()
    s = rec.wait()
    assert s.stopped
    assert "PERF_RECORD_AUXTRACE_INFO type: 1" in perf_records(out)[0]
