"""The engine portfolio of exact cone conversion: pycddlib, Normaliz, PPL behind one interface, chosen by rule.

An *engine* converts a cone between its two representations: V→H (the facets and equalities of
``cone(R) + span(L)``) and H→V (the extreme rays and lineality of ``{x : F x ≥ 0, E x = 0}``). Three engines are
known (:data:`ENGINES`):

* ``"cdd"`` — pycddlib's exact double description (``cdd.gmp``; Fukuda & Prodon, "Double description method
  revisited", 1996), always installed; the default for small inputs and for H→V;
* ``"normaliz"`` — Normaliz through PyNormaliz (primal Fourier–Motzkin with pyramid decomposition, multi-threaded:
  it runs :data:`NORMALIZ_THREADS` threads), the fastest on generator-heavy cones;
* ``"ppl"`` — the Parma Polyhedra Library through pplpy (double description on exact integers).

``method="auto"`` (the default, :func:`use_engine` changes it) picks the engine by :func:`choose`, a table whose
thresholds come from ``benchmarks/bench_engines.py`` on the 2-core reference machine: Normaliz for a V→H conversion
of at least :data:`AUTO_NORMALIZ_ENTRIES` generator entries (below it the worker start costs more than cdd's whole
run), cdd otherwise and for every H→V conversion (Normaliz and PPL build the dual cone by Fourier–Motzkin and ran
for minutes on inputs cdd converts in seconds). ``"cdd"``, ``"normaliz"``, ``"ppl"`` force one.

Whatever the engine, its answer is put in canonical form and proved by
:func:`~privgeom.geometry._verify.verify_pair` before it is returned: an engine can be slow, never wrong.

A foreign engine (and cdd on a large input) runs in a worker process: a budget (the registered limit
``engine_seconds``) or Ctrl-C stops it cleanly; on a terminal the activity bar shows the engine, the input and the
elapsed time after one second. The size of an answer is counted before it is canonicalised: more than
``engine_rows`` facets or rays is refused, naming the count reached and the limit to raise.

Examples
--------
>>> import numpy as np
>>> z = np.zeros((0, 2), dtype=np.int64)
>>> f, e = facets_verified((np.array([[1, 1], [1, 0]]), z), method="normaliz")
>>> f.tolist(), e.shape
([[1, -1], [0, 1]], (0, 2))
>>> choose("V", 30, 16).engine, choose("V", 3, 2).engine, choose("H", 500, 16).engine
('normaliz', 'cdd', 'cdd')
"""

from __future__ import annotations

import math
import multiprocessing
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, NamedTuple

import numpy as np

from .._core import progress as _progress
from .._core.errors import InvalidParameterError, MissingDependencyError, SizeLimitError, SolverError
from .._core.hints import limit_hint
from .._core.limits import register_limit
from . import _cdd, _normaliz
from . import _orbit_enum  # the orbit engine (symmetric inputs)
from ._canonical import canonical_pair, empty, identity
from ._verify import verify_pair
from .._core.limits import current_limit

__all__ = [
    "ENGINES",
    "METHODS",
    "Choice",
    "choose",
    "use_engine",
    "set_engine",
    "current_engine",
    "facets_verified",
    "rays_verified",
    "upper_bound_rows",
    "available_engines",
    "fast_canonical",
]

#: The exact conversion engines.
ENGINES = ("cdd", "normaliz", "ppl")
#: The accepted ``method`` values: ``"auto"`` and the engines.
#: ``"orbits"``: the orbit engine (adjacency decomposition on symmetric inputs, privgeom.geometry._orbit_enum).
METHODS = ("auto",) + ENGINES + ("orbits",)
#: Normaliz threads (the reference machine has two cores).
NORMALIZ_THREADS = 2
#: ``auto``: a V→H conversion goes to Normaliz from this many generator entries (rows x dimension) up. Measured on the
#: 2-core machine (random mechanisms, best of two): 8 x 5 cdd 0.03 s / Normaliz 0.22 s, 12 x 8 0.14 / 0.24,
#: 16 x 9 0.36 / 0.38, 20 x 10 1.9 / 1.0, 24 x 12 11.3 / 1.9 (``benchmarks/bench_engines.py``): below ~150 entries
#: cdd in-process beats the worker start of a foreign engine.
AUTO_NORMALIZ_ENTRIES = 150
#: cdd runs in the calling process below this many input entries (it finishes well within a second there), in a
#: worker process (interruptible, budgeted) above it.
CDD_IN_PROCESS_ENTRIES = 400
#: Most facets or rays one conversion may return (counted before canonical form and verification).
MAX_ENGINE_ROWS = 2_000_000
#: Seconds one conversion in a worker process may run before it is stopped.
MAX_ENGINE_SECONDS = 1800
register_limit(
    "engine_rows",
    globals(),
    "MAX_ENGINE_ROWS",
    "most facets or rays one exact cone conversion (cdd, Normaliz or PPL) may return",
)
register_limit(
    "engine_seconds",
    globals(),
    "MAX_ENGINE_SECONDS",
    "seconds one exact cone conversion in a worker process (Normaliz, PPL, large cdd) may run",
)

_METHOD = ["auto"]


def _check_method(method: str) -> str:
    if method not in METHODS:
        raise InvalidParameterError(f"unknown cone engine {method!r}; choose one of {', '.join(METHODS)}")
    return method


def set_engine(method: str) -> str:
    """Set the engine of exact cone conversions for the session; returns the previous one.

    >>> previous = set_engine("cdd"); current_engine(), set_engine(previous)
    ('cdd', 'cdd')
    """
    old = _METHOD[0]
    _METHOD[0] = _check_method(method)
    return old


@contextmanager
def use_engine(method: str) -> Iterator[str]:
    """Use ``method`` for the exact cone conversions (facets from generators, rays from facets) in the block.

    Parameters
    ----------
    method : {"auto", "cdd", "normaliz", "ppl", "orbits"}
        ``"auto"`` (the default outside any block) picks the engine from the input's shape (:func:`choose`); the
        others force pycddlib, Normaliz (PyNormaliz) or PPL (pplpy, the ``[ppl]`` extra). Every answer is verified
        exactly whatever the engine. ``"orbits"`` enumerates a symmetric cone by orbit of its symmetry group
        (:mod:`privgeom.geometry._orbit_enum`) and falls back to ``auto``'s engine when the group is trivial.

    Yields
    ------
    str
        ``method``.

    Raises
    ------
    InvalidParameterError
        An unknown method.

    Examples
    --------
    >>> from privgeom.geometry import Cone
    >>> with use_engine("normaliz"):
    ...     Cone.from_generators([[1, 0], [1, 1]]).n_facets
    2
    """
    old = set_engine(method)
    try:
        yield method
    finally:
        _METHOD[0] = old


def current_engine() -> str:
    """The engine method in force (``"auto"`` unless :func:`use_engine` / :func:`set_engine` changed it)."""
    return _METHOD[0]


def available_engines() -> tuple[str, ...]:
    """The engines installed here (cdd always).

    >>> available_engines()[0]
    'cdd'
    """
    return (
        ("cdd",)
        + (("normaliz",) if _normaliz.normaliz_available() else ())
        + (("ppl",) if _normaliz.ppl_available() else ())
    )


def upper_bound_rows(n_rows: int, dim: int) -> int:
    """An upper bound on the facets of a pointed cone with ``n_rows`` generators in ``R^dim`` (by polarity, also on the
    rays of a cone with ``n_rows`` inequalities): McMullen's upper bound theorem for a ``(dim−1)``-polytope with
    ``n`` vertices, ``f = C(n − ⌈d/2⌉, ⌊d/2⌋) + C(n − ⌊d/2⌋ − 1, ⌈d/2⌉ − 1)`` (the cyclic polytope; Ziegler,
    *Lectures on Polytopes*, Theorem 8.23). Shown to the user as the size a conversion may reach.

    >>> upper_bound_rows(6, 3), upper_bound_rows(30, 16)   # a hexagon's 6 edges
    (6, 341088)
    """
    d = dim - 1
    if n_rows <= dim or d < 2:
        return max(n_rows, 1) if d >= 1 else 1
    lo, hi = d // 2, (d + 1) // 2
    return math.comb(n_rows - hi, lo) + math.comb(n_rows - lo - 1, hi - 1)


class Choice(NamedTuple):
    """The engine :func:`choose` picked for a conversion and why."""

    engine: str
    reason: str


def choose(kind: str, n_rows: int, dim: int, method: str | None = None) -> Choice:
    """The engine for converting ``n_rows`` rows in ``R^dim`` from representation ``kind`` (``"V"``: generators to
    facets; ``"H"``: inequalities to rays), by ``method`` (default: :func:`current_engine`); see the module doc."""
    m = _check_method(current_engine() if method is None else method)
    if m != "auto":
        return Choice(m, "forced")
    if kind == "V" and n_rows * dim >= AUTO_NORMALIZ_ENTRIES and _normaliz.normaliz_available():
        return Choice("normaliz", f"generators, {n_rows} x {dim} >= {AUTO_NORMALIZ_ENTRIES} entries")
    return Choice("cdd", "inequalities" if kind == "H" else f"small input ({n_rows} x {dim})")


# ------------------------------------------------------------------------------------------------------- running
def _child(conn: Any, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:  # pragma: no cover - in the worker
    try:
        conn.send((True, fn(*args)))
    except BaseException as err:  # report everything (a KeyboardInterrupt too) to the parent
        conn.send((False, f"{type(err).__name__}: {err}"))
    finally:
        conn.close()


def run_in_worker(fn: Callable[..., Any], args: tuple[Any, ...], label: str) -> Any:
    """``fn(*args)`` in a worker process (fork), polled every 0.2 s, with a progress bar of the seconds spent against
    the budget after one second on a terminal (:class:`~privgeom._core.progress.Progress`): stopped at :data:`MAX_ENGINE_SECONDS` (a
    :class:`~privgeom.SizeLimitError` naming the limit) or at Ctrl-C (the worker is terminated, the interrupt
    re-raised); an exception in the worker is a :class:`~privgeom.SolverError`."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args), daemon=True)  # type: ignore[attr-defined]
    start = time.monotonic()
    proc.start()
    child.close()
    try:
        _progress.stage(label)  # the CLI's activity bar names the engine
        # a bar of the seconds spent against the budget (drawn after 1 s, on a terminal, outside quiet())
        with _progress.Progress(current_limit("engine_seconds"), f"{label}, seconds of the budget") as bar:
            while not parent.poll(0.2):
                elapsed = time.monotonic() - start
                if not proc.is_alive() and not parent.poll(0.05):
                    raise SolverError(f"{label}: the worker process died (exit code {proc.exitcode}) with no answer")
                if elapsed > current_limit("engine_seconds"):
                    raise SizeLimitError(
                        f"{label}: stopped after {elapsed:.0f} s, the budget of "
                        f"{current_limit('engine_seconds')} s — {limit_hint('engine_seconds')}"
                    )
                if int(elapsed) > bar.done:
                    bar.update(int(elapsed) - bar.done)
            ok, payload = parent.recv()
    finally:
        parent.close()
        if proc.is_alive():
            proc.terminate()
            proc.join(1.0)
            if proc.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
                proc.kill()
        proc.join(1.0)
    if not ok:
        raise SolverError(f"{label} failed: {payload}")
    return payload


def _cdd_convert(kind: str, main: list[list[int]], lin: list[list[int]], dim: int) -> tuple[Any, Any]:
    a = np.empty((len(main), dim), dtype=object)
    a[:] = main if main else a
    b = np.empty((len(lin), dim), dtype=object)
    b[:] = lin if lin else b
    out = _cdd.v_to_h(a, b, exact=True) if kind == "V" else _cdd.h_to_v(a, b, exact=True)
    return [_integer_row(r) for r in out[0].tolist()], [_integer_row(r) for r in out[1].tolist()]


def _integer_row(row: list[Any]) -> list[int]:
    """A rational row (ints and Fractions) scaled by its positive least common denominator to integers."""
    den = math.lcm(*(getattr(v, "denominator", 1) for v in row)) if row else 1
    return [int(v * den) for v in row]


def _engine_kernel(engine: str, kind: str, main: list[list[int]], lin: list[list[int]], dim: int) -> tuple[Any, Any]:
    """One conversion by ``engine`` on integer rows (run in the calling process or in a worker)."""
    if engine == "normaliz":
        nmz = _normaliz.normaliz_v_to_h if kind == "V" else _normaliz.normaliz_h_to_v
        return nmz(main, lin, threads=NORMALIZ_THREADS)
    if engine == "ppl":
        return (_normaliz.ppl_v_to_h if kind == "V" else _normaliz.ppl_h_to_v)(main, lin)
    return _cdd_convert(kind, main, lin, dim)


def _run(engine: str, kind: str, main: np.ndarray, lin: np.ndarray) -> tuple[list[Any], list[Any]]:
    """The raw answer of ``engine`` (lists of rows, not canonical)."""
    n, dim = len(main) + len(lin), main.shape[1]
    if engine != "cdd" and engine not in available_engines():
        package = "PyNormaliz" if engine == "normaliz" else "pplpy"
        raise MissingDependencyError(
            f"the cone engine {engine!r} needs the package {package} "
            f"(pip install {package}); method='auto' or 'cdd' works without it"
        )
    what_conv = "V-to-H conversion" if kind == "V" else "H-to-V conversion"
    if engine == "cdd":
        _cdd._check_dd(n, dim, what_conv)
    else:  # the dimension limit bounds every engine; the entry limit is cdd's (a foreign engine has a time budget)
        _cdd._check_dd(0, dim, f"{what_conv} by {engine}")
    rows = [[int(v) for v in r] for r in main.tolist()], [[int(v) for v in r] for r in lin.tolist()]
    what = "facets" if kind == "V" else "rays"
    label = (
        f"{engine}: {what} of {n} {'generators' if kind == 'V' else 'inequalities'} in R^{dim} "
        f"(at most {upper_bound_rows(n, dim):,})"
    )
    args = (engine, kind, rows[0], rows[1], dim)
    if engine == "cdd" and n * (dim + 1) <= CDD_IN_PROCESS_ENTRIES:
        return _engine_kernel(*args)
    return run_in_worker(_engine_kernel, args, label)


def fast_canonical(rows: list[list[int]], dim: int) -> np.ndarray | None:
    """Canonical form of integer rows with no linear part, vectorised (``int64``: primitive by the row gcd, decreasing
    lexicographic order, no repeats); None when an entry does not fit in ``int64`` (the caller then takes
    :func:`~privgeom.geometry._canonical.canonical_pair`).

    >>> fast_canonical([[2, -4], [0, 3], [1, -2]], 2).tolist()
    [[1, -2], [0, 1]]
    """
    if not rows:
        return np.zeros((0, dim), dtype=np.int64)
    if any(type(v) is not int for r in rows for v in r):
        raise TypeError("fast_canonical takes integer rows")
    try:
        a = np.array(rows, dtype=np.int64)
    except OverflowError:
        return None
    if np.abs(a).max() >= 2**62:
        return None
    g = np.gcd.reduce(a, axis=1)
    a = a[g > 0] // g[g > 0][:, None]
    a = np.unique(a, axis=0)[::-1]  # np.unique sorts increasing lexicographically
    return np.ascontiguousarray(a)


def _canonical(rows: list[Any], lin: list[Any], dim: int) -> tuple[np.ndarray, np.ndarray]:
    if not lin:
        fast = fast_canonical(rows, dim)
        if fast is not None:
            return fast, np.zeros((0, dim), dtype=np.int64)
    a = np.empty((len(rows), dim), dtype=object)
    if rows:
        a[:] = rows
    b = np.empty((len(lin), dim), dtype=object)
    if lin:
        b[:] = lin
    return canonical_pair(a, b, exact=True, as_int=True)


def _convert_verified(
    kind: str, pair: tuple[np.ndarray, np.ndarray], method: str | None
) -> tuple[np.ndarray, np.ndarray]:
    main, lin = pair
    dim = main.shape[1]
    if len(main) + len(lin) == 0:
        return empty(dim, True), identity(dim, True)  # {0} has every equality; no inequality is the whole space
    choice = choose(kind, len(main) + len(lin), dim, method)
    # -- the orbit engine: forced, or taken by auto on a symmetric input (privgeom.geometry._orbit_enum) --
    forced = choice.engine == "orbits"
    raw, why = _orbit_enum.orbit_route(
        kind, main, lin, forced=forced, auto=choice.reason != "forced", sub_facets=facets_verified
    )
    if raw is not None:
        choice = Choice("orbits", why)
    elif forced:
        other = choose(kind, len(main) + len(lin), dim, "auto")
        choice = Choice(other.engine, f"orbits declined ({why}); {other.reason}")
    out_main, out_lin = raw if raw is not None else _run(choice.engine, kind, main, lin)
    if len(out_main) > current_limit("engine_rows"):
        what = "facets" if kind == "V" else "rays"
        raise SizeLimitError(
            f"{choice.engine} returned {len(out_main):,} {what} for {len(main) + len(lin)} rows in "
            f"R^{dim}, more than the limit of {current_limit('engine_rows'):,} — "
            f"{limit_hint('engine_rows', len(out_main))}"
        )
    res = _canonical(out_main, out_lin, dim)
    if kind == "V":
        verify_pair(pair, res, engine=choice.engine, produced="H")
    else:
        verify_pair(res, pair, engine=choice.engine, produced="V")
    return res


def facets_verified(
    vpair: tuple[np.ndarray, np.ndarray], *, method: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The canonical, verified (facets, equalities) of the cone with the canonical integer ``vpair = (rays,
    lineality)``, converted by the engine :func:`choose` picks (``method``: default :func:`current_engine`)."""
    return _convert_verified("V", vpair, method)


def rays_verified(hpair: tuple[np.ndarray, np.ndarray], *, method: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The canonical, verified (rays, lineality) of the cone with the canonical integer ``hpair = (facets,
    equalities)`` (see :func:`facets_verified`)."""
    return _convert_verified("H", hpair, method)
