"""A privacy definition given by a polyhedral cone over the datasets: every mechanism whose rows lie in the cone.

This is the step the row-cone paper ends with (Lin & Kifer, Section V): enlarge (or shrink) a row cone and let the
new cone *be* the definition, ``M ∈ Priv(R)`` iff every row of ``M`` lies in ``R``. ``docs/theory.md`` §13 ("Cone
definitions") proves that such a set is closed under post-processing and mixtures, so it is its own consistent
closure and its row cone decides membership; and that its row cone is the smallest face of ``R ∩ R^N_{≥0}`` that
contains the all-ones vector ``1`` — equal to ``R ∩ R^N_{≥0}`` whenever ``1`` is not on a facet of ``R``. A cone
that does not contain ``1`` admits no mechanism at all and is refused.

JSON format (``privgeom: "cone-definition"``, version 1; see :data:`CONE_DEFINITION_SCHEMA`)::

    {"privgeom": "cone-definition", "version": 1, "name": "…", "exact": true, "labels": ["1", "0"],
     "facets": [["3", "-1"], ["-1", "3"]], "equalities": []}

Examples
--------
>>> from privgeom import Cone, randomized_response
>>> D = ConeDefinition(Cone.from_facets([[3, -1], [-1, 3]], labels=["1", "0"]))
>>> D.contains(randomized_response(1, "3/4")).member
True
>>> no = D.contains(randomized_response(1, "4/5"))
>>> no.certificate.output, no.certificate.label, no.certificate.inequality
('0', 'facet 0', '3·x[1] − x[0] ≥ 0')
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping, NamedTuple, Sequence

import numpy as np

from .._core.errors import FormatError, InvalidInputError, InvalidParameterError, InvalidTypeError, PrivgeomError
from .._core.io import json_document, parse_json, read_text, write_text
from .._core.level import ScalarLike
from .._core.removed import RemovedMethod
from .._core.arrays import ATOL, readonly
from .._core.numbers import fraction_str
from .._core.numbers import number_text, parse_scalar
from ..geometry._cone import Cone
from ..geometry._symmetry import automorphisms, trivial_automorphisms
from ..mechanisms import Mechanism
from ._base import Membership, PrivacyDefinition, RowCertificate
from ._rows import as_vector, format_inequality, rows_row_cone_membership

__all__ = ["ConeDefinition", "CONE_DEFINITION_SCHEMA", "CONE_DEFINITION_VERSIONS", "cone_definition_automorphisms"]

#: Versions of the cone-definition JSON format this release reads.
CONE_DEFINITION_VERSIONS: tuple[int, ...] = (1,)

#: The documented JSON schema of a saved :class:`ConeDefinition` (:meth:`ConeDefinition.to_dict`).
CONE_DEFINITION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["privgeom", "labels", "facets"],
    "properties": {
        "privgeom": {"const": "cone-definition"},
        "version": {"const": 1},
        "name": {"type": "string", "description": "a readable name (optional)"},
        "exact": {"type": "boolean", "description": "true: entries are rational strings such as '3/4'"},
        "labels": {"type": "array", "items": {"type": "string"}, "description": "dataset labels (coordinates)"},
        "facets": {"type": "array", "items": {"type": "array"}, "description": "rows a meaning a·x ≥ 0"},
        "equalities": {"type": "array", "items": {"type": "array"}, "description": "rows e meaning e·x = 0"},
    },
}


#: Largest bit length of a coefficient of a cone-definition row written in lowest integer terms. The analyses of a
#: definition read its rows (and what is derived from them) in floats for their pre-filters and LP models, and a
#: float holds integers below ``2^1024`` (about ``1.8·10^308``); ``2^1023`` keeps a factor 2 of headroom. Rows beyond
#: it are refused when the file is read, naming the entry, instead of failing deep inside an analysis.
MAX_COEFFICIENT_BITS = 1023


def _check_coefficient_range(rows: Any, key: str) -> None:
    """Refuse a row of an exact cone file whose lowest-terms integer form has a coefficient beyond
    :data:`MAX_COEFFICIENT_BITS` bits, naming the row and the entry (entries that do not parse are left to the cone's
    own parser, which names them)."""
    if not isinstance(rows, list):
        return
    for i, row in enumerate(rows):
        try:
            values = [Fraction(parse_scalar(v, name=f"{key}[{i}, {j}]", exact=True)) for j, v in enumerate(row)]
        except (PrivgeomError, TypeError, ValueError, OverflowError):
            continue
        if not any(values):
            continue
        scale = math.lcm(*(v.denominator for v in values))
        ints = [v.numerator * (scale // v.denominator) for v in values]
        g = math.gcd(*ints)
        j = max(range(len(ints)), key=lambda k: abs(ints[k]))
        big = abs(ints[j]) // g
        if big.bit_length() > MAX_COEFFICIENT_BITS:
            tiny = min((k for k in range(len(values)) if values[k]), key=lambda k: abs(values[k]))
            shown = f"{key}[{i}, {j}] = {number_text(values[j])}"
            if abs(values[tiny]) * (2**MAX_COEFFICIENT_BITS) < abs(values[j]) and tiny != j:
                shown += f" against {key}[{i}, {tiny}] = {number_text(values[tiny])}"
            raise InvalidInputError(
                f"{shown}: in lowest integer terms the row {key}[{i}] has a coefficient of {big.bit_length()} bits, "
                f"beyond the float range (at most {MAX_COEFFICIENT_BITS} bits, about 9e307) that privgeom's analyses "
                f"of a cone definition use; rescale the inequality or narrow its coefficients"
            )


def _check_int_rows(cone: Cone) -> None:
    """:func:`_check_coefficient_range` on the cone's own rows in lowest integer terms (rows built in Python, or
    what a file's rows became), naming the facet or equality by its index in the cone."""
    for key, rows in (("facet", cone.int_facets), ("equality", cone.int_equalities)):
        if rows.dtype != object:  # int64: every coefficient is far inside the float range
            continue
        for i, row in enumerate(rows.tolist()):
            j = max(range(len(row)), key=lambda k: abs(int(row[k])))
            bits = abs(int(row[j])).bit_length()
            if bits > MAX_COEFFICIENT_BITS:
                raise InvalidInputError(
                    f"{key} {i} of the cone, coefficient [{i}, {j}] = {number_text(Fraction(int(row[j])))}: in lowest "
                    f"integer terms it has {bits} bits, beyond the float range (at most {MAX_COEFFICIENT_BITS} bits, "
                    f"about 9e307) that privgeom's analyses of a cone definition use"
                )


def _zero_row(n: int, exact: bool) -> np.ndarray:
    if exact:
        out = np.empty(n, dtype=object)
        out[:] = [Fraction(0)] * n
        return out
    return np.zeros(n)


def _face_of_ones(cone: Cone) -> tuple[np.ndarray, np.ndarray]:
    """Facets and equalities of the smallest face of ``cone ∩ orthant`` containing ``1`` (``docs/theory.md`` §13).

    Facets ``a`` of ``cone`` with ``a·1 = 0`` become equalities (every member's rows sum to ``1``, so each row is
    tight on them); the orthant inequalities ``x_i ≥ 0`` are added (``e_i·1 = 1 > 0``). Raises when ``1`` is not in
    the cone: no column-stochastic matrix then has its rows in it.
    """
    exact = cone.exact
    F, E = cone.facets, cone.equalities
    n = cone.ambient_dim
    tol = 0.0 if exact else ATOL * n
    labels = cone.labels
    for i, e in enumerate(E):
        s = sum(e)
        if (s != 0) if exact else abs(float(s)) > tol * float(np.abs(e.astype(float)).max()):
            raise InvalidParameterError(
                f"ConeDefinition: no mechanism has its rows in this cone: the all-ones vector violates the equality "
                f"{format_inequality(e, labels, '=')} (every mechanism's rows sum to it)"
            )
    keep: list[int] = []
    tight: list[int] = []
    for i, a in enumerate(F):
        s = sum(a)
        scale = 1.0 if exact else float(np.abs(a.astype(float)).max())
        if (s < 0) if exact else float(s) < -tol * scale:
            raise InvalidParameterError(
                f"ConeDefinition: no mechanism has its rows in this cone: the all-ones vector violates facet {i} "
                f"({format_inequality(a, labels)}), and every mechanism's rows sum to it"
            )
        (tight if ((s == 0) if exact else abs(float(s)) <= tol * scale) else keep).append(i)
    eye = [_zero_row(n, exact) for _ in range(n)]
    for i in range(n):
        eye[i][i] = Fraction(1) if exact else 1.0
    facets = np.vstack([F[keep]] + [np.vstack(eye)]) if keep else np.vstack(eye)
    eqs = np.vstack([E] + [F[tight]]) if tight else E
    return facets, eqs


def _inside_orthant(cone: Cone, n_added: int) -> bool:
    """True when :func:`_face_of_ones` changes nothing: no facet was tight at ``1`` (only the ``n_added`` orthant rows
    were added) and the cone's rays, when already computed (never computed here), are nonnegative, so the cone lies
    in the orthant and the orthant rows are redundant."""
    stored = getattr(cone, "_v", None)  # the rays of a cone built from generators (a hull, a row cone)
    if stored is None or n_added != cone.ambient_dim or not cone.exact:
        return False
    rays, lin = stored
    return len(lin) == 0 and bool((np.asarray(rays) >= 0).all())


def _symmetric_face(cone: Cone) -> Cone | None:
    """:func:`_face_of_ones` of an exact full-dimensional cone whose every facet is strict at ``1`` (so the face is
    ``cone ∩ orthant``) and which carries a symmetry group (:attr:`~privgeom.geometry.Cone.symmetry`): a permutation
    of the datasets maps the orthant's rows to themselves, so the redundant rows are found by one LP per orbit
    (:func:`~privgeom.geometry._redundancy.symmetric_structure`); None when any of this does not hold (the plain
    route then decides, and raises where ``1`` is outside the cone)."""
    from ..geometry._redundancy import ORBIT_MIN_ENTRIES, symmetric_structure

    n = cone.ambient_dim
    if not cone.exact or (cone.n_facets + n) * (n + 1) < ORBIT_MIN_ENTRIES:  # small: the plain route, no group asked
        return None
    group = cone.symmetry
    if group is None or group.is_trivial() or len(cone.int_equalities):
        return None
    F = cone.int_facets
    if not all(sum(row) > 0 for row in F.tolist()):  # a facet tight (or violated) at 1: the plain route
        return None
    st = symmetric_structure(np.vstack([F, np.eye(n, dtype=np.int64)]), group)
    return None if st is None else Cone.from_structure(st, labels=cone.labels, exact=True)


class _Inequality(NamedTuple):
    """One row of the H-representation: ``kind`` ``"facet"`` (``normal · x ≥ 0``) or ``"equality"`` (``= 0``),
    at ``position`` among its kind."""

    kind: str
    position: int
    normal: np.ndarray


class _Violation(NamedTuple):
    """Row ``row`` of a mechanism violates inequality ``position`` of kind ``kind``: ``normal · x = value < 0``."""

    row: int
    kind: str
    position: int
    normal: np.ndarray
    value: Any


class ConeDefinition(PrivacyDefinition):
    """The privacy definition ``{M : every row of M lies in the cone R}`` (Lin & Kifer, Section V).

    Parameters
    ----------
    cone : Cone
        A polyhedral cone whose labels are the dataset labels (H- or V-representation, exact or float). It must
        contain the all-ones vector (the sum of the rows of every mechanism); otherwise no mechanism qualifies.
    name : str, optional
        A readable name (default: its size).

    Notes
    -----
    The set is closed under post-processing (a row of ``A M`` is a non-negative combination of rows of ``M``) and
    mixtures (a row of ``Σ λ_j M_j`` on the disjoint union of outputs is a positive multiple of a row of some
    ``M_j``), so it is its own consistent closure and :attr:`row_cone_decides_closure` holds (``docs/theory.md``
    §13). :meth:`row_cone` is the smallest face of ``R ∩ R^N_{≥0}`` containing ``1`` (canonical). ``contains``
    checks every row against every facet and equality of that cone; a "no" names the row and the inequality
    (:class:`~privgeom.results.RowCertificate`, label ``"facet i"`` / ``"equality i"``); a "yes" needs no
    witness beyond the inequalities.

    Raises
    ------
    InvalidTypeError
        ``cone`` is not a :class:`~privgeom.Cone`.
    InvalidParameterError
        The cone does not contain ``1`` (the message names the violated facet).
    InvalidInputError
        Repeated or empty dataset labels.

    Examples
    --------
    >>> from privgeom import RandomizedResponse, randomized_response
    >>> D = ConeDefinition(RandomizedResponse(2, "3/4").row_cone())
    >>> D.contains(randomized_response(2, "2/3")).member, D.row_cone().n_facets
    (True, 4)
    >>> ConeDefinition.from_dict(D.to_dict()).row_cone() == D.row_cone()
    True
    """

    membership_methods = ("row-inequalities", "row-cone")

    def __init__(self, cone: Cone, *, name: str | None = None, source: str | None = None) -> None:
        if not isinstance(cone, Cone):
            raise InvalidTypeError(f"ConeDefinition takes a privgeom Cone, got {type(cone).__name__}")
        labels = tuple(str(v) for v in cone.labels)
        if not labels:
            raise InvalidInputError("ConeDefinition: the cone has no coordinates (no datasets)")
        if len(set(labels)) != len(labels):
            raise InvalidInputError(f"ConeDefinition: repeated dataset labels in {list(labels)[:8]}")
        if name is not None and not isinstance(name, str):
            raise InvalidTypeError(f"ConeDefinition: name must be a string, got {type(name).__name__}")
        if cone.exact:
            _check_int_rows(cone)
        symmetric = _symmetric_face(cone)  # a cone carrying its symmetry group: one LP per orbit
        if symmetric is not None:
            self._cone = symmetric
        else:
            facets, eqs = _face_of_ones(cone)
            if _inside_orthant(cone, len(facets) - len(cone.facets)):
                self._cone = cone  # already the face of 1 in the orthant: no redundancy removal of the same facets
            else:
                self._cone = Cone.from_facets(facets, eqs, exact=cone.exact, labels=labels)
        self._inputs = labels
        self._exact = bool(self._cone.exact)
        self._name = name
        self._source = source
        self._redundant: tuple[Any, ...] = ()
        #: The compound spec that builds this definition (``hull(…)``, ``intersection(…)``), set by those operations.
        self._spec: str | None = None

    #: A design operation, now the function ``pg.from_guarantees``: reading this name says so, for one release.
    from_guarantees = RemovedMethod()

    @property
    def redundant(self) -> tuple[Any, ...]:
        """For a definition built by :func:`~privgeom.from_guarantees`: the guarantees implied by the others (with their
        verified combinations, :class:`~privgeom.analyses.design._design.RedundantGuarantee`); else empty."""
        return self._redundant

    # ------------------------------------------------------------------------------------------------ identity
    @property
    def name(self) -> str:
        if self._name:
            return self._name
        nf, ne = self._cone.n_facets, len(self._cone.equalities)
        extra = f", {ne} equalit{'ies' if ne != 1 else 'y'}" if ne else ""
        return f"cone definition ({nf} facets{extra} on {self.n_inputs} datasets)"

    @property
    def cone(self) -> Cone:
        """The row cone (same as :meth:`row_cone`)."""
        return self._cone

    def spec(self) -> str:
        """``cone:file=PATH`` when loaded from a file; the compound form when :func:`~privgeom.hull` or
        :func:`~privgeom.intersection` built it (``hull(SPEC, SPEC)``, read back as the same cone); else
        ``cone:json=<the JSON document>``."""
        if self._spec is not None:
            return self._spec
        if self._source is not None:
            return f"cone:file={self._source}"
        return "cone:json=" + json.dumps(self.to_dict(), separators=(",", ":"))

    @property
    def row_cone_decides_closure(self) -> bool:
        """True: a cone definition is its own consistent closure, defined row by row (``docs/theory.md`` §13)."""
        return True

    def row_cone(self) -> Cone:
        """The row cone: the smallest face of ``cone ∩ R^N_{≥0}`` containing ``1``, canonical (``docs/theory.md`` §13)."""
        return self._cone

    # ------------------------------------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The JSON document of :data:`CONE_DEFINITION_SCHEMA` (H-representation of the row cone)."""
        from .._core.results import to_jsonable

        out: dict[str, Any] = {"privgeom": "cone-definition", "version": 1}
        if self._name:
            out["name"] = self._name
        out.update(
            {
                "exact": self.exact,
                "labels": list(self._inputs),
                "facets": to_jsonable(self._cone.facets),
                "equalities": to_jsonable(self._cone.equalities),
            }
        )
        return out

    @classmethod
    def from_dict(cls, data: str | bytes | Mapping[str, Any], *, source: str | None = None) -> "ConeDefinition":
        """Inverse of :meth:`to_dict`; unknown fields, another ``privgeom`` kind or version are a FormatError.

        Examples
        --------
        >>> ConeDefinition.from_dict({"privgeom": "cone-definition", "labels": ["a"], "facets": [], "extra": 1})
        Traceback (most recent call last):
        ...
        privgeom._core.errors.FormatError: unknown fields in cone-definition JSON: ['extra']
        """
        data = json_document(
            data, kind="cone-definition", fields=CONE_DEFINITION_SCHEMA["properties"], versions=CONE_DEFINITION_VERSIONS
        )
        labels = data.get("labels")
        if not isinstance(labels, list) or not all(isinstance(v, str) for v in labels):
            raise FormatError(f"'labels' must be a list of strings, got {labels!r:.80}")
        for key in ("facets", "equalities"):
            rows = data.get(key, [])
            if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == len(labels) for r in rows):
                raise FormatError(f"'{key}' must be a list of rows of {len(labels)} numbers, got {rows!r:.80}")
        exact = data.get("exact", True)
        if not isinstance(exact, bool):
            raise FormatError(f"'exact' must be true or false, got {exact!r:.40}")
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise FormatError(f"'name' must be a string, got {name!r:.40}")
        n = len(labels)
        facets = data.get("facets") or np.zeros((0, n), dtype=object if exact else float)
        eqs = data.get("equalities") or None
        cone = Cone.from_facets(facets, eqs, exact=exact, labels=labels)
        if exact and object in (cone.int_facets.dtype, cone.int_equalities.dtype):  # some coefficient beyond int64
            for key in ("facets", "equalities"):
                _check_coefficient_range(data.get(key, []), key)
        return cls(cone, name=name, source=source)

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_dict` as JSON to ``path`` (read back by :meth:`load` and the spec ``cone:file=``)."""
        write_text(path, json.dumps(self.to_dict(), indent=1) + "\n", what="cone definition file")

    @classmethod
    def load(cls, path: str | Path) -> "ConeDefinition":
        """Read a file written by :meth:`save` (FormatError for anything else).

        Examples
        --------
        >>> import os, tempfile
        >>> from privgeom import RandomizedResponse
        >>> D = ConeDefinition(RandomizedResponse(1, "3/4").row_cone())
        >>> path = os.path.join(tempfile.mkdtemp(), "d.json")
        >>> D.save(path)
        >>> ConeDefinition.load(path).row_cone() == D.row_cone()
        True
        """
        text = read_text(path, what="cone definition file", kind="JSON")
        return cls.from_dict(parse_json(text, what="cone definition", where=str(path)), source=str(path))

    # ------------------------------------------------------------------------------------------------ display
    def to_latex(self) -> str:
        """The row cone's inequalities as LaTeX (:func:`privgeom.to_latex`)."""
        from .._core.display import to_latex

        return to_latex(self._cone)

    def _repr_html_(self) -> str:
        from html import escape

        from .._core.display import to_html

        return f"<p><b>{escape(self.name)}</b></p>" + to_html(self._cone)

    # ------------------------------------------------------------------------------------------------ membership
    def _rows(self, exact: bool) -> list[_Inequality]:
        F, E = self._cone.facets, self._cone.equalities
        if not exact:
            F, E = F.astype(float), E.astype(float)
        return [_Inequality("equality", i, e) for i, e in enumerate(E)] + [
            _Inequality("facet", i, a) for i, a in enumerate(F)
        ]

    def _first_violation(self, X: np.ndarray, exact: bool, atol: float) -> _Violation | None:
        """The first violated inequality (equalities signed to be ``< 0``), or None."""
        for kind, i, a in self._rows(exact):
            vals = X.dot(a)
            for o, v in enumerate(vals):
                if kind == "equality":
                    bad = v != 0 if exact else abs(float(v)) > atol * max(1.0, float(np.abs(a).max()))
                    if bad:
                        return _Violation(o, kind, i, -a, -v) if v > 0 else _Violation(o, kind, i, a, v)
                elif (v < 0) if exact else float(v) < -atol * max(1.0, float(np.abs(a).max())):
                    return _Violation(o, kind, i, a, v)
        return None

    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership:
        """Is every row of ``mechanism`` in the cone? (= in the closure, ``docs/theory.md`` §13)

        ``"row-inequalities"`` (default) checks each row against each facet and equality; ``"row-cone"`` asks the
        cone row by row (:meth:`~privgeom.Cone.contains`). Exact when both the cone and the mechanism are exact;
        float mode accepts violations up to ``atol`` (relative to the largest coefficient).

        Examples
        --------
        >>> from privgeom import Cone, randomized_response
        >>> D = ConeDefinition(Cone.from_facets([[3, -1], [-1, 3]], labels=["1", "0"]))
        >>> D.contains(randomized_response(1, "3/4"), method="row-cone").member
        True
        """
        self.check_method(method)
        M = self.check_mechanism(mechanism)
        tol = self._tol(atol)
        exact = self.exact and M.exact
        X = M.matrix if exact else M.float_matrix()
        if method == "row-cone":
            return rows_row_cone_membership(
                self, X, M.outputs, exact=exact, atol=tol, cone="cone", detail="every row lies in the cone"
            )
        v = self._first_violation(X, exact, tol)
        if v is None:
            ne, nf = len(self._cone.equalities), self._cone.n_facets
            return Membership(
                member=True,
                method="row-inequalities",
                exact=exact,
                detail=f"every row satisfies the {nf} facets" + (f" and {ne} equalities" if ne else ""),
            )
        o, kind, i, a, value = v
        text = format_inequality(a, self._inputs)
        cert = RowCertificate(
            row=o, output=M.outputs[o], normal=readonly(a), value=value, inequality=text, label=f"{kind} {i}"
        )
        return Membership(
            member=False,
            method="row-inequalities",
            exact=exact,
            certificate=cert,
            detail=f"row {M.outputs[o]!r} violates {kind} {i}: {text} (value {fraction_str(value)})",
        )

    def contains_row(self, x: Sequence[ScalarLike] | np.ndarray, *, atol: float | None = None) -> Membership:
        """Is the vector ``x`` in the row cone? A "no" names the violated facet or equality.

        Examples
        --------
        >>> from privgeom import Cone
        >>> D = ConeDefinition(Cone.from_facets([[3, -1], [-1, 3]], labels=["1", "0"]))
        >>> D.contains_row([1, 1]).member, D.contains_row([4, 1]).certificate.label
        (True, 'facet 1')
        """
        tol = self._tol(atol)
        vec, exact = as_vector(x, self.n_inputs, exact=self.exact)
        exact = exact and self.exact
        X = (np.array([Fraction(v) for v in vec], dtype=object) if exact else vec.astype(float)).reshape(1, -1)
        v = self._first_violation(X, exact, tol)
        if v is None:
            return Membership(
                member=True, method="row-inequalities", exact=exact, detail="x satisfies every facet and equality"
            )
        _, kind, i, a, value = v
        text = format_inequality(a, self._inputs)
        cert = RowCertificate(row=-1, output="", normal=readonly(a), value=value, inequality=text, label=f"{kind} {i}")
        return Membership(
            member=False,
            method="row-inequalities",
            exact=exact,
            certificate=cert,
            detail=f"x violates {kind} {i}: {text}",
        )


def cone_definition_automorphisms(
    definition: ConeDefinition, *, max_automorphisms: int | None = None, **options: Any
) -> Any:
    """The dataset permutations that map the row cone onto itself: the group the row cone carries when it has one
    (a cone built by orbit, e.g. an intersection of symmetric definitions), else the permutations of its canonical
    facets (:func:`privgeom.automorphisms` of the cone with ``method="facets"``); trivial for a lower-dimensional row
    cone.

    Examples
    --------
    >>> from privgeom import RandomizedResponse
    >>> automorphisms(ConeDefinition(RandomizedResponse(2, "3/4").row_cone())).order
    8
    """
    cone = definition.row_cone()
    if cone.symmetry is not None and not options:  # carried by the cone (an intersection by orbit): no search
        return cone.symmetry
    if len(cone.equalities):
        return trivial_automorphisms(definition)
    return automorphisms(cone, method="facets", max_automorphisms=max_automorphisms, **options)


automorphisms.register(ConeDefinition, cone_definition_automorphisms)  # geometry never imports definitions
