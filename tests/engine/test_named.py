"""The engine's NamedTuple (companion/engine/named.py) builds what typing.NamedTuple builds, without typing."""

from __future__ import annotations

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


def test_its_values_pickle_and_keep_their_module() -> None:
    assert pickle.loads(pickle.dumps(Count(1, (2, 3), 0, (0,), ()))) == Count(1, (2, 3), 0, (0,), ())
    assert Awaited.__module__ == "companion.engine.tasks" and Awaited(0, "ballot").together is False


def test_a_field_without_a_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError):

        class Bad(NamedTuple):
            rule: str = ""
            player: int  # type: ignore[misc]
