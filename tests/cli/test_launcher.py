"""The console script's launcher (``privgeom.cli._launch``): Ctrl-C while the command line is still loading (its
parser, the command's module and the geometry it imports) prints one line and exits 130, like a Ctrl-C during the
command itself."""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    "MPLBACKEND": "Agg",
}


LAUNCHER = "privgeom.cli._launch"


def test_the_console_script_is_the_launcher():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"privgeom": f"{LAUNCHER}:main"}


def test_the_launcher_loads_no_command_until_it_runs():
    # importing the launcher runs the package's lazy façade only: no parser, no command module, no scipy/networkx
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, {LAUNCHER}; print(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('privgeom', 'scipy', 'networkx', 'cvxpy')))",
        ],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    loaded = ast.literal_eval(r.stdout.strip())  # the printed list of module names
    assert "privgeom.cli._launch" in loaded
    assert not [
        m
        for m in loaded
        if m.startswith(
            (
                "privgeom.cli._main",
                "privgeom.cli._core",
                "privgeom.cli._analyze",
                "privgeom.geometry",
                "privgeom.analyses",
                "scipy",
                "networkx",
                "cvxpy",
            )
        )
    ], loaded


def _assert_interrupted(code: int, err: str) -> None:
    assert code == 130, err
    assert err.strip().splitlines() == ["privgeom: interrupted"], err


def test_ctrl_c_while_the_command_line_is_imported():
    # deterministic: an import hook says "ready" once main() has started importing the command line, and waits there
    code = (
        f"import sys, time, {LAUNCHER} as launch\n"
        "class Ready:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'privgeom.cli._main':\n"
        "            print('ready', flush=True)\n"
        "            time.sleep(2)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Ready())\n"
        "sys.argv = ['privgeom', 'rowcone', 'rr:k=2,p=3/4']\n"
        "sys.exit(launch.main())\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    _assert_interrupted(proc.returncode, err)
    assert "facets" not in out  # interrupted before the command ran


def _wait_until_mapped(proc: subprocess.Popen, fragments: tuple[str, ...], timeout: float = 60.0) -> None:
    """Wait until a shared library whose path contains one of ``fragments`` is mapped into ``proc`` (Linux /proc)."""
    maps = Path(f"/proc/{proc.pid}/maps")
    if not maps.exists():
        proc.kill()
        proc.communicate()
        pytest.skip("no /proc/PID/maps to see when the command has started")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if any(f in maps.read_text(errors="replace") for f in fragments):
                return
        except OSError:
            break
        time.sleep(0.01)
    raise AssertionError(f"the command never loaded {fragments} (exit code {proc.poll()})")


def test_ctrl_c_through_the_console_script(tmp_path):
    script = Path(sys.executable).parent / "privgeom"
    if not script.exists():
        pytest.skip("the privgeom console script is not installed next to this interpreter")
    if LAUNCHER not in script.read_text(encoding="utf-8", errors="replace"):
        pytest.skip(f"the installed console script predates {LAUNCHER} (reinstall: pip install -e .)")
    # a long command: the signal lands once the launcher is running, i.e. once the command's compiled dependencies
    # (pycddlib or scipy, loaded by the command module under the launcher's handler) are mapped into the process —
    # the façade's own import, before the launcher runs, is Python's (module docstring of privgeom.cli._launch)
    proc = subprocess.Popen(
        [str(script), "analyze", "rr:k=16,p=3/4"],
        env=ENV,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_until_mapped(proc, ("/cdd/", "/scipy/"))
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    _assert_interrupted(proc.returncode, err)


def test_a_broken_import_is_one_line():
    # the package cannot be imported (here: blocked in sys.modules): one line, exit 2, no traceback
    env = {k: v for k, v in ENV.items() if k != "PRIVGEOM_DEBUG"}
    code = f"import sys, {LAUNCHER} as launch; sys.modules['privgeom.cli._main'] = None; sys.exit(launch.main())"
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal error while importing privgeom (" in lines[0], r.stderr
