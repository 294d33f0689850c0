#!/usr/bin/env python3
"""Targets table of a side-by-side run: ``python3 bench/report.py RESULTS_DIR`` -> markdown on
stdout.

RESULTS_DIR is the ``results`` directory of ``../shared/bench/anchor/run.sh`` run with
``IMPL_BENCH="python3 bench/bench_hookwise.py"``: node-<r>.json (reference), py-<r>.json (Python raw
floor) and impl-<r>.json (hookwise, with its per-run targets). Every ratio is computed within one
run, then the median across runs is reported.
"""

from __future__ import annotations

import glob
import json
import os
import re
import statistics
import sys
from typing import Any


def load(d: str, prefix: str) -> list[dict[str, Any]]:
    runs = {}
    for p in glob.glob(os.path.join(d, f"{prefix}-*.json")):
        m = re.fullmatch(rf"{prefix}-(\d+)\.json", os.path.basename(p))
        if m:
            with open(p) as f:
                runs[int(m.group(1))] = json.load(f)
    return [runs[k] for k in sorted(runs)]


def med(docs: list[dict[str, Any]], i: str) -> float | None:
    vals = [r["median"] for doc in docs for r in doc["results"] if r["id"] == i]
    return statistics.median(vals) if vals else None


def fmt(x: float | None, unit: str = "ms") -> str:
    if x is None:
        return "—"
    if unit == "us":
        return f"{x * 1000:.2f} µs"
    if unit == "MiB":
        return f"{x:+.2f} MiB"
    if unit == "x":
        return f"{x:.3f}×"
    return f"{x:.2f} ms" if x >= 0.1 else f"{x * 1000:.1f} µs"


def main() -> None:
    d = sys.argv[1]
    node, py, impl = load(d, "node"), load(d, "py"), load(d, "impl")
    if not impl:
        raise SystemExit(f"no impl-<r>.json in {d}")
    print(
        f"Runs: {len(impl)} (reference runs: {len(node)}). Medians of per-run medians; ratios "
        "computed within each run, then the median across runs.\n"
    )

    print("### Anchor scenarios: reference vs hookwise vs raw floors\n")
    print(
        "| id | scenario | reference (gemini-cli-core) | hookwise | hookwise / reference | Python "
        "raw floor (py-*) | hookwise / floor |"
    )
    print("|---|---|---|---|---|---|---|")
    labels = {r["id"]: r["label"] for r in impl[0]["results"]}
    floor_of = {"a": "py-a", "b": "py-b", "d": "py-d", "f": "py-f"}
    for i in "abcdef":
        ratios = []
        for n_doc, i_doc in zip(node, impl, strict=False):
            nv = next((r["median"] for r in n_doc["results"] if r["id"] == i), None)
            iv = next((r["median"] for r in i_doc["results"] if r["id"] == i), None)
            if nv and iv:
                ratios.append(iv / nv)
        fl = floor_of.get(i)
        fratios = []
        if fl:
            for p_doc, i_doc in zip(py, impl, strict=False):
                pv = next((r["median"] for r in p_doc["results"] if r["id"] == fl), None)
                iv = next((r["median"] for r in i_doc["results"] if r["id"] == i), None)
                if pv and iv:
                    fratios.append(iv / pv)
        print(
            f"| {i} | {labels.get(i, '')} | {fmt(med(node, i))} | {fmt(med(impl, i))} | "
            f"{f'{statistics.median(ratios):.2f}×' if ratios else '—'} | "
            f"{fmt(med(py, fl)) if fl else '—'} | "
            f"{f'{statistics.median(fratios):.2f}×' if fratios else '—'} |"
        )

    print("\n### Targets\n")
    print("| target | limit | hookwise | base (same run) | ratio | met in runs | status |")
    print("|---|---|---|---|---|---|---|")
    names = [t["name"] for t in impl[0].get("targets", [])]
    for name in names:
        rows = [t for doc in impl for t in doc.get("targets", []) if t["name"] == name]
        vals = [t["value"] for t in rows if t["value"] is not None]
        bases = [t["base"] for t in rows if t["base"] is not None]
        ratios = [t["ratio"] for t in rows if t["ratio"] is not None]
        met = sum(1 for t in rows if t["status"] == "MET")
        known = sum(1 for t in rows if t["status"] != "n/a")
        unit = rows[0]["unit"]
        if known == 0:
            status = "n/a"
        elif met == known:
            status = "**met**"
        elif met * 2 > known:
            status = "met (majority)"
        else:
            status = "**not met**"
        limit = rows[0]["what"]
        print(
            f"| {name} | {limit} | {fmt(statistics.median(vals) if vals else None, unit)} | "
            f"{fmt(statistics.median(bases) if bases else None, unit)} | "
            f"{f'{statistics.median(ratios):.3f}' if ratios else '—'} | {met}/{known} | {status} |"
        )

    print("\n### Other hookwise scenarios (median of runs)\n")
    print("| id | scenario | median | p95 |")
    print("|---|---|---|---|")
    shown = set("abcdef")
    for r in impl[0]["results"]:
        i = r["id"]
        if i in shown:
            continue
        vals = [x["median"] for doc in impl for x in doc["results"] if x["id"] == i]
        p95s = [x["p95"] for doc in impl for x in doc["results"] if x["id"] == i]
        unit = "MiB" if i == "mem" else ("x" if i.endswith("ratio") else "ms")
        print(
            f"| {i} | {r['label']} | {fmt(statistics.median(vals), unit)} | "
            f"{fmt(statistics.median(p95s), unit) if unit != 'MiB' else '—'} |"
        )
    if node:
        imp = [float(doc["import_ms"]) for doc in node if doc.get("import_ms") is not None]
        rss = [float(doc["rss_mib"]) for doc in node if doc.get("rss_mib") is not None]
        print(
            f"\nReference: in-process import {statistics.median(imp):.0f} ms; harness RSS after "
            f"its benchmark {statistics.median(rss):.0f} MiB. hookwise: in-process import "
            f"{statistics.median([doc['import_ms'] for doc in impl]):.0f} ms (sources compiled, "
            "PYTHONDONTWRITEBYTECODE)."
        )


if __name__ == "__main__":
    main()
