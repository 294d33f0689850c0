"""Pure rules of the hook kinds beyond a shell command (docs/hook-types.md).

``http``: is a URL usable (:func:`check_url`), does the allow-list let it be
called (:func:`url_allowed`), what do its headers become (:func:`interpolate_headers`).
``python``: is a ``"package.module:function"`` reference well formed (:func:`check_callable`).
No I/O here: the settings schema (``settings/schema.py``) and the runners share these.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING

if (
    TYPE_CHECKING
):  # re and urllib are imported by the http rules that use them: a python hook needs neither
    import re
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any

#: headers an http hook may not set: they decide where and how the request is framed, so a project
#: could reach another virtual host behind an allowed address or smuggle a second request
#: (docs/hook-types.md)
FRAMING_HEADERS = frozenset(
    {
        "host",
        "content-length",
        "transfer-encoding",
        "connection",
        "keep-alive",
        "proxy-connection",
        "upgrade",
        "te",
        "trailer",
        "expect",
    }
)

_VAR: list[re.Pattern[str]] = []  # ``$VAR`` / ``${VAR}``, compiled on first use


def _var() -> re.Pattern[str]:
    if not _VAR:
        import re

        _VAR.append(re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))"))
    return _VAR[0]


def _dotted(name: str) -> bool:
    """``name`` is dotted ASCII Python names (``pkg.mod``): ``[A-Za-z_][A-Za-z0-9_]*`` between
    dots."""
    return all(part.isidentifier() and part.isascii() for part in name.split("."))


def check_url(url: Any) -> str | None:
    """Why ``url`` cannot be an http hook's URL, or None when it can (absolute ``http``/``https``
    with a host)."""
    if not isinstance(url, str) or not url.strip():
        return '"url" must be a non-empty string'
    if any(c.isspace() for c in url):
        return f"the URL {url!r} contains white space"
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return f"the URL {url!r} is malformed ({exc})"
    if parts.scheme not in ("http", "https"):
        return f"the URL {url!r} must start with http:// or https://"
    if not parts.hostname:
        return f"the URL {url!r} has no host"
    if port == 0:
        return f"the URL {url!r} has port 0"
    return None


def _pattern(p: str) -> re.Pattern[str]:
    """``*`` matches any run of characters; inside the host part (after ``://``) it stops at
    ``/ ? # @``."""
    import re

    cut = len(p)
    start = p.find("://")
    if start >= 0:
        ends = [i for i in (p.find(c, start + 3) for c in "/?#") if i >= 0]
        cut = min(ends) if ends else len(p)
    host_part = (
        "".join("[^/?#@]*" if c == "*" else re.escape(c) for c in p[:cut]) if start >= 0 else ""
    )
    rest = p[cut:] if start >= 0 else p
    return re.compile(
        host_part + "".join(".*" if c == "*" else re.escape(c) for c in rest) + r"\Z", re.DOTALL
    )


def url_allowed(url: str, lists: Sequence[Sequence[str]]) -> bool:
    """True when every list allows ``url`` (``*`` matches any run of characters; the whole URL must
    match).

    ``lists`` holds one list per settings layer that sets an allow-list: a URL
    must pass each of them, so a project file can narrow what a user or system
    file allows, never widen it. No list at all means any URL.
    """
    return all(any(_pattern(p).match(url) for p in lst) for lst in lists)


def interpolate_headers(
    headers: Mapping[str, str], allowed: Iterable[str], env: Mapping[str, str]
) -> dict[str, str]:
    """Fill ``$VAR`` / ``${VAR}`` in header values from ``env``, for names in ``allowed`` only.

    Any other reference becomes the empty string: a header never carries a
    variable its hook did not declare. Line breaks are removed (a value cannot
    start a second header), and framing headers (``Host``, ``Content-Length``...) are left out.
    """
    names = set(allowed)

    def fill(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        return env.get(name, "") if name in names else ""

    out = {}
    for k, v in headers.items():
        if (
            k.lower() in FRAMING_HEADERS
        ):  # never sent, also for a hook built in code (settings reject them)
            continue
        value = _var().sub(fill, v) if "$" in v else v
        out[k] = value.replace("\r", "").replace("\n", "")
    return out


def check_callable(spec: Any) -> str | None:
    """Why ``spec`` is not a ``"package.module:function"`` reference, or None when it is."""
    if not isinstance(spec, str) or not spec.strip():
        return '"callable" must be a non-empty string like "package.module:function"'
    module, sep, attr = spec.partition(":")
    if not sep:
        return (
            f'"callable" {spec!r} must name a module and a function separated by a colon '
            '("package.module:function")'
        )
    if not _dotted(module) or not _dotted(attr):
        return (
            f'"callable" {spec!r} is not "package.module:function" (dotted Python names around '
            "one colon)"
        )
    return None
