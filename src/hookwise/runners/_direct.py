"""Running a hook's command without ``bash -c`` when bash would only have exec'd it.

For a command such as ``'/my project'/.gemini/hooks/check.sh --strict`` (the
text after ``$GEMINI_PROJECT_DIR`` expansion, docs/contract.md §5), ``bash -c`` parses
one simple command, searches ``PATH`` and execs the program in place of
itself. Skipping bash saves its start-up (about 1 ms per hook on a small
machine) and changes nothing the hook can observe, provided we do the same
things bash does:

* split the words with the same quoting rules (only single and double quotes
  are accepted here, and nothing inside them that bash would expand);
* search ``PATH`` the way bash does (first executable regular file) and exec
  that file with the word as typed as ``argv[0]``;
* give the program the environment bash would have given it: ``PWD`` set to
  the working directory (bash keeps an inherited ``PWD`` that names the same
  directory), ``OLDPWD`` dropped unless it names a directory, ``SHLVL``
  normalised (bash adds one at start-up and takes it back before exec'ing the
  last command), ``_`` set to the program's path, ``PS1`` and ``PS2`` removed
  (a non-interactive bash unsets them; an activated virtual environment
  exports ``PS1``) and, when running as root, ``PS4`` reset to ``+ ``.

Anything else keeps bash: shell syntax of any kind (``$ ; & | < > ( ) { } *
? [ ] ~ \\ # ! %``, backticks, newlines, control characters), an assignment
prefix, a builtin or keyword as the first word, an unterminated quote, a
program that is not found or not executable, a relative ``PATH`` entry, and an
environment that carries variables bash reads or rewrites at start-up
(``BASH_ENV``, ``SHELLOPTS``, ``IFS``, exported functions, ...). When the exec
itself fails (say a script without a ``#!`` line, which bash would run as a
shell script), the engine retries with ``bash -c`` so the hook sees exactly
what bash would have done, including exit codes 126/127.
"""

from __future__ import annotations

import os
import stat

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

#: characters that make bash do something other than split words and strip quotes
SHELL_SYNTAX = frozenset("$;&|<>(){}*?[]~\\`#!%\n\r")

#: bash builtins and reserved words (``compgen -b``, ``compgen -k``): bash runs these itself
_BASH_WORDS = (
    ". : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare "
    "dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill "
    "let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt "
    "source suspend test times trap true type typeset ulimit umask unalias unset wait if then else "
    "elif fi case esac for select while until do done in function time { } ! [[ ]] coproc"
)
BASH_WORDS = frozenset(_BASH_WORDS.split())

#: environment variables bash reads at start-up or rewrites before exec'ing (any ``BASH*`` name too)
_BASH_ENV_NAMES = (
    "SHELLOPTS IFS OPTIND OPTARG OPTERR PPID RANDOM SRANDOM SECONDS LINENO HISTCMD EPOCHSECONDS "
    "EPOCHREALTIME COMP_WORDBREAKS FUNCNAME GROUPS DIRSTACK PIPESTATUS POSIXLY_CORRECT ENV "
    "EXECIGNORE"
)
BASH_ENV_NAMES = frozenset(_BASH_ENV_NAMES.split())

#: prompts a non-interactive bash removes from the environment before running anything
#: (``PS0`` and ``PS3`` pass through unchanged; ``PS4`` see :func:`plan`)
DROPPED_PROMPTS = ("PS1", "PS2")


_SPLIT: dict[
    str, tuple[str, ...] | None
] = {}  # commands recur: each is split once (at most 256 kept)


def split_simple(command: str) -> tuple[str, ...] | None:
    """The words of ``command`` if it is one simple command with no shell syntax, else None."""
    try:
        return _SPLIT[command]
    except KeyError:
        pass
    if len(_SPLIT) >= 256:
        _SPLIT.clear()
    words = _SPLIT[command] = _split_simple(command)
    return words


def _split_simple(command: str) -> tuple[str, ...] | None:
    for ch in command:
        if ch in SHELL_SYNTAX or (ch < " " and ch != "\t") or ch == "\x7f":
            return None
    if "'" in command or '"' in command:
        words = _quoted_words(command)
        if words is None:  # unterminated quote: bash reports it
            return None
    else:  # no quotes, no backslashes, no control characters but tabs: what shlex.split would give
        words = command.replace("\t", " ").split(" ")
        words = [w for w in words if w]
    if not words:
        return None
    first = words[0]
    if not first or first in BASH_WORDS or "=" in first:
        return None
    # shlex treats \r, \v and \f as blanks; bash does not (all rejected above); tabs and spaces
    # agree
    return tuple(words)


def _quoted_words(command: str) -> list[str] | None:
    """The words of a command made only of plain characters, blanks and quotes (no ``$``, backslash
    or control characters: :func:`_split_simple` checked), as bash (and ``shlex.split``) reads them;
    None for an unterminated quote. Written here so that a quoted command does not import
    :mod:`shlex` and :mod:`re`."""
    words: list[str] = []
    word: list[str] = []
    started, quote = False, ""
    for ch in command:
        if quote:
            if ch == quote:
                quote = ""
            else:
                word.append(ch)
        elif ch in "'\"":
            quote, started = ch, True
        elif ch in " \t":
            if started:
                words.append("".join(word))
                word, started = [], False
        else:
            word.append(ch)
            started = True
    if quote:
        return None
    if started:
        words.append("".join(word))
    return words


def _executable_file(path: str) -> bool:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode) and os.access(path, os.X_OK)


def resolve(word: str, env: Mapping[str, str]) -> str | None:
    """The file bash would exec for the command word ``word``, or None (let bash report it)."""
    if "/" in word:
        return word if _executable_file(word) else None
    path = env.get("PATH")
    if path is None:
        return None  # bash falls back to its own default search path
    for d in path.split(":"):
        if not d.startswith("/"):
            return None  # an empty or relative entry means a directory relative to the hook's cwd
        full = (d if d.endswith("/") else d + "/") + word if d != "/" else "/" + word
        if _executable_file(full):
            return full
    return None


def _shlvl(value: str | None) -> str | None:
    if value is None:
        return "0"
    v = value.strip()
    if v.isdigit() and v.isascii() and int(v) <= 998:
        return str(int(v))
    return None


def _pwd(env: Mapping[str, str], cwd: str) -> str:
    pwd = env.get("PWD")
    if pwd and pwd.startswith("/") and "/." not in pwd and "//" not in pwd:
        try:
            if os.path.samefile(pwd, cwd):
                return pwd.rstrip("/") or "/"
        except (OSError, ValueError):
            pass
    return os.path.realpath(cwd)


def _prompts_as_bash(env: dict[str, str]) -> None:
    """What a non-interactive bash does to the prompt variables it inherits."""
    for name in DROPPED_PROMPTS:
        env.pop(name, None)
    if "PS4" in env and os.geteuid() == 0:
        env["PS4"] = (
            # bash run by root does not take PS4 from the environment (a non-root bash keeps it)
            "+ "
        )


def plan(command: str, env: dict[str, str], cwd: str) -> tuple[list[str], str] | None:
    """``(argv, executable)`` to run ``command`` directly, or None when bash is needed.

    On success ``env`` is adjusted in place to what bash would have passed on
    (``PWD``, ``OLDPWD``, ``SHLVL``, ``_``). ``cwd`` must be absolute.
    """
    words = split_simple(command)
    if words is None:
        return None
    for k in env:
        if k.startswith("BASH") or k in BASH_ENV_NAMES:
            return None
    shlvl = _shlvl(env.get("SHLVL"))
    if shlvl is None:
        return None
    word = words[0]
    if "/" in word and not word.startswith("/"):
        exe = resolve(os.path.join(cwd, word), env)
        if exe is None:
            return None
        exe = word  # exec'd relative to the working directory, as bash does
    else:
        found = resolve(word, env)
        if found is None:
            return None
        exe = found
    old = env.get("OLDPWD")
    if old is not None and not old.startswith("/"):
        return None
    if old is not None and not os.path.isdir(old):
        del env["OLDPWD"]
    env["PWD"] = _pwd(env, cwd)
    env["SHLVL"] = shlvl
    env["_"] = exe
    _prompts_as_bash(env)
    return list(words), exe
