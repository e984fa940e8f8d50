"""The package as `cmake --install` puts it, over the installed library
(not the build tree's): it finds libhwtrace.so.0 through the path the
installation recorded, with no HWTRACE_LIB or LD_LIBRARY_PATH, and
decodes as the CLI does."""
import glob
import json
import os
import subprocess
import sys

import pytest

from conftest import cli_elements, env_path


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    root = tmp_path_factory.mktemp("prefix")
    p = subprocess.run([env_path("HWT_CMAKE"), "--install",
                        env_path("HWT_BUILD_DIR"), "--prefix", str(root)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout.decode(errors="replace")
    return str(root)


def run_installed(prefix, code, *args):
    inits = glob.glob(os.path.join(prefix, "lib*", "python3*", "*",
                                   "hwtrace", "__init__.py"))
    assert len(inits) == 1, f"the package is not installed once: {inits}"
    env = {k: v for k, v in os.environ.items()
           if k not in ("HWTRACE_LIB", "LD_LIBRARY_PATH", "PYTHONPATH")}
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(inits[0]))
    p = subprocess.run([sys.executable, "-c", code, *args], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    return p.stdout.decode()


def test_installed_package_uses_the_installed_library(prefix, swb_capture):
    out = run_installed(prefix, """
import json, sys, warnings
warnings.simplefilter("ignore")
import hwtrace, hwtrace._lib as L
cap = hwtrace.open(sys.argv[1])
print(L.lib()._name)
print(hwtrace.__file__)
for e in cap.elements():
    print(json.dumps(e))
""", swb_capture)
    lines = out.splitlines()
    assert lines[0] == os.path.join(prefix, "lib", "libhwtrace.so.0")
    assert lines[1].startswith(prefix)
    assert [json.loads(l) for l in lines[2:]] == cli_elements(swb_capture)


def test_without_a_library_it_says_where_it_looked(tmp_path):
    env = dict(os.environ, HWTRACE_LIB=str(tmp_path / "libnone.so"))
    env.pop("LD_LIBRARY_PATH", None)
    p = subprocess.run([sys.executable, "-c",
                        "import hwtrace; hwtrace.library_version()"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = p.stderr.decode()
    assert p.returncode == 1 and "LibraryNotFound" in err
    assert f"$HWTRACE_LIB: {tmp_path / 'libnone.so'}: no such file" in err
    assert "beside the package" in err
