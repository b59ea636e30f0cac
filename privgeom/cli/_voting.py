"""``privgeom voting accuracy|influence|welfare|epsilon|figure``: randomized response on two-candidate voting rules.

Every command takes a rule (``majority -n 101``, ``dictator -n 5 --i 2``, ``and -n 4``, ``or -n 4``,
``threshold -n 10 --theta 2``, ``weighted --weights 4,2,1,1 --quota 5``, ``tribes --width 2 --count 3``,
``parity -n 6``, ``table --values 1,1,1,-1``) and the noise as ``--rho`` (rational such as ``1/2`` for exact
answers) or as its privacy level ``--eps`` (``ln(3)`` is ``ρ = 1/2`` exactly: ``ρ = (e^ε-1)/(e^ε+1)``,
docs/theory.md §17); add ``--float`` for float arithmetic. On ``voting epsilon``, ``--eps`` is also the level the
exit code checks.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from .. import voting
from .._core.errors import InvalidParameterError
from .._core.io import prepare_output_dir
from .._core.level import PrivacyLevel
from .._core.arrays import ROUNDOFF
from .._core.numbers import parse_scalar
from .._core.limits import current_limit
from .._core.numbers import number_text, scalar_to_json
from .._core.results import Quantity
from ..voting import paper
from ..voting._accuracy import ACCURACY_METHODS, figure_path, majority_accuracy_limit
from ..voting._common import noise
from ..voting._mechanism import EPSILON_METHODS, attains_bound, check_epsilon_size
from ._registry import EXIT_NO, EXIT_YES, Outcome, command, group

__all__ = ["RULES", "build_rule"]

RULES = ("majority", "dictator", "and", "or", "threshold", "weighted", "tribes", "parity", "table")

group("voting", "randomized response on two-candidate voting rules (accuracy, influence, welfare, exact epsilon)")


def _csv(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def _rule_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("rule", choices=RULES, help="the voting rule")
    p.add_argument("-n", "--n", type=int, help="number of voters (majority, dictator, and, or, threshold, parity)")
    p.add_argument("--i", type=int, default=None, help="the dictator's index (default 0)")
    p.add_argument("--theta", default=None, help="threshold: 1 iff the sum of votes > theta (default 0)")
    p.add_argument("--weights", help="weighted: comma-separated weights, e.g. 4,2,1,1")
    p.add_argument("--quota", help="weighted: winning quota (default: more than half of the weight)")
    p.add_argument("--width", type=int, help="tribes: voters per tribe")
    p.add_argument("--count", type=int, help="tribes: number of tribes")
    p.add_argument("--values", help="table: comma-separated ±1 values in the order 11…1, …, 00…0")
    p.add_argument(
        "--max-n",
        type=int,
        default=None,
        help=f"largest electorate of a rule stored by vote count (default: the count_voters limit, "
        f"{current_limit('count_voters'):,}; --limit count_voters=N raises it too)",
    )


def _need(value: Any, flag: str, rule: str) -> Any:
    if value is None:
        raise InvalidParameterError(f"rule {rule!r} needs {flag}")
    return value


#: The rule options (by ``dest``) each rule uses; any other rule option given is refused, never ignored.
RULE_OPTIONS: dict[str, tuple[str, ...]] = {
    "majority": ("n",),
    "dictator": ("n", "i"),
    "and": ("n",),
    "or": ("n",),
    "threshold": ("n", "theta"),
    "parity": ("n",),
    "weighted": ("weights", "quota"),
    "tribes": ("width", "count"),
    "table": ("values",),
}
_FLAGS = {
    "n": "-n",
    "i": "--i",
    "theta": "--theta",
    "weights": "--weights",
    "quota": "--quota",
    "width": "--width",
    "count": "--count",
    "values": "--values",
}
#: Where the number of voters of a rule that does not take ``-n`` comes from.
_N_FROM: dict[str, Callable[[argparse.Namespace], str]] = {
    "weighted": lambda a: f"--weights {a.weights}",
    "tribes": lambda a: f"--width {a.width} --count {a.count}",
    "table": lambda a: f"--values {a.values}",
}


def _check_rule_options(args: argparse.Namespace) -> None:
    """Refuse rule options that the chosen rule does not use (``-n`` is checked against the rule's size instead)."""
    kind = args.rule
    unused = [
        flag
        for dest, flag in _FLAGS.items()
        if dest != "n" and getattr(args, dest, None) is not None and dest not in RULE_OPTIONS[kind]
    ]
    if unused:
        raise InvalidParameterError(
            f"rule {kind!r} does not use {', '.join(unused)}; it takes "
            f"{', '.join(_FLAGS[d] for d in RULE_OPTIONS[kind])}"
        )


def build_rule(args: argparse.Namespace) -> voting.Rule:
    """The rule described by the command-line options.

    Options the rule does not use are refused, and a ``-n`` that contradicts the number of voters given by
    ``--weights``, ``--width``/``--count`` or ``--values`` is refused naming both (never silently ignored).
    """
    kind = args.rule
    _check_rule_options(args)
    cap = getattr(args, "max_n", None)
    builders: dict[str, Callable[[], voting.Rule]] = {
        "majority": lambda: voting.majority(_need(args.n, "-n", kind), max_n=cap),
        "dictator": lambda: voting.dictator(_need(args.n, "-n", kind), 0 if args.i is None else args.i),
        "and": lambda: voting.conjunction(_need(args.n, "-n", kind), max_n=cap),
        "or": lambda: voting.disjunction(_need(args.n, "-n", kind), max_n=cap),
        "threshold": lambda: voting.threshold(
            _need(args.n, "-n", kind), "0" if args.theta is None else args.theta, max_n=cap
        ),
        "parity": lambda: voting.parity(_need(args.n, "-n", kind), max_n=cap),
        "weighted": lambda: voting.majority(weights=_csv(_need(args.weights, "--weights", kind)), quota=args.quota),
        "tribes": lambda: voting.tribes(_need(args.width, "--width", kind), _need(args.count, "--count", kind)),
        "table": lambda: voting.Rule.from_truth_table(_csv(_need(args.values, "--values", kind))),
    }
    f = builders[kind]()
    if kind in _N_FROM and args.n is not None and args.n != f.n:
        raise InvalidParameterError(
            f"-n {args.n} contradicts {_N_FROM[kind](args)}: {f.name} has {f.n} voters; drop -n or set -n {f.n}"
        )
    return f


_EPS_HELP = (
    "the noise as the privacy level of the randomized response on the votes, instead of --rho: a number "
    "or ln(r); rho = (e^eps-1)/(e^eps+1), so ln(3) is rho = 1/2 exactly"
)


def _rho_args(p: argparse.ArgumentParser, *, required: bool = True, default: str | None = None) -> None:
    noise_group = p.add_mutually_exclusive_group(required=required)
    noise_group.add_argument("--rho", default=default, help="probability of keeping a vote, in [0, 1] (e.g. 1/2)")
    noise_group.add_argument("--eps", help=_EPS_HELP)
    p.add_argument("--float", action="store_true", help="float arithmetic instead of exact rationals")


def _rho(args: argparse.Namespace) -> Any:
    """ρ from ``--rho``, or from ``--eps`` by the bridge ``ρ = (e^ε-1)/(e^ε+1)`` (exact for ``ln(r)``)."""
    if args.rho is not None:
        value = parse_scalar(args.rho, name="rho")
    else:
        value = noise(eps=_level(args.eps)).rho
    return float(value) if args.float else value


def _level(text: str) -> PrivacyLevel:
    """``--eps`` as a level (``≥ 0``: a number or ``ln(r)``), its errors naming ``--eps``."""
    if text.strip().startswith("-"):
        raise InvalidParameterError(f"--eps must be >= 0, got {text!r}")
    return PrivacyLevel.parse(eps=text, name="--eps")


def _num(value: Any) -> str:
    """A number for people: exact rationals as ``p/q`` (when short) with their decimal value."""
    value = value.value if isinstance(value, Quantity) else value
    return number_text(value, digits=12 if isinstance(value, Fraction) else 15, big_digits=15, approx=True)


def _json_num(value: Any) -> Any:
    return scalar_to_json(value.value if isinstance(value, Quantity) else value)


# ------------------------------------------------------------------------------------------------ accuracy
def _accuracy_args(p: argparse.ArgumentParser) -> None:
    _rule_args(p)
    _rho_args(p)
    p.add_argument("--method", default="auto", choices=ACCURACY_METHODS, help="how to compute it (default auto)")


def _accuracy_run(args: argparse.Namespace) -> Outcome:
    f = build_rule(args)
    rho = _rho(args)
    acc = voting.accuracy(f, rho, method=args.method)
    exact = acc.exact
    note = "" if exact else " (float" + (": no exact method at this size)" if isinstance(rho, Fraction) else ")")
    lines = [f"Acc(M_rho {f.name}) at rho = {rho}: {_num(acc)}{note}"]
    data: dict[str, Any] = {
        "rule": f.name,
        "rho": str(rho),
        "method": args.method,
        "exact": exact,
        "accuracy": _json_num(acc),
    }
    if f.kind == "majority":
        limit = float(majority_accuracy_limit(rho))
        lines.append(
            f"large-n limit 1/2 + arcsin(rho)/pi = {number_text(limit, digits=12)} (Equation (3)); gap {float(acc) - limit:.3e}"
        )
        data["limit"] = limit
    return Outcome("\n".join(lines), data, EXIT_YES)


command("accuracy", "accuracy P[M_rho f(x) = f(x)] of randomized response on a voting rule", parent="voting")(
    _accuracy_args
)(_accuracy_run)


# ------------------------------------------------------------------------------------------------ influence
def _influence_args(p: argparse.ArgumentParser) -> None:
    _rule_args(p)
    _rho_args(p, required=False)
    p.add_argument("--voter", type=int, help="only this voter")


def _influence_run(args: argparse.Namespace) -> Outcome:
    f = build_rule(args)
    voters = [args.voter] if args.voter is not None else list(range(f.n))
    if args.voter is not None and not 0 <= args.voter < f.n:
        raise InvalidParameterError(f"voter {args.voter} is out of range 0..{f.n - 1}")
    infl = voting.influence(f)
    total = infl.total
    if f.is_symmetric:  # every voter has the same influence
        voters = voters[:1]
    data: dict[str, Any] = {"rule": f.name, "symmetric": f.is_symmetric, "total": _json_num(total)}
    data["influence"] = {str(i): _json_num(infl[i]) for i in voters}
    shown = voters[:12]
    head = "every voter" if f.is_symmetric else "voter {i}"
    lines = [f"influence I_i[{f.name}] (Definition 4):"] + [f"  {head.format(i=i)}: {_num(infl[i])}" for i in shown]
    if len(voters) > len(shown):
        lines.append(f"  … ({len(voters) - len(shown)} more voters)")
    lines.append(f"total influence I[f] = {_num(total)}")
    if args.rho is not None or args.eps is not None:
        rho = _rho(args)
        prob = voting.probabilistic_influence(f, rho)
        factor = (1 + parse_scalar(rho) ** 2) / 2
        data["rho"] = str(rho)
        data["probabilistic_influence"] = {str(i): _json_num(prob[i]) for i in voters}
        data["theorem3_factor"] = _json_num(factor)
        lines.append(
            f"probabilistic influence I_i[M_rho f] at rho = {rho} (Definition 5), {head.format(i=shown[0])}: "
            f"{_num(prob[shown[0]])} = (1+rho^2)/2 · I_i[f] with (1+rho^2)/2 = {_num(factor)} (Theorem 3)"
        )
    if f.kind == "weighted" and f.is_monotone:
        params = f.params
        quota = None if params.get("strict") else params["quota"]
        b = voting.banzhaf(params["weights"], quota)
        data["banzhaf"] = {"swings": list(b.swings), "normalized": [str(v) for v in b.normalized]}
        lines.append(
            "Banzhaf index (generating function): " + ", ".join(f"{number_text(float(v))}" for v in b.normalized)
        )
    return Outcome("\n".join(lines), data, EXIT_YES)


command(
    "influence",
    "influence of each voter, total influence, and probabilistic influence under randomized response",
    parent="voting",
)(_influence_args)(_influence_run)


# ------------------------------------------------------------------------------------------------ welfare
def _welfare_args(p: argparse.ArgumentParser) -> None:
    _rule_args(p)
    _rho_args(p, required=False)


def _welfare_run(args: argparse.Namespace) -> Outcome:
    f = build_rule(args)
    if args.rho is None and args.eps is None:
        args.rho = "1"  # no noise: W(M_1 f) = W(f)
    rho = _rho(args)
    base = voting.welfare(f)
    noisy = voting.welfare(f, rho)
    data = {"rule": f.name, "rho": str(rho), "welfare": _json_num(base), "welfare_noisy": _json_num(noisy)}
    lines = [
        f"W({f.name}) = {_num(base)} (Definition 6)",
        f"W(M_rho f) at rho = {rho}: {_num(noisy)} = rho · W(f) (Theorem 6)",
    ]
    if f.is_monotone:
        lines.append("f is monotone, so W(f) = I[f], the total influence (Proposition 5)")
    return Outcome("\n".join(lines), data, EXIT_YES)


command("welfare", "welfare W(f) and W(M_rho f) of a voting rule", parent="voting")(_welfare_args)(_welfare_run)


# ------------------------------------------------------------------------------------------------ epsilon
def _epsilon_args(p: argparse.ArgumentParser) -> None:
    _rule_args(p)
    p.add_argument(
        "--rho",
        help="probability of keeping a vote, in [0, 1] (e.g. 1/2); without it, the noise is the "
        "randomized response at level --eps",
    )
    p.add_argument("--float", action="store_true", help="float arithmetic instead of exact rationals")
    p.add_argument("--method", default="auto", choices=EPSILON_METHODS, help="profiles (table) or vote counts")
    p.add_argument(
        "--eps",
        help="exit 0 iff M_rho f is eps-differentially private (ε ≤ eps), 1 otherwise; "
        "a number or ln(r) (exact comparison when both are logarithms of rationals). Without --rho, also "
        "the noise: rho = (e^eps-1)/(e^eps+1), the randomized response whose level is eps",
    )


def _epsilon_run(args: argparse.Namespace) -> Outcome:
    if args.rho is None and args.eps is None:
        raise InvalidParameterError("voting epsilon needs the noise: --rho (or --eps, its level)")
    rho = _rho(args)
    if args.n is not None and args.rule in ("majority", "threshold", "and", "or", "parity"):
        constant = args.rule == "threshold" and not _threshold_splits(args.n, args.theta)
        if not constant:  # sizes before work: refuse from n alone, before the rule's n + 1 values are built
            check_epsilon_size(args.rule, args.n, args.method, rho)
    f = build_rule(args)
    res = voting.epsilon(f, rho, method=args.method)
    rem = attains_bound(f) if f.is_symmetric or f.has_table or f.kind == "dictator" else None
    data = {**res.to_dict(), "remark1": rem.to_dict() if rem is not None else None}
    lines = [str(res)]
    if rem is not None:
        lines.append(str(rem))
    code = EXIT_YES
    if args.eps is not None:
        target = _level(args.eps)
        if res.exact and target.exact and not res.infinite:  # both logarithms of rationals: decided exactly
            ok = bool(res.level <= target)
        else:
            ok = float(res) <= float(target) + ROUNDOFF
        data["eps"] = str(target)
        data["private"] = ok
        lines.append(f"{'is' if ok else 'is NOT'} {target}-differentially private (one-vote neighbours)")
        code = EXIT_YES if ok else EXIT_NO
    return Outcome("\n".join(lines), data, code)


def _threshold_splits(n: int, theta: str | None) -> bool:
    """Whether ``threshold(n, θ)`` takes both values (``−n <= θ < n``); unparsable θ is left to the rule builder."""
    try:
        t = parse_scalar("0" if theta is None else theta, name="--theta")
    except Exception:  # noqa: BLE001 - the rule builder reports it with its own message
        return True
    return -n <= t < n


command("epsilon", "exact epsilon of M_rho f over one-vote neighbours vs Proposition 2's bound", parent="voting")(
    _epsilon_args
)(_epsilon_run)


# ------------------------------------------------------------------------------------------------ figure
def _figure_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--out",
        default=".",
        help="existing directory (or .png file in one) to write voting_figure2.png "
        "(default: the current directory; folders are never created)",
    )
    p.add_argument("--rhos", default="0.1,0.3,0.5,0.7,0.9", help="comma-separated rho values")
    p.add_argument("--n-max", type=int, default=101, help="largest (odd) number of voters (default 101)")


def _figure_run(args: argparse.Namespace) -> Outcome:
    rhos = [float(parse_scalar(r, name="rho")) for r in _csv(args.rhos)]
    out = Path(args.out)
    prepare_output_dir(out.parent if out.suffix.lower() == ".png" else out, what="--out")
    path = figure_path(args.out)
    paper.majority_accuracy_figure(rhos, args.n_max, path=path)
    data = paper.majority_accuracy_data(rhos, args.n_max)
    last = {str(r): data["accuracy"][r][-1] for r in data["accuracy"]}
    text = f"wrote {path} (Figure 2: accuracy of majority for odd n ≤ {args.n_max}, rho in {', '.join(map(str, rhos))})"
    return Outcome(
        text,
        {
            "path": str(path),
            "n_max": args.n_max,
            "accuracy_at_n_max": last,
            "limit": {str(r): v for r, v in data["limit"].items()},
        },
        EXIT_YES,
    )


command(
    "figure",
    "draw Figure 2 (accuracy of majority vs n with the arcsin limits) as a PNG",
    parent="voting",
    outputs={"out": "figure-or-dir"},
)(_figure_args)(_figure_run)
