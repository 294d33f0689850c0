"""hookwise._records behaves as dataclasses does for every feature the firing path uses."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from hookwise import _records


def build(module: Any) -> dict[str, type]:
    @module.dataclass
    class Plain:
        a: int
        b: str = "x"
        c: list[int] = module.field(default_factory=list)

    @module.dataclass(frozen=True)
    class Frozen:
        a: int
        b: tuple[int, ...] = ()

    @module.dataclass(eq=False)
    class Identity:
        a: int = 0

    @module.dataclass
    class Post:
        a: int
        doubled: int = 0

        def __post_init__(self) -> None:
            self.doubled = self.a * 2

    return {"Plain": Plain, "Frozen": Frozen, "Identity": Identity, "Post": Post}


REAL, OURS = build(dataclasses), build(_records)


@pytest.mark.parametrize("impl", [REAL, OURS], ids=["dataclasses", "_records"])
def test_same_behaviour(impl: dict[str, Any]) -> None:
    plain, frozen, identity, post = impl["Plain"], impl["Frozen"], impl["Identity"], impl["Post"]
    p = plain(1)
    assert (p.a, p.b, p.c) == (1, "x", [])
    assert plain(1).c is not plain(1).c  # a fresh list per record
    assert p == plain(1, "x", []) and p != plain(2) and p != "other"
    assert repr(p) == "build.<locals>.Plain(a=1, b='x', c=[])"
    assert plain(a=3, c=[1]).c == [1]
    with pytest.raises(TypeError):
        hash(p)
    f = frozen(1)
    assert f == frozen(1, ()) and hash(f) == hash(frozen(1)) and {f: 1}[frozen(1)] == 1
    with pytest.raises(AttributeError):
        f.a = 2  # type: ignore[misc]
    i = identity()
    assert i != identity() and i == i and {i: 1}[i] == 1  # identity equality, hashable
    assert post(3).doubled == 6
    assert plain.__match_args__ == ("a", "b", "c")
    with pytest.raises(TypeError):
        plain()


def test_mistakes_are_refused_like_dataclasses() -> None:
    for module in (dataclasses, _records):
        with pytest.raises(ValueError):
            @module.dataclass
            class Bad:
                a: list[int] = []  # noqa: RUF012

        with pytest.raises(TypeError):
            @module.dataclass
            class Order:
                a: int = 0
                b: int  # type: ignore[misc]
