"""Counting work instead of timing it: tests run on busy machines, so none asserts a wall-clock time.

``forbid`` replaces an entry point by one that fails the test if it is ever called (a refusal "before building" is
then checked structurally; ``forbid_double_description`` does so for every pycddlib conversion,
``forbid_dense_factored`` for the dense matrix of a factored mechanism); ``count_calls`` wraps one and counts its calls; ``peak_mib`` measures the peak of Python
allocations (``tracemalloc``), which does not depend on the machine's load. ``boom`` and ``assert_cli_refused`` check
that a CLI command is refused from its sizes alone, before the routine (monkeypatched to ``boom``) does the work.
"""

from __future__ import annotations

import functools
import tracemalloc
from typing import Any, Callable, Sequence


class Forbidden(AssertionError):
    """Raised when a forbidden entry point is reached."""


def forbid(monkeypatch: Any, owner: Any, name: str) -> None:
    """Make ``owner.name`` fail the test if called (``owner`` a module or class)."""
    what = f"{getattr(owner, '__name__', owner)}.{name}"

    def _fail(*args: Any, **kwargs: Any) -> Any:
        raise Forbidden(f"{what} was called: the work was not refused before building")

    monkeypatch.setattr(owner, name, _fail)


#: The double-description entry points of privgeom's pycddlib wrapper (vertex/facet conversion, canonical form,
#: block and Fourier–Motzkin elimination): what :func:`forbid_double_description` forbids.
DOUBLE_DESCRIPTION: tuple[str, ...] = ("v_to_h", "h_to_v", "canonicalize", "block_eliminate", "fourier_eliminate")


def forbid_double_description(monkeypatch: Any) -> None:
    """Make every double-description entry point (:data:`DOUBLE_DESCRIPTION`) fail the test if called.

    For a test that an answer comes from sizes or closed forms alone, or that a size refusal happens before any
    conversion starts (cdd cannot be interrupted once it runs).

    Examples
    --------
    >>> import pytest, privgeom as pg
    >>> with pytest.MonkeyPatch.context() as mp:
    ...     forbid_double_description(mp)
    ...     pg.RandomizedResponse(12, "3/4").row_cone().n_facets  # a closed-form count: no conversion
    4096
    """
    import privgeom.geometry._cdd as cdd_wrapper

    for name in DOUBLE_DESCRIPTION:
        forbid(monkeypatch, cdd_wrapper, name)


def forbid_dense_factored(monkeypatch: Any) -> None:
    """Make building the dense matrix of a factored mechanism (``randomized_response(k, p)``, ``frapp``: a
    Kronecker product kept as its factors) fail the test, exact or float.

    For a test that a fast path works on the factors alone, beyond the sizes a dense matrix could have.

    Examples
    --------
    >>> import pytest, privgeom as pg
    >>> with pytest.MonkeyPatch.context() as mp:
    ...     forbid_dense_factored(mp)
    ...     pg.RandomizedResponse(14, "3/4").contains(pg.randomized_response(14, "2/3")).holds
    True
    """
    import privgeom.mechanisms._mechanism as mechanism_module

    forbid(monkeypatch, mechanism_module, "kron_int_columns")
    forbid(monkeypatch, mechanism_module.Mechanism, "_dense_float")


def count_calls(monkeypatch: Any, owner: Any, name: str) -> list[int]:
    """Wrap ``owner.name`` to count its calls; returns a one-element list holding the count."""
    original = getattr(owner, name)
    counter = [0]

    @functools.wraps(original)
    def _counted(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, _counted)
    return counter


def peak_mib(fn: Callable[[], Any]) -> tuple[Any, float]:
    """Run ``fn`` and return ``(its result or the exception it raised, peak traced allocation in MiB)``."""
    tracemalloc.start()
    try:
        try:
            out: Any = fn()
        except Exception as exc:  # noqa: BLE001 - the caller checks the type
            out = exc
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return out, peak / 2**20


def boom(*args: Any, **kwargs: Any) -> Any:
    """A stand-in for an expensive routine that must not be entered before the size check."""
    raise AssertionError("the expensive routine was entered before the size check")


def assert_cli_refused(argv: Sequence[str], words: Sequence[str], tmp_path: Any, capsys: Any) -> None:
    """Run the CLI on ``argv`` (``{tmp}`` replaced by ``tmp_path``): exit 2 with one line on stderr, not an internal
    error nor a ``boom``, containing every one of ``words``."""
    from privgeom.cli import main

    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert "\n" not in err and "AssertionError" not in err and "internal error" not in err, err
    for w in words:
        assert w in err, (w, err)
