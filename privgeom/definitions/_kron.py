"""Kronecker-structured linear algebra on ``2^k`` coordinates without forming any ``2^k x 2^k`` matrix.

Randomized response is ``M_rr = ⊗^k [[p, 1-p], [1-p, p]]`` and its inverse is
``(2p-1)^{-k} ⊗^k [[p, p-1], [p-1, p]]`` (Lin & Kifer, Theorem 4.3). Multiplying a row vector (or each row of a
matrix) by a k-fold Kronecker power of a 2x2 matrix is done axis by axis in ``O(k 2^k)`` operations per row.

Exact arithmetic works on integers: with ``p = a/b`` every kernel is scaled to an integer matrix, rows are scaled
to integer vectors, and the transform runs in ``int64`` when a bound shows there is no overflow (Python integers
in an ``object`` array otherwise). Exact identities ``W · (⊗K) = c · X`` are *verified* modulo several primes near
``2^31`` whose product exceeds twice a proven bound on both sides, which is a deterministic exact check (Chinese
remainder theorem) that never leaves ``int64``.

Examples
--------
>>> import numpy as np
>>> x = np.array([[1, 2, 3, 4]], dtype=np.int64)
>>> kron_apply(x, 2, ((1, 1), (0, 1))).tolist()     # x @ kron([[1,1],[0,1]], [[1,1],[0,1]])
[[1, 3, 4, 10]]
>>> verify_kron_identity(np.array([[1, 2, 3, 4]]), 2, ((1, 1), (0, 1)), 1, np.array([[1, 3, 4, 10]]))
True
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any, Iterator, Sequence, overload

import numpy as np

__all__ = [
    "BitLabels",
    "kron_apply",
    "exact_kron_apply",
    "ModularIntegers",
    "verify_kron_identity",
    "integer_rows",
    "max_abs",
    "kernel_row_norm",
    "exact_dot",
    "INT64_SAFE",
]

#: Integers below this bound (in absolute value) are handled in int64 without overflow risk.
INT64_SAFE = 2**62

Kernel = Sequence[Sequence[Any]]


class BitLabels(Sequence[str]):
    """The ``2^k`` dataset labels (bit strings) in reverse lexicographic order, the order of the Kronecker coordinates
    (``"1…1"`` first), each computed on demand.

    Examples
    --------
    >>> labels = BitLabels(2)
    >>> len(labels), labels[0], list(labels)
    (4, '11', ['11', '10', '01', '00'])
    """

    def __init__(self, k: int) -> None:
        self.k = k
        self.n = 1 << k

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        if not -self.n <= i < self.n:
            raise IndexError(i)
        return format(self.n - 1 - (i % self.n), f"0{self.k}b")

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(self.n))


def kron_apply(X: np.ndarray, k: int, kernel: Kernel, *, mod: int | None = None) -> np.ndarray:
    """Return ``X @ (kernel ⊗ kernel ⊗ … ⊗ kernel)`` (``k`` factors) for ``X`` of shape ``(m, 2^k)`` or ``(2^k,)``.

    Coordinates are indexed so that the first bit is the most significant one (any consistent bit order works for
    the symmetric, persymmetric kernels of randomized response). With ``mod`` (a modulus below ``2^31``; ``X`` int64
    with entries in ``[0, mod)``, ``kernel`` small signed integers) the result is reduced modulo ``mod``; the
    reduction is done lazily, only when a bound shows that the next axis could leave ``int64``.
    """
    vec = X.ndim == 1
    A = X.reshape(1, -1) if vec else X
    m, n = A.shape
    if n != 1 << k:
        raise ValueError(f"kron_apply: {n} coordinates, expected 2^{k}")
    (k00, k01), (k10, k11) = kernel
    out = A
    if mod is not None:
        norm = kernel_row_norm(kernel)
        if norm * mod >= INT64_SAFE:  # large kernel entries: reduce them and every product (slower, still int64)
            return _kron_apply_strict(A, k, kernel, mod).reshape(n) if vec else _kron_apply_strict(A, k, kernel, mod)
        bound = mod
    for t in range(k):
        if mod is not None:
            if bound * norm >= INT64_SAFE:
                out = out % mod
                bound = mod
            bound *= norm
        R = out.reshape(m, 1 << t, 2, 1 << (k - t - 1))
        x0 = R[:, :, 0, :]
        x1 = R[:, :, 1, :]
        new = np.empty_like(R)
        np.multiply(x0, k00, out=new[:, :, 0, :])
        new[:, :, 0, :] += x1 * k10
        np.multiply(x0, k01, out=new[:, :, 1, :])
        new[:, :, 1, :] += x1 * k11
        out = new.reshape(m, n)
    if mod is not None:
        out = out % mod
    return out.reshape(n) if vec else out


def _kron_apply_strict(A: np.ndarray, k: int, kernel: Kernel, mod: int) -> np.ndarray:
    """``kron_apply`` modulo ``mod`` with every product reduced (kernel entries of any size)."""
    m, n = A.shape
    (k00, k01), (k10, k11) = (tuple(int(v) % mod for v in row) for row in kernel)
    out = A % mod
    for t in range(k):
        R = out.reshape(m, 1 << t, 2, 1 << (k - t - 1))
        x0 = R[:, :, 0, :]
        x1 = R[:, :, 1, :]
        new = np.empty_like(R)
        new[:, :, 0, :] = (x0 * k00 % mod + x1 * k10 % mod) % mod
        new[:, :, 1, :] = (x0 * k01 % mod + x1 * k11 % mod) % mod
        out = new.reshape(m, n)
    return out


def kernel_row_norm(kernel: Kernel) -> int:
    """``max_i Σ_j |K[i][j]|`` and column version (an upper bound on the growth factor per axis)."""
    a = [[abs(int(v)) for v in row] for row in kernel]
    return max(a[0][0] + a[1][0], a[0][1] + a[1][1], a[0][0] + a[0][1], a[1][0] + a[1][1])


def max_abs(X: np.ndarray) -> int:
    """Largest absolute value of an integer array (int64 or object of Python ints), as a Python int."""
    if X.size == 0:
        return 0
    if X.dtype == object:
        return max(abs(int(X.max())), abs(int(X.min())))
    return max(abs(int(X.max())), abs(int(X.min())))


def integer_rows(X: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Scale each row of a rational matrix to integers: ``X[i] = N[i] / d[i]``.

    Returns the integer matrix (int64 when safe, otherwise ``object`` Python ints) and the positive denominators.
    ``X`` may be an integer array or an object array of Fractions/ints.
    """
    if X.dtype.kind in "iu":
        return X.astype(np.int64) if X.dtype != np.int64 else X, [1] * X.shape[0]
    rows = []
    dens = []
    big = False
    for row in X:
        vals = [v if isinstance(v, Fraction) else Fraction(int(v)) for v in row]
        ds = [v.denominator for v in vals]
        d = lcm(*set(ds))
        ints = [v.numerator * (d // dv) for v, dv in zip(vals, ds)]
        big = big or (max(ints) >= INT64_SAFE or min(ints) <= -INT64_SAFE)
        rows.append(ints)
        dens.append(d)
    if big:
        out = np.empty((len(rows), X.shape[1]), dtype=object)
        for i, r in enumerate(rows):
            out[i, :] = r
        return out, dens
    return np.array(rows, dtype=np.int64).reshape(X.shape), dens


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    for q in (2, 3, 5, 7, 11, 13):
        if n % q == 0:
            return n == q
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in (2, 3, 5, 7, 11):  # deterministic for n < 2.1e12
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@lru_cache(maxsize=1)
def _primes() -> tuple[int, ...]:
    out: list[int] = []
    n = 2**31 - 1
    while len(out) < 64:
        if _is_prime(n):
            out.append(n)
        n -= 2
    return tuple(out)


class ModularIntegers:
    """Big integers held as mixed-radix digits over primes ``P_1, P_2, …`` (Garner's CRT), vectorised in int64.

    ``value = Σ_i c_i Π_{j<i} P_j − [value_nonneg ≥ ⌈Π/2⌉] · Π`` (symmetric representative), exact as long as
    ``|value| < Π/2``. Signs, residues modulo other primes and the Python integers are all computed from the
    digits without big-integer arithmetic (except :meth:`to_ints`).
    """

    def __init__(self, residues: Sequence[np.ndarray], primes: Sequence[int]) -> None:
        self.primes = tuple(int(P) for P in primes)
        digits: list[np.ndarray] = []
        for i, (r, Pi) in enumerate(zip(residues, self.primes)):
            v = np.asarray(r, dtype=np.int64) % Pi
            for j in range(i):
                inv = pow(self.primes[j] % Pi, -1, Pi)
                v = (v - digits[j]) % Pi * inv % Pi
            digits.append(v)
        self.digits = digits
        self.bound: int | None = None
        self.modulus = 1
        for P in self.primes:
            self.modulus *= P
        half = (self.modulus + 1) // 2
        tdig = []
        for P in self.primes:
            tdig.append(half % P)
            half //= P
        greater = np.zeros(digits[0].shape, dtype=bool)
        equal = np.ones(digits[0].shape, dtype=bool)
        for c, t in zip(reversed(digits), reversed(tdig)):
            greater |= equal & (c > t)
            equal &= c == t
        self._wrap = greater | equal  # value_nonneg ≥ ⌈Π/2⌉: the value is negative

    def row(self, i: int) -> "ModularIntegers":
        """Row ``i`` (for 2-D values), sharing the digits."""
        out = object.__new__(ModularIntegers)
        out.primes, out.modulus, out.bound = self.primes, self.modulus, self.bound
        out.digits = [d[i] for d in self.digits]
        out._wrap = self._wrap[i]
        return out

    @property
    def shape(self) -> tuple[int, ...]:
        return self.digits[0].shape

    def negative(self) -> np.ndarray:
        """Boolean mask of negative entries."""
        return self._wrap

    def approx(self) -> np.ndarray:
        """float64 approximation (for ranking only)."""
        out = np.zeros(self.shape)
        radix = 1.0
        for c, P in zip(self.digits, self.primes):
            out += c * radix
            radix *= P
        return out - self._wrap * float(self.modulus)

    def mod(self, Q: int) -> np.ndarray:
        """Residues modulo another prime ``Q < 2^31`` (int64)."""
        out = np.zeros(self.shape, dtype=np.int64)
        radix = 1
        for c, P in zip(self.digits, self.primes):
            out = (out + c % Q * (radix % Q)) % Q
            radix *= P
        return (out - self._wrap.astype(np.int64) * (self.modulus % Q)) % Q

    def to_ints(self) -> np.ndarray:
        """The exact values as an ``object`` array of Python ints (Horner over the digits)."""
        out = np.zeros(self.shape, dtype=object)
        for c, P in zip(reversed(self.digits), reversed(self.primes)):
            out = out * P + c.astype(object)
        return np.where(self._wrap, out - self.modulus, out)

    def max_abs_bound(self) -> int:
        """An upper bound on ``|value|`` (the bound proven when the values were computed, else half the modulus)."""
        return self.bound if self.bound is not None else self.modulus // 2


def exact_kron_apply(X: np.ndarray, k: int, kernel: Kernel) -> np.ndarray | ModularIntegers:
    """Exact ``X @ (⊗^k kernel)`` for an integer matrix ``X``: int64 when a bound rules out overflow, otherwise
    multi-modular (primes below ``2^31``, recombined by Garner's algorithm into :class:`ModularIntegers`)."""
    bound = max_abs(X) * kernel_row_norm(kernel) ** k
    if bound < INT64_SAFE and all(abs(int(v)) < 2**31 for row in kernel for v in row):
        return kron_apply(
            X.astype(np.int64) if X.dtype != np.int64 else X, k, tuple(tuple(int(v) for v in r) for r in kernel)
        )
    primes = []
    prod = 1
    for P in _primes():
        if prod > 2 * bound + 1:
            break
        primes.append(P)
        prod *= P
    residues = []
    Ks = tuple(tuple(int(v) for v in row) for row in kernel)
    for P in primes:
        residues.append(kron_apply(_residues(X, P), k, Ks, mod=P))
    out = ModularIntegers(residues, primes)
    out.bound = bound
    return out


def exact_dot(a: np.ndarray, b: np.ndarray) -> int:
    """Exact integer dot product (int64 when a bound allows, Python ints otherwise)."""
    if a.dtype != object and b.dtype != object and max_abs(a) * max_abs(b) * max(1, len(a)) < INT64_SAFE:
        return int(np.dot(a.astype(np.int64), b.astype(np.int64)))
    return int(np.dot(a.astype(object), b.astype(object)))


def _residues(X: Any, P: int) -> np.ndarray:
    if isinstance(X, ModularIntegers):
        return X.mod(P)
    if X.dtype == object:
        return np.mod(X, P).astype(np.int64)
    return np.mod(X.astype(np.int64, copy=False), P)


def verify_kron_identity(W: np.ndarray | ModularIntegers, k: int, kernel: Kernel, c: int, X: np.ndarray) -> bool:
    """Exactly decide whether ``W @ (⊗^k kernel) == c * X`` for integer arrays ``W``, ``X`` and integer ``c``.

    Works modulo primes below ``2^31`` whose product exceeds twice a bound on both sides (the difference is then
    zero as an integer iff it is zero modulo every prime). Everything stays in ``int64``.
    """
    if not isinstance(W, ModularIntegers):
        W = np.asarray(W)
    X = np.asarray(X)
    if (not isinstance(W, ModularIntegers) and W.dtype.kind not in "iuO") or X.dtype.kind not in "iuO":
        raise TypeError("verify_kron_identity needs integer arrays")
    wmax = W.max_abs_bound() if isinstance(W, ModularIntegers) else max_abs(W)
    bound = wmax * kernel_row_norm(kernel) ** k + abs(int(c)) * max_abs(X)
    needed = 2 * bound + 1
    prod = 1
    Ks = tuple(tuple(int(v) for v in row) for row in kernel)
    for P in _primes():
        if prod > needed:
            break
        lhs = kron_apply(_residues(W, P), k, Ks, mod=P)
        rhs = (int(c) % P) * _residues(X, P) % P
        if not np.array_equal(lhs, rhs):
            return False
        prod *= P
    if prod <= needed:  # pragma: no cover - 64 primes give ~1980 bits
        raise OverflowError("verify_kron_identity: numbers too large for the prime list")
    return True
