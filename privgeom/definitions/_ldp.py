"""The deployed local-DP protocols as one-mechanism finite definitions, and their spec kinds.

Each protocol of :mod:`privgeom.mechanisms._ldp` is the privacy definition ``{M}`` (its consistent closure: every
post-processing and mixture of ``M``; Lin & Kifer, Theorem 3.4), written as a spec:

``oue:d=4,exp_eps=3``
    Optimized unary encoding (:func:`~privgeom.unary_encoding`).
``sue:d=4,exp_eps=4`` or ``sue:d=4,exp_half_eps=2``
    Symmetric unary encoding, basic one-time RAPPOR; exact when ``e^{ε/2}`` is rational (``exp_half_eps=``, or
    ``exp_eps=`` the square of a rational), ``exact=false`` for floats.
``olh:d=4,exp_eps=3`` (``g=`` optional, default ``round(e^ε) + 1``) and ``blh:d=4,exp_eps=3`` (``g = 2``)
    Local hashing over the universal family of :func:`~privgeom.mechanisms._ldp.hash_family`.
``hr:d=4,exp_eps=3``
    Hadamard response.
``ss:d=4,s=2,exp_eps=3`` (``s=`` optional, default the integer nearest to ``d/(e^ε + 1)``)
    ω-subset selection.

Every kind takes ``eps=`` instead of ``exp_eps=`` (``eps=ln(3)`` is exact, ``eps=1.1`` float) and ``exact=false``.
The written spec (:meth:`LocalProtocol.spec`) is canonical: the level as ``exp_eps=``, ``g=`` and ``s=`` explicit.

Examples
--------
>>> d = parse_definition("olh:d=3,exp_eps=3")
>>> d.spec(), d.mechanism.shape
('olh:d=3,g=4,exp_eps=3', (24, 3))
>>> parse_definition("sue:d=3,exp_half_eps=2").spec()
'sue:d=3,exp_half_eps=2'
>>> parse_definition("ss:d=4,exp_eps=1").name
'4-value 2-subset selection (exp_eps=1)'
"""

from __future__ import annotations

from typing import Any, Callable

from .._core.errors import FormatError
from .._core.level import PrivacyLevel
from .._core.numbers import fraction_str, parse_scalar, Scalar
from ..mechanisms import Mechanism
from ..mechanisms import _ldp
from ._base import HasLevel
from ._finite import FiniteDefinition
from ._registry import definition_kinds, register_definition_kind, spec_bool, spec_int, spec_required
from ._registry import parse_definition  # noqa: F401  (the module's doctests use it)

__all__ = ["LocalProtocol", "LDP_KINDS", "register_ldp_kinds"]


class LocalProtocol(HasLevel, FiniteDefinition):
    """A deployed local-DP protocol as the finite definition ``{M}`` on its ``d`` values, with its spec.

    Built by the spec kinds of this module (or directly from a mechanism of :mod:`privgeom.mechanisms._ldp`).

    Parameters
    ----------
    mechanism : Mechanism
        The protocol's matrix.
    kind : str
        Its spec kind (``"oue"``, ``"sue"``, ``"olh"``, ``"blh"``, ``"hr"``, ``"ss"``).
    params : str
        The spec's parameters after ``kind:``.
    exp_eps : rational or float
        The nominal ``e^ε`` (exactly the protocol's ε on the complete graph, ``docs/theory.md``), read back as
        :attr:`level`.
    name : str
        Display name.

    Examples
    --------
    >>> d = parse_definition("hr:d=3,exp_eps=3")
    >>> type(d).__name__, d.level.exp_eps, d.n_inputs
    ('LocalProtocol', Fraction(3, 1), 3)
    """

    def __init__(self, mechanism: Mechanism, *, kind: str, params: str, exp_eps: Scalar, name: str) -> None:
        super().__init__([mechanism], name=name)
        self._kind = kind
        self._spec = f"{kind}:{params}" + ("" if mechanism.exact else ",exact=false")
        self._level = PrivacyLevel.from_exp_eps(exp_eps)

    def spec(self) -> str:
        return self._spec

    @property
    def kind(self) -> str:
        """The spec kind."""
        return self._kind

    @property
    def mechanism(self) -> Mechanism:
        """The protocol's matrix."""
        return self.mechanisms[0]


def _level(params: dict[str, str], kind: str, exact: bool | None) -> Scalar:
    eps, exp_eps = params.pop("eps", None), params.pop("exp_eps", None)
    if (eps is None) == (exp_eps is None):
        raise FormatError(f"{kind} needs exactly one of exp_eps=<e^ε> and eps=<ε>")
    return PrivacyLevel.parse(eps, exp_eps, exact=exact).exp_eps


def _d_and_level(
    kind: str, factory: Callable[..., Any], describe: Callable[[int, Any, str], str]
) -> Callable[[dict[str, str]], LocalProtocol]:
    """The spec builder of a protocol whose only parameters are ``d`` and the level: ``factory(d, exp_eps=, exact=)``,
    named by ``describe(d, mechanism, shown exp_eps)``."""

    def build(params: dict[str, str]) -> LocalProtocol:
        d, exact = spec_int(params, "d", kind), spec_bool(params, "exact", kind)
        t = _level(params, kind, exact)
        M = factory(d, exp_eps=t, exact=exact)
        shown = fraction_str(t)
        return LocalProtocol(M, kind=kind, params=f"d={d},exp_eps={shown}", exp_eps=t, name=describe(d, M, shown))

    return build


_oue = _d_and_level(
    "oue", _ldp.unary_encoding, lambda d, M, shown: f"optimized unary encoding on {d} values (exp_eps={shown})"
)


def _sue(params: dict[str, str]) -> LocalProtocol:
    d, exact = spec_int(params, "d", "sue"), spec_bool(params, "exact", "sue")
    if "exp_half_eps" in params:
        if "exp_eps" in params or "eps" in params:
            raise FormatError("sue needs exactly one of exp_eps=, eps=, exp_half_eps=")
        raw = spec_required(params, "exp_half_eps", "sue")
        M = _ldp.unary_encoding(d, exp_half_eps=raw, optimized=False, exact=exact)
        half = parse_scalar(raw, name="exp_half_eps", exact=M.exact)
        key, shown, t = "exp_half_eps", fraction_str(half), half * half
    else:
        t = _level(params, "sue", exact)
        M = _ldp.unary_encoding(d, exp_eps=t, optimized=False, exact=exact)
        key, shown = "exp_eps", fraction_str(t)
    return LocalProtocol(
        M,
        kind="sue",
        params=f"d={d},{key}={shown}",
        exp_eps=t,
        name=f"symmetric unary encoding (basic one-time RAPPOR) on {d} values ({key}={shown})",
    )


def _lh(kind: str) -> Callable[[dict[str, str]], LocalProtocol]:
    def build(params: dict[str, str]) -> LocalProtocol:
        d, exact = spec_int(params, "d", kind), spec_bool(params, "exact", kind)
        g: int | None = 2 if kind == "blh" else (spec_int(params, "g", kind) if "g" in params else None)
        t = _level(params, kind, exact)
        M = _ldp.local_hashing(d, g, exp_eps=t, exact=exact)
        g = _ldp.olh_default_g(t) if g is None else g
        shown = fraction_str(t)
        text = f"d={d},exp_eps={shown}" if kind == "blh" else f"d={d},g={g},exp_eps={shown}"
        label = "binary" if kind == "blh" else "optimized"
        return LocalProtocol(
            M, kind=kind, params=text, exp_eps=t, name=f"{label} local hashing on {d} values, g={g} (exp_eps={shown})"
        )

    return build


_hr = _d_and_level(
    "hr",
    _ldp.hadamard_response,
    lambda d, M, shown: f"Hadamard response on {d} values, K={M.n_outputs} (exp_eps={shown})",
)


def _ss(params: dict[str, str]) -> LocalProtocol:
    d, exact = spec_int(params, "d", "ss"), spec_bool(params, "exact", "ss")
    s = spec_int(params, "s", "ss") if "s" in params else None
    t = _level(params, "ss", exact)
    M = _ldp.subset_selection(d, s, exp_eps=t, exact=exact)
    s = _ldp.subset_default_s(d, t) if s is None else s
    shown = fraction_str(t)
    return LocalProtocol(
        M,
        kind="ss",
        params=f"d={d},s={s},exp_eps={shown}",
        exp_eps=t,
        name=f"{d}-value {s}-subset selection (exp_eps={shown})",
    )


#: The spec kinds of the local-DP protocols, with their factories.
LDP_KINDS: dict[str, Any] = {"oue": _oue, "sue": _sue, "olh": _lh("olh"), "blh": _lh("blh"), "hr": _hr, "ss": _ss}


def register_ldp_kinds() -> None:
    """Register the spec kinds ``oue``, ``sue``, ``olh``, ``blh``, ``hr``, ``ss`` (idempotent).

    Examples
    --------
    >>> register_ldp_kinds()
    >>> parse_definition("oue:d=2,exp_eps=3").mechanism.outputs
    ('11', '10', '01', '00')
    """
    known = set(definition_kinds())
    for name, factory in LDP_KINDS.items():
        if name not in known:
            register_definition_kind(name, factory)


register_ldp_kinds()
