"""``logPrompts: false`` keeps prompts and tool inputs out of every record, and no URL secret is
ever exported.

The hooks below put the tool input where telemetry used to copy it with ``logPrompts`` off: a
command hook's last stderr line (the ``error`` attribute and the span status), a python hook's
exception message, an HTTP answer's body; an http hook's URL carries ``?token=...`` (the hook's
name, its errors). ``hookwise fire`` runs as a subprocess with the user's ``telemetry.outfile`` and
the whole file is read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from tests.conftest import Project

from hookwise.telemetry import records

pytest.importorskip("opentelemetry.sdk", reason="needs the otel extra")

TOOL_SECRET = "contents-of-the-file-being-written-7c1"
URL_SECRET = "TOKEN-4d5e"


class _Echo(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(500)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(b"cannot handle " + body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def echo_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _fire(project: Project, outfile: Path, log_prompts: bool, url: str) -> str:
    (project.root / "leaky.py").write_text(
        "def hook(inp):\n    raise ValueError(inp['tool_input']['content'])\n"
    )
    hooks = [
        {
            "type": "command",
            "name": "stderr-echo",
            "command": f'{sys.executable} -c "import sys,json; i=json.load(sys.stdin); '
            "print(i['tool_input']['content'], file=sys.stderr); sys.exit(1)\"",
        },
        {"type": "python", "name": "raiser", "callable": "leaky:hook"},
        {  # a deny whose reason quotes the input: the decision record's reason
            "type": "command",
            "name": "quoting-deny",
            "command": f'{sys.executable} -c "import sys,json; i=json.load(sys.stdin); '
            "print(json.dumps({'decision': 'deny', 'reason': i['tool_input']['content']}))\"",
        },
        {"type": "http", "url": f"{url}/hook?token={URL_SECRET}&x=1", "timeout": 5000},
    ]
    project.write_settings({"hooks": {"BeforeTool": [{"hooks": hooks}]}})
    project.write_settings(
        {"telemetry": {"enabled": True, "outfile": str(outfile), "logPrompts": log_prompts}},
        "user",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY"))}
    env["HOOKWISE_TRUST_ALL"] = "1"
    proc = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), "fire", "BeforeTool"]
        + ["--tool", "write_file", "--tool-input", json.dumps({"content": TOOL_SECRET})],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(project.home),
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    text = outfile.read_text()
    assert text.count('"gemini_cli.hook_call"') >= 4, text  # every call was exported
    assert '"hookwise.decision"' in text  # and the firing's decision record
    return text


def test_log_prompts_off_exports_no_tool_input_and_no_url_secret(
    project: Project, tmp_path: Path, echo_server: str
) -> None:
    text = _fire(project, tmp_path / "tel.jsonl", False, echo_server)
    assert TOOL_SECRET not in text
    assert URL_SECRET not in text
    assert "exit code 1" in text and "raised ValueError" in text  # what happened is still said


def test_log_prompts_on_exports_the_payload_but_never_a_url_secret(
    project: Project, tmp_path: Path, echo_server: str
) -> None:
    text = _fire(project, tmp_path / "tel.jsonl", True, echo_server)
    assert TOOL_SECRET in text  # logPrompts on: inputs are exported, as documented
    assert URL_SECRET not in text


@pytest.mark.parametrize(
    "text,scrubbed",
    [
        (
            "POST https://h.example/x?token=abc answered 500",
            "POST https://h.example/x?… answered 500",
        ),
        ("redis://:pw@cache:6379/0 refused", "redis://cache:6379/0 refused"),
        ("https://user:pw@h/p#frag", "https://h/p"),
        ("no url: here", "no url: here"),
    ],
)
def test_scrub_urls(text: str, scrubbed: str) -> None:
    assert records.scrub_urls(text) == scrubbed


def test_safe_error_keeps_only_the_head_without_log_prompts() -> None:
    assert records.safe_error("exit code 1: the prompt", False) == "exit code 1"
    assert records.safe_error("exit code 1: the prompt", True) == "exit code 1: the prompt"
    assert records.safe_error("POST https://h/x?t=1: refused", False) == "POST https://h/x?…"
    assert records.safe_error("x" * 10_000 + "://" + "a" * 10_000, False)  # linear time
