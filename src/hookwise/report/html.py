"""The one-page HTML trace report: the per-hook table and a session timeline (no network, no CDN).

Every hook row and every call's bar are static elements (a page parser can
count them); inline JavaScript only adds the hover card (the call's input and
answer, read from one embedded JSON block with each firing's input stored once)
and a zoom slider. Bars are placed in percent of the session, so the browser
lays out 100 000 of them without script work.
"""

from __future__ import annotations

import html
import json
import time
from typing import Any

from hookwise.report.calls import OUTCOMES, Call, slowest, summarise

#: outcome -> bar colour (legend order = OUTCOMES)
COLOURS = {
    "ok": "#2e7d32",
    "blocked": "#ef6c00",
    "failed": "#c62828",
    "not-run": "#6a1b9a",
    "timeout": "#d81b60",
    "skipped": "#9e9e9e",
}
_OTHER = "#455a64"

_CSS = """
*{box-sizing:border-box}body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;\
color:#1c2331;
background:#f6f7f9}header{background:#1c2331;color:#fff;padding:14px 24px}header h1{margin:0;\
font-size:18px}
header p{margin:4px 0 0;color:#c5cad3;font-size:13px}main{padding:16px 24px}
section{background:#fff;border:1px solid #dde1e7;border-radius:6px;margin-bottom:16px;\
padding:12px 16px}
h2{font-size:15px;margin:0 0 8px}table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eef0f3;white-space:nowrap}
th{background:#f0f2f5;position:sticky;top:0}td.n,th.n{text-align:right;\
font-variant-numeric:tabular-nums}
td.hook{font-weight:600;max-width:360px;overflow:hidden;text-overflow:ellipsis}
.pill{display:inline-block;border-radius:9px;padding:0 7px;margin-right:4px;color:#fff;\
font-size:12px}
.legend span{margin-right:12px;font-size:12px}.legend i{display:inline-block;width:12px;height:12px;
border-radius:2px;vertical-align:-2px;margin-right:4px}
#tl-wrap{overflow-x:auto;border:1px solid #eef0f3}#tl{position:relative;min-width:100%}
.row{display:flex;border-bottom:1px solid #f3f4f6;height:22px}
.evh{background:#eef1f5;border-bottom:1px solid #dde1e7;height:22px;display:flex}
.evh .label{background:#eef1f5;flex:0 0 auto;border-right:none}.label.hk{font-weight:400;\
padding-left:18px}
.label{position:sticky;left:0;z-index:2;flex:0 0 190px;background:#fafbfc;padding:2px 8px;\
font-size:12px;
font-weight:600;border-right:1px solid #dde1e7;overflow:hidden;text-overflow:ellipsis;\
white-space:nowrap}
.lane{position:relative;flex:1 1 auto}
.lane i{position:absolute;top:3px;height:16px;min-width:3px;border-radius:2px;opacity:.85;\
cursor:pointer}
.lane i:hover{opacity:1;outline:2px solid #1c2331;z-index:1}\
.lane i.blk{box-shadow:inset 0 0 0 2px #1c2331}
.lane i.stp{outline:2px dashed #1c2331;outline-offset:-2px}
.axis{display:flex;justify-content:space-between;font-size:11px;color:#6b7280;\
padding:2px 8px 0 198px}
#tip{position:fixed;display:none;z-index:10;max-width:560px;max-height:70vh;overflow:auto;\
background:#fff;
border:1px solid #9aa3af;border-radius:6px;box-shadow:0 4px 18px rgba(0,0,0,.18);padding:8px 10px;\
font-size:12px}
#tip pre{white-space:pre-wrap;word-break:break-word;background:#f6f7f9;margin:4px 0;padding:4px 6px;
max-height:220px;overflow:auto}#tip b{font-size:13px}.muted{color:#6b7280}
.controls{font-size:12px;margin-bottom:6px}
"""

_JS = """
(function(){
var data=JSON.parse(document.getElementById('calls').textContent);
var calls=data.calls,inputs=data.inputs,tip=document.getElementById('tip');
function fmt(v){if(v===null||v===undefined)return '(none)';
  return typeof v==='string'?v:JSON.stringify(v,null,2);}
function add(tag,text,parent){var e=document.createElement(tag);e.textContent=text;\
parent.appendChild(e);return e;}
function show(ev){var t=ev.target;if(t.tagName!=='I'||!t.hasAttribute('data-i')){return;}
  var c=calls[+t.getAttribute('data-i')];if(!c){return;}
  tip.textContent='';
  add('b',c.e+' \\u00b7 '+c.h,tip);
  add('div',c.o+(c.d!=='none'?' \\u00b7 decision '+c.d:'')+' \\u00b7 '+c.ms.toFixed(1)+' ms'+
      (c.x!==null?' \\u00b7 exit '+c.x:'')+(c.s?' \\u00b7 '+c.s:''),tip).className='muted';
  if(c.err){add('div','error: '+c.err,tip);}
  add('div','input',tip).className='muted';add('pre',fmt(c.in<0?null:inputs[c.in]),tip);
  add('div','answer',tip).className='muted';add('pre',fmt(c.out),tip);
  if(c.se){add('div','stderr',tip).className='muted';add('pre',c.se,tip);}
  tip.style.display='block';move(ev);}
function move(ev){if(tip.style.display!=='block'){return;}
  var x=ev.clientX+14,y=ev.clientY+14,w=tip.offsetWidth,h=tip.offsetHeight;
  if(x+w>window.innerWidth){x=Math.max(0,ev.clientX-w-14);}
  if(y+h>window.innerHeight){y=Math.max(0,ev.clientY-h-14);}
  tip.style.left=x+'px';tip.style.top=y+'px';}
var tl=document.getElementById('tl');
tl.addEventListener('mouseover',show);tl.addEventListener('mousemove',move);
tl.addEventListener('mouseout',function(ev){if(ev.target.tagName==='I'){tip.style.display='none';}}\
);
var zoom=document.getElementById('zoom');
zoom.addEventListener('input',function(){tl.style.width=(100*Math.pow(2,+zoom.value))+'%';});
})();
"""

_LIMIT_SMALL = 4000  # characters of each input / answer kept for hovering (small traces)
_LIMIT_LARGE = 600  # … when the trace has many calls (the page stays a few tens of MB at most)


def _cut(value: Any, limit: int) -> Any:
    if value is None:
        return None
    text = (
        value
        if isinstance(value, str)
        else json.dumps(value, indent=2, ensure_ascii=False, default=str)
    )
    return (
        text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit} more characters)"
    )


def _script_json(obj: Any) -> str:
    """JSON safe inside ``<script>``: no ``</script>``, no ``<!--``."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _ms(v: float) -> str:
    return f"{v:.1f}" if v < 100 else f"{v:.0f}"


def _length(ms: float) -> str:
    """A session's length for people: ``850 ms``, ``12.4 s``, ``2 h 46 min``."""
    if ms < 1000:
        return f"{ms:.0f} ms"
    if ms < 60_000:
        return f"{ms / 1000:.1f} s"
    minutes = int(ms // 60_000)
    return (
        f"{minutes // 60} h {minutes % 60} min"
        if minutes >= 60
        else f"{minutes} min {int(ms // 1000) % 60} s"
    )


def _clock(ms: float) -> str:
    return time.strftime("%H:%M:%S", time.gmtime(ms / 1000)) + f".{int(ms % 1000):03d}"


def _starts(calls: list[Call]) -> list[float]:
    """Where each call is placed in time: its firing's start; calls with an unknown start follow
    each other."""
    starts: list[float] = []
    cursor = 0.0
    for c in calls:
        if c.start_ms is not None:
            cursor = c.start_ms
        starts.append(cursor)
        if c.start_ms is None:
            cursor += c.duration_ms
    return starts


def _payload(calls: list[Call], limit: int) -> tuple[list[Any], list[dict[str, Any]]]:
    """The page's data: the distinct inputs (each written once), and one row per call pointing at
    its input."""
    inputs: list[Any] = []
    input_ids: dict[str, int] = {}
    payload: list[dict[str, Any]] = []
    for c in calls:
        idx = -1
        if c.input is not None:
            text = _cut(c.input, limit)
            idx = input_ids.get(text, -1)
            if idx < 0:
                idx = input_ids[text] = len(inputs)
                inputs.append(text)
        payload.append(
            {
                "e": c.event,
                "h": c.hook,
                "o": c.outcome,
                "d": c.decision,
                "ms": round(c.duration_ms, 3),
                "x": c.exit_code,
                "s": c.source,
                "err": c.error,
                "in": idx,
                "out": _cut(c.output, limit),
                "se": _cut(c.stderr, limit) if c.stderr else "",
            }
        )
    return inputs, payload


def render(calls: list[Call], source: str) -> str:
    """The whole page for ``calls`` read from ``source``."""
    e = html.escape
    stats = summarise(calls)
    limit = _LIMIT_SMALL if len(calls) <= 5000 else _LIMIT_LARGE
    starts = _starts(calls)
    t0 = min(starts) if starts else 0.0
    t1 = max((s + c.duration_ms for s, c in zip(starts, calls, strict=True)), default=1.0)
    span = max(t1 - t0, 1e-3)
    inputs, payload = _payload(calls, limit)

    out: list[str] = []
    w = out.append
    w("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>")
    w("<meta name='viewport' content='width=device-width,initial-scale=1'>")
    w(f"<title>hookwise trace report: {e(source)}</title><style>{_CSS}</style></head><body>")
    w(
        f"<header><h1>hookwise trace report</h1><p>{e(source)} · {len(calls)} hook calls · "
        f"{len(stats)} hooks"
    )
    if calls:
        w(f" · {_clock(t0)}–{_clock(t1)} UTC ({_length(span)})")
    w("</p></header><main>")

    legend = "".join(f"<span><i style='background:{COLOURS[o]}'></i>{o}</span>" for o in OUTCOMES)
    w(
        f"<section><h2>Hooks</h2><div class='legend'>{legend}<span><i style='background:#fff;"
        "box-shadow:inset 0 0 0 2px #1c2331'></i>blocks (deny/block)</span><span><i "
        "style='background:#fff;outline:2px dashed #1c2331;outline-offset:-2px'></i>stops the "
        "agent (continue: false)</span></div>"
    )
    w(
        "<table id='hooks'><thead><tr><th>hook</th><th>event</th><th>source</th><th "
        "class='n'>calls</th><th class='n'>blocks</th><th class='n'>p50 ms</th><th class='n'>p95 "
        "ms</th><th class='n'>max ms</th><th>outcomes</th></tr></thead><tbody>"
    )
    for s in stats:
        pills = "".join(
            f"<span class='pill' style='background:{COLOURS.get(o, _OTHER)}'>{e(o)} {n}</span>"
            for o, n in sorted(
                s.outcomes.items(), key=lambda kv: (OUTCOMES + (kv[0],)).index(kv[0])
            )
        )
        w(
            f"<tr class='hook' data-hook='{e(s.hook)}' data-event='{e(s.event)}'><td class='hook' "
            f"title='{e(s.hook)}'>{e(s.hook)}</td><td>{e(s.event)}</td><td>{e(s.source)}</td><td "
            f"class='n'>{s.calls}</td><td class='n'>{s.blocks}</td><td "
            f"class='n'>{_ms(s.p50)}</td><td class='n'>{_ms(s.p95)}</td><td "
            f"class='n'>{_ms(s.max)}</td><td>{pills}</td></tr>"
        )
    w("</tbody></table></section>")

    w(
        "<section><h2>Slowest calls</h2><table id='slowest'><thead><tr><th "
        "class='n'>ms</th><th>event</th><th>hook</th><th>outcome</th><th>decision</th><th>at "
        "(UTC)</th><th>error</th></tr></thead><tbody>"
    )
    for c in slowest(calls, 10):
        at = _clock(starts[c.index]) if c.start_ms is not None else ""
        w(
            f"<tr><td class='n'>{_ms(c.duration_ms)}</td><td>{e(c.event)}</td><td>{e(c.hook)}</td>"
            "<td><span class='pill' "
            f"style='background:{COLOURS.get(c.outcome, _OTHER)}'>{e(c.outcome)}</span></td>"
            f"<td>{e(c.decision) if c.decision != 'none' else ''}</td><td>{at}</td>"
            f"<td>{e((c.error or '')[:160])}</td></tr>"
        )
    w("</tbody></table></section>")

    w(
        "<section><h2>Timeline</h2><div class='controls'><label>zoom <input id='zoom' type='range' "
        "min='0' max='8' step='1' value='0'></label> <span class='muted'>events are rows, each bar "
        "is one hook call (hover for its input and answer)</span></div><div id='tl-wrap'><div "
        "id='tl'>"
    )
    rows: dict[
        str, dict[str, list[int]]
    ] = {}  # event -> hook -> call indexes (events as rows, a track per hook)
    for c in calls:
        rows.setdefault(c.event, {}).setdefault(c.hook, []).append(c.index)
    for event, tracks in rows.items():
        n = sum(len(v) for v in tracks.values())
        w(
            f"<div class='ev' data-event='{e(event)}'><div class='evh'><span "
            f"class='label'>{e(event)} <span class='muted'>{n} "
            f"call{'s' if n != 1 else ''}</span></span></div>"
        )
        for hook, idxs in tracks.items():
            w(
                f"<div class='row' data-hook='{e(hook)}'><div class='label hk' "
                f"title='{e(hook)}'>{e(hook)}</div><div class='lane'>"
            )
            for i in idxs:
                c = calls[i]
                left = (starts[i] - t0) / span * 100
                width = c.duration_ms / span * 100
                cls = " class='blk'" if c.blocks else " class='stp'" if c.decision == "stop" else ""
                w(
                    f"<i{cls} data-i='{i}' style='left:{left:.4f}%;width:{width:.4f}%;"
                    f"background:{COLOURS.get(c.outcome, _OTHER)}'></i>"
                )
            w("</div></div>")
        w("</div>")
    w("</div></div>")
    if calls:
        w(
            f"<div class='axis'><span>{_clock(t0)}</span><span>{_clock(t0 + span / 2)}</span>"
            f"<span>{_clock(t1)}</span></div>"
        )
    w("</section></main><div id='tip'></div>")
    w(
        "<script id='calls' "
        f"type='application/json'>{_script_json({'calls': payload, 'inputs': inputs})}</script>"
    )
    w(f"<script>{_JS}</script></body></html>\n")
    return "".join(out)
