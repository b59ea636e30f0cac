"""Integer options of ``privgeom smoothed`` and ``privgeom voting`` are validated first, as the integers they are.

A negative ``--n`` once reached the ``--lost`` rounding check and was reported as a rounding problem ("give --T, or
a --lost above 1/-10 at this n"); each row below must instead exit 2 with one line naming the option and the value,
and nothing computed.
"""

from __future__ import annotations

import shlex

import pytest

from privgeom.cli import main

ROWS = [
    ("smoothed shm --n -5 --lost 1/10", "n must be a positive integer (--n, the number of agents), got n = -5"),
    ("smoothed shm --n 0 --lost 1/10", "n must be a positive integer (--n, the number of agents), got n = 0"),
    ("smoothed shm --n 10 -5 --T 3", "n must be a positive integer (--n, the number of agents), got n = -5"),
    ("smoothed shm --n 10 --T -3", "--T (sample size) must be >= 0, got -3"),
    ("smoothed shm --n 10 --T 5 --at -1", "--at (number of ones) must be >= 0, got -1"),
    ("smoothed figure sgd --quick --seed -1 --out .", "seed must be >= 0, got -1"),
    ("smoothed figure theorem3 --quick --seed -2 --out .", "seed must be >= 0, got -2"),
    ("voting accuracy majority -n -5 --rho 1/2", "n must be >= 1, got -5"),
    ("voting accuracy dictator -n 3 --i -1 --rho 1/2", "i must be >= 0, got -1"),
    ("voting accuracy tribes --width -2 --count 2 --rho 1/2", "width must be >= 1, got -2"),
    ("voting accuracy majority -n 5 --max-n -3 --rho 1/2", "max_n must be >= 1, got -3"),
    ("voting influence dictator -n 3 --voter -1", "voter -1 is out of range 0..2"),
    ("voting figure --n-max -3", "n_max must be >= 1, got -3"),
]


@pytest.mark.parametrize("line,fragment", ROWS, ids=[r for r, _ in ROWS])
def test_negative_integer_options_are_typed_errors(line, fragment, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        code = main(shlex.split(line))
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err.strip("\n").splitlines()
    assert code == 2 and len(err) == 1, err
    assert "internal error" not in err[0] and "--lost above" not in err[0]
    assert fragment in err[0], err[0]
    assert list(tmp_path.iterdir()) == []  # nothing written
