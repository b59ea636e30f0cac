"""Abstract contract bases: every ε / δ fast path agrees with the generic core route on shared cases.

In the style of dp_accounting's shared accountant tests: a test module subclasses :class:`EpsilonContract` or
:class:`DeltaContract` (class name starting with ``Test``) and implements ``cases()``; the base class holds the
tests, parametrised over the cases by its ``pytest_generate_tests`` method, so every fast path is held to the same
assertions:

- the fast result is an instance of the core result type (``EpsilonResult`` / ``DeltaResult``);
- same value as ``privgeom.epsilon`` / ``privgeom.delta`` on the same mechanism and neighbour graph — exactly equal
  when both are exact, within ``atol`` (relative to 1 + |value|) otherwise — and the same mode (``exact``,
  ``infinite``);
- the fast path's witness is genuine: its edge is an edge of the graph and its probabilities are the mechanism's
  entries (ε: ``p / q = e^ε``; δ: the edge's hockey-stick divergence is δ and, when the event ``S`` is listed,
  ``P(S | D) − e^ε P(S | D') = δ``).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

import networkx as nx
import pytest

import privgeom as pg
from privgeom import Result
from privgeom.analyses.profiles._hockey_stick import DeltaResult, hockey_stick
from privgeom.analyses.profiles._pure_dp import EpsilonResult

#: Tolerance of float comparisons (relative to 1 + |value|).
ATOL = 1e-9


@dataclass(frozen=True)
class ProfileCase:
    """One shared case: a fast path and the inputs of the generic route.

    ``fast()`` returns the fast path's result; ``mechanism()`` the matrix the generic route sees; ``graph(M)`` the
    neighbour graph on ``M.inputs``; ``eps`` the level for δ cases (passed to ``privgeom.delta`` as ``eps=``).
    """

    name: str
    fast: Callable[[], Any]
    mechanism: Callable[[], pg.Mechanism]
    graph: Callable[[pg.Mechanism], nx.Graph]
    eps: Any = None
    atol: float = ATOL
    notes: dict[str, Any] = field(default_factory=dict)


def close(a: Any, b: Any, atol: float) -> bool:
    """Exact equality for exact values, else a float comparison relative to ``1 + |value|``."""
    fa, fb = float(a), float(b)
    if math.isinf(fa) or math.isinf(fb):
        return fa == fb
    return abs(fa - fb) <= atol * (1.0 + abs(fa))


class _Contract(ABC):
    """Parametrises every test method with a ``case`` argument over ``cases()``."""

    @classmethod
    @abstractmethod
    def cases(cls) -> Sequence[ProfileCase]:
        """The shared cases this fast path is checked on."""

    def pytest_generate_tests(self, metafunc: Any) -> None:
        if "case" in metafunc.fixturenames:
            cases = list(metafunc.cls.cases())
            assert cases, f"{metafunc.cls.__name__}.cases() is empty: a contract must be run on at least one case"
            metafunc.parametrize("case", cases, ids=[c.name for c in cases])


class EpsilonContract(_Contract):
    """Fast ε paths: the result must be an ``EpsilonResult`` equal to ``privgeom.epsilon`` on the same graph."""

    def test_result_type(self, case: ProfileCase) -> None:
        fast = case.fast()
        assert isinstance(fast, EpsilonResult), type(fast)
        assert isinstance(fast, Result) and isinstance(fast.to_json(), str) and fast.summary()

    def test_agrees_with_core_epsilon(self, case: ProfileCase) -> None:
        M = case.mechanism()
        core = pg.epsilon(M, case.graph(M))
        fast = case.fast()
        assert fast.exact == core.exact, (fast.exact, core.exact)
        assert fast.infinite == core.infinite
        assert type(fast.level.eps) is type(core.level.eps)
        if core.exact and not core.infinite:
            assert fast.level.eps == core.level.eps, (str(fast.level.eps), str(core.level.eps))
        else:
            assert close(fast.level.eps, core.level.eps, case.atol), (float(fast.level.eps), float(core.level.eps))

    def test_witness_is_genuine(self, case: ProfileCase) -> None:
        fast = case.fast()
        if fast.edge is None or fast.p is None:  # visible in the report, never a silent pass
            why = "ε = 0: every edge attains the ratio 1" if float(fast.level.eps) == 0 else "no reason documented"
            pytest.skip(
                f"{case.name}: the fast path names no witness for ε = {fast.level.eps} (edge {fast.edge}, "
                f"p {fast.p}); {case.notes.get('no_witness', why)}"
            )
        M = case.mechanism()
        G = case.graph(M)
        d, d2 = fast.edge
        assert G.has_edge(d, d2), fast.edge
        w = M.outputs.index(fast.output)
        p, q = M.matrix[w, M.inputs.index(d)], M.matrix[w, M.inputs.index(d2)]
        if fast.exact:
            assert (p, q) == (fast.p, fast.q)
        else:
            assert close(p, fast.p, case.atol) and close(q, fast.q, case.atol)
        if fast.infinite:
            assert q == 0 and p > 0
        elif fast.exact:
            assert Fraction(p) / Fraction(q) == fast.level.eps.ratio
        else:
            assert close(math.log(float(p)) - math.log(float(q)), fast.level.eps, case.atol)


class DeltaContract(_Contract):
    """Fast δ(ε) paths: the result must be a ``DeltaResult`` equal to ``privgeom.delta`` on the same graph."""

    def test_result_type(self, case: ProfileCase) -> None:
        fast = case.fast()
        assert isinstance(fast, DeltaResult), type(fast)
        assert isinstance(fast.to_json(), str) and fast.summary()

    def test_agrees_with_core_delta(self, case: ProfileCase) -> None:
        M = case.mechanism()
        core = pg.delta(M, case.graph(M), case.eps)
        fast = case.fast()
        assert fast.exact == core.exact
        if core.exact:
            assert fast.delta == core.delta, (fast.delta, core.delta)
        else:
            assert close(fast.delta, core.delta, case.atol), (fast.delta, core.delta)

    def test_witness_is_genuine(self, case: ProfileCase) -> None:
        fast = case.fast()
        if fast.edge is None:
            if fast.delta == 0 and not fast.outputs:  # the value itself is checked by test_agrees_with_core_delta
                pytest.skip(f"{case.name}: δ = 0, no edge to attain it")
            pytest.skip(
                f"{case.name}: the fast path names no edge for δ = {fast.delta}; "
                f"{case.notes.get('no_witness', 'no reason documented for this case')}"
            )
        M = case.mechanism()
        G = case.graph(M)
        d, d2 = fast.edge
        assert G.has_edge(d, d2), fast.edge
        i, j = M.inputs.index(d), M.inputs.index(d2)
        # the edge attains δ: its hockey-stick divergence (the core kernel on the two columns) is δ
        edge_value = hockey_stick(list(M.matrix[:, i]), list(M.matrix[:, j]), fast.level.exp_eps)
        assert edge_value == fast.delta if fast.exact else close(edge_value, fast.delta, case.atol)
        if fast.outputs or fast.delta != 0:  # δ = 0 with no event: the edge check above is the whole witness
            if not fast.outputs or fast.p_event != fast.p_event:
                pytest.skip(
                    f"{case.name}: the edge attains δ (checked) but the event is not listed "
                    f"(outputs {len(fast.outputs)}, p_event {fast.p_event}); "
                    f"{case.notes.get('no_event', 'a tail-sum fast path reports no event')}"
                )
            S = [M.outputs.index(o) for o in fast.outputs]
            P = sum((M.matrix[w, i] for w in S), Fraction(0) if M.exact else 0.0)
            Q = sum((M.matrix[w, j] for w in S), Fraction(0) if M.exact else 0.0)
            value = P - fast.level.exp_eps * Q if S else 0
            if fast.exact:
                assert (P, Q) == (fast.p_event, fast.q_event) and value == fast.delta
            else:
                assert close(value, fast.delta, case.atol)
