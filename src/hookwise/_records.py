"""``@dataclass`` for the modules on the path of ``hookwise fire``, without importing :mod:`dataclasses`.

:mod:`dataclasses` imports :mod:`inspect` (and with it ``ast``, ``dis``,
``tokenize``...), a few milliseconds of every CLI start-up. The records of the
firing path (events, entries, plans, outcomes, process requests, settings
layers) use only a small part of it, written here: fields from the class
annotations, defaults and ``field(default_factory=...)``, a generated
``__init__`` (calling ``__post_init__`` if defined), ``__repr__``, ``__eq__``,
``frozen`` (assignment raises :class:`AttributeError`) and ``eq=False``. Type
checkers see the real :func:`dataclasses.dataclass` (same declarations, same
meaning); ``tests/core/test_records.py`` holds the two side by side.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported for this (the name alone is what type checkers look for)
if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
    from dataclasses import field as field
else:
    __all__ = ["dataclass", "field"]

    class _Missing:
        __slots__ = ()

        def __repr__(self):
            return "MISSING"

    _MISSING = _Missing()

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
            if isinstance(annotation, str) and annotation.startswith(("ClassVar", "typing.ClassVar")):
                continue
            value = cls.__dict__.get(name, _MISSING)
            f = value if isinstance(value, _Field) else _Field(value, _MISSING)
            f.name = name
            if isinstance(f.default, (list, dict, set)):
                raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: "
                                 "use default_factory")
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
                value = f"_f_{f.name}() if {f.name} is _MISSING else {f.name}"
                seen_default = True
            else:
                if seen_default:
                    raise TypeError(f"non-default argument {f.name!r} follows default argument")
                params.append(f.name)
                value = f.name
            body.append(f"_setattr(self, {f.name!r}, {value})" if frozen else f"self.{f.name} = {value}")
        if hasattr(cls, "__post_init__"):
            body.append("self.__post_init__()")
        src = f"def __init__({', '.join(['self', *params])}):\n    " + ("\n    ".join(body) or "pass") + "\n"
        exec(src, env)  # generated from the class's own field names, as dataclasses does
        init = env["__init__"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        return init

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
                return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)

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
