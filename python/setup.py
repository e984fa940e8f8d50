# pip install --no-build-isolation --no-index ./python (no network: the
# package is pure Python over libhwtrace.so; see docs/python.md).
from setuptools import setup

setup(
    name="hwtrace",
    version="0.1.0",
    description="Hardware traces (Intel PT, BTS, CoreSight, ...) from "
                "Python, over libhwtrace.so through ctypes",
    packages=["hwtrace"],
    python_requires=">=3.9",
    extras_require={"numpy": ["numpy"], "pandas": ["pandas"]},
)
