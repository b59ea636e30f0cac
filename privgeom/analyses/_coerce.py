"""Accept a privacy definition or a cone wherever a row cone is needed (dispatch by ``functools.singledispatch``)."""

from __future__ import annotations

from functools import singledispatch
from typing import Any

from .._core.errors import InvalidTypeError
from ..geometry._cone import Cone

__all__ = ["as_cone"]


@singledispatch
def as_cone(obj: Any) -> Cone:
    """The row cone of ``obj``: a :class:`Cone` is returned as is, anything with ``row_cone()`` is asked for it."""
    row_cone = getattr(obj, "row_cone", None)
    if callable(row_cone):
        cone = row_cone()
        if isinstance(cone, Cone):
            return cone
    raise InvalidTypeError(f"expected a privacy definition or a Cone, got {type(obj).__name__}")


@as_cone.register
def _(obj: Cone) -> Cone:
    return obj
