"""``hookwise test [PATH...] [--junit FILE]``: run ``*.hooktest.json`` case files, print a pass/fail
table.

PATHs are case files or directories (searched recursively for ``*.hooktest.json``);
the default is the project dir. Exit status 0 when every case passed, 1 when
any failed or could not run, or when no case was found.
"""

from __future__ import annotations

import argparse
import os

from hookwise.cli.base import CliContext, UsageError
from hookwise.errors import CaseFileError
from hookwise.jsonc.edit import write_atomic
from hookwise.testing.cases import CaseResult, discover, junit_xml, load_file, run_cases


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="case files or directories (default: the project dir)",
    )
    parser.add_argument(
        "--junit", metavar="FILE", help="also write the results as JUnit XML to FILE"
    )


def _rel(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    paths = args.paths or [ctx.project_dir]
    try:
        files = discover(paths)
    except CaseFileError as exc:
        raise UsageError(str(exc)) from None
    if not files:
        print(f"no *.hooktest.json files found in {', '.join(paths)}", file=ctx.stderr)
        return 1
    cases = []
    broken: list[str] = []
    for f in files:
        try:
            cases.extend(load_file(f))
        except CaseFileError as exc:
            broken.append(str(exc))
    for b in broken:
        print(f"ERROR {b}", file=ctx.stdout)
    if not cases and broken:
        return 1
    width = min(60, max((len(c.name) for c in cases), default=10))
    fwidth = min(50, max((len(_rel(c.file)) for c in cases), default=10))

    def show(r: CaseResult) -> None:
        print(
            (
                f"{r.status:<5} {_rel(r.case.file):<{fwidth}}  {r.case.name:<{width}}  "
                f"{r.duration_ms:6.0f} ms"
            ),
            file=ctx.stdout,
        )
        for line in [r.error] if r.error else r.failures:
            print(f"      {line}", file=ctx.stdout)
        if not r.passed and r.result is not None:
            for w in r.result.warnings:
                print(f"      warning: {w}", file=ctx.stdout)
        ctx.stdout.flush()

    results = run_cases(
        cases,
        ctx.project_dir,
        claude_settings=True if ctx.claude_settings else None,
        trace=ctx.trace,
        on_result=show,
    )
    passed = sum(r.passed for r in results)
    failed = sum(1 for r in results if r.failures and r.error is None)
    errors = sum(1 for r in results if r.error is not None) + len(broken)
    summary = f"{passed} passed, {failed} failed"
    if errors:
        summary += f", {errors} error{'s' if errors != 1 else ''}"
    print(summary, file=ctx.stdout)
    if args.junit:
        write_atomic(os.path.abspath(args.junit), junit_xml(results))
    return 0 if passed == len(results) and not broken else 1
