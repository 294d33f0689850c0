"""The MCP proxy of ``hookwise mcp`` on the official ``mcp`` SDK (extra ``hookwise[mcp]``).

Downstream it is an MCP server on stdio (the client starts ``hookwise mcp -- <server command>`` in
place of the server); upstream it is an SDK client of the real server (a command on stdio, or a
Streamable HTTP URL). Around the connection it fires SessionStart (its ``additionalContext`` is
added to the server's instructions) and SessionEnd; listings and calls go through
:mod:`hookwise.gateway.policy`. Hook warnings (a hook that failed, timed out, was not trusted) are
written on stderr, which MCP clients keep in their server logs.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import os
import signal
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from hookwise.decisions import AGENT
from hookwise.gateway.policy import (
    CONFIRM,
    hidden_tools,
    hook_tool_name,
    mcp_context,
    safe_name,
    tool_response,
    tool_selection_request,
)
from hookwise.result import hook_context_block

if TYPE_CHECKING:
    from collections.abc import Iterator

    from hookwise.engine import HookSystem
    from hookwise.result import FireResult

LOG = logging.getLogger("hookwise.mcp")


def _text(message: str, *, error: bool = True) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=message)], is_error=error
    )


class Gateway:
    """The request handlers of the proxy for one upstream server and one hook system."""

    def __init__(self, system: HookSystem, server: str, upstream: Client) -> None:
        self.system = system
        self.server = server
        self.upstream = upstream
        self.hidden: set[str] = set()

    def _warn(self, result: FireResult) -> None:
        for w in result.warnings:
            LOG.warning("%s", w)

    async def list_tools(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        listed = await self.upstream.list_tools(cursor=params.cursor if params else None)
        tools = [self._listed(t) for t in listed.tools]
        if self.system.has_hooks("BeforeToolSelection"):
            req = tool_selection_request(
                self.server, ((t.name, t.description or "") for t in tools)
            )
            result = await self.system.fire_async("BeforeToolSelection", llm_request=req)
            self._warn(result)
            self.hidden = hidden_tools(self.server, (t.name for t in tools), result)
            tools = [t for t in tools if t.name not in self.hidden]
        return types.ListToolsResult(tools=tools, next_cursor=listed.next_cursor)

    def _listed(self, tool: types.Tool) -> types.Tool:
        """The tool as listed to the client: without its ``outputSchema`` when an AfterTool hook may
        replace its result (the schema would no longer be a promise the client can check)."""
        if tool.output_schema is None or not self.system.has_hooks(
            "AfterTool", hook_tool_name(self.server, tool.name)
        ):
            return tool
        return tool.model_copy(update={"output_schema": None})

    async def call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        name, args = params.name, dict(params.arguments or {})
        if name in self.hidden:
            return _text(f"tool {name} is not available: a hook hid it (BeforeToolSelection)")
        hname, mctx = hook_tool_name(self.server, name), mcp_context(self.server, name)
        before = await self.system.fire_async(
            "BeforeTool", tool_name=hname, tool_input=args, mcp_context=mctx
        )
        self._warn(before)
        refused = await self._refusal(ctx, params, before)
        if refused is not None:
            return refused
        args = before.tool_input_for(args)
        result = await self.upstream.call_tool(name, args)
        if not self.system.has_hooks("AfterTool", hname):
            return result
        texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
        response = tool_response(texts, bool(result.is_error))
        after = await self.system.fire_async(
            "AfterTool", tool_name=hname, tool_input=args, tool_response=response, mcp_context=mctx
        )
        self._warn(after)
        return self._after(result, after, response)

    async def _refusal(
        self, ctx: Any, params: types.CallToolRequestParams, before: FireResult
    ) -> types.CallToolResult | types.InputRequiredResult | None:
        """What replaces the call (deny, stop, an ask nobody confirmed, the question itself), or
        None."""
        if before.stopped:
            return _text(f"stopped by a hook: {before.effective_reason}")
        if before.blocked:
            return _text(f"denied by a hook: {before.reason or 'no reason given'}")
        if not before.asked:
            return None
        answer = await self._confirm(ctx, params, before)
        if isinstance(answer, types.InputRequiredResult):
            return answer
        if answer:
            return None
        return _text(f"denied: a hook asked for confirmation ({before.reason or 'no reason'})")

    async def _confirm(
        self, ctx: Any, params: types.CallToolRequestParams, before: FireResult
    ) -> bool | types.InputRequiredResult:
        """Ask the person through MCP elicitation: True/False, or the question to hand the client
        (the 2026-07-28 protocol asks by answering ``input_required``; the client calls again with
        the answer). False when the client supports no elicitation."""
        session = getattr(ctx, "session", None)
        caps = getattr(session, "client_capabilities", None)
        if session is None or caps is None or caps.elicitation is None:
            LOG.warning(
                "a hook asked for confirmation and the client supports no elicitation: denied"
            )
            return False
        given = (params.input_responses or {}).get(CONFIRM)
        if given is not None:
            return getattr(given, "action", None) == "accept"
        message = before.system_message or before.reason or "A hook asks you to confirm this call."
        schema: dict[str, Any] = {"type": "object", "properties": {}}
        if not getattr(session, "can_send_request", False):
            form = types.ElicitRequestFormParams(message=message, requested_schema=schema)
            return types.InputRequiredResult(
                input_requests={CONFIRM: types.ElicitRequest(params=form)}
            )
        try:
            answer = await session.elicit(
                message, schema, related_request_id=getattr(ctx, "request_id", None)
            )
        except Exception as exc:  # the client could not be asked: that is a no
            LOG.warning("asking for confirmation failed (%s: %s): denied", type(exc).__name__, exc)
            return False
        return getattr(answer, "action", None) == "accept"

    def _after(
        self, result: types.CallToolResult, after: FireResult, response: dict[str, Any]
    ) -> types.CallToolResult:
        if after.stopped:
            return _text(f"stopped by a hook: {after.effective_reason}")
        if after.blocked:
            return _text(after.reason or "the tool's result was withheld by a hook")
        new = after.tool_output_for(response)  # a hook's updatedToolOutput, in the response's shape
        if new is not None:
            text = new.get("llmContent")
            result = _text(
                text if isinstance(text, str) else str(text), error=bool(new.get("error"))
            )
        ctx = after.additional_context
        if ctx:
            extra = types.TextContent(
                type="text", text=hook_context_block(after.hook_specific["additionalContext"])
            )
            result = types.CallToolResult(
                content=[*result.content, extra],
                structured_content=result.structured_content,
                is_error=result.is_error,
            )
        return result


def _upstream(command: list[str] | None, url: str | None) -> Client:
    if url is not None:
        return Client(url, cache=None)
    assert command  # the server gets the environment the client gave the gateway (its tokens etc.)
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    return Client(params, cache=None)


async def _opened(system: HookSystem, server: str | None, upstream: Client) -> Server[Any]:
    """SessionStart fired, the proxy's MCP server for ``upstream`` (named ``server`` or as it names
    itself)."""
    start = await system.fire_async("SessionStart", source="startup")
    for w in start.warnings:
        LOG.warning("%s", w)
    instructions = "\n\n".join(p for p in (upstream.instructions, start.hook_context) if p) or None
    info = upstream.server_info
    server = server or safe_name(info.name if info is not None else "") or "server"
    gw = Gateway(system, server, upstream)
    return Server(
        server,
        version=info.version if info is not None else "",
        instructions=instructions,
        on_list_tools=gw.list_tools,
        on_call_tool=gw.call_tool,
    )


async def _closed(system: HookSystem) -> None:
    end = await system.fire_async("SessionEnd", reason="exit")
    for w in end.warnings:
        LOG.warning("%s", w)
    system.close()


async def run(
    system: HookSystem, server: str | None, command: list[str] | None = None, url: str | None = None
) -> None:
    """Serve MCP on stdio in front of ``command`` (or ``url``) until the client disconnects.

    ``server``: the name in hook tool names; None: the upstream server's own name."""
    AGENT.set("mcp")  # decision records say the firings are the gateway's
    async with _upstream(command, url) as upstream:
        srv = await _opened(system, server, upstream)
        try:
            async with stdio_server() as (read, write):
                await srv.run(read, write, srv.create_initialization_options())
        finally:
            await _closed(system)


async def serve_http(
    system: HookSystem,
    server: str | None,
    command: list[str] | None,
    url: str | None,
    listen: tuple[str, int],
    token: bytes | None,
) -> None:
    """Serve Streamable HTTP at ``http://HOST:PORT/mcp`` in front of ``command`` (or ``url``) until
    SIGTERM/SIGINT. Every client session shares the one upstream connection and hook session
    (SessionStart when the gateway starts, SessionEnd when it stops)."""
    AGENT.set("mcp")
    host, port = listen
    async with _upstream(command, url) as upstream:
        srv = await _opened(system, server, upstream)
        app: Any = srv.streamable_http_app(host=host)  # DNS-rebinding protection on loopback
        if token is not None:
            app = bearer_only(app, token)
        import uvicorn

        config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
        web = _web_class()(config)
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(web.serve)
                while not web.started and not web.should_exit:
                    await anyio.sleep(0.05)
                if web.started:
                    shown = f"[{host}]" if ":" in host else host
                    LOG.info("serving Streamable HTTP on http://%s:%d/mcp", shown, port)
        finally:
            await _closed(system)


def _web_class() -> type:
    import uvicorn

    class Web(uvicorn.Server):
        """uvicorn's server, except that SIGTERM/SIGINT end :func:`serve_http` normally (uvicorn
        raises the signal again once it has stopped, which would skip SessionEnd)."""

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            sigs = (signal.SIGINT, signal.SIGTERM)
            old = {s: signal.signal(s, self.handle_exit) for s in sigs}
            try:
                yield
            finally:
                for s, h in old.items():
                    signal.signal(s, h)

    return Web


def bearer_only(app: Any, token: bytes) -> Any:
    """``app`` behind ``Authorization: Bearer <token>`` (compared in constant time); a refusal is a
    401 and a line on stderr."""

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not _authorized(scope, token):
            peer = scope.get("client") or ("?", 0)
            LOG.warning(
                "refused %s %s from %s: no or wrong bearer token",
                scope.get("method"),
                scope.get("path"),
                peer[0],
            )
            headers = [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]
            await send({"type": "http.response.start", "status": 401, "headers": headers})
            await send({"type": "http.response.body", "body": b"unauthorized\n"})
            return
        await app(scope, receive, send)

    return guarded


def _authorized(scope: Any, token: bytes) -> bool:
    given = b""
    for name, value in scope.get("headers") or ():
        if name.lower() == b"authorization":
            given = value
    scheme, _, value = given.partition(b" ")
    ok = hmac.compare_digest(value.strip(), token)  # constant time, whatever the header holds
    return ok and scheme.lower() == b"bearer"


def configure_logging() -> None:
    from hookwise.gateway.relay import configure_logging

    configure_logging()
