"""The runner of ``"type": "http"`` hooks (docs/hook-types.md): its kind is a row of
:data:`hookwise.runners.KINDS`.

Checks the URL against the allow-lists (``hooksConfig.allowedHttpHookUrls``),
encodes the input in the hook's dialect, fills the headers, and hands the POST
to :class:`hookwise.runners._http_client.HttpClient` (imported on the first
http hook, so ``import hookwise`` never loads :mod:`http.client`).
"""

from __future__ import annotations

import _thread

from hookwise._records import TYPE_CHECKING
from hookwise.core.interpret import Interpretation
from hookwise.core.keys import NAMES, Headers, Key, Url
from hookwise.core.registry import HookEntry, HttpSpec, KindSpec
from hookwise.result import HookOutcome, Outcome
from hookwise.runners.base import Firing, check_answer, finish
from hookwise.runners.kind import HookKind, Material, env_lines

if TYPE_CHECKING:
    import weakref
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from hookwise.runners._http_client import HttpClient


class HttpRunner:
    """The runner of ``"type": "http"`` hooks (its kind is a row of :data:`hookwise.runners.KINDS`).

    Each host (hook system) gets its own :class:`HttpClient`, so keep-alive
    connections are reused across its firings and closed when it goes away.
    Several http hooks of one firing are sent concurrently, one thread each.
    """

    kind = "http"
    #: works on the calling thread (while processes of the same firing run)
    background = False

    def __init__(self) -> None:
        self._clients: weakref.WeakKeyDictionary[Any, HttpClient] | None = (
            None  # made by the first http hook
        )
        self._lock = _thread.allocate_lock()

    def client(self, host: Any) -> HttpClient:
        import weakref

        with self._lock:
            if self._clients is None:
                self._clients = weakref.WeakKeyDictionary()
            c = self._clients.get(host)
            if c is None:
                from hookwise.runners._http_client import HttpClient

                c = self._clients[host] = HttpClient()
                weakref.finalize(host, c.close)
            return c

    def release(self, host: Any) -> None:
        """Close ``host``'s kept-alive connections now (:meth:`HookSystem.close`); a later hook
        opens new ones."""
        with self._lock:
            c = self._clients.pop(host, None) if self._clients is not None else None
        if c is not None:
            c.close()

    def run(
        self,
        firing: Firing,
        entries: Sequence[HookEntry],
        inp: dict[str, Any],
        during: Callable[[], None] | None = None,
    ) -> list[HookOutcome]:
        if len(entries) == 1:
            out = [self.run_one(firing, entries[0], inp)]
        else:
            box: dict[int, HookOutcome] = {}

            def one(i: int, e: HookEntry) -> None:
                box[i] = self.run_one(firing, e, inp)

            import threading

            threads = [
                threading.Thread(target=one, args=(i, e), name="hookwise-http", daemon=True)
                for i, e in enumerate(entries)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            out = [box[i] for i in range(len(entries))]
        if during is not None:
            during()
        return out

    async def run_async(
        self, firing: Firing, entries: Sequence[HookEntry], inp: dict[str, Any]
    ) -> list[HookOutcome]:
        import asyncio

        return await asyncio.to_thread(self.run, firing, entries, inp)

    def run_one(self, firing: Firing, entry: HookEntry, inp: dict[str, Any]) -> HookOutcome:
        """POST the input to one hook and read its answer like a command hook's stdout."""
        from hookwise.core.hook_kinds import interpolate_headers, url_allowed
        from hookwise.runners.command import encode
        from hookwise.runners.dialects import dialect

        host, ev = firing.host, firing.event
        spec = entry.spec
        if not isinstance(spec, HttpSpec):
            raise TypeError(f"hook {entry.display_name!r} of type {entry.type!r} has no URL")
        url = spec.url
        settings = getattr(host, "settings", None)
        lists: list[tuple[str, list[str]]] = getattr(settings, "http_url_lists", [])
        if lists and not url_allowed(url, [patterns for _f, patterns in lists]):
            files = ", ".join(f for f, p in lists if not url_allowed(url, [p]))
            return finish(
                entry,
                ev,
                Interpretation(
                    Outcome.NOT_RUN,
                    None,
                    f"POST {url} is not allowed: no pattern of allowedHttpHookUrls in {files} "
                    "matches it",
                ),
            )
        d = dialect(entry.dialect)
        data = encode(d.encode_input(ev, inp, entry))
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "hookwise",
            **interpolate_headers(
                spec.headers,
                spec.allowed_env,
                host.env_for(entry),
            ),
        }
        answer = self.client(host).post(
            url, data, headers, entry.timeout_ms / 1000.0, host.output_cap
        )
        it = answer.interpretation
        if it.outcome is Outcome.TIMEOUT:
            it = Interpretation(
                Outcome.TIMEOUT, None, f"timed out after {entry.timeout_ms} ms ({it.error})"
            )
        elif it.output is not None and it.is_json:
            it = Interpretation(it.outcome, d.normalize_output(ev, it.output, inp), it.error, True)
        return check_answer(
            finish(entry, ev, it, None, answer.duration_ms, answer.body), ev, entry, inp
        )


class HttpKind(HttpRunner, HookKind):
    """``"type": "http"``: POST the input to a URL (docs/hook-types.md); one row of
    :data:`hookwise.runners.KINDS`."""

    name = "http"
    doc = (
        "hookwise: POST the input JSON to a URL; a 2xx JSON object is the answer "
        "(docs/hook-types.md)."
    )
    spec = HttpSpec
    keys = (
        Key(
            "url",
            Url(),
            "http hooks: the address the input JSON is POSTed to (http:// or https://).",
            types=("http",),
            required=True,
            attr="url",
            missing='missing "url": the address to POST the input to',
        ),
        Key(
            "headers",
            Headers(),
            "http hooks: request headers; $VAR and ${VAR} are filled only from allowedEnvVars. "
            "Host, Content-Length and the other framing headers may not be set.",
            types=("http",),
            attr="headers",
            default={},
        ),
        Key(
            "allowedEnvVars",
            NAMES,
            "http hooks: the environment variables headers may use (others become empty).",
            types=("http",),
            attr="allowed_env",
            default=[],
        ),
    )

    def make_spec(self, values: dict[str, Any]) -> KindSpec:
        return HttpSpec(
            str(values.get("url", "")),
            dict(values.get("headers") or {}),
            tuple(values.get("allowed_env") or ()),
        )

    def trust_material(self, entry: HookEntry, root: str, values: Mapping[str, str]) -> Material:
        """The URL (in the identity), every header as written, and the variables sent in them."""
        spec = entry.spec
        assert isinstance(spec, HttpSpec)
        lines = [("header", f"{k}: {v}") for k, v in spec.headers.items()]
        if spec.allowed_env:
            lines.append(("sends", ", ".join(spec.allowed_env)))
        return Material([*lines, *env_lines(entry)], [])

    def display(self, entry: HookEntry) -> tuple[str, str]:
        return ("url", entry.spec.target)

    def from_claude(self, raw: dict[str, Any]) -> KindSpec | None:
        url = raw.get("url")
        if not isinstance(url, str):
            return None
        headers = raw.get("headers")
        names = raw.get("allowedEnvVars")
        return HttpSpec(
            url,
            dict(headers) if isinstance(headers, dict) else {},
            tuple(n for n in names if isinstance(n, str)) if isinstance(names, list) else (),
        )

    def to_claude(self, spec: KindSpec) -> dict[str, Any]:
        assert isinstance(spec, HttpSpec)
        out: dict[str, Any] = {"type": "http", "url": spec.url}
        if spec.headers:
            out["headers"] = dict(spec.headers)
        if spec.allowed_env:
            out["allowedEnvVars"] = list(spec.allowed_env)
        return out
