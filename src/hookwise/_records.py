"""``@dataclass`` for the modules on the path of ``hookwise fire``, without importing :mod:`dataclasses`.

:mod:`dataclasses` imports :mod:`inspect` (and with it ``ast``, ``dis``,
``tokenize``...), a few milliseconds of every CLI start-up. The records of the
firing path (events, entries, plans, outcomes, process requests, settings
layers) use only a small part of it, written here: fields from the class
annotations, defaults and ``field(default_factory=...)``, a generated
``__init__`` (calling ``__post_init__`` if defined; a generic one builds a class's first few records, so a
short run compiles only the ``__init__`` of records it builds often), ``__repr__``, ``__eq__``,
``frozen`` (assignment raises :class:`AttributeError`) and ``eq=False``. Type
checkers see the real :func:`dataclasses.dataclass` (same declarations, same
meaning); ``tests/core/test_records.py`` holds the two side by side.
"""

from __future__ import annotations

TYPE_CHECKING = (
    False  # typing.TYPE_CHECKING without importing typing; the firing path imports it from here
)
if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
    from dataclasses import field as field
    from enum import Enum as Enum
else:
    __all__ = ["Enum", "dataclass", "field"]

    class _Missing:
        __slots__ = ()

        def __repr__(self):
            return "MISSING"

    _MISSING = _Missing()
    _COMPILE_AFTER = (
        100  # records built by the generic __init__ before theirs is compiled (see _make_init)
    )
    _LITERALS = {
        dict: "{}",
        list: "[]",
    }  # default factories a compiled __init__ writes as a display

    class _Field:
        __slots__ = ("name", "default", "default_factory")

        def __init__(self, default, default_factory):
            self.name = ""
            self.default = default
            self.default_factory = default_factory

    def field(*, default=_MISSING, default_factory=_MISSING):
        """A field with a default value or a ``default_factory`` (called for each new record)."""
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("cannot specify both default and default_factory")
        return _Field(default, default_factory)

    def _fields(cls):
        fields = {}
        for base in reversed(cls.__mro__[1:]):
            for f in getattr(base, "__record_fields__", ()):
                fields[f.name] = f
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if isinstance(annotation, str) and annotation.startswith(
                ("ClassVar", "typing.ClassVar")
            ):
                continue
            value = cls.__dict__.get(name, _MISSING)
            f = value if isinstance(value, _Field) else _Field(value, _MISSING)
            f.name = name
            if isinstance(f.default, (list, dict, set)):
                raise ValueError(
                    f"mutable default {type(f.default)} for field {name} is not allowed: "
                    "use default_factory"
                )
            if f.default is _MISSING:
                if name in cls.__dict__:
                    delattr(cls, name)
            else:
                setattr(cls, name, f.default)
            fields[name] = f
        return tuple(fields.values())

    def _make_init(cls, fields, frozen):
        env = {"_MISSING": _MISSING, "_setattr": object.__setattr__}
        params, body = [], []
        seen_default = False
        for f in fields:
            if f.default is not _MISSING:
                env[f"_d_{f.name}"] = f.default
                params.append(f"{f.name}=_d_{f.name}")
                value = f.name
                seen_default = True
            elif f.default_factory is not _MISSING:
                env[f"_f_{f.name}"] = f.default_factory
                params.append(f"{f.name}=_MISSING")
                made = _LITERALS.get(
                    f.default_factory, f"_f_{f.name}()"
                )  # {} costs less than dict()
                value = f"{made} if {f.name} is _MISSING else {f.name}"
                seen_default = True
            else:
                if seen_default:
                    raise TypeError(f"non-default argument {f.name!r} follows default argument")
                params.append(f.name)
                value = f.name
            body.append(
                f"_setattr(self, {f.name!r}, {value})" if frozen else f"self.{f.name} = {value}"
            )
        if hasattr(cls, "__post_init__"):
            body.append("self.__post_init__()")
        src = (
            f"def __init__({', '.join(['self', *params])}):\n    "
            + ("\n    ".join(body) or "pass")
            + "\n"
        )
        qualname = f"{cls.__qualname__}.__init__"

        def compiled():
            exec(src, env)  # generated from the class's own field names, as dataclasses does
            init = env["__init__"]
            init.__qualname__ = qualname
            cls.__init__ = init
            return init

        # Compiling costs ~10 us per field, and no record class of a short run (a CLI firing, tables built at
        # import included) is built more than a few dozen times: the first ones are built by this generic
        # __init__, which hands every call it does not plainly accept (so every error message) and every call
        # after the first hundred to the compiled one. Compiling after 8 cost a `fire` ~2.5 % of its
        # instructions (the tables of settings/schema.py build more than 8 keys each).
        names = tuple(f.name for f in fields)
        known = frozenset(names)
        plan = tuple((f.name, f.default, f.default_factory) for f in fields)
        post = hasattr(cls, "__post_init__")
        setter = object.__setattr__ if frozen else setattr
        built = 0

        def __init__(self, *args, **kwargs):
            nonlocal built
            built += 1
            if built > _COMPILE_AFTER or len(args) > len(names) or not known.issuperset(kwargs):
                return compiled()(self, *args, **kwargs)
            values = []
            for i, (name, default, factory) in enumerate(plan):
                if i < len(args):
                    if name in kwargs:  # given twice
                        return compiled()(self, *args, **kwargs)
                    values.append(args[i])
                elif name in kwargs:
                    values.append(kwargs[name])
                elif default is not _MISSING:
                    values.append(default)
                elif factory is not _MISSING:
                    values.append(factory())
                else:  # missing
                    return compiled()(self, *args, **kwargs)
            for name, value in zip(names, values, strict=True):
                setter(self, name, value)
            if post:
                self.__post_init__()

        __init__.__qualname__ = qualname
        return __init__

    def _process(cls, frozen, eq, repr):
        fields = _fields(cls)
        names = tuple(f.name for f in fields)
        cls.__record_fields__ = fields
        cls.__match_args__ = names
        cls.__init__ = _make_init(cls, fields, frozen)
        if repr and "__repr__" not in cls.__dict__:

            def __repr__(self):
                inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
                return f"{type(self).__qualname__}({inner})"

            cls.__repr__ = __repr__
        if eq and "__eq__" not in cls.__dict__:

            def __eq__(self, other):
                if other.__class__ is not self.__class__:
                    return NotImplemented
                return tuple(getattr(self, n) for n in names) == tuple(
                    getattr(other, n) for n in names
                )

            cls.__eq__ = __eq__
            if frozen:

                def __hash__(self):
                    return hash(tuple(getattr(self, n) for n in names))

                cls.__hash__ = __hash__
            elif "__hash__" not in cls.__dict__:
                cls.__hash__ = None
        if frozen:

            def __setattr__(self, name, value):
                raise AttributeError(f"cannot assign to field {name!r} of a frozen record")

            def __delattr__(self, name):
                raise AttributeError(f"cannot delete field {name!r} of a frozen record")

            cls.__setattr__ = __setattr__
            cls.__delattr__ = __delattr__
        return cls

    def dataclass(cls=None, /, *, frozen=False, eq=True, repr=True):
        """``@dataclass``, ``@dataclass(frozen=True)``, ``@dataclass(eq=False)`` (see the module docstring)."""
        if cls is None:
            return lambda c: _process(c, frozen, eq, repr)
        return _process(cls, frozen, eq, repr)

    # __hash__ is not among them: a member hashes as its value through str's own (C) hash, which every
    # dict keyed by an event or an outcome on the firing path calls
    _ENUM_METHODS = (
        "__repr__",
        "__str__",
        "__format__",
        "__reduce_ex__",
        "__copy__",
        "__deepcopy__",
    )

    class _EnumType(type):
        """The class of a ``class X(str, Enum)`` below: its members by value and name, in definition order."""

        def __new__(mcs, name, bases, ns):
            cls = super().__new__(mcs, name, bases, ns)
            members = {}
            for key, value in ns.items():
                if (
                    key.startswith("_")
                    or callable(value)
                    or isinstance(value, (classmethod, staticmethod, property))
                ):
                    continue
                if type(value) is not str or str not in cls.__mro__:
                    raise TypeError(
                        f"{name}.{key}: this Enum holds str members only (class {name}(str, Enum))"
                    )
                member = str.__new__(cls, value)
                member._name_ = key
                member._value_ = value
                type.__setattr__(cls, key, member)
                members[key] = member
            type.__setattr__(cls, "_members", members)
            type.__setattr__(cls, "_by_value", {m._value_: m for m in members.values()})
            base = globals().get("Enum")
            if base is not None:  # Enum's own methods win over str's, unless the class defines them
                for method in _ENUM_METHODS:
                    if method not in ns:
                        type.__setattr__(cls, method, base.__dict__[method])
            return cls

        def __call__(cls, value):
            if isinstance(value, cls):
                return value
            try:
                return cls._by_value[value]
            except (KeyError, TypeError):
                raise ValueError(f"{value!r} is not a valid {cls.__qualname__}") from None

        def __getitem__(cls, name):
            return cls._members[name]

        def __iter__(cls):
            return iter(tuple(cls._members.values()))

        def __reversed__(cls):
            return reversed(tuple(cls._members.values()))

        def __len__(cls):
            return len(cls._members)

        def __contains__(cls, value):  # a member or a member's value, as from Python 3.12
            try:
                return value in cls._by_value
            except TypeError:  # unhashable
                return False

        @property
        def __members__(cls):
            from types import MappingProxyType

            return MappingProxyType(cls._members)

        def __setattr__(cls, name, value):
            if name in cls.__dict__.get("_members", ()):
                raise AttributeError(f"cannot reassign member {name!r}")
            type.__setattr__(cls, name, value)

        def __repr__(cls):
            return f"<enum {cls.__name__!r}>"

    class Enum(metaclass=_EnumType):
        """``class X(str, Enum)`` as :class:`enum.Enum` makes it, without importing :mod:`enum`.

        :mod:`enum` imports :mod:`functools`, :mod:`collections` and :mod:`operator`, and creating an enum class
        costs 100-250 us: together a tenth of a ``hookwise fire``. The closed sets of the firing path
        (events, outcomes, matcher, merge and chain kinds) are string-valued enums that need only this part:
        members are instances of the class and of :class:`str` (equal to, and hashed as, their value), with
        ``name`` and ``value``; ``X(value)`` returns the member (``ValueError`` otherwise), ``X[name]``,
        iteration in definition order, ``len``, ``in`` (as from Python 3.12), ``__members__``; the same
        ``repr``, pickling and copies.
        Type checkers see :class:`enum.Enum`; ``tests/core/test_records.py`` holds the two side by side.
        """

        @property
        def name(self):
            return self._name_

        @property
        def value(self):
            return self._value_

        def __repr__(self):
            return f"<{type(self).__name__}.{self._name_}: {self._value_!r}>"

        def __str__(self):
            return f"{type(self).__name__}.{self._name_}"

        def __format__(self, spec):
            return str.__format__(str(self), spec)

        def __hash__(self):
            return str.__hash__(self)

        def __reduce_ex__(self, protocol):
            return type(self), (self._value_,)

        def __copy__(self):
            return self

        def __deepcopy__(self, memo):
            return self
