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
thresholds come from ``benchmarks/bench_engines.py`` (random mechanisms, entries 1..19 normalised; every engine's
time includes the canonical form and the verification, which are the same for all), measured on the busy 2-core
machine (load 6–9 from other work, so single times vary by up to 1.5x; short cases best of three):

=========================== ========= ===========================================================================
rule                        threshold measured (seconds: cdd / Normaliz / PPL)
=========================== ========= ===========================================================================
V→H by Normaliz, else cdd   128       12 x 8 (96 entries) 0.12 / 0.40 / 0.44; 14 x 8 (112) 0.37 / 0.46 / 0.50;
                            entries   15 x 9 (135) 0.62 / 0.53 / 0.55; 16 x 9 (144) 0.63 / 0.48 / 0.60; 20 x 10
                                      3.2 / 0.97 / 1.2; 24 x 12 13.0 / 2.2 / 2.8; 27 x 11 24.4 / 3.4 / 10.3 (below
                                      ~128 entries the worker start of a foreign engine costs more than cdd's run)
PPL never chosen            —         never faster than Normaliz beyond the noise on the corpus, 2–5x slower on
                                      the larger cases (24 x 16: 11.4 vs 6.3; 26 x 15: 83 vs 19; 28 x 14: no
                                      answer in 150 s vs 34.5)
H→V by cdd                  always    Normaliz and PPL build the dual cone by Fourier–Motzkin and ran for minutes on
                                      inputs cdd converts in seconds
cdd in the calling process  400       cdd finishes within a second there
extreme generators from     3,000     (when auto gives V→H to a foreign engine) hull(RR(4, 3/4), DP(Q4, 3)): 1,006
the facets                            generators, one LP each 23 s; one Normaliz conversion and the tightness ranks
                                      4 s
=========================== ========= ===========================================================================

The thresholds are :data:`AUTO_NORMALIZ_ENTRIES`, :data:`CDD_IN_PROCESS_ENTRIES` and :data:`GENERATORS_FIRST_ENTRIES`
(generator entries: rows x dimension, or rows x (dimension + 1) for the last two). ``"cdd"``, ``"normaliz"``, ``"ppl"`` force one.

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
from .._core.columns import widen
from .._core.hints import limit_hint
from .._core.limits import register_limit
from . import _budget, _cdd, _normaliz
from . import _orbit_enum  # the orbit engine (symmetric inputs)
from ._budget import upper_bound_rows  # the size a conversion may reach, shown to the user
from ._canonical import canonical_pair, empty, identity
from ._verify import _check_canonical, _fail, exact_signs, int_rank, tight_ranks, verify_pair
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
    "generators_verified",
]

#: The exact conversion engines.
ENGINES = ("cdd", "normaliz", "ppl")
#: The accepted ``method`` values: ``"auto"`` and the engines.
#: ``"orbits"``: the orbit engine (adjacency decomposition on symmetric inputs, privgeom.geometry._orbit_enum).
METHODS = ("auto",) + ENGINES + ("orbits",)
#: Normaliz threads (the reference machine has two cores).
NORMALIZ_THREADS = 2
#: ``auto``: a V→H conversion goes to Normaliz from this many generator entries (rows x dimension) up: the crossover
#: of ``benchmarks/bench_engines.py``'s threshold rows, between 14 x 8 (cdd faster) and 15 x 9 (Normaliz faster);
#: the module docstring has the table.
AUTO_NORMALIZ_ENTRIES = 128
#: cdd runs in the calling process below this many input entries (it finishes well within a second there), in a
#: worker process (interruptible, budgeted) above it.
CDD_IN_PROCESS_ENTRIES = 400
#: :func:`generators_verified` (the extreme generators from the facets, by one conversion) takes a generator system
#: from this many entries (rows x (dimension + 1)) up, when ``auto`` gives its V→H conversion to a foreign engine:
#: the threshold from which redundancy removal by LPs (Clarkson) is used at all. Measured: the hull of RR(4, 3/4) and
#: ε-DP on Q4 (1,006 generators in R^16, 990 extreme) 23 s by one LP per candidate, 4 s by Normaliz's facets and
#: the tightness ranks, on the busy 2-core machine.
GENERATORS_FIRST_ENTRIES = 3_000
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


def fast_canonical(rows: list[list[int]], dim: int) -> np.ndarray:
    """Canonical form of integer rows with no linear part, vectorised: primitive by the row gcd, decreasing
    lexicographic order, no repeats. ``int64`` when every entry is below 2^62 in absolute value (checked, so the gcd
    and the division cannot overflow); otherwise an object array of Python ints, the gcd and the division done by
    numpy's loops over the objects and the order by Python's tuple comparison (exact either way).

    >>> fast_canonical([[2, -4], [0, 3], [1, -2]], 2).tolist()
    [[1, -2], [0, 1]]
    >>> fast_canonical([[2**70, 2], [0, 3]], 2).tolist()
    [[590295810358705651712, 1], [0, 1]]
    """
    if not rows:
        return np.zeros((0, dim), dtype=np.int64)
    try:
        a = np.array(rows, dtype=np.int64)  # raises OverflowError at an entry past int64
        small = bool(np.abs(a).max() < 2**62)
    except OverflowError:
        small = False
    if small:
        g = np.gcd.reduce(a, axis=1)
        a = a[g > 0] // g[g > 0][:, None]
        return np.ascontiguousarray(np.unique(a, axis=0)[::-1])  # np.unique sorts increasing lexicographically
    o = np.empty((len(rows), dim), dtype=object)
    o[:] = rows
    g = np.gcd.reduce(o, axis=1)
    if not bool(np.all(g == 1)):  # an engine's rows are usually primitive already: then nothing is divided
        keep = np.asarray(g != 0, dtype=bool)
        o = o[keep] // g[keep][:, None]
        rows = o.tolist()
    order = sorted(range(len(rows)), key=rows.__getitem__, reverse=True)  # Python's exact list comparison
    order = [k for i, k in enumerate(order) if i == 0 or rows[k] != rows[order[i - 1]]]
    return o[order]


def _canonical(rows: list[Any], lin: list[Any], dim: int) -> tuple[np.ndarray, np.ndarray]:
    if not lin:
        return fast_canonical(rows, dim), np.zeros((0, dim), dtype=np.int64)
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
    if raw is None:
        # the budget: the answer's size and time forecast from the input (and a short probe), refused before any engine
        _budget.check_enumeration(kind, main, lin, choice.engine)
    out_main, out_lin = raw if raw is not None else _run(choice.engine, kind, main, lin)
    _count_check(choice.engine, kind, len(out_main), len(main) + len(lin), dim)
    what = "facets" if kind == "V" else "rays"
    _progress.stage(f"{choice.engine}: canonical form and exact check of {len(out_main):,} {what} (R^{dim})")
    res = _canonical(out_main, out_lin, dim)
    if kind == "V":
        verify_pair(pair, res, engine=choice.engine, produced="H")
    else:
        verify_pair(res, pair, engine=choice.engine, produced="V")
    return res


def _count_check(engine: str, kind: str, count: int, n: int, dim: int) -> None:
    """Refuse an answer of more than ``engine_rows`` facets or rays (counted before canonical form)."""
    if count > current_limit("engine_rows"):
        what = "facets" if kind == "V" else "rays"
        raise SizeLimitError(
            f"{engine} returned {count:,} {what} for {n} rows in R^{dim}, more than the limit of "
            f"{current_limit('engine_rows'):,} — {limit_hint('engine_rows', count)}"
        )


def _one_dtype(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    """Two integer arrays in one dtype for stacking: as they are when both are ``int64``, else Python ints."""
    return widen(a, b) if a.dtype == object or b.dtype == object else (a, b)


def generators_verified(
    rows: np.ndarray, *, method: str | None = None
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None:
    """The extreme rays among many exact generators (no lineality) and the facets of their cone, by one V→H
    conversion: ``((rays, lineality), (facets, equalities))``, canonical and verified; None when the route does not
    apply (a small system, ``auto`` keeping cdd, or a cone that is not pointed: the caller then removes redundancy
    by LPs or cdd).

    A generator ``g`` of a pointed cone ``{x : F x ≥ 0, E x = 0}`` is an extreme ray iff the facets tight at ``g``
    with the equalities have rank ``N − 1`` (Ziegler, *Lectures on Polytopes*, Section 2.1; dual to the facet
    test of :mod:`~privgeom.geometry._verify`); a rank modulo a prime is a lower bound, and a shortfall is confirmed
    by exact elimination (:func:`~privgeom.geometry._verify.int_rank`) before a generator is dropped. Every
    facet is checked valid on every generator, dropped ones included, and the pair is proved by
    :func:`~privgeom.geometry._verify.verify_pair`.

    >>> (r, l), (f, e) = generators_verified(np.array([[1, 0], [1, 1], [2, 1], [0, 1]] * 300), method="normaliz")
    >>> r.tolist(), f.tolist()
    ([[1, 0], [0, 1]], [[1, 0], [0, 1]])
    """
    n, dim = rows.shape
    choice = choose("V", n, dim, method)
    if (method is None and n * (dim + 1) < GENERATORS_FIRST_ENTRIES) or choice.engine == "cdd" or n <= dim:
        return None
    G = fast_canonical([_integer_row(r) for r in rows.tolist()], dim)
    z = np.zeros((0, dim), dtype=np.int64)
    if len(G) == 0:
        return None
    out_main, out_lin = _run(choice.engine, "V", G, z)
    _count_check(choice.engine, "V", len(out_main), len(G), dim)
    F, E = _canonical(out_main, out_lin, dim)
    FE = np.concatenate(_one_dtype(F, E)) if len(E) else F
    if len(FE) < dim or int_rank(FE) < dim:
        return None  # a cone with lines: its rays are not generators
    signs = exact_signs(G, F) if len(F) else np.zeros((len(G), 0), dtype=np.int64)
    if (signs < 0).any():
        i, j = (int(v) for v in np.argwhere(signs < 0)[0])
        raise _fail(choice.engine, f"facet {j} {F[j].tolist()} is negative on generator {i} {G[i].tolist()}")
    ranks = tight_ranks(G, F, E, signs)
    keep = ranks >= dim - 1
    for i in np.nonzero(~keep)[0].tolist():  # a modular shortfall: confirmed exactly before the generator goes
        tight = np.concatenate(_one_dtype(F[signs[i] == 0], E))
        keep[i] = len(tight) >= dim - 1 and int_rank(tight) >= dim - 1
    R = G[keep]
    _check_canonical(R, "rays", choice.engine, linear=False)
    verify_pair((R, z), (F, E), engine=choice.engine, produced="H")
    return (R, z), (F, E)


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
