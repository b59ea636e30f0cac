"""The CLI's activity bar (privgeom._core.progress.activity): on a terminal, after the delay, named after the command
and its current stage; erased when the command ends; never with --json or when stderr is not a terminal."""

from __future__ import annotations

import io
import time

import pytest

from privgeom._core import progress as _progress
from privgeom.cli import _core, main


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:  # a terminal, as far as privgeom can tell
        return True


@pytest.fixture
def slow_rowcone(monkeypatch):
    """``rowcone`` that takes 0.6 s (its definition parser sleeps) and an activity bar without delay."""
    real = _core.parse_definition

    def slow(spec):
        time.sleep(0.6)
        return real(spec)

    monkeypatch.setattr(_core, "parse_definition", slow)
    monkeypatch.setattr(_progress, "ACTIVITY_DELAY", 0.0)
    monkeypatch.setattr(_progress, "ACTIVITY_INTERVAL", 0.05)


def _run(argv, monkeypatch, stream):
    monkeypatch.setattr("sys.stderr", stream)
    return main(argv)


def test_a_terminal_sees_the_command_and_its_stage(slow_rowcone, monkeypatch, capsys):
    err = FakeTTY()
    code = _run(["rowcone", "rr:k=2,p=3/4"], monkeypatch, err)
    assert code == 0
    text = err.getvalue()
    assert "privgeom rowcone" in text and "parsing the definition" in text, text
    assert "\r" in text  # drawn in place, then erased (leave=False)
    assert "facets" in capsys.readouterr().out  # the answer itself is on stdout, untouched


def test_json_mode_is_quiet(slow_rowcone, monkeypatch, capsys):
    err = FakeTTY()
    assert _run(["rowcone", "rr:k=2,p=3/4", "--json"], monkeypatch, err) == 0
    assert err.getvalue() == ""


def test_not_a_terminal_is_quiet(slow_rowcone, monkeypatch, capsys):
    err = io.StringIO()
    assert _run(["rowcone", "rr:k=2,p=3/4"], monkeypatch, err) == 0
    assert err.getvalue() == ""


def test_quick_commands_draw_nothing(monkeypatch, capsys):
    err = FakeTTY()  # the default delay of one second: a quick command never shows the bar
    assert _run(["rowcone", "rr:k=1,p=3/4"], monkeypatch, err) == 0
    assert err.getvalue() == ""


def test_the_bar_steps_aside_for_a_counting_bar():
    err = FakeTTY()
    with _progress.activity("outer", stream=err, delay=0.0) as act:
        time.sleep(0.3)
        assert act.visible
        with _progress.Progress(3, "inner", stream=err, enabled=True, delay=0.0):
            time.sleep(0.5)
            assert not act.visible
    assert not act.visible and not _progress._ACTIVE
