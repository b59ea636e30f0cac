"""Error and note texts name what the user typed: the spec's key, the option's value as written."""

import pytest

import privgeom as pg
from privgeom.definitions import parse_definition


def test_a_spec_size_error_names_the_spec_key_not_the_class_parameter():
    with pytest.raises(pg.InvalidParameterError, match=r"krr: n=1 must be >= 2") as info:
        parse_definition("krr:n=1,eps=1")
    assert "n_values" not in str(info.value)
    assert parse_definition("krr:n=2,eps=1").n_inputs == 2  # the smallest allowed size still parses


def test_a_huge_rational_eps_is_shown_as_typed():
    level = pg.PrivacyLevel.parse(eps="1e400", allow_infinite=True)
    assert level.exp_eps == float("inf") and "1e400" in level.note
    assert len(level.note) < 300  # not the 401 digits of 10^400
    with pytest.raises(pg.InvalidParameterError, match=r"eps = 1e400 is too large"):
        pg.PrivacyLevel.parse(eps="1e400")
