"""The console script's launcher (``privgeom_launch``): Ctrl-C while ``import privgeom`` is still running (the first
second of every command) prints one line and exits 130, like a Ctrl-C during the command itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
       "MPLBACKEND": "Agg"}


def test_the_console_script_is_the_launcher():
    scripts = {ep.name: ep.value for ep in metadata.entry_points(group="console_scripts") if ep.name == "privgeom"}
    assert scripts == {"privgeom": "privgeom_launch:main"}


def test_the_launcher_imports_nothing_of_privgeom_until_it_runs():
    r = subprocess.run([sys.executable, "-c", "import sys, privgeom_launch; print(sorted(m for m in sys.modules "
                        "if m.split('.')[0] == 'privgeom'))"], env=ENV, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stderr


def _assert_interrupted(code: int, err: str) -> None:
    assert code == 130, err
    assert err.strip().splitlines() == ["privgeom: interrupted"], err


def test_ctrl_c_during_the_import_of_privgeom():
    # deterministic: an import hook says "ready" once main() has started importing privgeom, and waits there
    code = ("import sys, time, privgeom_launch\n"
            "class Ready:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'privgeom':\n"
            "            print('ready', flush=True)\n"
            "            time.sleep(2)\n"
            "        return None\n"
            "sys.meta_path.insert(0, Ready())\n"
            "sys.argv = ['privgeom', 'rowcone', 'rr:k=2,p=3/4']\n"
            "sys.exit(privgeom_launch.main())\n")
    proc = subprocess.Popen([sys.executable, "-c", code], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    _assert_interrupted(proc.returncode, err)
    assert "facets" not in out  # interrupted before the command ran


def test_ctrl_c_at_a_quarter_second_through_the_console_script(tmp_path):
    script = Path(sys.executable).parent / "privgeom"
    if not script.exists():
        pytest.skip("the privgeom console script is not installed next to this interpreter")
    # a long command: whether the signal lands during the import or during the work, the answer is the same line
    proc = subprocess.Popen([str(script), "analyze", "rr:k=16,p=3/4"], env=ENV, cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(0.25)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    _assert_interrupted(proc.returncode, err)


def test_a_broken_import_is_one_line():
    # the package cannot be imported (here: blocked in sys.modules): one line, exit 2, no traceback
    env = {k: v for k, v in ENV.items() if k != "PRIVGEOM_DEBUG"}
    code = "import sys, privgeom_launch; sys.modules['privgeom'] = None; sys.exit(privgeom_launch.main())"
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal error while importing privgeom (" in lines[0], r.stderr
