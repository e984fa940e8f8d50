"""The package's ctypes mirrors (hwtrace/_structs.py) have the size and
field offsets of the C structures they stand for: a C program built here
from the public headers prints sizeof and offsetof of each, and the
mirrors must agree byte for byte (a field added in C and not here would
let the library write past a Python buffer)."""
import ctypes as C
import os
import shutil
import subprocess

import pytest

from hwtrace import _structs as S

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# mirror -> (C struct, the C names of fields the mirror renames)
MIRRORS = {
    S.ImageLookup: ("hwt_image_lookup", {}),
    S.MapSpec: ("hwt_map_spec", {}),
    S.CaptureOpts: ("hwt_capture_opts", {}),
    S.CaptureThread: ("hwt_capture_thread", {}),
    S.CaptureName: ("hwt_capture_name", {}),
    S.CaptureTask: ("hwt_capture_task", {}),
    S.CaptureSwitch: ("hwt_capture_switch", {}),
    S.CaptureBuildId: ("hwt_capture_build_id", {}),
    S.CaptureMmap: ("hwt_capture_mmap", {}),
    S.CaptureLosses: ("hwt_capture_losses", {}),
    S.CaptureQueue: ("hwt_capture_queue", {}),
    S.CaptureUnit: ("hwt_capture_unit", {}),
    S.CursorOpts: ("hwt_cursor_opts", {}),
    S.ElemRecord: ("hwt_elem_record", {"from_": "from"}),
    S.SymOpts: ("hwt_sym_opts", {}),
    S.ElemSink: ("hwt_elem_sink", {}),
    S.FuncNamer: ("hwt_func_namer", {}),
    S.OutputAnnotator: ("hwt_output_annotator", {}),
    S.StackOps: ("hwt_stack_ops", {}),
    S.ReportFunc: ("hwt_report_func", {}),
    S.Edge: ("hwt_edge", {"from_": "from"}),
    S.EmuOpts: ("hwt_emu_opts", {}),
    S.RecorderOpts: ("hwt_recorder_opts", {}),
    S.CaptureStats: ("hwt_capture_stats", {}),
}

HEADERS = ["capture.h", "decode.h", "edge_map.h", "element.h", "image.h",
           "output.h", "report.h", "stack.h", "symbols.h", "emulator.h",
           "recorder.h", "session.h"]


def c_layout(tmp_path):
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.fail("no C compiler (cc) to build the layout program")
    lines = ["#include <stddef.h>", "#include <stdio.h>"]
    lines += [f'#include "hwtrace/{h}"' for h in HEADERS]
    lines.append("int main(void)\n{")
    for mirror, (cname, renamed) in MIRRORS.items():
        lines.append(f'\tprintf("{cname} size %zu\\n", sizeof(struct {cname}));')
        for field, _ in mirror._fields_:
            cfield = renamed.get(field, field)
            lines.append(f'\tprintf("{cname} {field} %zu\\n", '
                         f'offsetof(struct {cname}, {cfield}));')
    lines.append("\treturn 0;\n}")
    src, exe = tmp_path / "layout.c", tmp_path / "layout"
    src.write_text("\n".join(lines) + "\n")
    # version.h is generated into the build tree; the other headers are
    # the source's.
    build = os.environ.get("HWT_BUILD_DIR", "")
    p = subprocess.run([cc, "-std=c11", "-I", os.path.join(ROOT, "include"),
                        "-I", os.path.join(build, "include"),
                        "-o", str(exe), str(src)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout.decode(errors="replace")
    out = subprocess.run([str(exe)], stdout=subprocess.PIPE, check=True)
    return out.stdout.decode().splitlines()


def py_layout():
    lines = []
    for mirror, (cname, _) in MIRRORS.items():
        lines.append(f"{cname} size {C.sizeof(mirror)}")
        for field, _ in mirror._fields_:
            lines.append(f"{cname} {field} {getattr(mirror, field).offset}")
    return lines


def test_every_mirror_has_the_c_layout(tmp_path):
    assert py_layout() == c_layout(tmp_path)


def test_a_missing_field_is_caught(tmp_path):
    # The positive control: a mirror that lacks the C struct's last
    # field differs in size.
    class Short(C.Structure):
        _fields_ = S.FuncNamer._fields_[:-1]
    assert C.sizeof(Short) != C.sizeof(S.FuncNamer)
    assert f"hwt_func_namer size {C.sizeof(Short)}" not in c_layout(tmp_path)
