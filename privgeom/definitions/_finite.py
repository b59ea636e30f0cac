"""Finite privacy definitions ``Priv = {M_1, …, M_m}`` and their consistent closure.

Lin & Kifer (Theorem 3.4): the consistent closure of ``{M_1..M_m}`` is the set of all ``Σ_j λ_j A_j M_j`` with
column-stochastic ``A_j`` and a probability vector ``λ``. Membership is an LP (``_closure.py``), or a linear solve
when the definition is one mechanism with linearly independent rows (after dropping zero rows and merging
proportional ones), in which case the row cone decides the closure (``docs/theory.md`` §3).
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .._core.errors import DomainMismatchError, InvalidInputError, InvalidTypeError
from .._core.level import ScalarLike
from ..mechanisms import Mechanism
from ..geometry._symmetry import automorphisms, finite_automorphisms
from ._base import ClosureWitness, Membership, PrivacyDefinition, RowCertificate
from ._closure import closure_lp_membership, verify_closure_witness
from ._nearest import ClosureDescription, closure_description
from ._rows import (
    as_vector,
    cone_lp_membership,
    format_inequality,
    independent_row_membership,
    independent_rows_membership,
    reduce_rows,
    rows_independent,
)

__all__ = ["FiniteDefinition"]

_NOT_DECIDED = (
    "the row cone does not decide closure membership for this definition (rows linearly dependent or "
    "several mechanisms), so the closure LP decided"
)


class FiniteDefinition(PrivacyDefinition):
    """The privacy definition ``{M_1, …, M_m}`` given by finitely many mechanisms on the same datasets.

    Parameters
    ----------
    mechanisms : Mechanism or sequence of Mechanism
        The mechanisms; they must share their inputs (labels and order). The definition is exact when every
        mechanism is exact; otherwise all are used in float mode.
    name : str, optional
        Display name.
    source : str, optional
        File the mechanisms were read from (used by :meth:`spec`).

    Raises
    ------
    InvalidTypeError
        Something that is not a Mechanism.
    DomainMismatchError
        Mechanisms with different inputs.
    InvalidInputError
        An empty list.

    Notes
    -----
    ``contains(M, method=...)`` accepts ``"lp"`` (always), and ``"linear-solve"`` / ``"row-cone"`` when
    :attr:`row_cone_decides_closure` holds (see :attr:`membership_methods`). ``"auto"`` uses the linear solve when
    it applies and the LP otherwise. Mixed exact/float comparisons run in float mode and report ``exact=False``.

    Examples
    --------
    The 3x2 example of ``docs/theory.md`` §3: the row cone is the whole orthant, yet the identity is not in
    the closure, so the row cone does not decide membership here and the LP is used.

    >>> from privgeom import Mechanism
    >>> M = Mechanism([["1/2", 0], ["1/2", "1/2"], [0, "1/2"]], inputs=["a", "b"])
    >>> D = FiniteDefinition([M])
    >>> D.row_cone_decides_closure
    False
    >>> ans = D.contains(Mechanism([[1, 0], [0, 1]], inputs=["a", "b"]))
    >>> ans.member, ans.method
    (False, 'lp')
    >>> D.contains(M.post_process([[1, 1, 0], [0, 0, 1]])).member
    True
    """

    def __init__(
        self, mechanisms: Mechanism | Sequence[Mechanism], *, name: str | None = None, source: str | None = None
    ) -> None:
        if isinstance(mechanisms, Mechanism):
            mechanisms = [mechanisms]
        if isinstance(mechanisms, (str, bytes)) or not isinstance(mechanisms, Sequence):
            raise InvalidTypeError(
                f"FiniteDefinition takes a Mechanism or a list of them, got {type(mechanisms).__name__}"
            )
        mechs = list(mechanisms)
        if not mechs:
            raise InvalidInputError("FiniteDefinition needs at least one mechanism")
        for j, M in enumerate(mechs):
            if not isinstance(M, Mechanism):
                raise InvalidTypeError(f"FiniteDefinition: item {j} is a {type(M).__name__}, not a Mechanism")
        inputs = mechs[0].inputs
        for j, M in enumerate(mechs[1:], start=1):
            if M.inputs != inputs:
                raise DomainMismatchError(
                    f"FiniteDefinition: mechanism {j} has inputs {list(M.inputs)[:8]}, mechanism 0 has {list(inputs)[:8]}"
                )
        self._exact = all(M.exact for M in mechs)
        self._mechs = tuple(M if self._exact else M.to_float() for M in mechs)
        self._inputs = tuple(inputs)
        self._name = name
        self._source = source
        #: assembled closure-LP models (HiGHS), reused by later queries: see :meth:`contains`
        self._lp_cache: dict[Any, Any] = {}

    @property
    def membership_methods(self) -> tuple[str, ...]:
        """``("lp", "linear-solve", "row-cone")`` when the row cone decides the closure, else ``("lp",)``.

        Computed lazily (the independence test is an exact rank); subclasses may assign a tuple to extend it.
        """
        override = self.__dict__.get("_methods_override")
        if override is not None:
            return override
        return ("lp", "linear-solve", "row-cone") if self._decides else ("lp",)

    @membership_methods.setter
    def membership_methods(self, value: tuple[str, ...]) -> None:
        self.__dict__["_methods_override"] = tuple(value)

    def check_method(self, method: str) -> str:
        """Validate ``method``; ``"linear-solve"``/``"row-cone"`` are refused, saying why, where the row cone does not
        decide the closure."""
        from .._core.errors import InvalidParameterError

        if method in ("linear-solve", "row-cone") and method not in self.membership_methods:
            raise InvalidParameterError(
                f"{self.name}: method {method!r} is not available because the row cone does not decide closure "
                "membership for this definition (rows linearly dependent or several mechanisms); use 'lp' or 'auto'"
            )
        return super().check_method(method)

    # ------------------------------------------------------------------------------------------------ identity
    @property
    def name(self) -> str:
        if self._name:
            return self._name
        m = len(self._mechs)
        return f"finite definition ({m} mechanism{'s' if m > 1 else ''} on {self.n_inputs} datasets)"

    @property
    def mechanisms(self) -> tuple[Mechanism, ...]:
        """The mechanisms ``M_1..M_m``."""
        return self._mechs

    def spec(self) -> str:
        """``finite:file=<path>`` when read from a file, else ``finite:json=<compact JSON list>``."""
        if self._source is not None:
            return f"finite:file={self._source}"
        return "finite:json=" + json.dumps([M.to_dict() for M in self._mechs], separators=(",", ":"))

    @classmethod
    def load(cls, path: str | Path) -> "FiniteDefinition":
        """Read a JSON file holding one mechanism or a list of mechanisms (``Mechanism.to_json`` format)."""
        from .._core.io import read_text

        text = read_text(path, what="definition", kind="JSON text")
        return cls(_mechanisms_from_json(text, where=str(path)), source=str(path))

    # ------------------------------------------------------------------------------------------------ structure
    def _matrices(self, exact: bool) -> list[np.ndarray]:
        return [M.matrix if exact else M.float_matrix() for M in self._mechs]

    @cached_property
    def _reduced(self) -> tuple[np.ndarray, list[int]]:
        return reduce_rows(self._matrices(self._exact)[0], exact=self._exact)

    @cached_property
    def _decides(self) -> bool:
        if len(self._mechs) != 1:
            return False
        G, _ = self._reduced
        return rows_independent(G, exact=self._exact)

    @property
    def row_cone_decides_closure(self) -> bool:
        """True when the definition is one mechanism whose rows are linearly independent after dropping zero rows
        and merging proportional rows (then ``M' ∈ closure`` iff every row of ``M'`` is in the row cone). False
        means the row cone is not known to decide membership; the LP is used instead."""
        return self._decides

    def _generators(self, exact: bool) -> np.ndarray:
        mats = self._matrices(exact)
        G = np.vstack(mats)
        keep = [i for i in range(G.shape[0]) if any(v != 0 for v in G[i])]
        return G[keep]

    def row_cone(self) -> Any:
        """The cone generated by every row of every mechanism (a V-representation; Definition 3.5), built once."""
        from ..geometry._cone import Cone

        return self._cached_row_cone(
            lambda: Cone.from_generators(self._generators(self._exact), exact=self._exact, labels=self._inputs)
        )

    # ------------------------------------------------------------------------------------------------ membership
    def closure_lp(
        self,
        mechanism: Mechanism,
        *,
        atol: float | None = None,
        solver: str | None = None,
        reduce: bool = True,
        max_nonzeros: int | None = None,
    ) -> Membership:
        """Closure membership by the LP of Theorem 3.4 (what ``contains(M, method="lp")`` runs), with its options.

        The LP is assembled once per number of outputs, kept on the definition and re-solved from its previous
        basis for later queries (``_closure_model.py``); witness or certificate are re-verified as always.

        Parameters
        ----------
        mechanism : Mechanism
            Over the same inputs as the definition.
        atol : float, optional
            Float-mode tolerance (default ``privgeom._core.arrays.ATOL``).
        solver : {"dual", "primal", "simplex", "ipm", "choose"}, optional
            HiGHS algorithm (default: the interior-point method, chosen by measurement in
            ``benchmarks/bench_closure_lp.py``; the simplex variants re-solve from the previous basis).
        reduce : bool
            Reduce the LP by the row space of the mechanisms (default); False solves the unreduced LP.
        max_nonzeros : int, optional
            Size limit of the LP (default ``privgeom.geometry._lp.MAX_LP_NONZEROS``), checked before building.

        Examples
        --------
        >>> from privgeom import Mechanism
        >>> D = FiniteDefinition([Mechanism([["1/2", 0], ["1/2", "1/2"], [0, "1/2"]], inputs=["a", "b"])])
        >>> I2 = Mechanism([[1, 0], [0, 1]], inputs=["a", "b"])
        >>> [D.closure_lp(I2, solver=s, reduce=r).member for s in ("dual", "ipm") for r in (True, False)]
        [False, False, False, False]
        """
        M = self.check_mechanism(mechanism)
        tol = self._tol(atol)
        exact = self._exact and M.exact
        mats = self._matrices(exact)
        target = M.matrix if exact else M.float_matrix()
        by_lp = closure_lp_membership(
            mats,
            target,
            exact=exact,
            atol=tol,
            what=self.name,
            solver=solver,
            reduce=reduce,
            cache=self._lp_cache,
            max_nonzeros=max_nonzeros,
        )
        if not self.row_cone_decides_closure:
            by_lp = replace(by_lp, detail=f"{by_lp.detail}; {_NOT_DECIDED}" if by_lp.detail else _NOT_DECIDED)
        return by_lp

    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership:
        """Consistent-closure membership (Lin & Kifer, Theorem 3.4) with a verified witness or certificate.

        Parameters
        ----------
        mechanism : Mechanism
            Over the same inputs as the definition.
        method : {"auto", "lp", "linear-solve", "row-cone"}
            ``"linear-solve"`` and ``"row-cone"`` only when :attr:`row_cone_decides_closure`; ``"lp"`` runs
            :meth:`closure_lp` with its defaults (call that method to choose the HiGHS solver or the reduction).
        atol : float, optional
            Float-mode tolerance (default ``privgeom._core.arrays.ATOL``).

        Raises
        ------
        DomainMismatchError
            The mechanism has other inputs.
        InvalidParameterError
            An unknown method, or a row-cone method where the row cone does not decide.
        SolverError
            The LP failed or nothing could be verified.
        """
        M = self.check_mechanism(mechanism)
        self.check_method(method)
        tol = self._tol(atol)
        exact = self._exact and M.exact
        mats = self._matrices(exact)
        target = M.matrix if exact else M.float_matrix()
        if method == "auto":
            method = "linear-solve" if self._decides else "lp"
        if method == "lp":
            return self.closure_lp(M, atol=tol)
        if method == "row-cone":
            return self._by_row_cone(target, exact, tol, M.outputs)
        G, index = self._reduced
        if not exact and self._exact:
            G = G.astype(float)
        ans = independent_rows_membership(
            G,
            target,
            exact=exact,
            labels=self._inputs,
            outputs=M.outputs,
            atol=tol,
            index=index,
            n_original=mats[0].shape[0],
        )
        if ans is not None and ans.member and isinstance(ans.witness, ClosureWitness):
            resid = verify_closure_witness(mats, target, ans.witness, exact=exact, atol=tol)
            if resid is None:
                ans = None
        if ans is None:  # float mode at the tolerance boundary: the LP decides
            return self.closure_lp(M, atol=tol)
        return ans

    def _by_row_cone(self, target: np.ndarray, exact: bool, atol: float, outputs: Sequence[str]) -> Membership:
        cone = self.row_cone()
        for o, x in enumerate(target):
            ans = cone.contains(x if exact else x.astype(float), atol=atol)
            if not ans.member:
                normal, value = np.asarray(ans.normal), ans.value
                if ans.kind == "equality" and value > 0:
                    normal, value = -normal, -value
                cert = RowCertificate(
                    row=o,
                    output=outputs[o],
                    normal=normal,
                    value=value,
                    inequality=format_inequality(normal, self._inputs),
                    label=f"{ans.kind} {ans.violated}",
                )
                return Membership(
                    member=False,
                    method="row-cone",
                    exact=bool(ans.exact),
                    certificate=cert,
                    detail=f"row {outputs[o]!r} leaves the row cone ({ans.kind} {ans.violated})",
                )
        return Membership(
            member=True,
            method="row-cone",
            exact=exact,
            detail="every row satisfies every facet of the row cone (independent rows: this decides)",
        )

    def contains_row(self, x: Sequence[ScalarLike] | np.ndarray, *, atol: float | None = None) -> Membership:
        """Is the vector ``x`` in the row cone (the cone generated by all rows)? Verified witness or certificate.

        Examples
        --------
        >>> from privgeom import Mechanism
        >>> D = FiniteDefinition([Mechanism([["3/4", "1/4"], ["1/4", "3/4"]])])
        >>> D.contains_row(["1/2", "1/2"]).member, D.contains_row([1, 0]).member
        (True, False)
        """
        tol = self._tol(atol)
        vec, exact = as_vector(x, self.n_inputs, exact=self._exact)
        if vec.dtype.kind in "iu":
            vec = np.array([int(v) for v in vec], dtype=object) if exact else vec.astype(float)
        if exact:
            from fractions import Fraction

            vec = np.array([Fraction(v) for v in vec], dtype=object)
        if self._decides:
            G, _ = self._reduced
            ans = independent_row_membership(
                G if exact else G.astype(float), vec, exact=exact, labels=self._inputs, atol=tol
            )
            if ans is not None:
                return ans
        G = self._generators(exact)
        return cone_lp_membership(G, vec, exact=exact, labels=self._inputs, atol=tol, what=self.name + " row cone")


def _mechanisms_from_json(text: str, *, where: str) -> list[Mechanism]:
    from .._core.errors import FormatError

    from .._core.io import parse_json

    data = parse_json(text, what="mechanism list", where=where)
    items = data if isinstance(data, list) else [data]
    if not items:
        raise FormatError(f"{where}: an empty list of mechanisms")
    out = []
    for j, item in enumerate(items):
        try:
            out.append(Mechanism.from_json(item))
        except FormatError as err:
            raise FormatError(f"{where}: mechanism {j}: {err}") from None
    return out


# privgeom.automorphisms (geometry never imports definitions) and the closure of d.nearest's LP, beside the type
automorphisms.register(FiniteDefinition, finite_automorphisms)


@closure_description.register(FiniteDefinition)
def _finite_description(definition: FiniteDefinition, exact: bool) -> ClosureDescription:
    # N = Σ_j B_j M_j with B_j ≥ 0 summing to λ_j per column (Lin & Kifer, Theorem 3.4: B_j = λ_j A_j)
    mats = tuple(M.matrix if exact else M.float_matrix() for M in definition.mechanisms)
    return ClosureDescription(kind="mixture", mats=mats)
