"""Shared by the Python package's tests: paths, the command-line tool, child processes."""

import os
import subprocess
import sys

import roverlab

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, "build", "native", "roverlab")
STUDIES = os.path.join(ROOT, "tests", "data", "studies")
#: What differs between two runs of the same scenario: the time they took.
TIMING = ("wall_s", "steps_per_s", "real_time_factor")


def path(*parts):
    return os.path.join(ROOT, *parts)


def cli(*args):
    """Runs build/native/roverlab; its CompletedProcess (text)."""
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=300, check=False)


def cli_has(command):
    """True when build/native/roverlab exists and knows `command`."""
    if not os.path.exists(CLI):
        return False
    return "unknown command" not in cli(command).stderr


def package_env():
    """The environment for child processes that import roverlab (workers, the runner)."""
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(roverlab.__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    return env


def python_module(module, *args, cwd=None, **kwargs):
    """Starts `python3 -m module args` with the package importable."""
    return subprocess.Popen([sys.executable, "-m", module, *args], env=package_env(), cwd=cwd,
                            **kwargs)


def without(row, keys=TIMING):
    return {k: v for k, v in row.items() if k not in keys}
