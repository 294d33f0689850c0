"""Command hooks that misbehave in every way we know of.

Each case asserts the outcome class, the time bound (timeout + grace + slack)
and, through the autouse ``no_process_left_behind`` fixture plus the pids the
hook scripts write, that no process survives the firing.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import time

import pytest

from hookwise import Outcome
from hookwise.runners._process import DEFAULT_CAP, KILL_GRACE_S

from ._procs import alive, kill_all, wait_gone
from .conftest import PY, SLACK_S, Faults, bound

pytestmark = pytest.mark.fault

NOTE = 'echo $$ >> "$PIDDIR/pids"'
TEN_MB = {"tool_name": "write_file", "tool_input": {"content": "x" * (10 * 1024 * 1024)}}


def assert_gone(pids: list[int]) -> None:
    assert pids, "the hook did not record its pid"
    left = wait_gone(pids)
    kill_all(left)
    assert not left, f"still alive: {left}"


# ---- hangs and timeouts ----------------------------------------------------------------------


@pytest.mark.slow
def test_hook_that_hangs_times_out_and_its_children_die(faults: Faults) -> None:
    faults.hooks(f'{NOTE}; sleep 100 & echo $! >> "$PIDDIR/pids"; wait', timeout_ms=500)
    run = faults.fire()
    assert run.hook.outcome is Outcome.TIMEOUT
    assert run.hook.error == "timed out after 500 ms"
    assert 0.45 <= run.elapsed <= bound(500)
    assert run.result.warnings == ["hook h0 (BeforeTool) timed out after 500 ms"]
    assert not run.result.blocked  # fail open by default
    assert len(run.pids) == 2
    assert_gone(run.pids)


@pytest.mark.slow
def test_hook_that_ignores_sigterm_is_killed_after_the_grace(faults: Faults) -> None:
    script = faults.script(
        "stubborn.py",
        """
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if os.fork() == 0:
            note()
            time.sleep(100)
            os._exit(0)
        note()
        print('{"decision": "deny", "reason": "printed before the timeout"}', flush=True)
        while True:
            time.sleep(0.05)
    """,
        python=True,
    )
    faults.hooks(str(script), timeout_ms=400)
    run = faults.fire()
    assert run.hook.outcome is Outcome.TIMEOUT
    assert run.hook.output is None and not run.result.blocked  # output before a timeout is ignored
    assert 0.4 + KILL_GRACE_S - 0.1 <= run.elapsed <= bound(400)
    assert len(run.pids) == 2
    assert_gone(run.pids)


def test_timeout_with_fail_closed_blocks(faults: Faults) -> None:
    faults.hooks({"command": f"{NOTE}; exec sleep 100", "failClosed": True}, timeout_ms=300)
    run = faults.fire()
    assert run.hook.outcome is Outcome.TIMEOUT
    assert run.result.blocked
    assert "failed closed (timeout" in (run.result.reason or "")
    assert run.elapsed <= bound(300)
    assert_gone(run.pids)


# ---- daemons and process groups --------------------------------------------------------------


def test_daemon_that_keeps_stdout_open_does_not_hold_the_firing(faults: Faults) -> None:
    faults.hooks(
        f'(sleep 100 & echo $! >> "$PIDDIR/pids"); {NOTE}; '
        'echo \'{"decision": "deny", "reason": "answered before the daemon"}\'',
        timeout_ms=5000,
    )
    run = faults.fire()
    assert run.hook.outcome is Outcome.OK
    assert run.result.blocked and run.result.reason == "answered before the daemon"
    assert run.elapsed < SLACK_S  # not the daemon's 100 s, not the 5 s timeout
    assert len(run.pids) == 2
    assert_gone(run.pids)


def test_double_forked_setsid_daemon_holding_stdout_is_found_and_killed(faults: Faults) -> None:
    script = faults.script(
        "daemon.py",
        """
        note()
        if os.fork() == 0:
            os.setsid()  # a new session and process group: killpg cannot reach it
            if os.fork() == 0:
                note()
                time.sleep(100)  # stdout and stderr still inherited
                os._exit(0)
            os._exit(0)
        os.wait()
        print(json.dumps({"systemMessage": "parent answered"}), flush=True)
    """,
        python=True,
    )
    faults.hooks(str(script), timeout_ms=5000)
    run = faults.fire()
    assert run.hook.outcome is Outcome.OK
    assert run.result.system_message == "parent answered"
    assert run.elapsed < SLACK_S
    assert len(run.pids) == 2
    assert_gone(run.pids)


def test_background_job_that_detached_its_output_is_left_alone(faults: Faults) -> None:
    """Documented policy: a hook may start background work that redirected its output."""
    faults.hooks(
        f'nohup sleep 30 >/dev/null 2>&1 & echo $! >> "$PIDDIR/pids"; {NOTE}; echo ok',
        timeout_ms=5000,
    )
    run = faults.fire()
    assert run.hook.outcome is Outcome.OK
    assert run.elapsed < SLACK_S
    bg = run.pids[0]
    try:
        assert alive(bg), "a detached background job must not be killed"
    finally:
        kill_all([bg])
    assert_gone(run.pids)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["job-control", "setsid-child", "setpgid-child"])
def test_hook_whose_children_change_process_group_are_killed_at_timeout(
    faults: Faults, how: str
) -> None:
    if how == "job-control":
        cmd = f'set -m; {NOTE}; sleep 100 & echo $! >> "$PIDDIR/pids"; wait'
    else:
        call = "os.setsid()" if how == "setsid-child" else "os.setpgid(0, 0)"
        script = faults.script(
            "escape.py",
            f"""
            note()
            if os.fork() == 0:
                {call}
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                note()
                time.sleep(100)
                os._exit(0)
            time.sleep(100)
        """,
            python=True,
        )
        cmd = str(script)
    faults.hooks(cmd, timeout_ms=400)
    run = faults.fire()
    assert run.hook.outcome is Outcome.TIMEOUT
    assert run.elapsed <= bound(400)
    assert len(run.pids) == 2
    assert_gone(run.pids)


def test_hook_that_changes_its_own_group_and_exits_leaves_nothing_holding_pipes(
    faults: Faults,
) -> None:
    script = faults.script(
        "regroup.py",
        """
        note()
        if os.fork() == 0:
            os.setpgid(0, 0)
            note()
            time.sleep(100)
            os._exit(0)
        print("{}")
    """,
        python=True,
    )
    faults.hooks(str(script), timeout_ms=5000)
    run = faults.fire()
    assert run.hook.outcome is Outcome.OK
    assert run.elapsed < SLACK_S
    assert_gone(run.pids)


# ---- death by signal ---------------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSEGV, signal.SIGTERM, signal.SIGABRT])
def test_hook_killed_by_a_signal_fails_visibly(faults: Faults, sig: signal.Signals) -> None:
    faults.hooks(
        f'{NOTE}; echo \'{{"decision": "allow"}}\'; kill -{sig.name[3:]} $$', timeout_ms=5000
    )
    run = faults.fire()
    assert run.hook.outcome is Outcome.FAILED
    assert run.hook.error == f"killed by {sig.name}"
    assert run.hook.output is None and run.hook.exit_code is None
    assert run.result.warnings == [f"hook h0 (BeforeTool) failed: killed by {sig.name}"]
    assert run.elapsed < SLACK_S
    assert_gone(run.pids)


# ---- output floods and garbage -------------------------------------------------------------------


@pytest.mark.slow
def test_hook_that_floods_stdout_with_1_gb(faults: Faults) -> None:
    faults.hooks(f"{NOTE}; head -c 1073741824 /dev/zero | tr '\\0' y", timeout_ms=60_000)
    run = faults.fire()
    assert run.hook.outcome is Outcome.FAILED  # a cut-off answer is not an answer
    assert "cut off" in (run.hook.error or "")
    assert run.hook.truncated
    assert len(run.hook.stdout) == DEFAULT_CAP
    assert any("truncated at 1 MiB" in w for w in run.result.warnings)
    assert not run.result.blocked
    assert run.elapsed < 30
    assert_gone(run.pids)


@pytest.mark.slow
def test_hook_that_floods_stderr_with_1_gb_still_answers_on_stdout(faults: Faults) -> None:
    faults.hooks(
        f'{NOTE}; head -c 1073741824 /dev/zero >&2; echo \'{{"decision": "deny", "reason": "r"}}\'',
        timeout_ms=60_000,
    )
    run = faults.fire()
    assert run.hook.outcome is Outcome.OK
    assert run.result.blocked and run.result.reason == "r"
    assert run.hook.truncated and len(run.hook.stderr) == DEFAULT_CAP
    assert run.elapsed < 30
    assert_gone(run.pids)


def test_hook_that_prints_binary_and_invalid_utf8(faults: Faults) -> None:
    faults.hooks(
        f"{NOTE}; printf '\\x89PNG\\r\\n\\x1a\\n\\x00\\xff\\xfe\\xc3\\x28'", timeout_ms=5000
    )
    run = faults.fire()
    assert run.hook.outcome is Outcome.OK  # exit 0 with text: allow, and the text is shown
    assert "\ufffd" in (run.result.system_message or "")
    assert "PNG" in run.hook.stdout
    assert_gone(run.pids)


def test_invalid_utf8_inside_a_json_answer_is_replaced_not_fatal(faults: Faults) -> None:
    faults.hooks(
        f'{NOTE}; printf \'{{"decision":"deny","reason":"bad \\xff\\xfe byte"}}\'', timeout_ms=5000
    )
    run = faults.fire()
    assert run.hook.outcome is Outcome.OK
    assert run.result.blocked
    assert run.result.reason == "bad \ufffd\ufffd byte"
    assert_gone(run.pids)


@pytest.mark.slow
def test_hook_that_prints_a_50_mb_json_object(faults: Faults) -> None:
    script = faults.script(
        "big.py",
        """
        note()
        sys.stdout.write(json.dumps({"decision": "deny", "reason": "big", "pad": "x" * 50_000_000}))
    """,
        python=True,
    )
    faults.hooks(
        str(script),
        {"command": str(script), "name": "closed", "failClosed": True},
        timeout_ms=30_000,
    )
    run = faults.fire()
    open_, closed = run.result.hooks
    assert open_.outcome is Outcome.FAILED and open_.output is None and open_.truncated
    assert "passed the 1048576-byte cap" in (open_.error or "")
    assert (
        closed.outcome is Outcome.FAILED and closed.output is not None
    )  # failClosed turns it into a block
    assert run.result.blocked and "failed closed" in (run.result.reason or "")
    assert run.elapsed < 20
    assert len(run.pids) == 2
    assert_gone(run.pids)


def test_hook_that_prints_deeply_nested_json(faults: Faults) -> None:
    script = faults.script(
        "deep.py",
        """
        note()
        deep = '{"a": ' * 10_000 + '1' + '}' * 10_000
        sys.stdout.write('{"decision": "deny", "x": ' + deep + '}')
    """,
        python=True,
    )
    faults.hooks(str(script), timeout_ms=10_000)
    run = faults.fire()
    assert run.hook.outcome is Outcome.FAILED
    assert "nested too deeply" in (run.hook.error or "")
    assert not run.result.blocked and run.result.system_message is None  # not read as text either
    assert_gone(run.pids)


def test_hook_that_prints_deeply_nested_arrays_is_text(faults: Faults) -> None:
    script = faults.script(
        "deep_arr.py",
        """
        note()
        sys.stdout.write('[' * 10_000 + ']' * 10_000)
    """,
        python=True,
    )
    faults.hooks(str(script), timeout_ms=10_000)
    run = faults.fire()
    assert run.hook.outcome is Outcome.OK  # not a JSON object: text (docs/contract.md §6)
    assert (run.result.system_message or "").startswith("[[[")
    assert_gone(run.pids)


@pytest.mark.parametrize(
    ("text", "blocked"),
    [
        ('{"decision": "deny", "decision": "allow"}', False),
        ('{"decision": "allow", "decision": "deny"}', True),
    ],
)
def test_duplicate_keys_last_one_wins_like_json_parse(
    faults: Faults, text: str, blocked: bool
) -> None:
    faults.hooks(f"{NOTE}; echo '{text}'", timeout_ms=5000)
    run = faults.fire()
    assert run.hook.outcome is Outcome.OK
    assert run.result.blocked is blocked
    assert_gone(run.pids)


@pytest.mark.parametrize("const", ["NaN", "Infinity", "-Infinity"])
def test_json_with_nan_is_text_and_visible(faults: Faults, const: str) -> None:
    text = f'{{"decision": "deny", "score": {const}}}'
    faults.hooks(f"{NOTE}; echo '{text}'", timeout_ms=5000)
    run = faults.fire()
    # strict JSON only, and output that starts like JSON but does not parse is a malformed answer:
    # failed and visible, never a silent allow (docs/contract.md §6, issue 20 item 15)
    assert run.hook.outcome is Outcome.FAILED
    assert "NaN is not valid JSON" in (run.hook.error or "") or const in (run.hook.error or "")
    assert any("h0" in w for w in run.result.warnings)
    assert_gone(run.pids)


# ---- stdin -------------------------------------------------------------------------------------


def test_hook_that_closes_stdin_at_once_with_a_10_mb_payload(faults: Faults) -> None:
    faults.hooks(
        f'exec 0<&-; {NOTE}; sleep 0.2; echo \'{{"systemMessage": "closed stdin"}}\'',
        timeout_ms=5000,
    )
    run = faults.fire(TEN_MB)
    assert run.hook.outcome is Outcome.OK
    assert run.result.system_message == "closed stdin"
    assert run.elapsed < SLACK_S
    assert_gone(run.pids)


def test_hook_that_never_reads_stdin_with_a_10_mb_payload(faults: Faults) -> None:
    faults.hooks(f'{NOTE}; sleep 0.3; echo \'{{"systemMessage": "never read"}}\'', timeout_ms=5000)
    run = faults.fire(TEN_MB)
    assert run.hook.outcome is Outcome.OK
    assert run.result.system_message == "never read"
    assert run.elapsed < SLACK_S
    assert_gone(run.pids)


@pytest.mark.slow
def test_hook_that_never_reads_stdin_nor_exits_times_out(faults: Faults) -> None:
    faults.hooks(f"{NOTE}; exec sleep 100", timeout_ms=400)
    run = faults.fire(TEN_MB)
    assert run.hook.outcome is Outcome.TIMEOUT
    assert run.elapsed <= bound(400)
    assert_gone(run.pids)


def test_hook_that_reads_all_of_a_10_mb_payload(faults: Faults) -> None:
    script = faults.script(
        "reader.py",
        """
        note()
        data = json.load(sys.stdin)
        print(json.dumps({"systemMessage": str(len(data["tool_input"]["content"]))}))
    """,
        python=True,
    )
    faults.hooks(str(script), timeout_ms=10_000)
    run = faults.fire(TEN_MB)
    assert run.hook.outcome is Outcome.OK
    assert run.result.system_message == str(10 * 1024 * 1024)
    assert_gone(run.pids)


# ---- cannot run --------------------------------------------------------------------------------


def test_missing_hook_script(faults: Faults) -> None:
    faults.hooks(str(faults.root / "hooks" / "nope.sh"), timeout_ms=5000)
    run = faults.fire()
    assert run.hook.outcome is Outcome.NOT_RUN
    assert (run.hook.error or "").startswith("exit code 127 (command not found)")
    assert "did not run" in run.result.warnings[0]
    assert not run.result.blocked


def test_missing_command(faults: Faults) -> None:
    faults.hooks("hookwise-no-such-command-anywhere --flag", timeout_ms=5000)
    run = faults.fire()
    assert run.hook.outcome is Outcome.NOT_RUN
    assert "127" in (run.hook.error or "")


def test_hook_script_not_executable(faults: Faults) -> None:
    script = faults.script("noexec.sh", '#!/bin/sh\necho \'{"decision": "deny"}\'\n', mode=0o644)
    faults.hooks({"command": str(script), "failClosed": True}, str(script), timeout_ms=5000)
    run = faults.fire()
    closed, open_ = run.result.hooks
    assert open_.outcome is Outcome.NOT_RUN and (open_.error or "").startswith(
        "exit code 126 (not executable)"
    )
    assert closed.outcome is Outcome.NOT_RUN and run.result.blocked  # failClosed blocks


def test_hook_script_with_missing_interpreter(faults: Faults) -> None:
    script = faults.script("nointerp.sh", "#!/nonexistent/bin/interpreter\necho hi\n")
    faults.hooks(str(script), timeout_ms=5000)
    run = faults.fire()
    assert run.hook.outcome is Outcome.NOT_RUN
    assert run.hook.error and ("127" in run.hook.error or "126" in run.hook.error)
    assert not run.result.blocked


def test_hook_whose_working_directory_was_deleted(faults: Faults) -> None:
    faults.hooks(f"{NOTE}; echo '{{}}'", timeout_ms=5000)
    hs = faults.system()
    shutil.rmtree(faults.project_dir)
    run = faults.fire(hs=hs)
    assert run.hook.outcome is Outcome.NOT_RUN
    assert run.hook.error == f"working directory {faults.project_dir} does not exist"
    assert run.pids == []


def test_hook_whose_working_directory_is_a_file(faults: Faults) -> None:
    faults.hooks("echo '{}'", timeout_ms=5000)
    hs = faults.system()
    shutil.rmtree(faults.project_dir)
    faults.project_dir.write_text("not a directory")
    run = faults.fire(hs=hs)
    assert run.hook.outcome is Outcome.NOT_RUN
    assert "not a directory" in (run.hook.error or "") or "does not exist" in (run.hook.error or "")


# ---- all at once -------------------------------------------------------------------------------


@pytest.mark.slow
def test_every_fault_in_one_parallel_firing(faults: Faults) -> None:
    """Faults do not disturb each other: each keeps its own outcome, the firing its bound."""
    stubborn = faults.script(
        "stubborn2.py",
        """
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        note()
        while True:
            time.sleep(0.05)
    """,
        python=True,
    )
    faults.hooks(
        f"{NOTE}; exec sleep 100",  # hangs
        str(stubborn),  # ignores SIGTERM
        f'(sleep 100 & echo $! >> "$PIDDIR/pids"); {NOTE}; echo "{{}}"',  # daemon holding stdout
        f"{NOTE}; kill -KILL $$",  # dies by a signal
        f"{NOTE}; head -c 50000000 /dev/zero",  # floods
        f"{NOTE}; printf '\\xff\\xfe'",  # invalid UTF-8
        str(faults.root / "missing.sh"),  # missing
        f'{NOTE}; echo \'{{"decision": "deny", "reason": "the good one"}}\'',  # a well-behaved deny
        timeout_ms=500,
    )
    run = faults.fire(TEN_MB)
    outcomes = [h.outcome for h in run.result.hooks]
    assert outcomes == [
        Outcome.TIMEOUT,
        Outcome.TIMEOUT,
        Outcome.OK,
        Outcome.FAILED,
        Outcome.FAILED,
        Outcome.OK,
        Outcome.NOT_RUN,
        Outcome.OK,
    ]
    assert run.result.blocked and "the good one" in (run.result.reason or "")
    assert len(run.result.warnings) == 6  # 2 timeouts, signal, cut-off, not-run, truncation
    assert run.elapsed <= bound(500)
    assert_gone(run.pids)


def test_no_hook_process_survives_a_host_that_gives_up(faults: Faults) -> None:
    """Even when the run is interrupted (KeyboardInterrupt in `during`), every child is killed."""
    from hookwise.runners import _process as _subprocess

    faults.hooks(f"{NOTE}; exec sleep 100", timeout_ms=60_000)
    spawn = _subprocess.Spawn(
        ["bash", "-c", f"{NOTE}; exec sleep 100"],
        str(faults.project_dir),
        {**os.environ, "PIDDIR": str(faults.piddir)},
        b"{}",
        60,
    )

    def interrupt() -> None:
        time.sleep(0.2)
        raise KeyboardInterrupt

    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        _subprocess.run_many([spawn], during=interrupt)
    assert time.monotonic() - t0 < SLACK_S
    pids = [int(p) for p in (faults.piddir / "pids").read_text().split()]
    assert_gone(pids)
    assert json.dumps(PY)  # the interpreter used by the script hooks exists


@pytest.mark.slow
def test_hook_that_runs_hookwise_itself_leaves_nothing_at_its_timeout(faults: Faults) -> None:
    """Nested runs: the inner hookwise starts its hook in a new session; the outer timeout still
    finds it."""
    inner_home = faults.root / "inner-home"
    (inner_home / ".gemini").mkdir(parents=True)
    (inner_home / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": (
                                        f'echo $$ >> "{faults.piddir}/inner"; exec sleep 100'
                                    ),
                                    "timeout": 60_000,
                                }
                            ]
                        }
                    ]
                }
            }
        )
    )
    inner_project = faults.root / "inner-project"
    inner_project.mkdir()
    faults.hooks(
        f'{NOTE}; GEMINI_CLI_HOME="{inner_home}" HOOKWISE_TRUST_ALL=1 {PY} -m hookwise '
        f'--project "{inner_project}" fire BeforeTool --tool t',
        timeout_ms=3000,
    )
    run = faults.fire()
    assert run.hook.outcome is Outcome.TIMEOUT
    assert run.elapsed <= bound(3000)
    inner = [int(p) for p in (faults.piddir / "inner").read_text().split()]
    assert inner, "the inner hook did not start"
    assert_gone(run.pids + inner)


@pytest.mark.slow
def test_hook_that_stops_itself_is_killed_at_the_timeout(faults: Faults) -> None:
    faults.hooks(f"{NOTE}; kill -STOP $$; echo never", timeout_ms=400)
    run = faults.fire()
    assert (
        run.hook.outcome is Outcome.TIMEOUT
    )  # SIGTERM stays pending on a stopped process; SIGKILL does not
    assert run.elapsed <= bound(400)
    assert_gone(run.pids)


@pytest.mark.slow
def test_hook_that_forks_many_children_loses_them_all_at_the_timeout(faults: Faults) -> None:
    faults.hooks(
        f'{NOTE}; for i in $(seq 60); do (trap "" TERM; exec sleep 100) & echo $! >> '
        '"$PIDDIR/pids"; done; '
        "wait",
        timeout_ms=800,
    )
    run = faults.fire()
    assert run.hook.outcome is Outcome.TIMEOUT
    assert run.elapsed <= bound(800)
    assert len(run.pids) == 61
    assert_gone(run.pids)


def test_hook_that_waits_for_terminal_input_does_not_hang(faults: Faults) -> None:
    """Hooks run in a new session without a controlling terminal: a prompt fails instead of
    waiting."""
    faults.hooks(
        (
            f'{NOTE}; read -r answer < /dev/tty || exit 1; echo "{{\\"systemMessage\\": '
            '\\"$answer\\"}"'
        ),
        timeout_ms=5000,
    )
    run = faults.fire()
    assert (
        run.hook.outcome is Outcome.FAILED and "/dev/tty" in run.hook.stderr
    )  # no terminal to open
    assert run.elapsed < SLACK_S
    assert_gone(run.pids)


def test_hook_that_closes_stdout_and_keeps_running_times_out(faults: Faults) -> None:
    faults.hooks(f"{NOTE}; exec 1>&- 2>&-; exec sleep 100", timeout_ms=400)
    run = faults.fire()
    assert run.hook.outcome is Outcome.TIMEOUT
    assert run.elapsed <= bound(400)
    assert_gone(run.pids)


@pytest.mark.slow
def test_hook_that_tries_to_change_its_own_process_group(faults: Faults) -> None:
    """The hook process itself calls setsid/setpgid (it already leads its group, so setsid fails)
    and hangs."""
    script = faults.script(
        "self_regroup.py",
        """
        note()
        for call in (os.setsid, lambda: os.setpgid(0, 0)):
            try:
                call()  # both refused: the hook leads its own session already
            except OSError:
                pass
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(100)
    """,
        python=True,
    )
    faults.hooks(str(script), timeout_ms=400)
    run = faults.fire()
    assert run.hook.outcome is Outcome.TIMEOUT
    assert run.elapsed <= bound(400)
    assert_gone(run.pids)


def test_hook_run_through_the_setsid_program_is_not_waited_for(faults: Faults) -> None:
    """`setsid cmd` forks into a new session and exits: the detached copy holds stdout and is
    killed."""
    faults.hooks(f"setsid sh -c '{NOTE}; sleep 100; echo \"{{}}\"'", timeout_ms=5000)
    run = faults.fire()
    assert run.hook.outcome is Outcome.OK and run.hook.output is None
    assert run.elapsed < SLACK_S
    deadline = time.monotonic() + 2
    while not run.pids and time.monotonic() < deadline:  # the detached copy may write its pid late
        time.sleep(0.05)
        run.pids[:] = (
            [int(p) for p in (faults.piddir / "pids").read_text().split()]
            if (faults.piddir / "pids").exists()
            else []
        )
    assert_gone(run.pids)
