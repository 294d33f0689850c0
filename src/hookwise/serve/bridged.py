"""The bridge's agents in ``hookwise serve`` (docs/fleet.md, docs/agents.md).

- ``POST /hooks/<agent>[/<event>]``: the body is what the agent's hook gets on stdin; the answer's
  body is what ``hookwise hook <agent>`` would print on stdout (for an agent's http hook or a
  ``curl`` command hook), its exit status in the ``X-Hookwise-Exit-Code`` header.
- ``POST /bridge/<agent>[/<event>]``: the same, answered as ``{"stdout", "stderr", "exitCode"}`` —
  ``hookwise hook``'s fast path (:mod:`hookwise.bridge.client`). A project outside the roots is
  answered 421 there, so the caller runs the hooks in process instead.

:func:`hookwise.bridge.core.answer` does the work, on a warm hook system per project and agent
(the bridge's own entries: no double runs, the agent's profile).
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from hookwise.decisions import AGENT
from hookwise.errors import PayloadError
from hookwise.serve.common import LOG, Response, json_response, request_metrics
from hookwise.serve.projects import MODULE_RECHECK_S

if TYPE_CHECKING:
    from collections.abc import Mapping

    from hookwise.bridge.agents import Agent
    from hookwise.bridge.core import BridgeAnswer, Request
    from hookwise.engine import HookSystem
    from hookwise.serve.app import Early, Service

#: the status of a fast-path call the service does not take (the caller runs the hooks itself)
NOT_HERE = 421


def is_bridged(agent: str) -> bool:
    from hookwise.bridge.agents import AGENTS

    return agent in AGENTS


def respond(
    service: Service,
    rest: str,
    body: bytes,
    headers: Mapping[str, str],
    early: Early | None,
    full: bool,
) -> Response:
    """The answer to ``/hooks/<rest>`` (``full`` False) or ``/bridge/<rest>`` (``full`` True)."""
    from hookwise.bridge import core
    from hookwise.bridge.agents import AGENTS

    name, _, event = rest.partition("/")
    agent = AGENTS[name]
    fail_closed = service.config.fail_closed or headers.get("X-Hookwise-Fail-Closed") == "1"
    fam = core._family(agent)
    try:
        req = fam.to_contract(agent, event or None, core._payload(body))
    except PayloadError:  # the bridge words it in the agent's channel
        return _out(core.answer(name, event or None, body, fail_closed=fail_closed), full)
    directory = service.projects.resolve(req.cwd or None)
    if directory is None:
        why = f"project {req.cwd!r} is not under any --root of this service"
        LOG.warning("refused %s request: %s", name, why)
        if full:
            return json_response(NOT_HERE, {"error": why})
        msg = f"hookwise serve: {why}; no hooks ran"
        return _out(fam.failure(agent, req, msg, fail_closed), full)
    return _fire(service, agent, req, directory, (event or None, body, fail_closed), early, full)


def _fire(
    service: Service,
    agent: Agent,
    req: Request,
    directory: str,
    call: tuple[str | None, bytes, bool],
    early: Early | None,
    full: bool,
) -> Response:
    from hookwise.bridge import core

    event, body, fail_closed = call
    env = dict(service.config.system_options.get("env") or os.environ)
    proj = service.projects.acquire(
        directory, agent.name, lambda: _system(service, agent, directory, req, env)
    )

    def warm(_agent: Agent, _proj: str, r: Request) -> HookSystem:
        # a warm system serves many sessions: the call's own base fields go into its input
        for key, value in (
            ("session_id", r.session_id),
            ("transcript_path", r.transcript_path),
            ("cwd", r.cwd),
        ):
            if value:
                r.input.setdefault(key, value)
        return proj.system

    token = AGENT.set(agent.name)
    ticket = None
    t0 = time.perf_counter()
    try:
        if early is not None and req.event is not None:
            limit = service.limit(proj, req.event)

            def overran() -> None:
                why = f"hookwise serve: the {req.event} hooks did not answer within {limit:g} s"
                LOG.warning("refused %s request for %s: %s", agent.name, directory, why)
                fam = core._family(agent)
                early(_out(fam.failure(agent, req, why, fail_closed), full))

            ticket = service.watchdog.arm(limit, overran)
        out = core.answer(
            agent.name,
            event,
            body,
            project=directory,
            env=env,
            fail_closed=fail_closed,
            systems=warm,
        )
        return _out(out, full)
    finally:
        if ticket is not None:
            service.watchdog.cancel(ticket)
        AGENT.reset(token)
        request_metrics(proj.system, agent.name, str(req.event), time.perf_counter() - t0)
        service.projects.release(proj)


def _system(
    service: Service, agent: Agent, directory: str, req: Request, env: dict[str, str]
) -> HookSystem:
    from hookwise.bridge.core import new_system

    system = new_system(agent, directory, req, env)
    system.audit_forced = service.config.audit
    system.module_recheck_s = MODULE_RECHECK_S
    trust_all = service.config.system_options.get("trust_all")
    if (
        trust_all is not None
    ):  # as for the service's own systems (tests; HOOKWISE_TRUST_ALL otherwise)
        system.trust_all = bool(trust_all)
    return system


def _out(answer: BridgeAnswer, full: bool) -> Response:
    if full:
        payload: dict[str, Any] = {
            "stdout": answer.stdout,
            "stderr": answer.stderr,
            "exitCode": answer.exit_code,
        }
        return json_response(200, payload)
    headers = {"X-Hookwise-Exit-Code": str(answer.exit_code)}
    return Response(200, answer.stdout.encode(), headers=headers)
