"""The request handler of ``hookwise serve``, free of any transport:
``handle(method, path, headers, body)``.

Routes: ``GET /healthz`` (the process answers), ``GET /readyz`` (it takes requests: not shutting
down), ``POST /hooks/<agent>`` (a row of :data:`hookwise.serve.dialects.AGENTS`, or an agent of the
bridge). Every refusal (wrong token, body too large, not JSON, unknown agent, a project outside
the roots, a firing that overran its time) is logged on the ``hookwise.serve`` logger.

A firing runs on its request's thread. When it has hooks to run and the transport can answer early
(``early``), a deadline is armed (:mod:`hookwise.serve.watchdog`): the slowest matching hook's
timeout (their sum for a sequential event) plus :attr:`ServeConfig.margin_s`. Past it the request
gets the timeout answer at once, and the firing's own answer is dropped when it comes (each hook
kind keeps its own timeout; this is the net for a firing that overruns them anyway). Each request
gets its own input and result: nothing of one project's firing reaches another's answer.

A firing whose only hook is a python hook calls it on the request's thread too, not on a worker
(:meth:`Service._place`); the watchdog then keeps the worker's deadline and, past it, answers
exactly as a timed-out worker call would (:meth:`Service._give_up`).
"""

from __future__ import annotations

import contextvars
import hmac
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hookwise.core.registry import PythonSpec
from hookwise.decisions import AGENT
from hookwise.errors import HookwiseError
from hookwise.jsonc.codec import loads
from hookwise.runners._workers import CANCEL_GRACE_S
from hookwise.runners.python import IN_PLACE, Abandoned, InPlace
from hookwise.serve.common import LOG, Response, json_response, request_metrics
from hookwise.serve.dialects import AGENTS, Dialect, Request
from hookwise.serve.projects import MODULE_RECHECK_S, Project, Projects
from hookwise.serve.watchdog import Watchdog

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    #: the transport's way to answer a request before its handler returns (True: sent)
    Early = Callable[["Response"], bool]

    from hookwise.engine import HookSystem
    from hookwise.result import FireResult


#: the largest request body accepted (a Claude PostToolUse body carries the tool's whole output)
DEFAULT_BODY_CAP = 4 << 20
#: seconds a request may run beyond its slowest hook's timeout
DEFAULT_MARGIN_S = 2.0


@dataclass
class ServeConfig:
    """How the service answers (``hookwise serve`` flags)."""

    roots: list[str]
    token: bytes | None = None
    fail_closed: bool = False
    audit: bool = False
    body_cap: int = DEFAULT_BODY_CAP
    margin_s: float = DEFAULT_MARGIN_S
    #: a firing whose only hook is a python hook runs it on the request's thread
    #: (:meth:`Service._place`)
    in_place: bool = True
    #: extra keyword arguments of each project's :class:`~hookwise.engine.HookSystem`
    system_options: dict[str, Any] = field(default_factory=dict)


class Service:
    """Answers hook requests for the projects under the configured roots."""

    def __init__(
        self, config: ServeConfig, factory: Callable[[str], HookSystem] | None = None
    ) -> None:
        self.config = config
        self.projects = Projects(config.roots, factory or self._new_system)
        self.watchdog = Watchdog()
        self.draining = threading.Event()

    def _new_system(self, directory: str) -> HookSystem:
        from hookwise.engine import HookSystem

        system = HookSystem(directory, **self.config.system_options)
        system.audit_forced = self.config.audit
        system.module_recheck_s = MODULE_RECHECK_S
        return system

    # ---- routing ---------------------------------------------------------------------------
    def handle(
        self,
        method: str,
        path: str,
        headers: Mapping[str, str],
        body: bytes,
        peer: str = "",
        early: Early | None = None,
    ) -> Response:
        path = path.split("?", 1)[0]
        if method == "GET" and path in ("/healthz", "/readyz"):
            return self._health(path)
        if not self._authorized(headers):
            return self.refuse(401, "missing or wrong bearer token", path, peer)
        if method != "POST" or not path.startswith(("/hooks/", "/bridge/")):
            return self.refuse(404, f"no route {method} {path}", path, peer)
        if len(body) > self.config.body_cap:
            return self.refuse(413, f"body of {len(body)} bytes over the cap", path, peer)
        full, rest = path.startswith("/bridge/"), path.split("/", 2)[2]
        dialect = None if full else AGENTS.get(rest)
        if dialect is None:
            from hookwise.serve import bridged

            if not bridged.is_bridged(rest.partition("/")[0]):
                return self.refuse(404, f"unknown agent {rest.partition('/')[0]!r}", path, peer)
            return bridged.respond(self, rest, body, headers, early, full)
        try:
            data = loads(body.decode("utf-8")) if body.strip() else None
        except (UnicodeDecodeError, ValueError) as exc:
            return self.refuse(400, f"body is not JSON: {exc}", path, peer)
        if not isinstance(data, dict):
            return self.refuse(400, "body is not a JSON object", path, peer)
        return json_response(200, self.answer(dialect, data, peer, early))

    def _health(self, path: str) -> Response:
        if path == "/readyz" and self.draining.is_set():
            return json_response(503, {"status": "draining"})
        return json_response(200, {"status": "ok", "projects": len(self.projects.all())})

    def _authorized(self, headers: Mapping[str, str]) -> bool:
        token = self.config.token
        if token is None:
            return True
        given = headers.get("Authorization") or headers.get("authorization") or ""
        scheme, _, value = given.partition(" ")
        # compare in constant time whatever the header holds (its length still shows, not the
        # token's)
        ok = hmac.compare_digest(value.strip().encode("utf-8", "replace"), token)
        return ok and scheme.lower() == "bearer"

    def refuse(self, status: int, why: str, path: str, peer: str) -> Response:
        LOG.warning("refused %s %s from %s: %s", status, path, peer or "local", why)
        return json_response(status, {"error": why})

    # ---- one hook request ------------------------------------------------------------------
    def answer(
        self, dialect: Dialect, body: dict[str, Any], peer: str = "", early: Early | None = None
    ) -> dict[str, Any]:
        """The agent's answer to one hook request body."""
        req = dialect.read(body)
        if req.event is None:
            return dialect.notice(
                req,
                f"hookwise serve: {dialect.name} event {req.agent_event!r} has no hookwise "
                "equivalent; no hooks ran",
                block=False,
            )
        directory = self.projects.resolve(req.cwd)
        if directory is None:
            why = f"project {req.cwd!r} is not under any --root of this service"
            LOG.warning("refused %s request from %s: %s", dialect.name, peer or "local", why)
            return dialect.notice(
                req, f"hookwise serve: {why}; no hooks ran", block=self.config.fail_closed
            )
        try:
            proj = self.projects.acquire(directory)
        except HookwiseError as exc:  # e.g. an unknown profile: this project cannot be served
            why = f"hookwise serve: cannot load the hooks of {directory}: {exc}"
            LOG.warning("refused %s request: %s", dialect.name, why)
            return dialect.notice(req, why, block=self.config.fail_closed)
        token = AGENT.set(dialect.name)  # the decision records say which agent asked
        t0 = time.perf_counter()
        place: InPlace | None = None
        in_place = None
        try:
            place = self._place(proj, req) if early is not None else None
            in_place = IN_PLACE.set(place) if place is not None else None
            overran = self._on_timeout(dialect, req, directory, early)
            if place is not None and early is not None:
                result = self._fire_in_place(proj, req, dialect, place, early, t0, overran)
            else:
                result = self._fire(proj, req, overran)
            if isinstance(result, str):
                LOG.warning("refused %s request for %s: %s", dialect.name, directory, result)
                return dialect.notice(req, result, block=self.config.fail_closed)
            return dialect.answer(result, req)
        except Abandoned:  # the timeout answer went out (_give_up); the transport drops this one
            return {}
        finally:
            if in_place is not None:
                IN_PLACE.reset(in_place)
            AGENT.reset(token)
            if place is None or place.settle():  # else _give_up ended the request
                request_metrics(proj.system, dialect.name, str(req.event), time.perf_counter() - t0)
                self.projects.release(proj)

    # ---- a firing's only python hook, on the request's thread ------------------------------
    def _place(self, proj: Project, req: Request) -> InPlace | None:
        """An :class:`InPlace` when the firing's only hook is a python hook a worker would run (no
        ``if``, ``once``, ``async`` or ``isolate``), else None.

        Its call then skips the two thread switches of a worker (and, at many clients, the worker's
        wait for the GIL among the connection threads); with one hook, no other hook's answer can be
        lost. The deadline stays the worker's (:meth:`_fire_in_place`)."""
        if not self.config.in_place:
            return None
        try:
            entries = proj.system.planned(str(req.event), _match(req))
        except HookwiseError:  # the firing reports it (_fire)
            return None
        if len(entries) != 1:
            return None
        (e,) = entries
        spec = e.spec
        if (
            not isinstance(spec, PythonSpec)
            or spec.isolate
            or spec.inline
            or e.once
            or e.run_async
            or e.condition is not None
        ):
            return None
        return InPlace(e)

    def _fire_in_place(
        self,
        proj: Project,
        req: Request,
        dialect: Dialect,
        place: InPlace,
        early: Early,
        t0: float,
        overran: Callable[[float], None] | None,
    ) -> FireResult | str:
        """Fire with the hook on this thread; at the worker's deadline (the hook's timeout +
        :data:`~hookwise.runners._workers.CANCEL_GRACE_S`) the watchdog answers instead
        (:meth:`_give_up`). The request's own deadline (``overran``: the hook's timeout + the
        margin) is armed too when it would come first (a margin under the grace)."""
        ctx = contextvars.copy_context()  # AGENT and IN_PLACE as this request set them
        delay = place.entry.timeout_ms / 1000.0 + CANCEL_GRACE_S
        ticket = self.watchdog.arm(
            delay, lambda: ctx.run(self._give_up, proj, req, dialect, place, early, t0)
        )
        if (
            self.config.margin_s >= CANCEL_GRACE_S
        ):  # the request's deadline can only come later: not armed
            overran = None
        try:
            return self._fire(proj, req, overran)
        finally:
            self.watchdog.cancel(ticket)

    def _give_up(
        self,
        proj: Project,
        req: Request,
        dialect: Dialect,
        place: InPlace,
        early: Early,
        t0: float,
    ) -> None:
        """The hook run in place overran: answer as a worker's caller would, with the firing in
        which the hook's outcome is that timeout (same merge, ``failClosed``, decision record and
        telemetry), and end the request here; the hung firing's own answer is dropped
        (:class:`~hookwise.runners.python.Abandoned`)."""
        if not place.give_up():
            return  # it finished in time: its own firing answers
        try:
            IN_PLACE.set(place.expired())  # in this request's copied context only
            result = self._fire(proj, req, None)
            if isinstance(result, str):
                LOG.warning("refused %s request for %s: %s", dialect.name, proj.directory, result)
                answer = dialect.notice(req, result, block=self.config.fail_closed)
            else:
                answer = dialect.answer(result, req)
            early(json_response(200, answer))
        finally:
            request_metrics(proj.system, dialect.name, str(req.event), time.perf_counter() - t0)
            self.projects.release(proj)

    def _on_timeout(
        self, dialect: Dialect, req: Request, directory: str, early: Early | None
    ) -> Callable[[float], None] | None:
        """What the watchdog does when the firing overruns: log it and send the timeout answer."""
        if early is None:
            return None

        def overran(limit: float) -> None:
            why = f"hookwise serve: the {req.event} hooks did not answer within {limit:g} s"
            LOG.warning("refused %s request for %s: %s", dialect.name, directory, why)
            early(json_response(200, dialect.notice(req, why, block=self.config.fail_closed)))

        return overran

    def _fire(
        self, proj: Project, req: Request, overran: Callable[[float], None] | None
    ) -> FireResult | str:
        """The firing's result, or why there is none (a bad input)."""
        system = proj.system
        event = str(req.event)
        try:
            if overran is None or not system.has_hooks(event, _match(req)):
                return system.fire(event, req.payload)
            limit = self.limit(proj, event)
            ticket = self.watchdog.arm(limit, lambda: overran(limit))
            try:
                return system.fire(event, req.payload)
            finally:
                self.watchdog.cancel(ticket)
        except HookwiseError as exc:
            return f"hookwise serve: cannot fire {event}: {exc}"

    def limit(self, proj: Project, event: str) -> float:
        """Seconds a request of ``event`` may wait: the slowest hook's timeout (sum if sequential) +
        margin."""
        limit = proj.limits.get(event)
        if limit is None:
            entries = [e for e in proj.system.entries if e.event.value == event]
            ms = [e.timeout_ms for e in entries]
            total = sum(ms) if any(e.sequential for e in entries) else max(ms, default=0)
            limit = proj.limits[event] = total / 1000 + self.config.margin_s
        return limit

    def close(self) -> None:
        """After the last request: flush telemetry, stop persistent hooks."""
        self.draining.set()
        self.watchdog.stop()
        for proj in self.projects.all():  # telemetry out before the process ends
            if proj.system.telemetry is not None:
                proj.system.telemetry.flush()
        self.projects.close()


def _match(req: Request) -> str | None:
    """The value the event's matcher is tested on (the tool name, a lifecycle event's source...)."""
    match = req.payload.get("tool_name") or req.payload.get(_LIFECYCLE.get(str(req.event), ""))
    return match if isinstance(match, str) else None


_LIFECYCLE = {
    "SessionStart": "source",
    "SessionEnd": "reason",
    "PreCompress": "trigger",
    "Notification": "notification_type",
}
