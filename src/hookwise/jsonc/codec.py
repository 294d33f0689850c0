"""Plain JSON for the firing path: ``loads`` and ``dumps`` on the standard library's C scanner and encoder.

Importing :mod:`json` imports :mod:`re` (which imports :mod:`enum`, :mod:`functools` and
:mod:`collections`) to compile a few patterns at import time. A ``hookwise fire`` reads settings,
writes a hook's input and reads its answer, and needs none of those patterns: they cost about
6 ms of a 35 ms process on a small machine (bench/startup.py). The functions here drive the same
C code :func:`json.loads` and :func:`json.dumps` use (:mod:`_json`), so they give the same values
and the same text; they raise the same exceptions, importing :mod:`json` only when one has to be
raised. On an interpreter without :mod:`_json` they are :mod:`json`'s own functions.

``tests/engine/test_json_codec.py`` compares them with :mod:`json` on generated values and texts.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_c: Any
try:
    import _json as _c
except ImportError:  # pragma: no cover - CPython always has it
    _c = None

#: the characters JSON allows between tokens
_WS = " \t\n\r"
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}
_constant = _CONSTANTS.__getitem__


class _Options:
    """What the C scanner reads from its context (the attributes of a ``json.JSONDecoder``)."""

    __slots__ = (
        "object_hook",
        "object_pairs_hook",
        "parse_constant",
        "parse_float",
        "parse_int",
        "strict",
    )

    def __init__(self, parse_constant: Callable[[str], Any]) -> None:
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = int
        self.parse_constant = parse_constant
        self.strict = True


_scanners: dict[Any, Any] = {}


def _decode_error(message: str, text: str, pos: int) -> ValueError:
    from json import JSONDecodeError

    return JSONDecodeError(message, text, pos)


def loads(text: str, *, parse_constant: Callable[[str], Any] | None = None) -> Any:
    """:func:`json.loads` of a ``str``; ``parse_constant`` as there (what ``NaN`` and ``Infinity`` become)."""
    if _c is None or type(text) is not str:
        import json

        return json.loads(text, parse_constant=parse_constant)
    constant = parse_constant or _constant
    scan = _scanners.get(constant)
    if scan is None:
        scan = _scanners[constant] = _c.make_scanner(_Options(constant))
    if text.startswith("\ufeff"):
        raise _decode_error("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    start = len(text) - len(text.lstrip(_WS))
    try:
        try:
            value, end = scan(text, start)
        except (
            SystemError
        ):  # Python < 3.12 reports a syntax error through json.decoder only once it is loaded
            import json.decoder  # noqa: F401

            value, end = scan(text, start)  # raises the error now
    except StopIteration as exc:
        raise _decode_error("Expecting value", text, exc.value) from None
    if (
        end != len(text) and len(text.rstrip(_WS)) != end
    ):  # a value ends with a character that is not white space
        rest = text[end:]
        raise _decode_error("Extra data", text, end + len(rest) - len(rest.lstrip(_WS)))
    return value


def _not_serializable(value: Any) -> Any:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def dumps(
    value: Any,
    *,
    ensure_ascii: bool = True,
    separators: tuple[str, str] = (", ", ": "),
    allow_nan: bool = True,
    default: Callable[[Any], Any] | None = None,
    sort_keys: bool = False,
) -> str:
    """:func:`json.dumps` without ``indent`` (use :func:`dumps_indented`) and with the same keywords."""
    if _c is None:
        import json

        return json.dumps(
            value,
            ensure_ascii=ensure_ascii,
            separators=separators,
            allow_nan=allow_nan,
            default=default,
            sort_keys=sort_keys,
        )
    encode_str = _c.encode_basestring_ascii if ensure_ascii else _c.encode_basestring
    if type(value) is str:
        return str(encode_str(value))
    encoder = _c.make_encoder(
        {},
        default or _not_serializable,
        encode_str,
        None,
        separators[1],
        separators[0],
        sort_keys,
        False,
        allow_nan,
    )
    return "".join(encoder(value, 0))


#: the reusable encoders of :func:`compact_text`, by ``allow_nan`` (made on first use)
_compact: dict[bool, Any] = {}


def compact_text(value: Any, *, allow_nan: bool = True) -> str:
    """``value`` as compact JSON text with non-ASCII characters as they are, for checks on the firing path.

    Unlike :func:`dumps` it reuses one encoder per ``allow_nan`` (building an encoder costs as much as
    encoding a small answer) and so cannot detect cycles (the encoder's ``markers`` dict would be shared
    between threads): a value that contains itself raises :class:`RecursionError` instead of
    :class:`ValueError`. Anything else it raises is what :func:`dumps` raises for the same value.
    """
    encoder = _compact.get(allow_nan)
    if encoder is None:
        if _c is None:  # pragma: no cover - CPython always has _json
            return dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=allow_nan)
        encoder = _compact[allow_nan] = _c.make_encoder(
            None, _not_serializable, _c.encode_basestring, None, ":", ",", False, False, allow_nan
        )
    return "".join(encoder(value, 0))


#: the JSON text of the three constants (looked up by identity: ``1 == True`` must not match)
_LITERAL_TEXT: tuple[tuple[object, str], ...] = ((None, "null"), (True, "true"), (False, "false"))


def _put(value: Any, out: list[str], nl: str, encode_str: Callable[[str], str]) -> bool:
    """Append ``value`` as JSON indented by 2 (``nl``: a newline and the current indent); False for anything
    :func:`json.dumps` would render differently (non-string keys, subclasses, NaN, objects for ``default``)."""
    t = type(value)
    if t is str:
        out.append(encode_str(value))
    elif t is dict:
        return _put_object(value, out, nl, encode_str)
    elif t is list or t is tuple:
        return _put_array(value, out, nl, encode_str)
    elif t is int:
        out.append(int.__repr__(value))
    elif t is float and value - value == 0.0:  # finite (inf - inf and NaN - NaN are NaN)
        out.append(float.__repr__(value))
    else:
        for constant, text in _LITERAL_TEXT:
            if value is constant:
                out.append(text)
                return True
        return False
    return True


def _put_object(
    value: dict[Any, Any], out: list[str], nl: str, encode_str: Callable[[str], str]
) -> bool:
    if not value:
        out.append("{}")
        return True
    inner = nl + "  "
    sep = "{" + inner
    for k, v in value.items():
        if type(k) is not str:
            return False
        out.append(sep)
        out.append(encode_str(k))
        out.append(": ")
        if not _put(v, out, inner, encode_str):
            return False
        sep = "," + inner
    out.append(nl + "}")
    return True


def _put_array(
    value: list[Any] | tuple[Any, ...], out: list[str], nl: str, encode_str: Callable[[str], str]
) -> bool:
    if not value:
        out.append("[]")
        return True
    inner = nl + "  "
    sep = "[" + inner
    for v in value:
        out.append(sep)
        if not _put(v, out, inner, encode_str):
            return False
        sep = "," + inner
    out.append(nl + "]")
    return True


def dumps_indented(
    value: Any, *, ensure_ascii: bool = True, default: Callable[[Any], Any] | None = None
) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=..., default=...)``: the same text, for plain JSON values in a
    fraction of the time (the standard library has no C encoder for indented output before Python 3.14)."""
    out: list[str] = []
    if _c is not None:
        try:
            if _put(
                value,
                out,
                "\n",
                _c.encode_basestring_ascii if ensure_ascii else _c.encode_basestring,
            ):
                return "".join(out)
        except RecursionError:  # a cycle, or very deep nesting: json.dumps says which
            pass
    import json

    return json.dumps(value, indent=2, ensure_ascii=ensure_ascii, default=default)
