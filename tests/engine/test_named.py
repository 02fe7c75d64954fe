"""The engine's NamedTuple (companion/engine/named.py) builds what typing.NamedTuple builds, without typing."""

from __future__ import annotations

import copy
import pickle
import typing

import pytest

from companion.engine import Awaited, Count
from companion.engine.named import NamedTuple


class Shim(NamedTuple):
    """A doc."""

    player: int
    rule: str = "7.2"

    @property
    def twice(self) -> int:
        return self.player * 2


class Typed(typing.NamedTuple):
    """A doc."""

    player: int
    rule: str = "7.2"

    @property
    def twice(self) -> int:
        return self.player * 2


@pytest.mark.parametrize("make", [Shim, Typed])
def test_it_behaves_as_typing_namedtuple(make: type[Shim]) -> None:
    value = make(3)
    assert value == (3, "7.2") and value.player == 3 and value.twice == 6
    assert make(player=3, rule="8.4")._replace(rule="x") == (3, "x")
    assert make._fields == ("player", "rule") and make._field_defaults == {"rule": "7.2"}
    assert repr(value) == f"{make.__name__}(player=3, rule='7.2')" and make.__doc__ == "A doc."
    assert value._asdict() == {"player": 3, "rule": "7.2"} and hash(value) == hash((3, "7.2"))
    with pytest.raises(TypeError):
        make()  # type: ignore[call-arg]


class ShimNone(NamedTuple):
    pass


class TypedNone(typing.NamedTuple):
    pass


class ShimOne(NamedTuple):
    area: int


class TypedOne(typing.NamedTuple):
    area: int


@pytest.mark.parametrize(("shim", "typed"), [(Shim, Typed), (ShimNone, TypedNone), (ShimOne, TypedOne)])
def test_its_constructor_and_helpers_match_typing_for_every_field_count(shim: type, typed: type) -> None:
    """The constructor is compiled once per number of fields and renamed (named.py): each class still gets its own
    field names, defaults, errors and helpers."""
    fields = typed._fields  # type: ignore[attr-defined]
    values = tuple(range(len(fields)))
    made, expected = shim(*values), typed(*values)
    assert made == expected and made._fields == fields and shim.__match_args__ == typed.__match_args__
    assert repr(made) == repr(expected).replace(typed.__name__, shim.__name__, 1)
    assert shim(**dict(zip(fields, values, strict=True))) == made
    assert shim._make(values) == made and copy.deepcopy(made) == made and pickle.loads(pickle.dumps(made)) == made
    assert shim.__new__.__defaults__ == typed.__new__.__defaults__
    for call in (lambda cls: cls(*values, 9), lambda cls: cls(nothing=1), lambda cls: cls._make((*values, 9))):
        with pytest.raises(TypeError) as ours:
            call(shim)
        with pytest.raises(TypeError) as theirs:
            call(typed)
        assert str(ours.value).replace(shim.__name__, typed.__name__) == str(theirs.value)
    with pytest.raises(ValueError, match="nothing"):
        made._replace(nothing=1)
    assert [getattr(made, field) for field in fields] == list(values)


def test_its_values_pickle_and_keep_their_module() -> None:
    assert pickle.loads(pickle.dumps(Count(1, (2, 3), 0, (0,), ()))) == Count(1, (2, 3), 0, (0,), ())
    assert Awaited.__module__ == "companion.engine.tasks" and Awaited(0, "ballot").together is False


def test_a_field_without_a_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError):

        class Bad(NamedTuple):
            rule: str = ""
            player: int  # type: ignore[misc]


def test_a_field_name_with_an_underscore_is_refused_as_by_typing() -> None:
    """``_cls`` would clash with the constructor's own first argument, ``_make`` would hide the method."""
    with pytest.raises(ValueError):

        class Bad(NamedTuple):
            _make: int


@pytest.mark.skipif(not hasattr(copy, "replace"), reason="copy.replace() is Python 3.13's")
def test_copy_replace_works_where_python_has_it() -> None:
    assert copy.replace(Shim(3), rule="8.4") == Shim(3, "8.4")  # type: ignore[attr-defined]
