"""Parametric (symbolic) row cones: facets and rays as rational functions of a parameter (docs/theory.md §11).

A family of definitions with one rational parameter — randomized response in ``p`` (Lin & Kifer, Theorem 4.3),
ε-DP in ``e^ε`` (docs/theory.md §7), the truncated geometric mechanism in ``α`` — has a row cone for every value.
:func:`symbolic_row_cone` finds its facets and extreme rays as functions of the parameter:

1. **Sample.** Exact row cones (``cdd.gmp``) at rational sample points of an interval.
2. **Same type.** Every facet and ray is keyed by its sign pattern; rays also by the set of facets they lie on. The
   samples must agree on the set of facet keys and on the facet–ray incidences, otherwise the interval is refused.
3. **Normalise, interpolate.** Each facet (ray) is divided by the absolute value of its first non-zero coordinate,
   so its coefficients are rational functions of the parameter; each is interpolated with the smallest total degree
   that reproduces every sample (an exact linear solve, checked on the samples it did not use). Each
   facet is then multiplied by the least common multiple of its denominators and divided by the gcd of its
   numerators, with the sign that keeps it a positive multiple — polynomial coefficients.
4. **Breakpoints.** The combinatorial type can only change where a coefficient, a ray coordinate or the value
   ``a(t)·r(t)`` of a facet on a ray it does not contain vanishes or has a pole. These real roots (and the ends of
   the admissible interval) are reported as breakpoints; between the two around the samples every sign is
   constant, so the symbolic facets and rays form a valid double-description pair on that whole open interval.
5. **Verify.** At fresh rational points (not used in step 3) the exact row cone of the definition is computed again
   and compared, as canonical H- and V-representations, with the symbolic facets and rays evaluated there. A
   mismatch raises :class:`~privgeom.SolverError`: the result is a verification, not a fit.

Examples
--------
Theorem 4.3 for one bit: ``Σ_i p^{ham(s,D_i)} (p−1)^{1−ham(s,D_i)} x_i ≥ 0``.

>>> s = symbolic_row_cone("rr:k=1,p=p", "p")
>>> print(s)  # doctest: +NORMALIZE_WHITESPACE
symbolic row cone of rr:k=1,p=p in p on datasets 1, 0: 2 facets, 2 extreme rays, type constant for p in (1/2, 1)
  facet 1: p·x1 - (1 - p)·x0 ≥ 0
  facet 2: -(1 - p)·x1 + p·x0 ≥ 0
  breakpoints: 1/2, 1; verified exactly at 10 fresh points
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

from ..._core.errors import InvalidParameterError, SolverError
from ..._core.extras import optional_module
from ..._core.level import ScalarLike
from ..._core.results import Result, to_jsonable
from ...geometry._cone import Cone

if TYPE_CHECKING:
    import sympy as sp
else:  # sympy (the [symbolic] extra) is imported on first use; without it, MissingDependencyError names the extra
    sp = optional_module("sympy", extra="symbolic", feature="symbolic row cones (pg.symbolic_row_cone)")

if TYPE_CHECKING:
    from ...definitions._base import PrivacyDefinition

__all__ = ["SymbolicRowCone", "symbolic_row_cone", "PARAMETER_RANGES"]

#: Admissible open interval of a parameter, by (spec kind, key); ``None`` = unbounded above.
PARAMETER_RANGES: dict[tuple[str, str], tuple[Fraction, Fraction | None]] = {
    ("rr", "p"): (Fraction(1, 2), Fraction(1)),
    ("dp", "exp_eps"): (Fraction(1), None),
    ("krr", "exp_eps"): (Fraction(1), None),
    ("geometric", "alpha"): (Fraction(0), Fraction(1)),
    ("frapp", "gamma"): (Fraction(1), None),
}

#: Sample points used for interpolation (the degree found must leave at least two of them as checks).
N_SAMPLES = 14
#: Fresh points at which the symbolic cone is verified against the exact one.
N_VERIFY = 10


@dataclass(frozen=True)
class SymbolicRowCone(Result):
    """A row cone whose facets and rays are polynomials in one parameter, valid on an open interval.

    Attributes
    ----------
    family : str
        The spec template (``"rr:k=2,p=p"``) or a description of the family.
    param : str
        The parameter's name (a sympy symbol of that name appears in the expressions).
    labels : tuple of str
        Dataset labels (coordinates).
    facets, rays : tuple of tuple of sympy expressions
        Facets ``a(t)·x ≥ 0`` and extreme rays, polynomial in the parameter, positive multiples of the exact ones
        on ``interval``.
    interval : tuple
        The open interval ``(lo, hi)`` of parameter values on which the combinatorial type is constant (``hi`` may be
        ``oo``).
    breakpoints : tuple of sympy numbers
        Where the type may change (roots of coefficients, ray coordinates and facet–ray values; ends of the
        admissible range).
    samples, verified_at : tuple of Fraction
        The interpolation points and the fresh verification points.
    """

    family: str
    param: str
    labels: tuple[str, ...]
    facets: tuple[tuple[Any, ...], ...]
    rays: tuple[tuple[Any, ...], ...]
    interval: tuple[Any, Any]
    breakpoints: tuple[Any, ...]
    samples: tuple[Fraction, ...]
    verified_at: tuple[Fraction, ...]
    exact: bool = True

    @property
    def symbol(self) -> sp.Symbol:
        """The sympy symbol of the parameter."""
        return sp.Symbol(self.param)

    def evaluate(self, value: Any) -> Cone:
        """The cone given by the symbolic facets at a parameter value (exact for rationals)."""
        v = Fraction(value)
        rows = [[_eval(c, self.symbol, v) for c in f] for f in self.facets]
        return Cone.from_facets(rows, exact=True, labels=self.labels)

    def summary(self) -> str:
        lo, hi = self.interval
        lines = [
            f"symbolic row cone of {self.family} in {self.param} on datasets {', '.join(self.labels)}: "
            f"{len(self.facets)} facets, {len(self.rays)} extreme rays, type constant for {self.param} in "
            f"({lo}, {hi})"
        ]
        for i, f in enumerate(self.facets):
            lines.append(f"  facet {i + 1}: {_text_row(f, self.labels, self.symbol, _midpoint(self.interval))} ≥ 0")
        lines.append(
            f"  breakpoints: {', '.join(str(b) for b in self.breakpoints) or 'none'}; verified exactly at "
            f"{len(self.verified_at)} fresh points"
        )
        return "\n".join(lines)

    def _repr_latex_(self) -> str:
        return self.to_latex()

    def to_latex(self) -> str:
        """The facets as an ``align`` environment (Theorem 4.3 form for randomized response)."""
        from ..._core.display import align_env, latex_inequality

        mid = _midpoint(self.interval)
        t = self.symbol
        lines = [
            latex_inequality(
                f,
                self.labels,
                coef=lambda c: _sym_coef(c, t, mid),
                zero=lambda c: c == 0,
                negative=lambda c: bool(c.subs(t, mid) < 0),
            )
            for f in self.facets
        ]
        return align_env(lines)


def _oriented(c: Any, t: sp.Symbol, at: Any) -> Any:
    """``c`` factored with every linear-or-higher factor oriented to be positive at ``at``: ``-p(p-1)`` becomes
    ``p(1-p)`` (the form of Example 4.4)."""
    coeff, factors = sp.factor_list(sp.expand(c), t)
    terms: list[Any] = []
    sign = 1
    for f, mult in factors:
        if f.subs(t, at) < 0:
            f = sp.expand(-f)
            sign *= (-1) ** mult
        terms.append(sp.Pow(f, mult, evaluate=False) if mult > 1 else f)
    k = coeff * sign
    if k != 1:
        terms.insert(0, k)
    if not terms:
        return sp.Integer(1)
    return terms[0] if len(terms) == 1 else sp.Mul(*terms, evaluate=False)


def _sym_coef(c: Any, t: sp.Symbol, at: Any) -> str:
    """LaTeX of a positive coefficient (1 omitted), factored and oriented."""
    e = _oriented(c, t, at)
    if e == 1:
        return ""
    s = sp.latex(e)
    return f"\\left({s}\\right)" if isinstance(e, sp.Add) else s


def _text_row(f: Sequence[Any], labels: Sequence[str], t: sp.Symbol, at: Any) -> str:
    parts = []
    for c, lab in zip(f, labels):
        if c == 0:
            continue
        neg = bool(c.subs(t, at) < 0)
        e = _oriented(-c if neg else c, t, at)
        body = f"x{lab}" if e == 1 else (f"({e})·x{lab}" if isinstance(e, sp.Add) else f"{e}·x{lab}")
        parts.append(("- " if neg else "+ ") + body)
    text = " ".join(parts)
    text = text[2:] if text.startswith("+ ") else "-" + text[2:]
    return text.replace("**", "^").replace("*", "")


def _symbolic_html(s: SymbolicRowCone) -> str:
    from html import escape

    def _e(x: Any) -> str:
        return escape(str(x))

    from ..._core.display import html_table

    mid = _midpoint(s.interval)
    rows = [[_text_coef(c, s.symbol, mid) for c in f] for f in s.facets]
    lo, hi = s.interval
    head = (
        f"<p><b>SymbolicRowCone</b> of {_e(s.family)}: {len(s.facets)} facets a({_e(s.param)})·x ≥ 0, "
        f"{len(s.rays)} extreme rays; combinatorial type constant for {_e(s.param)} in ({_e(lo)}, {_e(hi)}); "
        f"breakpoints {_e(', '.join(str(b) for b in s.breakpoints) or 'none')}; verified exactly at "
        f"{len(s.verified_at)} fresh points.</p>"
    )
    table = html_table(list(s.labels), rows, index=[f"facet {i + 1}" for i in range(len(rows))])
    return f'<div class="privgeom-SymbolicRowCone">{head}{table}</div>'


def _text_coef(c: Any, t: sp.Symbol, at: Any) -> str:
    if c == 0:
        return "0"
    neg = bool(c.subs(t, at) < 0)
    e = _oriented(-c if neg else c, t, at)
    text = f"({e})" if neg and isinstance(e, sp.Add) else str(e)
    return (("−" if neg else "") + text).replace("**", "^").replace("*", "")


def _register_display() -> None:
    from ..._core.display import register_html, register_latex

    register_html(SymbolicRowCone)(_symbolic_html)
    register_latex(SymbolicRowCone)(lambda s: s.to_latex())


_register_display()


@to_jsonable.register(sp.Basic)
def _sympy_json(obj: sp.Basic) -> str:
    return str(sp.factor(obj))


# ------------------------------------------------------------------------------------------------------ helpers
def _midpoint(interval: tuple[Any, Any]) -> Any:
    lo, hi = interval
    return lo + 1 if hi == sp.oo else (lo + hi) / 2


class _Family(NamedTuple):
    """A one-parameter family: value ↦ definition, its name, and the interval ``(lo, hi)`` to sample (``hi`` None:
    unbounded above)."""

    make: Callable[[Fraction], Any]
    name: str
    lo: Fraction
    hi: Fraction | None


def _interval(interval: tuple[ScalarLike, ScalarLike | None]) -> tuple[Fraction, Fraction | None]:
    return Fraction(interval[0]), None if interval[1] is None else Fraction(interval[1])


def _spec_family(family: Any, param: str, interval: tuple[ScalarLike, ScalarLike | None] | None) -> _Family:
    """A spec with one value equal to ``param`` (``"rr:k=2,p=p"``): definitions parsed from the spec with the value
    substituted; the interval is ``interval`` or the admissible range of that key (:data:`PARAMETER_RANGES`)."""
    from ...definitions import parse_definition

    spec = str(family)
    kind, _, rest = spec.partition(":")
    pairs = [part.split("=", 1) for part in rest.split(",") if part]
    keys = [k for k, v in ((p[0], p[1] if len(p) > 1 else "") for p in pairs) if v.strip() == param]
    if len(keys) != 1:
        raise InvalidParameterError(
            f"the spec {spec!r} must have exactly one value equal to the parameter {param!r} (e.g. rr:k=2,p={param})"
        )
    key = keys[0]
    rng = PARAMETER_RANGES.get((kind.strip(), key))
    if rng is None:
        raise InvalidParameterError(
            f"no known range for the parameter {key!r} of {kind!r}: pass interval=(lo, hi); "
            f"known: {', '.join(f'{a}.{b}' for a, b in PARAMETER_RANGES)}"
        )

    def make(value: Fraction) -> Any:
        text = ",".join(f"{k}={value}" if k == key else "=".join(p) for p in pairs for k in [p[0]])
        return parse_definition(f"{kind}:{text}")

    lo, hi = _interval(interval) if interval is not None else rng
    return _Family(make=make, name=spec, lo=lo, hi=hi)


def _callable_family(family: Any, param: str, interval: tuple[ScalarLike, ScalarLike | None] | None) -> _Family:
    """A callable ``Fraction -> PrivacyDefinition``: it needs ``interval`` (no range is known for it)."""
    if interval is None:
        raise InvalidParameterError("a callable family needs interval=(lo, hi)")
    lo, hi = _interval(interval)
    return _Family(make=family, name=getattr(family, "__name__", "family"), lo=lo, hi=hi)


#: How :func:`symbolic_row_cone` reads its ``family`` argument, by kind (``"callable"`` for a callable, else
#: ``"spec"``).
_FAMILY_SOURCES: dict[str, Callable[[Any, str, Any], _Family]] = {"spec": _spec_family, "callable": _callable_family}


def _sample_points(
    lo: Fraction, hi: Fraction | None, n: int, *, avoid: Sequence[Fraction] = (), salt: int = 0
) -> list[Fraction]:
    """``n`` distinct rationals strictly inside ``(lo, hi)``, spread out, with prime denominators (fresh per salt)."""
    width = (hi - lo) if hi is not None else Fraction(8)
    primes = [p for p in range(n + 3 + 7 * salt, 10 * (n + 3) + 50) if all(p % q for q in range(2, int(p**0.5) + 1))]
    den = primes[0]
    out: list[Fraction] = []
    step = max(1, (den - 1) // n)
    for j in range(1, den, step):
        x = lo + width * Fraction(j, den)
        if x not in avoid and lo < x and (hi is None or x < hi):
            out.append(x)
        if len(out) == n:
            break
    if len(out) < n:
        raise InvalidParameterError(f"cannot place {n} sample points in ({lo}, {hi})")
    return out


def _signs(row: Sequence[Fraction]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Match key of a row: its sign pattern and the dense ranks of its absolute values (which stay fixed between
    samples unless two coefficients cross, in which case matching fails and the interval is refused)."""
    mags = sorted({abs(v) for v in row})
    return tuple((v > 0) - (v < 0) for v in row), tuple(mags.index(abs(v)) for v in row)


def _normalise(row: Sequence[Fraction]) -> list[Fraction]:
    first = next(abs(v) for v in row if v != 0)
    return [v / first for v in row]


def _type(cone: Cone) -> tuple[dict[Any, list[Fraction]], dict[frozenset, list[Fraction]]]:
    facets: dict[Any, list[Fraction]] = {}
    for a in cone.facets:
        key = _signs(a)
        if key in facets:
            raise SolverError(f"two facets share the sign and size pattern {key}; the symbolic route cannot match them")
        facets[key] = _normalise(list(a))
    if len(cone.equalities) or len(cone.lineality):
        raise InvalidParameterError("the symbolic route handles pointed, full-dimensional cones only")
    rays: dict[frozenset, list[Fraction]] = {}
    for r in cone.rays:
        inc: frozenset[Any] = frozenset(k for k, a in facets.items() if sum(x * y for x, y in zip(a, r)) == 0)
        rkey = frozenset([("signs", _signs(r))]) | inc
        if rkey in rays:
            raise SolverError(
                "two rays share their sign and size pattern and incidences; the symbolic route cannot match them"
            )
        rays[rkey] = _normalise(list(r))
    return facets, rays


def _nullvector(rows: list[list[Fraction]], n: int) -> list[Fraction] | None:
    """A non-zero vector ``v`` with ``rows · v = 0`` (exact Gaussian elimination), or None."""
    mat = [r[:] for r in rows]
    pivots: list[int] = []
    r = 0
    for c in range(n):
        pr = next((i for i in range(r, len(mat)) if mat[i][c] != 0), None)
        if pr is None:
            continue
        mat[r], mat[pr] = mat[pr], mat[r]
        inv = 1 / mat[r][c]
        mat[r] = [v * inv for v in mat[r]]
        for i in range(len(mat)):
            if i != r and mat[i][c] != 0:
                f = mat[i][c]
                mat[i] = [a - f * b for a, b in zip(mat[i], mat[r])]
        pivots.append(c)
        r += 1
    free = [c for c in range(n) if c not in pivots]
    if not free:
        return None
    v = [Fraction(0)] * n
    v[free[0]] = Fraction(1)
    for i, c in enumerate(pivots):
        v[c] = -mat[i][free[0]]
    return v


def _poly_val(coeffs: Sequence[Fraction], x: Fraction) -> Fraction:
    acc = Fraction(0)
    for c in reversed(coeffs):
        acc = acc * x + c
    return acc


def _fit(xs: Sequence[Fraction], ys: Sequence[Fraction], t: sp.Symbol, memo: dict) -> Any:
    """The rational function ``N/D`` of smallest total degree through every ``(x, y)``, with at least two points
    left over as checks: ``N(x) − y D(x) = 0`` on ``deg N + deg D + 1`` points is a homogeneous linear system, solved
    exactly; the candidate must then reproduce every other sample."""
    key = tuple(ys)
    if key in memo:
        return memo[key]
    if all(y == ys[0] for y in ys):
        memo[key] = sp.Rational(ys[0].numerator, ys[0].denominator)
        return memo[key]
    for total in range(1, len(xs) - 2):
        for dn in range(total, -1, -1):
            dd = total - dn
            pts = list(zip(xs, ys))[: total + 1]
            rows = [[x**i for i in range(dn + 1)] + [-y * x**j for j in range(dd + 1)] for x, y in pts]
            v = _nullvector(rows, dn + dd + 2)
            if v is None:
                continue
            num, den = v[: dn + 1], v[dn + 1 :]
            if all(_poly_val(den, x) != 0 and _poly_val(num, x) == y * _poly_val(den, x) for x, y in zip(xs, ys)):
                f = sp.cancel(
                    sum(sp.Rational(c.numerator, c.denominator) * t**i for i, c in enumerate(num))
                    / sum(sp.Rational(c.numerator, c.denominator) * t**j for j, c in enumerate(den))
                )
                memo[key] = f
                return f
    raise SolverError(
        f"no rational function of total degree < {len(xs) - 2} fits the sampled coefficients; "
        "use more samples or a narrower interval"
    )


def _polynomial_row(row: Sequence[Any], t: sp.Symbol, at: Any) -> tuple[Any, ...]:
    """Clear denominators and the content; keep the sign at the point ``at`` (a positive multiple there)."""
    fracs = [tuple(sp.Poly(e, t, domain="QQ") for e in sp.fraction(sp.cancel(c))) for c in row]
    den = sp.Poly(1, t, domain="QQ")
    for _, d in fracs:
        den = den.lcm(d)
    nums = [n * den.quo(d) for n, d in fracs]
    g = sp.Poly(0, t, domain="QQ")
    for n in nums:
        g = g.gcd(n)
    g = g * sp.Rational(1) if not g.is_zero else sp.Poly(1, t, domain="QQ")
    out = [n.quo(g) for n in nums]
    # make the coefficients integer polynomials with content 1
    lc = sp.Integer(1)
    for n in out:
        for c in n.coeffs():
            lc = sp.lcm(lc, sp.Rational(c).q)
    out = [n * lc for n in out]
    cont = sp.Integer(0)
    for n in out:
        for c in n.coeffs():
            cont = sp.gcd(cont, sp.Integer(c))
    cont = cont or sp.Integer(1)
    exprs = [sp.expand(n.as_expr() / cont) for n in out]
    mult = den.as_expr() / g.as_expr()
    if sp.Rational(mult.subs(t, at)) < 0:
        exprs = [-c for c in exprs]
    return tuple(exprs)


def _eval(expr: Any, t: sp.Symbol, x: Fraction) -> Fraction:
    """Exact value of a polynomial in ``t`` at a rational point."""
    if not expr.free_symbols:
        return Fraction(str(expr))
    v = sp.Poly(expr, t, domain="QQ").eval(sp.Rational(x.numerator, x.denominator))
    return Fraction(int(v.p), int(v.q))


def _roots(exprs: Sequence[Any], t: sp.Symbol) -> set[Any]:
    """Real roots of the numerators and denominators of ``exprs`` (factored once per distinct factor)."""
    factors: set[Any] = set()
    for e in {sp.cancel(x) for x in exprs}:
        for part in sp.fraction(e):
            if part.free_symbols:
                factors.update(f for f, _ in sp.Poly(part, t, domain="QQ").factor_list()[1])
    out: set[Any] = set()
    for f in factors:
        out.update(f.real_roots())
    return out


# ------------------------------------------------------------------------------------------------------ API
def symbolic_row_cone(
    family: str | Callable[[Fraction], PrivacyDefinition],
    param: str = "p",
    *,
    interval: tuple[ScalarLike, ScalarLike | None] | None = None,
    samples: int = N_SAMPLES,
    verify: int = N_VERIFY,
) -> SymbolicRowCone:
    """The row cone of a one-parameter family with facets and rays as polynomials in the parameter, verified.

    Parameters
    ----------
    family : str or callable
        A spec whose parameter value is the parameter's name (``"rr:k=2,p=p"``, ``"dp:graph=hamming,k=2,exp_eps=t"``,
        ``"geometric:n=3,alpha=a"``), or a callable ``Fraction -> PrivacyDefinition`` (then ``interval`` is needed).
    param : str
        The parameter's name.
    interval : (lo, hi), optional
        Where to sample (an open interval of rationals; ``hi=None`` for unbounded). Default: the admissible range of
        the spec's parameter (:data:`PARAMETER_RANGES`).
    samples, verify : int
        Number of interpolation points and of fresh exact verification points.

    Returns
    -------
    SymbolicRowCone

    Raises
    ------
    SolverError
        When the samples do not share one combinatorial type, no low-degree rational function fits, or the
        verification at a fresh point fails.

    Notes
    -----
    One private stage per step of the module doc: ``_sample`` (steps 1–2), ``_interpolate`` (3), ``_breakpoints``
    (4), ``_verify`` (5); the family is read by the entry of ``_FAMILY_SOURCES`` for its kind (spec or callable).

    Examples
    --------
    ε-DP on one edge, in ``t = e^ε``: the facets ``t x_j − x_i ≥ 0``, one per ordered edge (docs/theory.md §7).

    >>> s = symbolic_row_cone("dp:graph=path,n=1,exp_eps=t", "t")
    >>> s.facets, s.interval
    (((t, -1), (-1, t)), (1, oo))
    """
    fam = _FAMILY_SOURCES["callable" if callable(family) else "spec"](family, param, interval)
    if samples < 4 or verify < 1:
        raise InvalidParameterError(f"need samples >= 4 and verify >= 1, got {samples} and {verify}")
    t = sp.Symbol(param)
    sampled = _sample(fam, param, samples)
    rows = _interpolate(sampled, t)
    span, roots = _breakpoints(rows, sampled.xs, fam, t, param)
    fresh = _verify(fam, rows, sampled.labels, span, sampled.xs, verify, t, param)
    return SymbolicRowCone(
        family=fam.name,
        param=param,
        labels=sampled.labels,
        facets=tuple(rows.facets),
        rays=tuple(rows.rays),
        interval=span,
        breakpoints=tuple(roots),
        samples=tuple(sampled.xs),
        verified_at=tuple(fresh),
        exact=True,
    )


# ------------------------------------------------------------------------------------------------------ stages
class _Sampled(NamedTuple):
    """Steps 1–2: the sample points, the datasets, and per sample the normalised facets and rays by match key."""

    xs: list[Fraction]
    labels: tuple[str, ...]
    types: list[tuple[dict[Any, list[Fraction]], dict[frozenset, list[Fraction]]]]


def _sample(fam: _Family, param: str, samples: int) -> _Sampled:
    """Exact row cones at ``samples`` rational points, which must share one combinatorial type (module doc, steps
    1–2); :class:`~privgeom.SolverError` naming the two points otherwise."""
    xs = _sample_points(fam.lo, fam.hi, samples)
    cones = [fam.make(x).row_cone() for x in xs]
    labels = cones[0].labels
    types = [_type(c) for c in cones]
    fkeys, rkeys = set(types[0][0]), set(types[0][1])
    for x, (f, r) in zip(xs, types):
        if set(f) != fkeys or set(r) != rkeys:
            if (len(f), len(r)) != (len(fkeys), len(rkeys)):
                raise SolverError(
                    f"the combinatorial type of the row cone changes between {param} = {xs[0]} "
                    f"({len(fkeys)} facets, {len(rkeys)} rays) and {param} = {x} ({len(f)} facets, {len(r)} rays); "
                    f"pass a narrower interval="
                )
            raise SolverError(
                f"the facets and rays cannot be matched between {param} = {xs[0]} and {param} = {x}: their sign "
                f"patterns or the order of their coefficient sizes differ (the type may change there, or two "
                f"coefficients cross); pass a narrower interval="
            )
    return _Sampled(xs=xs, labels=tuple(labels), types=types)


class _Rows(NamedTuple):
    """Step 3: the facets and rays as rows of polynomials in the parameter."""

    facets: list[tuple[Any, ...]]
    rays: list[tuple[Any, ...]]


def _interpolate(sampled: _Sampled, t: sp.Symbol) -> _Rows:
    """Each coefficient interpolated by the rational function of least degree through the samples (:func:`_fit`),
    each row made a primitive polynomial row, positive at the middle sample (module doc, step 3)."""
    xs, labels, types = sampled
    memo: dict = {}
    mid = sp.Rational(str(xs[len(xs) // 2]))
    forder = sorted(types[0][0], reverse=True)
    rorder = sorted(types[0][1], key=lambda k: sorted(map(str, k)))
    facets = [
        _polynomial_row([_fit(xs, [ty[0][k][i] for ty in types], t, memo) for i in range(len(labels))], t, mid)
        for k in forder
    ]
    rays = [
        _polynomial_row([_fit(xs, [ty[1][k][i] for ty in types], t, memo) for i in range(len(labels))], t, mid)
        for k in rorder
    ]
    return _Rows(facets=facets, rays=rays)


def _breakpoints(
    rows: _Rows, xs: Sequence[Fraction], fam: _Family, t: sp.Symbol, param: str
) -> tuple[tuple[Any, Any], list[Any]]:
    """``(span, breakpoints)``: the real roots of every coefficient, ray coordinate and facet–ray value in the
    admissible interval (with its ends), and the open interval between the two around the samples, on which the type
    is constant (module doc, step 4); :class:`~privgeom.SolverError` when a root lies inside the sampled range."""
    crit: list[Any] = [c for f in rows.facets for c in f] + [c for r in rows.rays for c in r]
    for frow in rows.facets:
        for rrow in rows.rays:
            val = sp.expand(sum(a * b for a, b in zip(frow, rrow)))
            if val != 0:
                crit.append(val)
    hi_s = sp.oo if fam.hi is None else sp.Rational(str(fam.hi))
    lo_s = sp.Rational(str(fam.lo))
    roots = sorted(
        {r for r in _roots(crit, t) if lo_s <= r <= hi_s} | {lo_s} | ({hi_s} if fam.hi is not None else set()),
        key=lambda r: float(r),
    )
    below = [r for r in roots if r <= xs[0]]
    above = [r for r in roots if r >= xs[-1]]
    inside = [r for r in roots if xs[0] < r < xs[-1]]
    if inside:
        raise SolverError(
            f"the type may change inside the sampled range at {param} = {inside[0]}; pass a narrower interval="
        )
    return (below[-1] if below else lo_s, above[0] if above else hi_s), roots


def _verify(
    fam: _Family,
    rows: _Rows,
    labels: tuple[str, ...],
    span: tuple[Any, Any],
    xs: Sequence[Fraction],
    verify: int,
    t: sp.Symbol,
    param: str,
) -> list[Fraction]:
    """The fresh points (not samples) inside ``span`` at which the exact row cone equals the symbolic facets and
    rays evaluated there, as canonical H- and V-representations (module doc, step 5); :class:`~privgeom.SolverError`
    at the first mismatch."""
    vlo = Fraction(str(span[0])) if span[0].is_rational else Fraction(math.ceil(float(span[0]) * 10**6), 10**6)
    vhi = (
        None
        if span[1] == sp.oo
        else (Fraction(str(span[1])) if span[1].is_rational else Fraction(math.floor(float(span[1]) * 10**6), 10**6))
    )
    fresh = _sample_points(vlo, vhi, verify, avoid=xs, salt=3)
    for x in fresh:
        exact = fam.make(x).row_cone()
        fv = [[_eval(c, t, x) for c in f] for f in rows.facets]
        rv = [[_eval(c, t, x) for c in r] for r in rows.rays]
        if (
            Cone.from_facets(fv, exact=True, labels=labels) != exact
            or Cone.from_generators(rv, exact=True, labels=labels) != exact
        ):
            raise SolverError(
                f"verification failed: the symbolic cone differs from the exact row cone at {param} = {x}"
            )
    return fresh
