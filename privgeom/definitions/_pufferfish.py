"""Pufferfish privacy with a finite set of priors: linear row constraints, row cone in H-representation.

A Pufferfish instantiation (Kifer & Machanavajjhala, *A rigorous and customizable framework for privacy*, PODS 2012;
*Pufferfish: A framework for mathematical privacy definitions*, ACM TODS 39(1), 2014, Definition 3.1) consists of

* a set of **secrets** — here each secret ``s`` is a set of datasets (the statement "the data is in ``s``");
* **discriminative pairs** ``(s_i, s_j)`` of secrets that must stay indistinguishable;
* a set ``Θ`` of **priors** θ over the datasets (the attacker's possible beliefs about how the data was generated).

``M`` satisfies ε-Pufferfish when for every θ ∈ Θ, every pair with ``θ(s_i) > 0`` and ``θ(s_j) > 0``, and every
output ω,

    ``P(M(Data) = ω | s_i, θ) ≤ e^ε P(M(Data) = ω | s_j, θ)`` and the same with ``i, j`` swapped,

where ``P(M(Data) = ω | s, θ) = Σ_D M[ω, D] θ(D | s)`` and ``θ(D | s) = θ(D) 1[D ∈ s] / θ(s)``. Each condition is
linear and homogeneous in the row ``x = M[ω, :]``:

    ``Σ_D x_D [e^ε θ(D | s_j) − θ(D | s_i)] ≥ 0``.

Hence (Lin & Kifer, row-cone analysis, §III-B.1 and §III-D.1) Pufferfish equals its own consistent closure and is
decided row by row: its row cone is ``{x ≥ 0 : every condition above}``, given directly in H-representation.
(Every ``x`` in that cone is, up to scale, a row of the member ``[[c x], [1 − c x]]`` for small ``c > 0``: each
condition's normal ``a`` has ``a · 1 = e^ε − 1 ≥ 0``, so ``1 − c x`` stays in the cone — see
:meth:`Pufferfish.contains_row`.)

With secrets the single datasets ``{D}``, pairs the edges of a graph and any prior of full support,
``θ(· | {D}) = e_D`` and the conditions are exactly ε-DP over the graph (:meth:`Pufferfish.from_graph`).

JSON format (``pufferfish:file=spec.json``)
--------------------------------------------
::

    {
      "privgeom": "pufferfish",                       (optional tag)
      "datasets": ["11", "10", "01", "00"],           dataset labels, in order (the mechanism's inputs)
      "secrets": {"bob=1": ["11", "10"],              name -> non-empty list of datasets
                  "bob=0": ["01", "00"]},
      "pairs": [["bob=1", "bob=0"]],                  discriminative pairs (both directions are enforced)
      "priors": [{"11": "1/4", "10": "1/4",           one or more priors: {dataset: probability} (missing = 0)
                  "01": "1/4", "00": "1/4"},          or a list of probabilities in dataset order;
                 ["1/2", 0, 0, "1/2"]],               each non-negative and summing to 1
      "exp_eps": "3"                                  or "eps": 0.5 (exactly one)
    }

Probabilities and ``exp_eps`` given as strings or integers are exact rationals (``"1/4"``); JSON floats make the
definition float. :meth:`Pufferfish.spec` returns ``pufferfish:file=PATH`` for a definition loaded from a file and
otherwise the self-contained ``pufferfish:data=<URL-safe base64 of the compact JSON, unpadded>``.

Examples
--------
>>> from privgeom import Mechanism, randomized_response
>>> pf = Pufferfish(["11", "10", "01", "00"], {"bob=1": ["11", "10"], "bob=0": ["01", "00"]},
...                 [("bob=1", "bob=0")], [["1/4", "1/4", "1/4", "1/4"]], exp_eps=3)
>>> pf.n_conditions, pf.row_cone().n_facets     # 2 conditions + 4 non-negativity facets
(2, 6)
>>> bool(pf.contains(randomized_response(2, "3/4")))
True
>>> no = pf.contains(Mechanism([[1, 0, 0, 0], [0, 1, 1, 1]], inputs=["11", "10", "01", "00"]))
>>> bool(no), no.certificate.inequality
(False, '1/2·x[11] + 1/2·x[10] ≤ 3·(1/2·x[01] + 1/2·x[00])  [prior 0]')
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Mapping, NamedTuple, Sequence, TypeAlias

import networkx as nx
import numpy as np

from .._core.domain import Domain
from .._core.errors import DomainMismatchError, FormatError, InvalidInputError, InvalidParameterError, InvalidTypeError
from .._core.io import parse_json, read_text
from .._core.arrays import ATOL, readonly
from .._core.numbers import parse_scalar, Scalar, scalar_to_json
from .._core.numbers import number_text as _fmt
from ..mechanisms import Mechanism
from ._dp import dp_level
from ._base import HasLevel, Membership, PrivacyDefinition, RowCertificate
from .._core.level import LevelLike, ScalarLike

__all__ = ["Pufferfish", "PufferfishCondition", "PUFFERFISH_JSON_KEYS"]

#: Keys of the Pufferfish JSON format (see the module docstring).
PUFFERFISH_JSON_KEYS = ("privgeom", "datasets", "secrets", "pairs", "priors", "eps", "exp_eps")


@dataclass(frozen=True)
class PufferfishCondition:
    """One linear row condition ``normal · x ≥ 0``: ``P(ω | s_i, θ) ≤ e^ε P(ω | s_j, θ)`` for prior ``prior``."""

    prior: int
    secret_i: str
    secret_j: str
    normal: np.ndarray

    @property
    def label(self) -> str:
        """``"prior 0: bob=1 vs bob=0"``."""
        return f"prior {self.prior}: {self.secret_i} vs {self.secret_j}"


#: One prior θ: ``{dataset: probability}`` (missing datasets have probability 0) or the probabilities in dataset order.
PriorLike: TypeAlias = Mapping[str, ScalarLike] | Sequence[ScalarLike]


class _Failure(NamedTuple):
    """A row condition that fails: its readable ``text``, ``normal · x = value < 0``, and its ``label``."""

    text: str
    normal: np.ndarray
    value: Any
    label: str


class Pufferfish(HasLevel, PrivacyDefinition):
    """ε-Pufferfish privacy with finitely many priors (Kifer & Machanavajjhala, TODS 2014, Definition 3.1).

    Parameters
    ----------
    datasets : sequence of str
        The input domain, in order.
    secrets : mapping str -> iterable of str
        Each secret is a non-empty set of datasets.
    pairs : iterable of (str, str)
        Discriminative pairs of secret names (each enforced in both directions).
    priors : sequence of (mapping dataset -> probability, or sequence in dataset order)
        The attacker's possible priors ``θ``; each must be a probability vector over ``datasets``.
    eps, exp_eps : number, exactly one
        ``ε ≥ 0`` or ``e^ε ≥ 1`` (rational ``exp_eps`` and rational priors give exact mode).
    atol : float
        Float-mode tolerance.

    Raises
    ------
    InvalidInputError
        Unknown datasets or secrets, empty secrets, a pair of a secret with itself, repeated labels.
    InvalidParameterError
        A prior that is negative or does not sum to 1; bad ``eps``.

    Notes
    -----
    A pair whose secret has prior probability 0 under θ imposes nothing for that θ (Pufferfish conditions on the
    secret). Conditions are listed in :attr:`conditions`; the row cone adds ``x ≥ 0``. It equals its own closure and
    the row cone decides membership (Lin & Kifer, §III-D.1).

    Examples
    --------
    Secrets = single datasets, pairs = edges, one full-support prior: exactly ε-DP over the graph.

    >>> from privgeom.graphs._graphs import path_graph
    >>> pf = Pufferfish.from_graph(path_graph(2), exp_eps=2)
    >>> print(pf.row_cone())
    Cone in R^3, dim 3, 4 facets (exact):
      2·x0 - 1·x1 ≥ 0
      2·x1 - 1·x2 ≥ 0
      2·x2 - 1·x1 ≥ 0
      2·x1 - 1·x0 ≥ 0
    """

    membership_methods = ("rows",)

    def __init__(
        self,
        datasets: Sequence[Any],
        secrets: Mapping[str, Iterable[Any]],
        pairs: Iterable[Sequence[str]],
        priors: Sequence[PriorLike],
        *,
        eps: LevelLike | None = None,
        exp_eps: ScalarLike | None = None,
        atol: float = ATOL,
        source: str | None = None,
    ) -> None:
        owner = "Pufferfish"
        if isinstance(datasets, (str, bytes)) or not isinstance(datasets, Iterable):
            raise InvalidTypeError(f"{owner}: datasets must be a list of labels, got {datasets!r}")
        labels = tuple(str(d) for d in datasets)
        if not labels:
            raise InvalidInputError(f"{owner}: the list of datasets is empty")
        if len(set(labels)) != len(labels):
            raise InvalidInputError(f"{owner}: repeated dataset labels in {list(labels)[:8]}")
        self._inputs = labels
        index = {d: i for i, d in enumerate(labels)}
        if not isinstance(secrets, Mapping) or not secrets:
            raise InvalidTypeError(f"{owner}: secrets must be a non-empty mapping name -> datasets, got {secrets!r}")
        self._secrets: dict[str, tuple[str, ...]] = {}
        for name, members in secrets.items():
            if isinstance(members, (str, bytes)) or not isinstance(members, Iterable):
                raise InvalidTypeError(f"{owner}: secret {name!r} must be a list of datasets, got {members!r}")
            ds = tuple(dict.fromkeys(str(d) for d in members))
            if not ds:
                raise InvalidInputError(f"{owner}: secret {name!r} is empty")
            unknown = [d for d in ds if d not in index]
            if unknown:
                raise DomainMismatchError(
                    f"{owner}: secret {name!r} names unknown datasets {unknown[:5]}; known {list(labels)[:8]}"
                )
            self._secrets[str(name)] = ds
        self._pairs: list[tuple[str, str]] = []
        for p in pairs:
            if isinstance(p, (str, bytes)) or not isinstance(p, Sequence) or len(p) != 2:
                raise InvalidInputError(f"{owner}: a discriminative pair must be two secret names, got {p!r}")
            a, b = str(p[0]), str(p[1])
            for s in (a, b):
                if s not in self._secrets:
                    raise InvalidInputError(
                        f"{owner}: pair {p!r} names unknown secret {s!r}; known {list(self._secrets)[:8]}"
                    )
            if a == b:
                raise InvalidInputError(f"{owner}: a secret cannot be discriminated from itself: {p!r}")
            if (a, b) not in self._pairs and (b, a) not in self._pairs:
                self._pairs.append((a, b))
        level = dp_level(eps, exp_eps, owner=owner)
        self._ratio: Scalar = level.exp_eps
        self._eps_value = level.shown if level.given == "eps" and not level.exact else None
        if isinstance(priors, (str, bytes, Mapping)) or not isinstance(priors, Sequence) or not priors:
            raise InvalidTypeError(f"{owner}: priors must be a non-empty list of priors, got {priors!r}")
        raw = [self._parse_prior(p, k, index) for k, p in enumerate(priors)]
        self._exact = isinstance(self._ratio, Fraction) and all(isinstance(v, Fraction) for pr in raw for v in pr)
        if not self._exact:
            if level.exact:  # float priors make the whole definition float
                level = dp_level(eps, exp_eps, exact=False, owner=owner)
            self._ratio = float(self._ratio)
            raw = [[float(v) for v in pr] for pr in raw]
        self._level = level
        self._atol = self._checked_atol(atol, owner)
        for k, pr in enumerate(raw):
            total = sum(pr, Fraction(0) if self._exact else 0.0)
            if (total != 1) if self._exact else abs(float(total) - 1.0) > self._atol * len(pr):
                raise InvalidParameterError(f"{owner}: prior {k} sums to {_fmt(total)}, not 1")
        dtype: Any = object if self._exact else float
        self._priors = tuple(readonly(np.array(pr, dtype=dtype)) for pr in raw)
        self._source = source
        self._conditions = self._build_conditions()

    @staticmethod
    def _parse_prior(p: Any, k: int, index: dict[str, int]) -> list[Scalar]:
        n = len(index)
        if isinstance(p, Mapping):
            vals: list[Scalar] = [Fraction(0)] * n
            for d, v in p.items():
                if str(d) not in index:
                    raise DomainMismatchError(f"Pufferfish: prior {k} gives probability to unknown dataset {d!r}")
                vals[index[str(d)]] = parse_scalar(v, name=f"prior {k}[{d}]")
        elif isinstance(p, (str, bytes)) or not isinstance(p, Iterable):
            raise InvalidTypeError(f"Pufferfish: prior {k} must be a mapping or a list of probabilities, got {p!r}")
        else:
            vals = [parse_scalar(v, name=f"prior {k}[{i}]") for i, v in enumerate(p)]
            if len(vals) != n:
                raise InvalidParameterError(f"Pufferfish: prior {k} has {len(vals)} probabilities for {n} datasets")
        for i, v in enumerate(vals):
            if v < 0:
                raise InvalidParameterError(
                    f"Pufferfish: prior {k} gives dataset {list(index)[i]!r} the negative probability {_fmt(v)}"
                )
        return vals

    def _conditional(self, prior: np.ndarray, secret: str) -> np.ndarray | None:
        idx = [self._inputs.index(d) for d in self._secrets[secret]]
        zero: Any = Fraction(0) if self._exact else 0.0
        mass = sum((prior[i] for i in idx), zero)
        if mass == 0 if self._exact else mass <= self._atol:
            return None
        out = np.full(self.n_inputs, zero, dtype=object if self._exact else float)
        for i in idx:
            out[i] = prior[i] / mass
        return out

    def _build_conditions(self) -> tuple[PufferfishCondition, ...]:
        out: list[PufferfishCondition] = []
        for k, prior in enumerate(self._priors):
            for a, b in self._pairs:
                ca, cb = self._conditional(prior, a), self._conditional(prior, b)
                if ca is None or cb is None:
                    continue
                out.append(PufferfishCondition(prior=k, secret_i=a, secret_j=b, normal=readonly(self._ratio * cb - ca)))
                out.append(PufferfishCondition(prior=k, secret_i=b, secret_j=a, normal=readonly(self._ratio * ca - cb)))
        return tuple(out)

    # -- constructors -----------------------------------------------------------------------------------------
    @classmethod
    def from_graph(
        cls,
        graph: nx.Graph | Domain,
        *,
        eps: LevelLike | None = None,
        exp_eps: ScalarLike | None = None,
        prior: PriorLike | None = None,
    ) -> Pufferfish:
        """Secrets ``{D}`` for every dataset, pairs = the graph's edges, one prior (default uniform).

        For any prior with full support this is exactly ε-DP over ``graph``: ``θ(· | {D}) = e_D``.

        Examples
        --------
        >>> from privgeom.graphs._graphs import complete_graph
        >>> Pufferfish.from_graph(complete_graph(3), exp_eps=3).n_conditions
        6
        """
        if isinstance(graph, Domain):
            graph = graph.relation(graph.default_relation)
        if not isinstance(graph, nx.Graph):
            raise InvalidTypeError(
                f"Pufferfish.from_graph needs a networkx graph or a Domain, got {type(graph).__name__}"
            )
        labels = [str(v) for v in graph.nodes]
        n = len(labels)
        if prior is None:
            ratio = dp_level(eps, exp_eps, owner="Pufferfish.from_graph").exp_eps
            prior = [Fraction(1, n) if isinstance(ratio, Fraction) else 1.0 / n] * n
        secrets = {d: [d] for d in labels}
        return cls(labels, secrets, [(str(u), str(v)) for u, v in graph.edges], [prior], eps=eps, exp_eps=exp_eps)

    @classmethod
    def from_json(cls, data: str | bytes | Mapping[str, Any], *, source: str | None = None) -> Pufferfish:
        """Build from JSON text in the format of the module docstring (or its dict, read as :meth:`from_dict`)."""
        if isinstance(data, Mapping):
            return cls.from_dict(data, source=source)
        parsed = parse_json(data.decode("utf-8") if isinstance(data, bytes) else data, what="Pufferfish spec")
        if not isinstance(parsed, Mapping):
            raise FormatError(f"a Pufferfish spec must be a JSON object, got {type(parsed).__name__}")
        return cls.from_dict(parsed, source=source)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str | None = None) -> Pufferfish:
        """Build from the JSON data described in the module docstring (what :meth:`to_dict` writes).

        Raises
        ------
        FormatError
            Not an object, unknown or missing keys, wrong types.
        """
        if not isinstance(data, Mapping):
            raise FormatError(f"a Pufferfish spec must be a JSON object, got {type(data).__name__}")
        unknown = sorted(set(data) - set(PUFFERFISH_JSON_KEYS))
        if unknown:
            raise FormatError(f"Pufferfish JSON: unknown keys {unknown}; allowed {list(PUFFERFISH_JSON_KEYS)}")
        if data.get("privgeom", "pufferfish") != "pufferfish":
            raise FormatError(f"Pufferfish JSON: 'privgeom' tag is {data['privgeom']!r}, expected 'pufferfish'")
        missing = [k for k in ("datasets", "secrets", "pairs", "priors") if k not in data]
        if missing:
            raise FormatError(f"Pufferfish JSON: missing keys {missing}")
        if not isinstance(data["secrets"], dict):
            raise FormatError("Pufferfish JSON: 'secrets' must be an object {name: [datasets]}")
        for key in ("datasets", "pairs", "priors"):
            if not isinstance(data[key], list):
                raise FormatError(f"Pufferfish JSON: {key!r} must be a list, got {type(data[key]).__name__}")
        return cls(
            data["datasets"],
            data["secrets"],
            data["pairs"],
            data["priors"],
            eps=data.get("eps"),
            exp_eps=data.get("exp_eps"),
            source=source,
        )

    @classmethod
    def load(cls, path: str | Path) -> Pufferfish:
        """Read a JSON file (format in the module docstring); :meth:`spec` then gives ``pufferfish:file=PATH``."""
        text = read_text(path, what="Pufferfish spec")
        try:
            data = parse_json(text, what="Pufferfish spec")
        except FormatError as err:
            raise FormatError(f"{str(path)!r} is not valid JSON: {err}") from None
        return cls.from_json(data, source=str(path))

    def to_json(self, indent: int | None = 1) -> str:
        """This definition as JSON text (:meth:`to_dict`, serialised)."""
        return json.dumps(self.to_dict(), indent=indent)

    def to_dict(self) -> dict[str, Any]:
        """The JSON data of this definition (exact values as strings)."""
        out: dict[str, Any] = {
            "privgeom": "pufferfish",
            "datasets": list(self._inputs),
            "secrets": {k: list(v) for k, v in self._secrets.items()},
            "pairs": [list(p) for p in self._pairs],
            "priors": [[scalar_to_json(v) for v in pr] for pr in self._priors],
        }
        if self._eps_value is not None:
            out["eps"] = float(parse_scalar(self._eps_value, name="eps", exact=False))
        else:
            out["exp_eps"] = scalar_to_json(self._ratio)
        return out

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_json` to ``path``."""
        Path(path).write_text(self.to_json(indent=1), encoding="utf-8")

    @classmethod
    def from_data_string(cls, encoded: str) -> Pufferfish:
        """Inverse of the ``pufferfish:data=…`` spec (URL-safe base64 of the compact JSON, padding stripped)."""
        try:
            raw = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
            data = parse_json(raw, what="pufferfish:data=…")
        except (ValueError, UnicodeDecodeError) as err:
            raise FormatError(f"pufferfish:data=… is not URL-safe base64 of JSON ({err})") from None
        return cls.from_json(data)

    # -- identity ---------------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        eps = _fmt(self._level.eps if self._level.exact else float(self._level.eps))
        return (
            f"Pufferfish(eps={eps}, {len(self._secrets)} secrets, {len(self._pairs)} pairs, {len(self._priors)} priors)"
        )

    def spec(self) -> str:
        """``pufferfish:file=PATH`` when loaded from a file, else ``pufferfish:data=<base64 JSON>``."""
        if self._source is not None:
            return f"pufferfish:file={self._source}"
        raw = json.dumps(self.to_dict(), separators=(",", ":")).encode("utf-8")
        return "pufferfish:data=" + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")

    @property
    def secrets(self) -> dict[str, tuple[str, ...]]:
        """Secret name → datasets."""
        return dict(self._secrets)

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """Discriminative pairs (unordered; both directions enforced)."""
        return tuple(self._pairs)

    @property
    def priors(self) -> tuple[np.ndarray, ...]:
        """The priors θ as read-only vectors over :attr:`inputs`."""
        return self._priors

    @property
    def conditions(self) -> tuple[PufferfishCondition, ...]:
        """The row conditions ``normal · x ≥ 0`` (two per prior and pair whose secrets both have positive mass)."""
        return self._conditions

    @property
    def n_conditions(self) -> int:
        """Number of row conditions."""
        return len(self._conditions)

    @property
    def row_cone_decides_closure(self) -> bool:
        """True: Pufferfish is defined row by row (Lin & Kifer, §III-D.1)."""
        return True

    # -- geometry ---------------------------------------------------------------------------------------------
    def _normals(self) -> np.ndarray:
        n = self.n_inputs
        dtype: Any = object if self._exact else float
        rows = [c.normal for c in self._conditions]
        for i in range(n):
            e = np.full(n, Fraction(0) if self._exact else 0.0, dtype=dtype)
            e[i] = Fraction(1) if self._exact else 1.0
            rows.append(e)
        return np.array(rows, dtype=dtype).reshape(len(rows), n)

    def row_cone(self) -> Any:
        """``{x ≥ 0 : Σ_D x_D [e^ε θ(D | s_j) − θ(D | s_i)] ≥ 0}`` for every prior and pair, both directions."""
        from ..geometry import Cone

        return self._cached_row_cone(
            lambda: Cone.from_facets(self._normals(), exact=self._exact, labels=self._inputs, atol=self._atol)
        )

    def _inequality(self, c: PufferfishCondition) -> str:
        def side(secret: str) -> str:
            cond = self._conditional(self._priors[c.prior], secret)
            assert cond is not None
            terms = [
                (f"x[{d}]" if cond[i] == 1 else f"{_fmt(cond[i])}·x[{d}]")
                for i, d in enumerate(self._inputs)
                if cond[i] != 0
            ]
            return " + ".join(terms)

        right = side(c.secret_j)
        right = f"({right})" if "+" in right else right
        return f"{side(c.secret_i)} ≤ {_fmt(self._ratio)}·{right}  [prior {c.prior}]"

    def _first_violation(self, x: np.ndarray, exact: bool, tol: float) -> _Failure | None:
        scale = max(1.0, float(np.max(np.abs(np.asarray(x, dtype=float))))) if len(x) else 1.0
        for i, v in enumerate(x):
            if v < 0 if exact else v < -tol * scale:
                e = np.zeros(self.n_inputs, dtype=object if exact else float)
                if exact:
                    e[:] = Fraction(0)
                e[i] = 1
                return _Failure(f"x[{self._inputs[i]}] ≥ 0", e, v, "nonnegative")
        for c in self._conditions:
            a = c.normal if exact else np.asarray(c.normal, dtype=float)
            val = sum((p * q for p, q in zip(a, x)), Fraction(0)) if exact else float(np.dot(a, x))
            if val < 0 if exact else val < -tol * scale * max(1.0, float(np.max(np.abs(a)))):
                return _Failure(self._inequality(c), a, val, c.label)
        return None

    def _vector(self, x: Any) -> tuple[np.ndarray, bool]:
        arr = np.asarray(x, dtype=object if not isinstance(x, np.ndarray) else x.dtype)
        if arr.ndim != 1 or len(arr) != self.n_inputs:
            raise DomainMismatchError(f"{self.name}: a row needs {self.n_inputs} entries, got shape {arr.shape}")
        vals = [parse_scalar(v, name="x") for v in arr]
        if self._exact and all(isinstance(v, Fraction) for v in vals):
            return np.array(vals, dtype=object), True
        return np.array([float(v) for v in vals]), False

    def contains_row(self, x: Sequence[ScalarLike] | np.ndarray, *, atol: float | None = None) -> Membership:
        """Is ``x`` in the row cone? Yes comes with a member mechanism having ``x`` (scaled) as a row.

        Examples
        --------
        >>> from privgeom.graphs._graphs import path_graph
        >>> pf = Pufferfish.from_graph(path_graph(1), exp_eps=2)
        >>> ans = pf.contains_row([1, 2]); bool(ans), [str(v) for v in ans.witness.mechanism.row(0)]
        (True, ['1/3', '2/3'])
        >>> pf.contains_row([1, 3]).certificate.inequality
        'x[1] ≤ 2·x[0]  [prior 0]'
        """
        tol = self._tol(atol)
        vec, exact = self._vector(x)
        bad = self._first_violation(vec, exact, tol)
        if bad is not None:
            text, normal, value, label = bad
            cert = RowCertificate(
                row=-1, output="", normal=readonly(np.asarray(normal)), value=value, inequality=text, label=label
            )
            return Membership(
                member=False, method="rows", exact=exact, certificate=cert, detail=f"{text} fails (value {_fmt(value)})"
            )
        one: Any = Fraction(1) if exact else 1.0
        top = max(vec)
        if top <= (0 if exact else tol):
            row = [v * 0 for v in vec]
            c: Any = one
        else:
            c = one / top
            r = self._ratio if exact else float(self._ratio)
            for cond in self._conditions:
                a = cond.normal if exact else np.asarray(cond.normal, dtype=float)
                ax = sum((p * q for p, q in zip(a, vec)), Fraction(0)) if exact else float(np.dot(a, vec))
                if ax > (0 if exact else tol):
                    c = min(c, (r - 1) / ax)
            row = [max(v * c, 0 * c) for v in vec]
        scale = 1 / c if top > 0 else one * 0
        # a theorem: each condition's normal has a·1 = e^ε − 1 ≥ 0, so the second row 1 − c x satisfies it too
        return self._completion(
            row, scale, exact, lambda M: self.contains(M, atol=tol), "rows", "every Pufferfish condition holds for x"
        )

    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership:
        """Is ``mechanism`` ε-Pufferfish? Checked row by row (Pufferfish is its own closure, Lin & Kifer §III-B.1).

        A no carries a :class:`~privgeom.results.RowCertificate` naming the output, the prior and the pair.
        """
        M = self.check_mechanism(mechanism)
        self.check_method(method)
        tol = self._tol(atol)
        exact = self._exact and M.exact
        m = M.matrix if exact else M.float_matrix()
        for w in range(M.n_outputs):
            bad = self._first_violation(m[w], exact, tol)
            if bad is not None:
                text, normal, value, label = bad
                cert = RowCertificate(
                    row=w,
                    output=M.outputs[w],
                    normal=readonly(np.asarray(normal)),
                    value=value,
                    inequality=text,
                    label=label,
                )
                return Membership(
                    member=False,
                    method="rows",
                    exact=exact,
                    certificate=cert,
                    detail=f"output {M.outputs[w]!r}: {text} fails (value {_fmt(value)})",
                )
        return Membership(
            member=True, method="rows", exact=exact, detail=f"all {self.n_conditions} conditions hold on every output"
        )
