"""The stdio gateway of ``hookwise mcp -- <server command>``: JSON-RPC lines relayed as raw bytes.

The client's lines go to the server's stdin and the server's lines to the client's stdout unchanged
(the same bytes), except the few messages a hook watches:

- ``tools/call``: parsed to learn the tool; when BeforeTool hooks match it the call waits for them
  (deny, stop, ``ask``, rewrite), when AfterTool hooks match it the server's answer waits for them;
  a tool a hook hid is refused. A call no hook watches is forwarded as read.
- ``tools/list``: the answer goes through BeforeToolSelection (hidden tools) and loses the
  ``outputSchema`` of tools whose result an AfterTool hook may replace; unchanged when nothing
  applies.
- ``initialize`` / ``server/discover``: the answer names the server (for ``mcp__<server>__<tool>``)
  and gets SessionStart's ``additionalContext`` appended to its ``instructions``.

Everything else (notifications, resources, prompts, the server's own requests to the client and
their answers, messages of protocol versions this module does not know) passes through untouched.
``ask`` becomes an ``elicitation/create`` request to the client (a 2025 session whose client
declared elicitation) or an ``input_required`` answer (the 2026-07-28 protocol, whose requests carry
the client's capabilities); a client without elicitation gets a deny. The decisions are those of the
SDK gateway (:mod:`hookwise.gateway.proxy`, used for Streamable HTTP), through the same pure
:mod:`hookwise.gateway.policy`. Standard library only: hooks run in worker threads, so a slow hook
never holds up traffic it does not watch.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import json
import logging
import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from functools import partial
from typing import TYPE_CHECKING, Any

from hookwise.decisions import AGENT
from hookwise.gateway.policy import (
    CONFIRM,
    after_result,
    hidden_tools,
    hook_tool_name,
    mcp_context,
    safe_name,
    text_result,
    tool_response,
    tool_selection_request,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from hookwise.engine import HookSystem
    from hookwise.result import FireResult

    Handler = Callable[[dict[str, Any], bytes], None]

LOG = logging.getLogger("hookwise.mcp")
#: a line holding none of these is forwarded without being parsed. The two escapes are there because
#: JSON may spell any character as ``\uXXXX`` and ``/`` as ``\/``: a line without them holds no
#: string that decodes to a watched word unless the word is in it literally (no way around a hook)
_WATCHED = (
    b"tools/call",
    b"tools/list",
    b"initialize",
    b"server/discover",
    b"hookwise-",
    b"\\u",
    b"\\/",
)
#: the same for the server's lines while answers are awaited (their ``"id"``)
_ANSWER = (b'"id"', b"\\u")
#: the methods whose requests the relay may hold or change (never forwarded inside a batch)
_METHODS = frozenset({"tools/call", "tools/list", "initialize", "server/discover"})
_META_CAPS = "io.modelcontextprotocol/clientCapabilities"
_META_INFO = "io.modelcontextprotocol/serverInfo"
#: how long a person has to answer a confirmation before it counts as a no
ASK_TIMEOUT = 600.0
#: how long a tool call waits for the server's answer to initialize (which names the server)
NAME_TIMEOUT = 30.0


def read_lines(fd: int) -> Iterator[bytes]:
    """The newline-ended lines read from ``fd`` (raw reads; the last one may lack its newline)."""
    parts: list[bytes] = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            piece = chunk[start : end + 1]
            if parts:
                parts.append(piece)
                piece = b"".join(parts)
                parts.clear()
            yield piece
            start = end + 1
        if start < len(chunk):
            parts.append(chunk[start:])
    if parts:
        yield b"".join(parts)


def _on_sigterm(stop: Callable[[], None]) -> Any:
    """SIGTERM (a client that stops its servers) ends the relay like a closed stdin: calls in flight
    finish, the server is let go, SessionEnd fires. The previous handler, or None off the main
    thread."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, lambda signum, frame: stop())


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        msg = json.loads(line)
    except ValueError:
        return None
    return msg if isinstance(msg, dict) else None


def _dump(msg: dict[str, Any]) -> bytes:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def _modern(params: dict[str, Any]) -> bool:
    """Does the request carry its client's capabilities (the 2026-07-28 protocol, no session)?"""
    meta = params.get("_meta")
    return isinstance(meta, dict) and isinstance(meta.get(_META_CAPS), dict)


def _params(msg: dict[str, Any]) -> dict[str, Any]:
    p = msg.get("params")
    return p if isinstance(p, dict) else {}


class _Pipe:
    """One side's output: whole lines written under a lock (several threads answer)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()
        self.broken = False

    def send(self, data: bytes) -> None:
        with self.lock:
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(self.fd, view) :]
            except OSError:  # the other side went away; the readers notice and end the relay
                self.broken = True


class Relay:
    """One client (our stdin/stdout) in front of one server process (its stdin/stdout)."""

    def __init__(self, system: HookSystem, server: str | None, command: list[str]) -> None:
        self.system = system
        self.name = server
        self.command = command
        self.hidden: set[str] = set()
        self.context: str | None = None
        self.client_caps: dict[str, Any] | None = None  # a 2025 session's, from ``initialize``
        self.pending: dict[Any, Handler] = {}  # client request id -> what its answer goes through
        self.asks: dict[str, Future[dict[str, Any] | None]] = {}
        self._ids = itertools.count(1)
        self._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="hookwise-mcp")
        self._done = threading.Event()
        self._work: set[Future[None]] = set()  # handlers submitted and not finished
        self._unnamed_warned = False
        #: set once the server's name is known (given, or read from its answer to initialize)
        self._named = threading.Event()
        if server is not None:
            self._named.set()
        self._opening = False  # an initialize / server/discover went out and is not answered yet
        self._closing = False
        self._context = contextvars.copy_context()

    # ---- running ---------------------------------------------------------------------------
    def run(self, stdin: int = 0, stdout: int = 1) -> None:
        """Relay until the client or the server leaves; SessionStart before, SessionEnd after."""
        AGENT.set("mcp")  # decision records say the firings are the gateway's
        self._context = contextvars.copy_context()  # what every worker runs in
        proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert proc.stdin is not None and proc.stdout is not None
        self.client, self.server = _Pipe(stdout), _Pipe(proc.stdin.fileno())
        from_server = threading.Thread(target=self._from_server, args=(proc.stdout.fileno(),))
        old_term = _on_sigterm(self._done.set)
        try:
            start = self.system.fire("SessionStart", source="startup")
            self._warn(start)
            self.context = start.hook_context
            threading.Thread(target=self._from_client, args=(stdin,), daemon=True).start()
            from_server.start()
            self._done.wait()
        finally:
            self._stop(proc, from_server)
            if old_term is not None:
                signal.signal(signal.SIGTERM, old_term)

    def _stop(self, proc: subprocess.Popen[bytes], from_server: threading.Thread) -> None:
        """Finish what is in flight, then let the server go: its last answers still reach the
        client."""
        self._closing = True  # no more questions to a client that left
        for fut in list(self.asks.values()):
            if not fut.done():
                fut.set_result(None)
        # calls waiting for their hooks are forwarded before the server's stdin closes
        wait(self._work.copy())
        with contextlib.suppress(OSError):
            proc.stdin.close()  # type: ignore[union-attr]
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.terminate()
            proc.wait(10)
        if from_server.ident is not None:  # it started
            from_server.join(10)
        self._pool.shutdown(wait=True)
        end = self.system.fire("SessionEnd", reason="exit")
        self._warn(end)
        self.system.close()

    def _from_client(self, fd: int) -> None:
        try:
            for line in read_lines(fd):
                if any(w in line for w in _WATCHED):
                    self._client_message(line)
                else:
                    self.server.send(line)
        finally:
            self._done.set()

    def _from_server(self, fd: int) -> None:
        try:
            for line in read_lines(fd):
                if self.pending and any(w in line for w in _ANSWER) and self._answered(line):
                    continue
                self.client.send(line)
        finally:
            self._done.set()

    def _answered(self, line: bytes) -> bool:
        """Hand the server's answer to a watched request to its handler (in a worker); False: not
        one."""
        msg = _parse(line)
        if msg is None or "method" in msg:
            return False
        try:
            handler = self.pending.pop(msg.get("id"), None)
        except TypeError:  # an id of an unhashable type: not one of ours
            return False
        if handler is None:
            return False
        self._submit(handler, msg, line)
        return True

    def _submit(self, handler: Handler, msg: dict[str, Any], line: bytes) -> None:
        run = self._context.copy().run
        fut = self._pool.submit(run, self._guarded, handler, msg, line, msg.get("id"))
        self._work.add(fut)
        fut.add_done_callback(self._work.discard)

    def _guarded(self, handler: Handler, msg: dict[str, Any], line: bytes, rid: Any) -> None:
        """Run a handler; its crash answers the request with a JSON-RPC error (never a hang)."""
        try:
            handler(msg, line)
        except Exception as exc:
            LOG.exception("gateway error on request %r", rid)
            err = {"code": -32603, "message": f"hookwise mcp: {type(exc).__name__}: {exc}"}
            self.client.send(_dump({"jsonrpc": "2.0", "id": rid, "error": err}))

    # ---- the client's messages ----------------------------------------------------------------
    def _client_message(self, line: bytes) -> None:
        msg = _parse(line)
        method = msg.get("method") if msg is not None else None
        if msg is None:
            self._unparsed(line)
        elif "id" not in msg and method in _METHODS:  # a request without an id: nothing to answer
            LOG.warning("dropped a %s notification (no id): tools are called with requests", method)
        elif "id" not in msg:
            self.server.send(line)
        elif method is None:
            self._client_answer(msg, line)
        elif method in ("initialize", "server/discover"):
            if method == "initialize":
                caps = _params(msg).get("capabilities")
                self.client_caps = caps if isinstance(caps, dict) else {}
            self._opening = not self._named.is_set()
            self._forward(msg["id"], self._opened, line)
        elif method == "tools/list":
            first = _params(msg).get("cursor") is None
            self._forward(msg["id"], partial(self._listed, first), line)
        elif method == "tools/call":
            self._call(msg, line)
        else:
            self.server.send(line)

    def _unparsed(self, line: bytes) -> None:
        """A line that is not one JSON-RPC object: a batch (JSON-RPC 2.0, MCP before 2025-06-18)
        that holds a watched request is refused whole (its hooks would be passed by); anything else
        goes on for the server to judge."""
        try:
            batch = json.loads(line)
        except ValueError:
            batch = None
        if not isinstance(batch, list) or not any(
            isinstance(m, dict) and m.get("method") in _METHODS for m in batch
        ):
            self.server.send(line)
            return
        LOG.warning(
            "refused a JSON-RPC batch holding a tools/ or session request (send them one by one)"
        )
        err = {
            "code": -32600,
            "message": "hookwise mcp: batched tools/ and session requests are "
            "not relayed; send them one by one",
        }
        answers = [
            {"jsonrpc": "2.0", "id": m["id"], "error": err}
            for m in batch
            if isinstance(m, dict) and "id" in m and "method" in m
        ]
        if answers:
            self.client.send(json.dumps(answers, separators=(",", ":")).encode() + b"\n")

    def _client_answer(self, msg: dict[str, Any], line: bytes) -> None:
        rid = msg.get("id")
        fut = self.asks.pop(rid, None) if isinstance(rid, str) else None
        if fut is None:
            self.server.send(line)  # the client answering the server's own request
        elif not fut.done():
            fut.set_result(msg)

    def _forward(self, rid: Any, handler: Handler | None, line: bytes) -> None:
        """Send a request on to the server; its answer goes through ``handler`` (None: straight
        back)."""
        if handler is not None:
            try:
                self.pending[rid] = handler
            except TypeError:
                pass  # an unhashable id is not valid JSON-RPC; the server will say so
        self.server.send(line)

    def _call(self, msg: dict[str, Any], line: bytes) -> None:
        params = _params(msg)
        name = params.get("name")
        if not isinstance(name, str):
            self.server.send(line)
            return
        if name in self.hidden:
            refusal = f"tool {name} is not available: a hook hid it (BeforeToolSelection)"
            self._reply(msg, text_result(refusal))
            return
        hname = hook_tool_name(self._server_name(), name)
        if self.system.has_hooks("BeforeTool", hname):
            self._submit(partial(self._before, hname), msg, line)
            return
        args = params.get("arguments")
        self._forward(msg["id"], self._after_handler(hname, name, args), line)

    def _after_handler(self, hname: str, tool: str, args: Any) -> Handler | None:
        if not self.system.has_hooks("AfterTool", hname):
            return None
        return partial(self._after, hname, tool, dict(args) if isinstance(args, dict) else {})

    def _reply(self, request: dict[str, Any], result: dict[str, Any]) -> None:
        """Answer the client's request ourselves (the server never sees it)."""
        if _modern(_params(request)):
            result.setdefault("resultType", "complete")
        self.client.send(_dump({"jsonrpc": "2.0", "id": request["id"], "result": result}))

    # ---- hooks --------------------------------------------------------------------------------
    def _warn(self, result: FireResult) -> None:
        for w in result.warnings:
            LOG.warning("%s", w)

    def _server_name(self) -> str:
        if (
            self.name is None and self._opening
        ):  # a client that did not wait for initialize's answer
            self._named.wait(NAME_TIMEOUT)
        if self.name is not None:
            return self.name
        if not self._unnamed_warned:
            self._unnamed_warned = True
            LOG.warning(
                "the server has not named itself yet: hook tool names use 'server' (--name)"
            )
        return "server"

    def _before(self, hname: str, msg: dict[str, Any], line: bytes) -> None:
        params = _params(msg)
        args = params.get("arguments")
        args = dict(args) if isinstance(args, dict) else {}
        mctx = mcp_context(self._server_name(), params["name"])
        before = self.system.fire("BeforeTool", tool_name=hname, tool_input=args, mcp_context=mctx)
        self._warn(before)
        refusal = self._refusal(msg, before)
        if refusal is not None:
            self._reply(msg, refusal)
            return
        new_args = before.tool_input_for(args)
        responses = params.get("inputResponses")
        changed = new_args != args or (isinstance(responses, dict) and CONFIRM in responses)
        if changed:  # the server gets the hook's arguments, never the gateway's own question
            params["arguments"] = new_args
            if isinstance(responses, dict):
                responses.pop(CONFIRM, None)
                if not responses:
                    del params["inputResponses"]
            line = _dump(msg)
        self._forward(msg["id"], self._after_handler(hname, params["name"], new_args), line)

    def _refusal(self, msg: dict[str, Any], before: FireResult) -> dict[str, Any] | None:
        """The answer that replaces the call (deny, stop, an unconfirmed ask, the question), or
        None."""
        if before.stopped:
            return text_result(f"stopped by a hook: {before.effective_reason}")
        if before.blocked:
            return text_result(f"denied by a hook: {before.reason or 'no reason given'}")
        if not before.asked:
            return None
        answer = self._confirm(msg, before)
        if isinstance(answer, dict):
            return answer
        if answer:
            return None
        return text_result(
            f"denied: a hook asked for confirmation ({before.reason or 'no reason'})"
        )

    def _confirm(self, msg: dict[str, Any], before: FireResult) -> bool | dict[str, Any]:
        """Ask the person: True/False, or the ``input_required`` answer that asks (2026
        protocol)."""
        params = _params(msg)
        modern = _modern(params)
        caps = params["_meta"][_META_CAPS] if modern else self.client_caps
        if not isinstance(caps, dict) or caps.get("elicitation") is None:
            LOG.warning(
                "a hook asked for confirmation and the client supports no elicitation: denied"
            )
            return False
        message = before.system_message or before.reason or "A hook asks you to confirm this call."
        question = {
            "mode": "form",
            "message": message,
            "requestedSchema": {"type": "object", "properties": {}},
        }
        if modern:
            given = (params.get("inputResponses") or {}).get(CONFIRM)
            if given is not None:
                return isinstance(given, dict) and given.get("action") == "accept"
            ask = {"method": "elicitation/create", "params": question}
            return {"resultType": "input_required", "inputRequests": {CONFIRM: ask}}
        return self._elicit(question)

    def _elicit(self, question: dict[str, Any]) -> bool:
        """Send ``elicitation/create`` to the client and wait for its answer (2025 sessions)."""
        rid = f"hookwise-{next(self._ids)}"
        fut: Future[dict[str, Any] | None] = Future()
        self.asks[rid] = fut
        if self._closing:
            fut.set_result(None)
        req = {"jsonrpc": "2.0", "id": rid, "method": "elicitation/create", "params": question}
        self.client.send(_dump(req))
        try:
            answer = fut.result(timeout=ASK_TIMEOUT)
        except TimeoutError:
            answer = None
        finally:
            self.asks.pop(rid, None)
        result = answer.get("result") if answer is not None else None
        if not isinstance(result, dict):
            why = answer.get("error") if answer is not None else "no answer"
            LOG.warning("asking for confirmation failed (%s): denied", why)
            return False
        return result.get("action") == "accept"

    def _after(
        self, hname: str, tool: str, args: dict[str, Any], msg: dict[str, Any], line: bytes
    ) -> None:
        result = msg.get("result")
        if not isinstance(result, dict) or result.get("resultType", "complete") != "complete":
            self.client.send(line)  # an error, or the server's own input_required round
            return
        content = result.get("content")
        texts = [
            c["text"]
            for c in (content if isinstance(content, list) else [])
            if isinstance(c, dict) and c.get("type") == "text" and isinstance(c.get("text"), str)
        ]
        response = tool_response(texts, bool(result.get("isError")))
        after = self.system.fire(
            "AfterTool",
            tool_name=hname,
            tool_input=args,
            tool_response=response,
            mcp_context=mcp_context(self._server_name(), tool),
        )
        self._warn(after)
        new = after_result(result, after, response)
        if new is None:
            self.client.send(line)
            return
        if "resultType" in result:  # a 2026-07-28 answer keeps saying what it is
            new.setdefault("resultType", result["resultType"])
        self.client.send(_dump(dict(msg, result=new)))

    def _listed(self, first: bool, msg: dict[str, Any], line: bytes) -> None:
        result = msg.get("result")
        tools = result.get("tools") if isinstance(result, dict) else None
        if not isinstance(tools, list):
            self.client.send(line)
            return
        assert isinstance(result, dict)
        server = self._server_name()
        tools = [t for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]
        changed = False
        for t in tools:
            if "outputSchema" in t and self.system.has_hooks(
                "AfterTool", hook_tool_name(server, t["name"])
            ):
                del t["outputSchema"]  # a replaced result could not honour it
                changed = True
        if self.system.has_hooks("BeforeToolSelection"):
            req = tool_selection_request(
                server, ((t["name"], t.get("description") or "") for t in tools)
            )
            selection = self.system.fire("BeforeToolSelection", llm_request=req)
            self._warn(selection)
            hidden = hidden_tools(server, (t["name"] for t in tools), selection)
            self.hidden = hidden if first else self.hidden | hidden
            if hidden:
                result["tools"] = [t for t in tools if t["name"] not in hidden]
                changed = True
        self.client.send(_dump(msg) if changed else line)

    def _opened(self, msg: dict[str, Any], line: bytes) -> None:
        result = msg.get("result")
        if self.name is None and isinstance(result, dict):
            info = result.get("serverInfo") or (result.get("_meta") or {}).get(_META_INFO)
            given = info.get("name") if isinstance(info, dict) else None
            self.name = safe_name(given if isinstance(given, str) else "") or "server"
        self._opening = False
        self._named.set()
        if not isinstance(result, dict):
            self.client.send(line)
            return
        if not self.context:
            self.client.send(line)
            return
        parts = (result.get("instructions"), self.context)
        result["instructions"] = "\n\n".join(p for p in parts if isinstance(p, str) and p)
        self.client.send(_dump(msg))


def run(system: HookSystem, server: str | None, command: list[str]) -> None:
    """Relay the client on our stdin/stdout to ``command`` until one of them leaves."""
    Relay(system, server, command).run()


def configure_logging() -> None:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="hookwise mcp: %(message)s")
