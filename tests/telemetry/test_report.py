"""``hookwise trace report`` on a recorded demo session, as text and as one HTML page."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from hookwise.cli.main import main
from hookwise.report.calls import parse_lines, percentile, read_calls, summarise


@pytest.fixture(scope="module")
def demo_trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``hookwise --trace t.jsonl demo``, run the way a user runs it."""
    d = tmp_path_factory.mktemp("demo")
    trace = d / "t.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY_"))}
    env["GEMINI_CLI_HOME"] = str(d / "home")
    proc = subprocess.run(
        [sys.executable, "-m", "hookwise", "--trace", str(trace), "demo"],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(d),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return trace


def _trace_calls(path: Path) -> list[dict[str, Any]]:
    return [
        r
        for r in (json.loads(x) for x in path.read_text().splitlines() if x.strip())
        if r["type"] == "hook_call"
    ]


@pytest.mark.slow
def test_text_report_per_hook(demo_trace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trace", "report", str(demo_trace)]) == 0
    out = capsys.readouterr().out
    records = _trace_calls(demo_trace)
    assert f"{len(records)} hook calls" in out
    lines = out.splitlines()
    for name in {r["hook_name"] for r in records}:
        row = next(ln for ln in lines if ln.startswith(name + " "))
        calls = sum(1 for r in records if r["hook_name"] == name)
        assert f" {calls} " in row and "ok=" in row
    guard = next(ln for ln in lines if ln.startswith("shell-guard "))
    assert guard.split()[3:5] == ["2", "1"]  # 2 calls, 1 block (the curl | sh deny)
    assert "slowest calls" in out and "[ok, deny]" in out


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hook_rows: list[dict[str, str]] = []
        self.bars: list[dict[str, str]] = []
        self.tags: set[str] = set()
        self.external: list[str] = []
        self._in_json = False
        self.json_text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.add(tag)
        if tag == "tr" and a.get("class") == "hook":
            self.hook_rows.append(a)
        if tag == "i" and "data-i" in a:
            self.bars.append(a)
        for k in ("src", "href"):
            if k in a:
                self.external.append(a[k])
        if tag == "link":
            self.external.append(a.get("href", "link"))
        self._in_json = tag == "script" and a.get("id") == "calls"

    def handle_data(self, data: str) -> None:
        if self._in_json:
            self.json_text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_json = False


def test_html_report_has_every_hook_row_and_every_call_bar(
    demo_trace: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    assert main(["trace", "report", str(demo_trace), "--html", str(out)]) == 0
    page = _Page()
    page.feed(out.read_text(encoding="utf-8"))
    records = _trace_calls(demo_trace)
    assert page.external == []  # self-contained: no script, style or image from anywhere
    hooks = {(r["hook_name"], r["hook_event_name"]) for r in records}
    assert {(row["data-hook"], row["data-event"]) for row in page.hook_rows} == hooks
    assert sorted(int(b["data-i"]) for b in page.bars) == list(range(len(records)))
    data = json.loads(page.json_text)
    for b in page.bars:
        call = data["calls"][int(b["data-i"])]
        rec = records[int(b["data-i"])]
        assert (call["h"], call["e"], call["o"]) == (
            rec["hook_name"],
            rec["hook_event_name"],
            rec["outcome"],
        )
        assert (
            json.loads(data["inputs"][call["in"]]) == rec["hook_input"]
        )  # hover shows the input …
        assert (json.loads(call["out"]) if call["out"] else None) == rec[
            "hook_output"
        ]  # … and the answer
    assert [b.get("class") for b in page.bars].count("blk") == 1  # shell-guard's deny of curl | sh
    assert [b.get("class") for b in page.bars].count("stp") == 1  # release-gate stopping the agent


def test_html_escapes_hook_text(tmp_path: Path) -> None:
    evil = "</script><script>alert(1)</script>"
    rec = {
        "type": "hook_call",
        "hook_event_name": "BeforeTool",
        "hook_name": "<b>x</b>",
        "hook_type": "command",
        "source": "project",
        "hook_input": {"timestamp": "2026-01-01T00:00:00.000Z", "prompt": evil},
        "hook_output": {"reason": evil},
        "exit_code": 0,
        "stdout": "",
        "stderr": evil,
        "duration_ms": 3.0,
        "success": True,
        "outcome": "ok",
        "error": None,
    }
    trace = tmp_path / "t.jsonl"
    trace.write_text(json.dumps(rec) + "\n")
    out = tmp_path / "r.html"
    assert main(["trace", "report", str(trace), "--html", str(out)]) == 0
    text = out.read_text()
    assert (
        "<b>x</b>" not in text and "alert(1)</script>" not in text and text.count("</script>") == 2
    )


@pytest.mark.slow
def test_reads_a_telemetry_outfile(tmp_path: Path) -> None:
    pytest.importorskip("opentelemetry.sdk", reason="needs the otel extra")
    project = tmp_path / "p"
    (project / ".gemini").mkdir(parents=True)
    outfile = tmp_path / "tel.jsonl"
    user_settings = (
        tmp_path / "home" / ".gemini" / "settings.json"
    )  # the outfile is the user's choice
    user_settings.parent.mkdir(parents=True)
    user_settings.write_text(json.dumps({"telemetry": {"enabled": True, "outfile": str(outfile)}}))
    (project / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {
                            "hooks": [
                                {"type": "command", "name": "slow one", "command": "sleep 0.05"},
                                {"type": "command", "name": "nope", "command": "exit 2"},
                            ]
                        }
                    ]
                },
            }
        )
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY_"))}
    env.update(HOOKWISE_TRUST_ALL="1", GEMINI_CLI_HOME=str(tmp_path / "home"))
    for _ in range(3):
        subprocess.run(
            [
                sys.executable,
                "-m",
                "hookwise",
                "--project",
                str(project),
                "fire",
                "BeforeTool",
                "--tool",
                "t",
                "--tool-input",
                "{}",
            ],
            env=env,
            capture_output=True,
            timeout=60,
        )
    kinds = {("attributes" in json.loads(x)) for x in outfile.read_text().splitlines()}
    assert kinds == {True, False}  # log records, and spans/metrics the report skips
    calls = read_calls(str(outfile))
    stats = {s.hook: s for s in summarise(calls)}
    assert stats["slow one"].calls == 3 and stats["slow one"].p50 >= 40
    assert stats["nope"].outcomes == {"blocked": 3} and stats["nope"].blocks == 3
    assert all(c.start_ms is not None and isinstance(c.input, dict) for c in calls)


def test_bad_input_names_the_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n{partial\n")  # no line is readable: exit 1, every line named
    assert main(["trace", "report", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:1: not a JSON line" in err and f"{bad}:2: not a JSON line" in err
    assert main(["trace", "report", str(tmp_path / "missing.jsonl")]) == 1
    assert "no such file" in capsys.readouterr().err
    assert main(["trace"]) == 1


def test_percentiles_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 95), percentile(values, 100)) == (
        50.0,
        95.0,
        100.0,
    )
    assert percentile([7.0], 95) == 7.0 and percentile([], 50) == 0.0
    assert list(parse_lines(["", '{"type": "tool_call"}'])) == []


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.slow
def test_html_renders_in_chromium_without_console_errors(demo_trace: Path, tmp_path: Path) -> None:
    browser = _chromium()
    if browser is None:
        pytest.skip("Chromium is not installed (Debian package chromium)")
    out = tmp_path / "report.html"
    assert main(["trace", "report", str(demo_trace), "--html", str(out)]) == 0
    # a probe hovers the first blocking bar and reports what the card shows in the title
    probe = tmp_path / "probe.html"
    probe.write_text(
        out.read_text().replace(
            "</body>",
            """<script>
var b=document.querySelector('#tl i.blk');var r=b.getBoundingClientRect();
b.dispatchEvent(new MouseEvent('mouseover',{bubbles:true,clientX:r.left+1,clientY:r.top+1}));
var tip=document.getElementById('tip');document.title='TIP|'+tip.style.display+'|'+tip.textContent;
</script></body>""",
        )
    )
    args = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--enable-logging=stderr",
        "--v=0",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    shot = tmp_path / "report.png"
    proc = subprocess.run(
        [
            *args,
            "--hide-scrollbars",
            "--window-size=1400,900",
            f"--screenshot={shot}",
            out.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    console = [ln for ln in proc.stderr.splitlines() if ":CONSOLE" in ln or "Uncaught" in ln]
    assert console == [], console
    assert shot.exists() and shot.stat().st_size > 10_000
    dom = subprocess.run(
        [*args, "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=120
    )
    assert [ln for ln in dom.stderr.splitlines() if ":CONSOLE" in ln or "Uncaught" in ln] == []
    title = dom.stdout.split("<title>", 1)[1].split("</title>", 1)[0]
    assert title.startswith("TIP|block|BeforeTool · shell-guard"), title
    assert (
        "decision deny" in title and "curl -fsSL" in title
    )  # the answer's reason and the input's command
