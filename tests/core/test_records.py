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


def test_first_records_and_later_records_are_built_alike() -> None:
    """A class's first records come from a generic ``__init__``, later ones from a compiled one: no
    difference."""

    def fresh() -> dict[str, type]:
        return build(_records)

    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
        ("Plain", (1,), {}),
        ("Plain", (1, "y"), {}),
        ("Plain", (), {"a": 2, "c": [5]}),
        ("Plain", (1,), {"b": "z"}),
        ("Frozen", (1,), {}),
        ("Frozen", (), {"a": 1, "b": (2,)}),
        ("Identity", (), {}),
        ("Post", (4,), {}),
    ]
    early = fresh()
    late = fresh()
    for name, _args, _kwargs in calls:  # compile every class of `late`
        for _ in range(_records._COMPILE_AFTER + 1):
            late[name](*_args, **_kwargs)
    for name, args, kwargs in calls:
        a, b = early[name](*args, **kwargs), late[name](*args, **kwargs)
        assert repr(a) == repr(b)
        assert [getattr(a, f) for f in type(a).__match_args__] == [
            getattr(b, f) for f in type(b).__match_args__
        ]
    assert early["Plain"](1).c is not early["Plain"](1).c  # a fresh list per record on either path
    bad: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
        ("Plain", (), {}),
        ("Plain", (1, "x", [], 4), {}),
        ("Plain", (1,), {"a": 1}),
        ("Plain", (1,), {"d": 1}),
        ("Frozen", (), {"b": ()}),
    ]
    for name, args, kwargs in bad:
        messages = []
        for impl in (fresh(), late):
            with pytest.raises(TypeError) as exc:
                impl[name](*args, **kwargs)
            messages.append(str(exc.value).split("__init__()")[-1])
        assert messages[0] == messages[1], (name, args, kwargs)


def build_enums(base: Any) -> tuple[Any, Any]:
    class Plain(str, base):  # type: ignore[misc,valid-type]
        OK = "ok"
        NOT_RUN = "not-run"

    class Valued(str, base):  # type: ignore[misc,valid-type]
        A = "a"
        B = "b"

        def __str__(self) -> str:
            return str(self.value)

    return Plain, Valued


def contains(cls: Any, value: Any) -> Any:
    try:
        return value in cls
    except TypeError:  # Python 3.11's enum, for a value that is not a member
        return "TypeError"


def enum_behaviour(cls: Any) -> list[Any]:
    import copy
    import pickle

    m = next(iter(cls))
    seen: list[Any] = [
        repr(m),
        str(m),
        f"{m}",
        format(m, ">8"),
        "%s" % (m,),  # noqa: UP031 (%-formatting a member is compared too)
        m.name,
        m.value,
        type(m.value),
        m == m.value,
        hash(m) == hash(m.value),
        m.value in {m},
        m in {m.value},
        isinstance(m, str),
        isinstance(m, cls),
        [x.name for x in cls],
        [x.name for x in reversed(cls)],
        len(cls),
        m in cls,
        contains(cls, "zz"),
        cls(m.value) is m,
        cls(m) is m,
        cls[m.name] is m,
        {k: v.name for k, v in cls.__members__.items()},
        copy.copy(m) is m,
        copy.deepcopy(m) is m,
        m.upper(),
        sorted(cls),
        repr(cls),
    ]
    for bad in ("zz", None, 3, ["x"]):
        try:
            cls(bad)
        except ValueError as exc:
            seen.append(str(exc))
    try:
        cls["ZZ"]
    except KeyError as exc:
        seen.append(repr(exc))
    globals()["_PICKLED"] = cls  # pickling finds the class by name
    cls.__qualname__ = "_PICKLED"
    seen.append(pickle.loads(pickle.dumps(m)) is m)
    return seen


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # 3.11: enum's `in` with a non-member
def test_str_enums_behave_as_the_standard_library_s() -> None:
    import enum

    for ours, theirs in zip(build_enums(_records.Enum), build_enums(enum.Enum), strict=True):
        want = enum_behaviour(theirs)
        got = enum_behaviour(ours)
        # `"zz" in X` raises TypeError on 3.11 and is False from 3.12: ours says False
        assert [g for i, g in enumerate(got) if i != 18] == [
            w for i, w in enumerate(want) if i != 18
        ]
        assert got[18] is False and want[18] in ("TypeError", False)
        assert (
            contains(ours, "ok" if "OK" in ours.__members__ else "a") is True
        )  # a member's value, as in 3.12


def test_an_enum_member_cannot_be_reassigned_or_be_other_than_a_string() -> None:
    plain, _ = build_enums(_records.Enum)
    with pytest.raises(AttributeError):
        plain.OK = "other"
    with pytest.raises(TypeError, match="str members only"):

        class Numbers(str, _records.Enum):  # type: ignore[misc]
            ONE = 1
