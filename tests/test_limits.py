"""The global size limits (privgeom._core.limits): one public place to read and raise them.

Every registered limit is listed by :func:`privgeom.get_limits` with its description; :func:`privgeom.set_limits`
and :func:`privgeom.limits` change them (validated, restored on exit); every refusal names the public limit name
and how to raise it, is one line, comes before allocating, and the same call succeeds once the limit is raised.
The source of ``privgeom/`` is parsed with :mod:`ast`: no SizeLimitError message names a private module path or a
module constant, and no module binds a registered limit at import time (it would not see changes).
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
import tracemalloc
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import privgeom as pg
from privgeom._core.grid import expand_grid
from privgeom._core import limits as _limits
from privgeom.analyses import relax
from privgeom.analyses.comparison._compare import extreme_mechanisms
from privgeom.analyses.relaxation._relaxation import subset_family
from privgeom import staircase_patterns
from privgeom.cli._core import _check_listing
from privgeom.definitions._catalogue import dp_ray_patterns
from privgeom import dp_ray_orbits
from privgeom.analyses.relaxation._difference_system import DifferenceSystem
from privgeom.geometry._lp import exact_nonnegative_solution, solve_lp
from privgeom.smoothed._experiments import check_databases
from privgeom.testing import hamming_graph, path_graph

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "privgeom"
#: A variable, not a literal: tests/test_examples.py reads literal glob patterns of test files as scripts they run.
PY_FILES = "*.py"

EXPECTED = {
    "exact_entries",
    "dense_entries",
    "lp_nonzeros",
    "exact_lp_variables",
    "dd_dim",
    "dd_entries",
    "canon_entries",
    "fm_rows",
    "adp_lp_variables",
    "relax_family",
    "fm_eliminated",
    "block_work",
    "cone_route_work",
    "domain_size",
    "graph_edges",
    "path_work",
    "lost_work",
    "adp_optimal_variables",
    "optimal_lp_size",
    "profile_work",
    "dp_rays",
    "dp_ray_steps",
    "listed_coefficients",
    "permutation_entries",
    "extreme_mechanism_rays",
    "staircase_inputs",
    "file_bytes",
    "ldp_outputs",
    "information_variables",
    "count_voters",
    "callable_voters",
    "exact_count_voters",
    "smoothed_evaluations",
    "smoothed_tensor_databases",
    "symmetry_elements",
    "symmetry_steps",
    "symmetry_graph",
    "recursion_voters",
    "banzhaf_weight",
    "spectrum_voters",
    "subset_sum_table",
    "sampling_histograms",
}


# ------------------------------------------------------------------------------------------------ the registry
def test_every_limit_is_listed_with_its_description() -> None:
    lim = pg.get_limits()
    assert EXPECTED <= set(lim)
    assert set(lim) == set(_limits._REGISTRY)
    for info in lim.entries:
        assert info.description and info.value == info.default >= 1
        module, _, constant = info.constant.rpartition(".")
        assert getattr(importlib.import_module(module), constant) == lim[info.name]
        assert info.name in lim.summary() and info.description in lim.summary()
    assert dict(lim) == {info.name: info.value for info in lim.entries}
    assert lim.to_dict()["entries"][0]["name"] == lim.entries[0].name


def test_set_limits_round_trip() -> None:
    from privgeom.geometry import _cdd

    old = pg.set_limits(dd_dim=80, exact_entries="1000")
    try:
        assert old == {"dd_dim": 64, "exact_entries": 2**22}
        assert _cdd.MAX_DD_DIM == 80 and pg.get_limits()["exact_entries"] == 1000
        assert pg.get_limits().info("dd_dim").value == 80 and "default 64" in str(pg.get_limits().info("dd_dim"))
    finally:
        assert pg.set_limits(**old) == {"dd_dim": 80, "exact_entries": 1000}
    assert _cdd.MAX_DD_DIM == 64
    pg.set_limits(dd_dim=3)
    pg.set_limits(dd_dim=None)  # None restores the default
    assert _cdd.MAX_DD_DIM == 64


def test_limits_context_restores_also_on_exception() -> None:
    from privgeom._core import arrays as _arrays

    with pg.limits(exact_entries=10, fm_rows=7) as inside:
        assert inside["exact_entries"] == 10 and _limits.current_limit("exact_entries") == 10 and inside["fm_rows"] == 7
        assert _arrays.MAX_EXACT_ENTRIES == 2**22  # the process value is untouched: the block is context-local
        with pg.limits(exact_entries=20):
            assert _limits.current_limit("exact_entries") == 20 and pg.get_limits()["fm_rows"] == 7
        assert _limits.current_limit("exact_entries") == 10
    assert _limits.current_limit("exact_entries") == 2**22
    with pytest.raises(RuntimeError, match="boom"):
        with pg.limits(exact_entries=10):
            raise RuntimeError("boom")
    assert pg.get_limits()["exact_entries"] == 2**22 and pg.get_limits()["fm_rows"] == 5000


def test_a_block_overrides_the_process_value_and_none_means_the_default() -> None:
    old = pg.set_limits(dd_dim=80)
    try:
        with pg.limits(dd_dim=None):
            assert _limits.current_limit("dd_dim") == 64 and _limits.active_limits() == {"dd_dim": 64}
        with pg.limits(dd_dim=70):
            assert _limits.current_limit("dd_dim") == 70
            pg.set_limits(dd_dim=90)  # the process value changes; the block's override still wins inside it
            assert _limits.current_limit("dd_dim") == 70
        assert _limits.current_limit("dd_dim") == 90 and _limits.active_limits() == {"dd_dim": 90}
    finally:
        pg.set_limits(**old)
    assert _limits.active_limits() == {}


def test_a_limit_raised_in_one_thread_is_not_seen_by_another() -> None:
    """Two threads at once: one inside ``pg.limits(exact_entries=10)`` is refused a 4 x 4 exact matrix, the other
    (started inside the block, so the block is in force while it runs) builds it at the default limit."""
    import threading

    entered, checked = threading.Event(), threading.Event()
    seen: dict[str, Any] = {}

    def lowered() -> None:
        with pg.limits(exact_entries=10):
            entered.set()
            checked.wait(10)
            seen["lowered"] = _limits.current_limit("exact_entries")
            try:
                pg.kary_randomized_response(4, exp_eps=3)
            except pg.SizeLimitError as exc:
                seen["refusal"] = str(exc)

    def other() -> None:
        entered.wait(10)
        seen["other"] = _limits.current_limit("exact_entries"), pg.get_limits()["exact_entries"]
        seen["matrix"] = pg.kary_randomized_response(4, exp_eps=3).matrix[0, 0]
        checked.set()

    threads = [threading.Thread(target=lowered), threading.Thread(target=other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert seen["lowered"] == 10 and "limit 10 entries" in seen["refusal"]
    assert seen["other"] == (2**22, 2**22) and seen["matrix"] == Fraction(1, 2)  # e^ε/(e^ε + k − 1) = 3/6
    assert _limits.current_limit("exact_entries") == 2**22  # nor by the thread that ran the test


def test_limits_are_task_local_in_asyncio() -> None:
    import asyncio

    async def inside(value: int, gate: asyncio.Event) -> int:
        with pg.limits(dd_dim=value):
            await gate.wait()  # both tasks are inside their blocks at once
            return _limits.current_limit("dd_dim")

    async def main() -> list[int]:
        gate = asyncio.Event()
        tasks = [asyncio.create_task(inside(v, gate)) for v in (70, 90)]
        await asyncio.sleep(0)
        gate.set()
        return list(await asyncio.gather(*tasks))

    assert asyncio.run(main()) == [70, 90] and _limits.current_limit("dd_dim") == 64


@pytest.mark.parametrize(
    "values, error, words",
    [
        (
            {"exact_entrys": 5},
            pg.InvalidParameterError,
            ["unknown size limit 'exact_entrys'", "exact_entries", "dd_dim"],
        ),
        ({"dd_dim": 0}, pg.InvalidParameterError, ["dd_dim must be >= 1"]),
        ({"dd_dim": 2.5}, pg.InvalidTypeError, ["dd_dim"]),
        ({"dd_dim": True}, pg.InvalidTypeError, ["dd_dim"]),
        ({"dd_dim": "many"}, pg.InvalidParameterError, ["'many'"]),
        ({"dd_dim": 70, "lp_nonzeros": -1}, pg.InvalidParameterError, ["lp_nonzeros"]),  # nothing set: validated first
    ],
)
def test_bad_settings_are_refused_and_change_nothing(values: dict[str, Any], error: type, words: list[str]) -> None:
    before = dict(pg.get_limits())
    with pytest.raises(error) as err:
        pg.set_limits(**values)
    for w in words:
        assert w in str(err.value)
    with pytest.raises(error):
        with pg.limits(**values):
            pass
    assert dict(pg.get_limits()) == before


# ------------------------------------------------------------------------------------------------- refusals
def _rr3() -> Any:
    return pg.RandomizedResponse(3, "3/4")


def _smoothed_small() -> Any:
    """smoothed_delta of a non-anonymous mechanism on 3 agents with 2 records (8 databases, enumeration)."""
    from privgeom.testing import random_mechanism

    return pg.smoothed.smoothed_delta(random_mechanism(1, n=3), 0, ["1/5", "4/5"])


def _exact_counts() -> Any:
    from privgeom.voting._common import parse_rho
    from privgeom.voting._counts import accuracy_counts

    return accuracy_counts(pg.voting.majority(11), parse_rho("1/2"), exact=True)


#: name -> (low value that makes the call refuse, the call). The call succeeds at the defaults.
CASES: dict[str, tuple[int, Callable[[], Any]]] = {
    "dp_bounds_work": (3, lambda: pg.dp_bounds(pg.RandomizedResponse(2, "3/4"), "hamming")),
    "exact_entries": (10, lambda: pg.kary_randomized_response(4, exp_eps=3)),
    "dense_entries": (10, lambda: pg.kary_randomized_response(4, exp_eps=3.0)),
    "dd_dim": (3, lambda: pg.Cone.from_generators(np.eye(4, dtype=int)).facets),
    "dd_entries": (10, lambda: pg.Cone.from_generators([[1, 0, 0], [0, 1, 0], [0, 0, 1]]).facets),
    "canon_entries": (10, lambda: pg.Cone.from_generators([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]])),
    "fm_rows": (
        5,
        lambda: pg.Cone.from_generators(
            pg.randomized_response(3, "3/4").matrix, labels=pg.randomized_response(3, "3/4").inputs
        ).project(["111", "000"], method="fourier_motzkin"),
    ),
    "lp_nonzeros": (1, lambda: solve_lp(np.zeros(2), A_eq=np.ones((1, 2)), b_eq=np.ones(1))),
    "exact_lp_variables": (2, lambda: exact_nonnegative_solution(np.ones((1, 3), dtype=int), [1])),
    "adp_lp_variables": (
        4,
        lambda: pg.ApproximateDP(hamming_graph(2), exp_eps=2, delta="1/4").contains(
            pg.randomized_response(2, "3/4"), method="lp"
        ),
    ),
    "relax_family": (2, lambda: subset_family(["a", "b", "c"], "all-pairs")),
    "fm_eliminated": (1, lambda: relax(_rr3(), [("111", "110")], method="fourier_motzkin")),
    "block_work": (10, lambda: relax(_rr3(), [("111", "110")], method="block")),
    "cone_route_work": (10, lambda: relax(_rr3(), [("111", "110")], method="generators")),
    "domain_size": (10, lambda: pg.Domain.bits(4)),
    "graph_edges": (10, lambda: hamming_graph(3)),
    "path_work": (
        10,
        lambda: DifferenceSystem.from_bounds(["a", "b", "c"], [(0, 1, 2), (1, 2, 2), (0, 2, 5)], True).implied_bounds(),
    ),
    "lost_work": (1, lambda: relax(_rr3(), [("111", "110")], method="difference")),
    "adp_optimal_variables": (
        10,
        lambda: pg.optimal_mechanism(pg.parse_definition("adp:graph=complete,n=3,exp_eps=2,delta=1/10")),
    ),
    "optimal_lp_size": (10, lambda: pg.optimal_mechanism(pg.parse_definition("dp:graph=path,n=3,exp_eps=2"))),
    "profile_work": (10, lambda: pg.epsilon(pg.randomized_response(2, "3/4"), "hamming")),
    "ldp_outputs": (10, lambda: pg.unary_encoding(4, exp_eps=3)),
    "information_variables": (3, lambda: pg.least_informative(pg.RandomizedResponse(1, "3/4"), "accuracy", "2/3")),
    "smoothed_work": (
        1,
        lambda: pg.smoothed.smoothed_delta(
            pg.smoothed.SamplingHistogram(200, 180), 1.0, ["1/10", "1/2"], on_limit="raise"
        ),
    ),
    "smoothed_counts": (
        10,
        lambda: pg.smoothed.smoothed_delta(pg.smoothed.SamplingHistogram(20, 10), 1.0, ["1/10", "1/2"]),
    ),
    "voting_count_work": (10, lambda: pg.voting.epsilon(pg.voting.majority(11), 0.5, method="counts")),
    "voting_figure_work": (10, lambda: pg.voting.paper.majority_accuracy_data((0.5,), 5)),
    "smoothed_databases": (2, lambda: check_databases("sgd", 3)),
    "shm_matrix_entries": (
        10,
        lambda: pg.smoothed.smoothed_delta(pg.smoothed.SamplingHistogram(3, 2), 1.0, [["1/3", "1/3", "1/3"]]),
    ),
    "dp_rays": (10, lambda: dp_ray_patterns(hamming_graph(3))),  # at least 16 rays (proven bound), 38 in fact
    "dp_ray_steps": (5, lambda: dp_ray_patterns(path_graph(3))),
    # the path with 5 edges: at least 2^3 / 2 = 4 orbits (proven bound) under the reversal, 16 in fact
    "dp_ray_orbits": (3, lambda: dp_ray_orbits(pg.DifferentialPrivacy.path(5, exp_eps=2))),
    "dp_ray_group": (10, lambda: dp_ray_orbits(pg.DifferentialPrivacy.hamming(3, exp_eps=3))),  # 48 elements
    "listed_coefficients": (10, lambda: _check_listing(3, 4, "facets")),
    "permutation_entries": (10, lambda: pg.automorphisms(pg.RandomizedResponse(3, "3/4"))),
    "extreme_mechanism_rays": (3, lambda: extreme_mechanisms(pg.RandomizedResponse(2, "3/4").row_cone())),
    "staircase_inputs": (3, lambda: staircase_patterns(4, 3)),
    "file_bytes": (10, lambda: pg.Mechanism.load(ROOT / "examples" / "rr2_mechanism.json")),
    "grid_points": (3, lambda: expand_grid({"k": [1, 2], "p": ["2/3", "3/4"]})),
    "count_voters": (10, lambda: pg.voting.majority(11)),
    "callable_voters": (2, lambda: pg.voting.Rule.from_function(lambda x: x[0], 3)),
    "exact_count_voters": (10, _exact_counts),
    "smoothed_evaluations": (5, _smoothed_small),
    "smoothed_tensor_databases": (4, _smoothed_small),
    "recursion_voters": (3, lambda: pg.voting.accuracy(pg.voting.threshold(5, 0), "1/2", method="recursion")),
    "banzhaf_weight": (5, lambda: pg.voting.banzhaf([4, 2, 1, 1])),  # total weight 8
    "spectrum_voters": (3, lambda: _symmetric_spectrum(5)),
    "subset_sum_table": (10, lambda: _subset_sums()),  # (T + 1) x (3·2 + 1) = 21 entries
    "sampling_histograms": (3, lambda: _sampling_histograms()),  # C(5 + 1, 1) = 6 histograms
    "shuffle_tallies": (5, lambda: pg.shuffled(pg.randomized_response(1, "3/4"), 5).mechanism()),  # 6 tallies
    # 4 histograms of the others x 2 ordered pairs x 5^2 tallies = 200
    # (5 + 1) x (1 + 1) = 12
    "shuffle_dissenter_work": (10, lambda: _dissenter_pair()),
    # a mixed 3-ary pair in log space: box tallies x minority tallies (5 users outside the largest group)
    "shuffle_pair_work": (10, lambda: _mixed_pair()),
    "shuffle_certified_boxes": (
        5,
        lambda: pg.shuffled(pg.randomized_response(1, "3/4"), 60).worst_case("ln(6/5)", scope="certified"),
    ),
    "shuffle_exhaustive_work": (
        100,
        lambda: pg.shuffled(pg.randomized_response(1, "3/4"), 4).worst_case(0, scope="all"),
    ),
    # 3-RR composed 5 times: ratios 2^e on one edge, 11 atoms (more dynamic-program states on the way)
    "composition_atoms": (
        5,
        lambda: pg.compose(pg.kary_randomized_response(3, exp_eps=2), k=5).delta(
            [("0", "1")], exp_eps=2, route="exact"
        ),
    ),
    "certified_states": (
        3,
        lambda: pg.compose(pg.kary_randomized_response(3, exp_eps=2), k=5).delta(
            [("0", "1")], exp_eps=2, route="certified"
        ),
    ),
    # a finite definition with no closed form: its 3 facets come from an exact engine, counted on the answer
    "engine_rows": (
        2,
        lambda: (
            pg.FiniteDefinition([pg.Mechanism([["1/2", "1/4", "1/8"], ["1/4", "1/2", "1/8"], ["1/4", "1/4", "3/4"]])])
            .row_cone()
            .facets
        ),
    ),
    "composition_runs": (5, lambda: pg.compose(pg.randomized_response(1, "3/4"), k=6)),
    "composed_generators": (10, lambda: pg.compose(*[pg.parse_definition("dp:graph=complete,n=3,exp_eps=2")] * 2)),
}


def _symmetric_spectrum(n: int) -> Any:
    from privgeom.voting._fourier import symmetric_level_coefficients

    return symmetric_level_coefficients(pg.voting.majority(n))


def _subset_sums() -> Any:
    from privgeom.smoothed._subsetsum import SubsetSums

    return SubsetSums([1, 2, 3], 2)


def _mixed_pair() -> Any:
    S = pg.shuffled(pg.kary_randomized_response(3, exp_eps=3), 12)
    return S.delta(0.5, S.pair({"0": 6, "1": 3, "2": 2}, "0", "1"), method="log")


def _dissenter_pair() -> Any:
    S = pg.shuffled(pg.randomized_response(1, "3/4"), 5)
    return S.delta(0.5, S.pair({"1": 3, "0": 1}, "1", "0"), method="log")


def _sampling_histograms() -> Any:
    from privgeom.smoothed._subsetsum import expected_sampling_delta

    return expected_sampling_delta([[0.5, 0.5]], [5], 2, [1.0])


def _cycle6() -> Any:
    """ε-DP on the 6-cycle: no structural shortcut, the generic (VF2) search finds the dihedral group, order 12."""
    import networkx as nx

    return pg.DifferentialPrivacy(nx.relabel_nodes(nx.cycle_graph(6), str), exp_eps=2)


#: Budgets: limits past which a search returns a partial answer with a note naming the limit instead of refusing.
#: name -> (low value that stops the search, the call returning a SymmetryGroup).
BUDGETS: dict[str, tuple[int, Callable[[], Any]]] = {
    "symmetry_elements": (3, lambda: pg.automorphisms(_cycle6())),
    "symmetry_steps": (10, lambda: pg.automorphisms(_cycle6())),
    "symmetry_graph": (3, lambda: pg.automorphisms(_cycle6())),
}

#: Limits whose refusal cannot know the size needed (it is found while enumerating): the message says ``=N``, and the
#: default lets the call through.
NEED_UNKNOWN = {"dp_ray_steps", "composition_atoms", "shuffle_certified_boxes"}
#: Limits whose suggested value is a proven lower bound (more may be needed) or known step by step only.
NEED_AT_LEAST = {"fm_rows", "dp_rays", "dp_ray_orbits"}


#: Limits on wall-clock time (a foreign engine's worker is stopped after that many seconds): no size refuses them, so
#: they have no refusal case here; tests/geometry/test_engines.py stops a sleeping worker against a 1 s budget.
TIME_LIMITS = {"engine_seconds"}


def test_every_limit_has_a_refusal_case() -> None:
    assert set(CASES) | set(BUDGETS) | TIME_LIMITS == set(pg.get_limits()) and not set(CASES) & set(BUDGETS)


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_budget_stops_with_a_note_and_raising_it_completes(name: str) -> None:
    low, call = BUDGETS[name]
    full = call()
    assert full.complete and full.order == 12 and not full.note  # the dihedral group of the hexagon
    with pg.limits(**{name: low}):
        partial = call()
    assert not partial.complete and partial.order in (None, 1)  # a subgroup of unknown order, or not searched
    assert name in partial.note and f"pg.set_limits({name}=" in partial.note and f"{low:,}" in partial.note
    assert "--limit" not in partial.note
    with pg.limits(**{name: low}):  # a per-call keyword still overrides the limit
        keyword = {
            "symmetry_elements": "max_automorphisms",
            "symmetry_steps": "max_search_steps",
            "symmetry_graph": "max_search_graph",
        }[name]
        assert pg.automorphisms(_cycle6(), **{keyword: 10**7}).order == 12


@pytest.mark.parametrize("name", sorted(CASES))
def test_refusal_names_the_limit_and_raising_it_allows_the_call(name: str) -> None:
    low, call = CASES[name]
    call()  # fine at the defaults
    with pg.limits(**{name: low}):
        with pytest.raises(pg.SizeLimitError) as err:
            call()
    message = str(err.value)
    assert "\n" not in message
    assert f"pg.set_limits({name}=" in message and f"with pg.limits({name}=" in message, message
    assert f"{low:,}" in message  # the limit in force
    assert not re.search(r"privgeom\.[a-z_.]*\._[a-z]|\bMAX_[A-Z_]+\b", message), message
    assert "--limit" not in message  # the Python form in Python
    if name in NEED_UNKNOWN:
        assert f"pg.set_limits({name}=N)" in message
        return
    needed = int(re.search(rf"pg\.set_limits\({name}=(\d+)\)", message).group(1))  # type: ignore[union-attr]
    assert needed > low
    # the suggested value is enough, except where it is a lower bound (Fourier-Motzkin's rows, the rays' bound)
    with pg.limits(**{name: pg.get_limits().info(name).default if name in NEED_AT_LEAST else needed}):
        call()


def test_refused_before_allocating_and_allowed_when_raised() -> None:
    with pg.limits(exact_entries=10):
        with pytest.raises(pg.SizeLimitError, match=r"4 x 4 exact array \(16 entries.*limit 10 entries"):
            pg.kary_randomized_response(4, exp_eps=3)
        with pg.limits(exact_entries=16):
            M = pg.kary_randomized_response(4, exp_eps=3)
    assert M.exact and M.matrix[0, 0] == Fraction(1, 2)
    tracemalloc.start()
    try:
        with pytest.raises(pg.SizeLimitError) as err:
            pg.kary_randomized_response(8000, exp_eps=3)  # 6 GiB of Fractions
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20, peak
    assert "8000 x 8000" in str(err.value) and "6.0 GiB" in str(err.value)
    assert "pg.set_limits(exact_entries=64000000)" in str(err.value)


def test_sizes_no_memory_holds_say_the_memory_instead() -> None:
    with pytest.raises(pg.SizeLimitError) as err:
        pg.frapp(100, 4, 10)
    text = str(err.value)
    assert "100^10" in text and "10^42" in text and "no computer's memory" in text and "set_limits" not in text
    with pytest.raises(pg.SizeLimitError) as err:
        pg.frapp(100, 4, 4)  # 10^16 entries: beyond any memory, not worth raising a limit for
    assert "PiB" in str(err.value) and "set_limits" not in str(err.value)


# ------------------------------------------------------------------------------------------- source checks
#: Private module paths and module constants: neither belongs in a message a user reads.
PRIVATE = re.compile(r"privgeom\.[a-z_.]*\._[a-z]|\bMAX_[A-Z_]+\b")

#: Modules whose SizeLimitError messages still name a private module path or constant (owned by other work; they
#: should register their limit with privgeom._core.limits.register_limit and end with privgeom._core.hints.limit_hint).
#: Only shrinks: a listed module that no longer needs it fails test_allow_lists_are_not_stale.
MESSAGES_ALLOWED: frozenset[str] = frozenset()

#: Modules that bind a registered limit at import (``from .._core.arrays import MAX_EXACT_ENTRIES``): they do not see
#: pg.set_limits. Only shrinks.
BINDINGS_ALLOWED = frozenset(
    {
        "privgeom/analyses/profiles/_profile.py",  # re-exports MAX_PROFILE_WORK of _scan (profile_work)
    }
)


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob(PY_FILES))


def _call_name(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


@functools.lru_cache(maxsize=None)
def _tree(source: str) -> ast.AST:
    """The parsed module (each source file is read by several checks)."""
    return ast.parse(source)


def private_names_in_messages(source: str) -> list[tuple[int, str]]:
    """``(line, match)`` of private paths/constants in string literals passed to ``SizeLimitError(...)`` or as a
    ``hint=`` (which ends up in a refusal message).

    >>> private_names_in_messages('raise SizeLimitError(f"n = {n} > MAX_N; raise privgeom.x._y.MAX_N")')
    [(1, 'MAX_N'), (1, 'privgeom.x._y'), (1, 'MAX_N')]
    >>> private_names_in_messages('check(n, hint="the max_n= keyword")')
    []
    """
    found = []
    for node in ast.walk(_tree(source)):
        if not isinstance(node, ast.Call):
            continue
        parts: list[ast.AST] = list(node.args) if _call_name(node) == "SizeLimitError" else []
        parts += [k.value for k in node.keywords if k.arg == "hint"]
        for part in parts:
            for sub in ast.walk(part):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    found += [(sub.lineno, m.group()) for m in PRIVATE.finditer(sub.value)]
    return found


def limit_bindings(source: str, constants: set[str]) -> list[tuple[int, str]]:
    """``(line, name)`` of ``from ... import NAME`` of a registered limit constant."""
    return [
        (node.lineno, alias.name)
        for node in ast.walk(_tree(source))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name in constants
    ]


def _offenders(check: Callable[[str], list[tuple[int, str]]]) -> dict[str, list[tuple[int, str]]]:
    out = {}
    for path in _modules():
        found = check(path.read_text(encoding="utf-8"))
        if found:
            out[str(path.relative_to(ROOT))] = found
    return out


def _constants() -> set[str]:
    return {info.constant.rpartition(".")[2] for info in pg.get_limits().entries}


def test_no_refusal_message_names_a_private_module() -> None:
    bad = {k: v for k, v in _offenders(private_names_in_messages).items() if k not in MESSAGES_ALLOWED}
    assert not bad, f"name the public limit (privgeom._core.hints.limit_hint) instead: {bad}"


def test_no_module_binds_a_limit_at_import() -> None:
    constants = _constants()
    bad = {k: v for k, v in _offenders(lambda s: limit_bindings(s, constants)).items() if k not in BINDINGS_ALLOWED}
    assert not bad, f"read the limit at call time (module.MAX_...), not a binding made at import: {bad}"


#: Modules that read a registered limit's module constant outside a size check (the process value only, never a
#: ``with pg.limits(...)`` override): help texts built at import and a derived import-time default. Only shrinks.
READS_ALLOWED = frozenset(
    {
        "privgeom/cli/_closures.py",  # --help shows the default of optimal_lp_size
        "privgeom/cli/_profile.py",  # --help shows the default of profile_work
        "privgeom/voting/_rule.py",  # MAX_TABLE_BITS: the documented default, derived from dense_entries at import
    }
)


def constant_reads(source: str, constants: set[str]) -> list[tuple[int, str]]:
    r"""``(line, name)`` of every read of a registered limit's constant (``MAX_X`` or ``module.MAX_X``) outside the
    ``register_limit(...)`` call that registers it: a reader must call ``current_limit(name)`` instead, which sees
    the overrides of ``pg.limits`` (thread- and task-local) and a sweep's limits on its workers.

    >>> constant_reads("MAX_N = 3\nregister_limit('n', globals(), 'MAX_N', 'x')\nif k > MAX_N: pass", {"MAX_N"})
    [(3, 'MAX_N')]
    >>> constant_reads("if k > current_limit('n'): pass", {"MAX_N"})
    []
    """
    tree = _tree(source)
    skip = {
        id(n)
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and _call_name(call) == "register_limit"
        for n in ast.walk(call)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name in constants and isinstance(getattr(node, "ctx", None), ast.Load):
            found.append((node.lineno, name))
    return sorted(found)


def test_every_size_check_reads_the_limit_in_force() -> None:
    constants = _constants()
    bad = {k: v for k, v in _offenders(lambda s: constant_reads(s, constants)).items() if k not in READS_ALLOWED}
    assert not bad, f"read the limit with privgeom._core.limits.current_limit(name) at call time: {bad}"


def test_allow_lists_are_not_stale() -> None:
    constants = _constants()
    assert not MESSAGES_ALLOWED - set(_offenders(private_names_in_messages)), "remove converted modules"
    assert not BINDINGS_ALLOWED - set(_offenders(lambda s: limit_bindings(s, constants))), "remove converted modules"
    assert not READS_ALLOWED - set(_offenders(lambda s: constant_reads(s, constants))), "remove converted modules"
