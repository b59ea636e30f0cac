"""Text and JSON rendering for the core commands: summaries by default, everything with ``--all``, complete JSON
streamed row by row (``--json`` on stdout, ``--out FILE``) so that large cones are never built as one string.

Examples
--------
>>> import io
>>> data = StreamedData([("definition", "rr:k=1,p=3/4"), ("facets", Stream(lambda: iter([[3, -1], [-1, 3]])))])
>>> buf = io.StringIO(); data.write_json(buf); import json; json.loads(buf.getvalue())["facets"]
[[3, -1], [-1, 3]]
>>> data.to_dict()["definition"]
'rr:k=1,p=3/4'
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .._core.errors import FormatError
from .._core.numbers import fraction_str, integer_json, number_text
from .._core.results import to_jsonable

__all__ = [
    "Stream",
    "StreamedData",
    "IntegerRow",
    "write_out",
    "facet_rows",
    "ray_rows",
    "lineality_rows",
    "equality_rows",
    "listing",
    "implied_lines",
    "MAX_MATRIX_SHOWN",
    "matrix_shown",
    "mechanism_lines",
    "mechanism_summary",
    "bounded_result",
    "bounded_membership",
]


class IntegerRow:
    """An exact row of integers (a primitive cone vector), written to JSON exactly as a row of Fractions is — each
    entry a ``"p/q"`` string with ``q = 1``, i.e. ``"3"`` — but straight from the integers, without a ``Fraction``.

    Examples
    --------
    >>> r = IntegerRow(np.array([3, -1, 0]))
    >>> r.json(), to_jsonable(r), len(r), int(r[1])
    ('["3", "-1", "0"]', ['3', '-1', '0'], 3, -1)
    """

    __slots__ = ("values",)

    def __init__(self, values: np.ndarray) -> None:
        self.values = values

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i: int) -> Any:
        return self.values[i]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.values.tolist())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.values, dtype=dtype)

    def json(self) -> str:
        """The JSON text of the row (what ``json.dumps(to_jsonable(row))`` gives), built by joining strings."""
        values = self.values.tolist()
        texts = map(integer_json, values) if self.values.dtype == object else map(str, values)  # int64: never big
        return '["' + '", "'.join(texts) + '"]' if values else "[]"


@to_jsonable.register(IntegerRow)
def _integer_row(obj: IntegerRow) -> list[str]:
    return [integer_json(v) for v in obj.values.tolist()]


class Stream:
    """A list written item by item: ``items()`` is called once per write and may be lazy."""

    def __init__(self, items: Callable[[], Iterable[Any]], count: int | None = None) -> None:
        self.items = items
        self.count = count


class StreamedData:
    """JSON data with some list-valued parts streamed item by item (see the module doc).

    ``write_json(fp)`` writes one JSON object: the plain parts with ``json.dumps``, each :class:`Stream` as a list
    whose items are converted and written one at a time. ``to_dict()`` materialises everything (small data, tests).
    ``data[key]`` gives the Python objects behind the parts (``objects``), e.g. the cone, the guarantees.
    """

    def __init__(self, parts: Sequence[tuple[str, Any]], objects: dict[str, Any] | None = None) -> None:
        self.parts = list(parts)
        self.objects = dict(objects or {})

    def __getitem__(self, key: str) -> Any:
        """The Python object behind a part (e.g. ``"row_cone"``: the :class:`~privgeom.Cone`), for code that extends
        a command (``cli/_paper.py``); else the part itself, a :class:`Stream` materialised as a list."""
        if key in self.objects:
            return self.objects[key]
        for k, v in self.parts:
            if k == key:
                return list(v.items()) if isinstance(v, Stream) else v
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return key in self.objects or any(k == key for k, _ in self.parts)

    def write_json(self, fp: IO[str]) -> None:
        fp.write("{")
        for i, (key, value) in enumerate(self.parts):
            fp.write(("\n " if i == 0 else ",\n ") + json.dumps(key) + ": ")
            if isinstance(value, Stream):
                fp.write("[")
                first = True
                for item in value.items():
                    text = item.json() if isinstance(item, IntegerRow) else json.dumps(to_jsonable(item))
                    fp.write(("\n  " if first else ",\n  ") + text)
                    first = False
                fp.write("]" if first else "\n ]")
            else:
                fp.write(json.dumps(to_jsonable(value)))
        fp.write("\n}\n")

    def to_dict(self) -> dict[str, Any]:
        return {
            k: ([to_jsonable(x) for x in v.items()] if isinstance(v, Stream) else to_jsonable(v)) for k, v in self.parts
        }


def write_out(path: str, data: StreamedData) -> int:
    """Write the complete JSON data to ``path``; returns the number of bytes written.

    Raises
    ------
    FormatError
        The file cannot be written (missing directory, permissions), naming the path.
    """
    target = Path(path)
    try:
        with target.open("w", encoding="utf-8") as fp:
            data.write_json(fp)
        return target.stat().st_size
    except OSError as err:
        raise FormatError(f"cannot write --out {path!r}: {err.strerror or err}") from None


def _exact_row(row: Any) -> list[Any]:
    return [v if isinstance(v, Fraction) else Fraction(v) for v in np.asarray(row).tolist()]


#: Beyond this many entries (a limit ``exact_entries`` raised above its default) the facets of randomized response
#: stream one Kronecker row at a time instead of one dense integer array.
DENSE_ROWS_MAX = 2**22


def _descending_key(nonzeros: dict[int, int]) -> tuple[tuple[float, ...], ...]:
    """A key of a sparse row (``{position: value}``) that sorts like the dense row itself (lexicographically), without
    building it: each nonzero becomes ``(1, −i, v)`` when positive and ``(0, i, v)`` when negative, and ``(0.5,)``
    ends the row (the zeros after the last nonzero: above a negative entry, below a positive one).

    Examples
    --------
    >>> rows = [{0: 1}, {1: 2, 0: -1}, {2: -1, 1: 3}, {1: 1}]
    >>> dense = [[r.get(i, 0) for i in range(3)] for r in rows]
    >>> sorted(dense) == [dense[i] for i in sorted(range(4), key=lambda i: _descending_key(rows[i]))]
    True
    """
    return tuple((1.0, -i, v) if v > 0 else (0.0, i, v) for i, v in sorted(nonzeros.items()) if v != 0) + ((0.5,),)


def facet_rows(cone: Any) -> tuple[Callable[[], Iterator[Any]], int]:
    """The facets of ``cone`` as a lazy row iterator, in the order of ``cone.facets`` (the canonical order, which
    :func:`~privgeom.semantics` and the design operations' facet numbers share), each row as the canonical one. Beyond
    :data:`DENSE_ROWS_MAX` entries the rows stream from the closed-form structure, one at a time, in its own order
    (the design operations refuse such sizes). Returns the iterator factory and the count."""
    from ..geometry._structure import structured_facet
    from ..geometry._canonical import normalise_rows

    from ..geometry._structure import kronecker_integer_rows

    from ..geometry._structure import check_rows_size, kronecker_integer_row

    st = cone.structure
    if (
        st is not None
        and st.kind == "kronecker"
        and cone.exact
        and st.n_facets is not None
        and st.n_facets * cone.ambient_dim > DENSE_ROWS_MAX
    ):  # one row at a time from the structure
        n_rows = st.n_facets
        check_rows_size(
            n_rows, cone.ambient_dim, exact=True, what=f"the facets of this kronecker cone in R^{cone.ambient_dim}"
        )  # the size limit exact_entries, as the dense rows
        return (lambda: (IntegerRow(kronecker_integer_row(cone, i)) for i in range(n_rows))), n_rows  # type: ignore[arg-type]
    ints = kronecker_integer_rows(cone, "H")
    if ints is not None:  # randomized response: primitive integer rows from the Kronecker structure, canonically sorted
        order = sorted(range(len(ints)), key=lambda i: tuple(int(v) for v in ints[i]), reverse=True)
        return (lambda: (IntegerRow(ints[i]) for i in order)), len(ints)
    st = cone.structure
    exact, atol = cone.exact, cone.atol
    d = st.difference if st is not None and st.kind == "difference" else None
    if (
        exact
        and d is not None
        and st is not None
        and st.n_facets == len(d.a) + len(d.nonneg)
        and all(isinstance(c, (int, Fraction)) for c in d.c)
    ):
        n_diff, dim = len(d.a), cone.ambient_dim

        def nonzeros(i: int) -> dict[int, int]:
            # x_a ≤ c x_b with c = p/q in lowest terms: the primitive row has p at b and −q at a; then x_i ≥ 0
            if i < n_diff:
                c = Fraction(d.c[i])
                return {int(d.b[i]): c.numerator, int(d.a[i]): -c.denominator}
            return {int(d.nonneg[i - n_diff]): 1}

        order = sorted(range(n_diff + len(d.nonneg)), key=lambda i: _descending_key(nonzeros(i)), reverse=True)

        def difference_rows() -> Iterator[Any]:
            for i in order:  # the canonical order: dense rows in decreasing lexicographic order
                row = np.zeros(dim, dtype=object)
                for j, v in nonzeros(i).items():
                    row[j] = v
                yield IntegerRow(row)

        return difference_rows, n_diff + len(d.nonneg)
    if (
        st is not None
        and (st.facet is not None or (st.kind == "difference" and st.difference is not None))
        and st.n_facets is not None
        and st.n_facets * cone.ambient_dim > DENSE_ROWS_MAX
    ):
        n = st.n_facets

        def rows() -> Iterator[Any]:
            for i in range(n):
                raw = structured_facet(cone, i)
                arr = (
                    np.array([_exact_row(raw)], dtype=object) if exact else np.asarray(raw, dtype=float).reshape(1, -1)
                )
                yield normalise_rows(arr, exact=exact, atol=atol)[0]

        return rows, n
    F = cone.facets
    return (lambda: iter(F)), len(F)


def ray_rows(cone: Any) -> tuple[Callable[[], Iterator[Any]], int]:
    """The extreme rays of ``cone`` in canonical order as a lazy row iterator and their count: integer rows from the
    structure when it gives them (:func:`~privgeom.geometry._structure.kronecker_integer_rows`), else the canonical
    rays."""
    from ..geometry._structure import kronecker_integer_rows

    ints = kronecker_integer_rows(cone, "V")
    if ints is not None:
        return (lambda: (IntegerRow(r) for r in ints)), len(ints)
    R = cone.rays
    return (lambda: iter(R)), len(R)


def lineality_rows(cone: Any) -> Any:
    """The lineality space of ``cone``; none for a cone whose structure says it is pointed, without building it."""
    st = cone.structure
    if st is not None and st.pointed:
        return np.zeros((0, cone.ambient_dim), dtype=object if cone.exact else float)
    return cone.lineality


def equality_rows(cone: Any) -> Any:
    """The equalities of ``cone``; none for a cone whose structure gives its facets (such cones are full-dimensional),
    without building anything."""
    st = cone.structure
    if st is not None and (st.facets is not None or st.facet is not None or st.difference is not None):
        return np.zeros((0, cone.ambient_dim), dtype=object if cone.exact else float)
    return cone.equalities


def listing(
    items: Sequence[Any], fmt: Callable[[Any], str], *, limit: int | None, more: str, indent: str = "  "
) -> list[str]:
    """Bulleted lines ``fmt(item)`` for at most ``limit`` items (None: all; the others are never formatted), then one
    line saying how many more there are and how to see them."""
    shown = items if limit is None else items[:limit]
    out = [f"{indent}- {fmt(x)}" for x in shown]
    extra = len(items) - len(shown)
    if extra > 0:
        out.append(f"{indent}… {extra} more {more}")
    return out


#: Most implied pairs listed in text output without ``--all``.
MAX_IMPLIED_SHOWN = 12


def implied_lines(
    implied: Sequence[Any] | None, *, all_: bool = False, indent: str = "", more: str = "(--all lists every one)"
) -> list[str]:
    """The pair bounds of a relaxation implied by paths of other bounds, with their paths: at most
    :data:`MAX_IMPLIED_SHOWN` lines then ``… N more (--all lists every one)``, or every one with ``all_``.
    Nothing when there are none or they were not computed (``None``; the relaxation's text says why)."""
    if not implied:
        return []
    n = len(implied)
    head = f"{indent}{n} pair bound{'s are' if n != 1 else ' is'} implied by paths of the others:"
    return [head] + listing(
        implied, lambda p: p.summary(), limit=None if all_ else MAX_IMPLIED_SHOWN, more=more, indent=indent + "  "
    )


#: Largest mechanism (outputs × inputs entries) whose matrix a command prints, and carries in ``--json``, without
#: ``--all`` (a 16 × 16 table); beyond it the text and JSON summarise the mechanism (:func:`mechanism_summary`) and
#: ``--all`` or ``--out FILE`` give the matrix.
MAX_MATRIX_SHOWN = 256


def matrix_shown(mechanism: Any, all_: bool = False) -> bool:
    """Whether a command prints ``mechanism``'s matrix: with ``--all``, or when it has at most
    :data:`MAX_MATRIX_SHOWN` entries (read from the shape, nothing built)."""
    n_out, n_in = mechanism.shape
    return all_ or n_out * n_in <= MAX_MATRIX_SHOWN


def mechanism_summary(mechanism: Any) -> dict[str, Any]:
    """What a command reports about a mechanism too large to print: shape, exactness, number of nonzero entries, the
    smallest nonzero and the largest entry and the number of distinct entries (exact: as reduced fractions, from the
    integer columns, without building a ``Fraction`` per entry), and the Kronecker factors when it is kept factored.

    Examples
    --------
    >>> import privgeom as pg
    >>> s = mechanism_summary(pg.randomized_response(2, "3/4"))
    >>> s["shape"], s["nonzeros"], s["smallest_nonzero"], s["largest"], s["distinct_entries"], s["factors"]
    ([4, 4], 16, Fraction(1, 16), Fraction(9, 16), 3, 2)
    >>> mechanism_summary(pg.Mechanism([[0.5, 0.0], [0.5, 1.0]]))["distinct_entries"]
    3
    """
    n_out, n_in = mechanism.shape
    factors = mechanism.factors
    out: dict[str, Any] = {
        "shape": [n_out, n_in],
        "exact": bool(mechanism.exact),
        "inputs": n_in,
        "outputs": n_out,
        "factors": None if factors is None else len(factors),
    }
    if mechanism.exact:
        ints = mechanism.int_columns
        num, den = ints.numerators, ints.denominators
        nonzero = num != 0
        largest = max((Fraction(int(num[:, i].max()), int(den[i])) for i in range(n_in)), default=Fraction(0))
        smallest = min(
            (Fraction(int(num[nonzero[:, i], i].min()), int(den[i])) for i in range(n_in) if nonzero[:, i].any()),
            default=None,
        )
        if num.dtype != object:
            g = np.gcd(num, den[None, :])
            pairs = np.stack([num // g, np.broadcast_to(den[None, :], num.shape) // g], axis=-1).reshape(-1, 2)
            distinct = int(len(np.unique(pairs, axis=0)))
        else:
            distinct = len({Fraction(int(v), int(den[i])) for i in range(n_in) for v in num[:, i]})
        out.update(nonzeros=int(nonzero.sum()), smallest_nonzero=smallest, largest=largest, distinct_entries=distinct)
    else:
        mat = mechanism.float_matrix()
        nz = mat[mat != 0]
        out.update(
            nonzeros=int(nz.size),
            smallest_nonzero=float(nz.min()) if nz.size else None,
            largest=float(mat.max()) if mat.size else 0.0,
            distinct_entries=int(len(np.unique(mat))),
        )
    return out


def mechanism_lines(
    mechanism: Any, *, indent: str = "", how: str = "--all prints it, --out FILE saves it"
) -> list[str]:
    """The summary of :func:`mechanism_summary` as text, saying how to get the matrix (``how``).

    Examples
    --------
    >>> import privgeom as pg
    >>> print("\\n".join(mechanism_lines(pg.randomized_response(5, "3/4"))))
    mechanism: 32 outputs × 32 inputs, exact, a Kronecker product of 5 factors; 1,024 nonzero entries, 6 distinct, from 1/1024 to 243/1024 (the matrix is not printed: --all prints it, --out FILE saves it)
    """
    s = mechanism_summary(mechanism)
    shape = f"{s['outputs']:,} outputs × {s['inputs']:,} inputs, {'exact' if s['exact'] else 'float'}"
    if s["factors"]:
        shape += f", a Kronecker product of {s['factors']} factors"

    def num(v: Any) -> str:
        return fraction_str(v) if isinstance(v, Fraction) else number_text(v)

    entries = f"{s['nonzeros']:,} nonzero entries, {s['distinct_entries']:,} distinct"
    if s["smallest_nonzero"] is not None:
        entries += f", from {num(s['smallest_nonzero'])} to {num(s['largest'])}"
    return [f"{indent}mechanism: {shape}; {entries} (the matrix is not printed: {how})"]


def bounded_result(result: Any, *, all_: bool) -> Any:
    """A result carrying a ``mechanism`` (and maybe a ``membership``) as ``--json`` prints it: the result itself when
    the matrix is shown (:func:`matrix_shown`), else a dict of its fields with the mechanism replaced by
    :func:`mechanism_summary` and the membership's witness (as large as the matrix) left out — the JSON keeps a
    size independent of the mechanism's, unless ``--all`` asks for everything.

    Examples
    --------
    >>> import privgeom as pg
    >>> res = pg.optimal_mechanism(pg.RandomizedResponse(5, "3/4"))
    >>> data = bounded_result(res, all_=False)
    >>> data["mechanism"]["shape"], "witness" in data["membership"], data["value"]
    ([32, 32], False, Fraction(243, 1024))
    >>> bounded_result(res, all_=True) is res
    True
    """
    mechanism = result.mechanism
    if matrix_shown(mechanism, all_):
        return result
    out: dict[str, Any] = {}
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        if f.name == "mechanism":
            value = {
                **mechanism_summary(mechanism),
                "omitted": "the matrix and labels: --all prints them, --out FILE saves the mechanism",
            }
        elif f.name == "membership":
            value = bounded_membership(value, mechanism, all_=all_)
        out[f.name] = value
    return out


def bounded_membership(membership: Any, mechanism: Any, *, all_: bool) -> Any:
    """A :class:`~privgeom.Membership` as ``--json`` carries it: whole when ``mechanism``'s matrix is shown
    (:func:`matrix_shown`), else without its witness (a post-processing as large as the matrix), saying so.

    Examples
    --------
    >>> import privgeom as pg
    >>> m = pg.RandomizedResponse(5, "3/4").contains(pg.randomized_response(5, "2/3"))
    >>> data = bounded_membership(m, pg.randomized_response(5, "2/3"), all_=False)
    >>> data["member"], "witness" in data, data["witness_omitted"].startswith("the witness")
    (True, False, True)
    """
    if matrix_shown(mechanism, all_) or not dataclasses.is_dataclass(membership):
        return membership
    out = {g.name: getattr(membership, g.name) for g in dataclasses.fields(membership) if g.name != "witness"}
    if getattr(membership, "witness", None) is not None:
        out["witness_omitted"] = "the witness (as large as the matrix): --all carries it"
    return out
