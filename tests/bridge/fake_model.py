"""A scripted model server for running real agent CLIs offline (tests/bridge/test_real_agents.py).

It speaks just enough of four APIs for one agent turn loop: Anthropic Messages (Claude Code), OpenAI
Responses (Codex), OpenAI chat completions (Qwen Code, Copilot's bring-your-own-key mode) and Gemini
``generateContent`` (Gemini CLI), streamed or not. The script is a list of turns: ``{"shell": CMD}``
(a call of the shell tool the request offers) or ``{"text": TEXT}`` (the final answer). The turn is
the number of tool results already in the request's history (one per shell turn), so retries,
background requests and the acknowledgements some agents put at the start of a conversation do not
shift it. Requests that offer no tools (titles, routing, memory) are answered on the side. Every
request is kept in :attr:`FakeModel.requests` for the test to read.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: shell tools by API, in the order they are preferred when a request offers several
SHELL_TOOLS = (
    "Bash",
    "run_shell_command",
    "bash",
    "exec_command",
    "shell_command",
    "shell",
    "local_shell",
)
#: system-prompt phrases of background requests that do offer tools (Qwen's memory extraction)
SIDE_PHRASES = ("memory extraction", "Task Routing AI")


def shell_args(tool: str, command: str) -> dict[str, Any]:
    if tool == "exec_command":
        return {"cmd": command}
    if tool in ("shell", "local_shell"):
        return {"command": ["bash", "-lc", command]}
    args: dict[str, Any] = {"command": command, "description": "scripted command"}
    if tool == "run_shell_command":
        args["is_background"] = False  # Qwen Code's schema requires it
    return args


def fill_schema(schema: Any) -> Any:
    """A value that satisfies a JSON schema well enough for a side request (routing, titles)."""
    if not isinstance(schema, dict):
        return "scripted"
    if "enum" in schema:
        return schema["enum"][0]
    kind = str(schema.get("type", "object")).lower()
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: fill_schema(v) for k, v in props.items()}
    if kind == "array":
        return []
    if kind == "boolean":
        return False
    if kind in ("number", "integer"):
        return 0
    return "scripted"


class FakeModel:
    def __init__(self, script: list[dict[str, Any]]) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> FakeModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()

    def main_requests(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if not r["side"]]

    def turn(self, n: int) -> dict[str, Any]:
        return self.script[n] if n < len(self.script) else {"text": "done"}


def _handler(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._json({"object": "list", "data": [{"id": "fake-model", "object": "model"}]})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {}
            path = self.path.split("?")[0]
            if path.endswith("/count_tokens") or path.endswith(":countTokens"):
                self._json({"input_tokens": 1, "totalTokens": 1})
            elif path.endswith("/messages"):
                _anthropic(model, self, body)
            elif path.endswith("/responses"):
                _responses(model, self, body)
            elif path.endswith("/chat/completions"):
                _chat(model, self, body)
            elif ":streamGenerateContent" in path or ":generateContent" in path:
                _gemini(model, self, body, stream=":stream" in path)
            else:
                self._json({"error": {"message": f"not faked: {path}"}}, status=404)

        def _json(self, value: Any, status: int = 200) -> None:
            data = json.dumps(value).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def sse(self, events: list[tuple[str | None, Any]]) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            for name, data in events:
                chunk = "" if name is None else f"event: {name}\n"
                chunk += "data: " + (data if isinstance(data, str) else json.dumps(data)) + "\n\n"
                self.wfile.write(chunk.encode())
            self.wfile.flush()
            self.close_connection = True

    return Handler


def _record(model: FakeModel, api: str, body: Any, side: bool, turn: int) -> dict[str, Any]:
    rec = {"api": api, "side": side, "turn": turn, "body": body, "text": json.dumps(body)}
    model.requests.append(rec)
    return model.turn(turn) if not side else {"text": "ok"}


def _pick_shell(offered: list[str]) -> str:
    return next((t for t in SHELL_TOOLS if t in offered), offered[0] if offered else "shell")


def _is_side(offered: list[str], body: Any) -> bool:
    text = json.dumps(body.get("system") or body.get("instructions") or "")
    msgs = body.get("messages") or []
    if msgs and isinstance(msgs[0], dict) and msgs[0].get("role") == "system":
        text += json.dumps(msgs[0].get("content"))
    return not offered or any(p in text for p in SIDE_PHRASES)


# --------------------------------------------------------------------------- Anthropic Messages


def _anthropic(model: FakeModel, h: Any, body: dict[str, Any]) -> None:
    offered = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
    turn = sum(
        1
        for m in body.get("messages") or []
        if isinstance(m.get("content"), list)
        for b in m["content"]
        if isinstance(b, dict) and b.get("type") == "tool_result"
    )
    step = _record(model, "anthropic", body, _is_side(offered, body), turn)
    if "shell" in step:
        tool = _pick_shell(offered)
        block = {"type": "tool_use", "id": f"toolu_{turn}", "name": tool, "input": {}}
        delta = {
            "type": "input_json_delta",
            "partial_json": json.dumps(shell_args(tool, step["shell"])),
        }
        stop = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": step["text"]}
        stop = "end_turn"
    usage = {"input_tokens": 10, "output_tokens": 5}
    message = {
        "id": f"msg_{turn}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "fake"),
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    if not body.get("stream"):
        full = dict(block)
        if block["type"] == "tool_use":
            full["input"] = json.loads(delta["partial_json"])
        else:
            full["text"] = delta["text"]
        h._json({**message, "content": [full], "stop_reason": stop})
        return
    h.sse(
        [
            ("message_start", {"type": "message_start", "message": message}),
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": block},
            ),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {"type": "message_delta", "delta": {"stop_reason": stop}, "usage": usage},
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
    )


# --------------------------------------------------------------------------- OpenAI Responses


def _responses(model: FakeModel, h: Any, body: dict[str, Any]) -> None:
    offered = [
        t.get("name") or t.get("type") for t in body.get("tools") or [] if isinstance(t, dict)
    ]
    items = body.get("input") if isinstance(body.get("input"), list) else []
    turn = sum(1 for i in items if isinstance(i, dict) and i.get("type") == "function_call_output")
    step = _record(model, "responses", body, _is_side(offered, body), turn)
    if "shell" in step:
        tool = _pick_shell(offered)
        item: dict[str, Any] = {
            "type": "function_call",
            "id": f"fc_{turn}",
            "call_id": f"call_{turn}",
            "name": tool,
            "arguments": json.dumps(shell_args(tool, step["shell"])),
            "status": "completed",
        }
    else:
        item = {
            "type": "message",
            "id": f"msg_{turn}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": step["text"], "annotations": []}],
        }
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    resp = {"id": f"resp_{turn}", "object": "response", "status": "completed", "output": [item]}
    h.sse(
        [
            ("response.created", {"type": "response.created", "response": {**resp, "output": []}}),
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": 0, "item": item},
            ),
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ),
            (
                "response.completed",
                {"type": "response.completed", "response": {**resp, "usage": usage}},
            ),
        ]
    )


# -------------------------------------------------------------------------- OpenAI chat completions


def _chat(model: FakeModel, h: Any, body: dict[str, Any]) -> None:
    offered = [
        (t.get("function") or {}).get("name")
        for t in body.get("tools") or []
        if isinstance(t, dict)
    ]
    turn = sum(1 for m in body.get("messages") or [] if m.get("role") == "tool")
    step = _record(model, "chat", body, _is_side(offered, body), turn)
    if "shell" not in step and _wants_json(body):
        step = {"text": json.dumps(fill_schema(_chat_schema(body)))}
    base = {
        "id": f"chat_{turn}",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fake-model",
    }
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    if "shell" in step:
        tool = _pick_shell(offered)
        call = {
            "index": 0,
            "id": f"call_{turn}",
            "type": "function",
            "function": {"name": tool, "arguments": json.dumps(shell_args(tool, step["shell"]))},
        }
        delta: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
        finish = "tool_calls"
    else:
        delta = {"role": "assistant", "content": step["text"]}
        finish = "stop"
    if not body.get("stream"):
        msg = dict(delta)
        if "tool_calls" in msg:
            msg["tool_calls"] = [
                {k: v for k, v in c.items() if k != "index"} for c in msg["tool_calls"]
            ]
        h._json(
            {
                **base,
                "object": "chat.completion",
                "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
                "usage": usage,
            }
        )
        return
    h.sse(
        [
            (None, {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}),
            (
                None,
                {
                    **base,
                    "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
                    "usage": usage,
                },
            ),
            (None, "[DONE]"),
        ]
    )


def _wants_json(body: dict[str, Any]) -> bool:
    fmt = body.get("response_format") or {}
    return isinstance(fmt, dict) and fmt.get("type") in ("json_schema", "json_object")


def _chat_schema(body: dict[str, Any]) -> Any:
    fmt = body.get("response_format") or {}
    return (fmt.get("json_schema") or {}).get("schema") or {}


# --------------------------------------------------------------------------- Gemini


def _gemini(model: FakeModel, h: Any, body: dict[str, Any], stream: bool) -> None:
    offered = [
        d.get("name")
        for t in body.get("tools") or []
        if isinstance(t, dict)
        for d in t.get("functionDeclarations") or []
    ]
    turn = sum(
        1
        for c in body.get("contents") or []
        for p in c.get("parts") or []
        if isinstance(p, dict) and "functionResponse" in p
    )
    step = _record(model, "gemini", body, _is_side(offered, body), turn)
    config = body.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if "shell" in step:
        tool = _pick_shell(offered)
        part: dict[str, Any] = {
            "functionCall": {"name": tool, "args": shell_args(tool, step["shell"])}
        }
    elif schema is not None or config.get("responseMimeType") == "application/json":
        part = {"text": json.dumps(fill_schema(schema))}
    else:
        part = {"text": step["text"]}
    reply = {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "fake-model",
    }
    if stream:
        h.sse([(None, reply)])
    else:
        h._json(reply)
