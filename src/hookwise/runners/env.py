"""Environment sanitization for hook processes (docs/contract.md §7).

Project and extension hooks get the environment with secret-looking names and
values removed; user and system hooks get it whole unless a user or system
file switches redaction on for every hook.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    import re
    from collections.abc import Mapping

ALWAYS_ALLOWED = frozenset(
    {
        "PATH",
        "HOME",
        "LANG",
        "SHELL",
        "TMPDIR",
        "USER",
        "LOGNAME",
        "TERM",
        "COLORTERM",
        "SYSTEMROOT",
        "COMSPEC",
        "PATHEXT",
        "WINDIR",
        "TEMP",
        "TMP",
        "USERPROFILE",
        "SYSTEMDRIVE",
        "PWD",  # the working directory, not a password (…_PWD names are: MYSQL_PWD)
        "OLDPWD",
        "ADDITIONAL_CONTEXT",
        "AVAILABLE_LABELS",
        "BRANCH_NAME",
        "DESCRIPTION",
        "EVENT_NAME",
        "GITHUB_ENV",
        "IS_PULL_REQUEST",
        "ISSUES_TO_TRIAGE",
        "ISSUE_BODY",
        "ISSUE_NUMBER",
        "ISSUE_TITLE",
        "PULL_REQUEST_NUMBER",
        "REPOSITORY",
        "TITLE",
        "TRIGGERING_ACTOR",
    }
)

NEVER_ALLOWED = frozenset(
    {
        "CLIENT_ID",
        "DB_URI",
        "CONNECTION_STRING",
        "AWS_DEFAULT_REGION",
        "AZURE_CLIENT_ID",
        "AZURE_TENANT_ID",
        "SLACK_WEBHOOK_URL",
        "TWILIO_ACCOUNT_SID",
        "DATABASE_URL",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_CLOUD_ACCOUNT",
        "FIREBASE_PROJECT_ID",
    }
)

SECRET_NAME_PARTS = (
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "KEY",
    "AUTH",
    "CREDENTIAL",
    "CREDS",
    "PRIVATE",
    "CERT",
    "PWD",  # MYSQL_PWD, PGPWD (PWD and OLDPWD themselves are always allowed)
    "DSN",  # SENTRY_DSN: a URL whose user part is the key
)

SECRET_VALUE_PATTERN = (
    r"-----BEGIN (?:[A-Z ]+ )?(?:PRIVATE KEY|CERTIFICATE)-----"
    r"|[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@]*:[^\s/@]+@"  # user:password@, also :password@ (redis://:pw@h)
    r"|\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}"
    r"|\bgithub_pat_[A-Za-z0-9_]{36,}"
    r"|\bAIzaSy[A-Za-z0-9_-]{33}"
    r"|\bAKIA[A-Z0-9]{16}"
    r"|\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"
    r"|\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}"
    r"|\bxox[abpr]-[A-Za-z0-9-]+"
)


_COMPILED: list[re.Pattern[str]] = []
#: text one of which every secret-looking value contains (None: always search); a value without any of it
#: is not searched, so a firing whose environment holds no secret never imports :mod:`re`. Written out rather
#: than computed at import (a sixth of this module's import); ``tests/core/test_required_text.py`` checks
#: it is what :func:`hookwise.core.required_text.required_texts` reads from the pattern.
_MARKERS: tuple[str, ...] | None = (
    "-----BEGIN ",
    "://",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "AIzaSy",
    "AKIA",
    "eyJ",
    "sk_",
    "rk_",
    "xox",
)


def _secret_value() -> re.Pattern[str]:
    """Compiled on first use: a firing whose hooks all get the whole environment never needs it."""
    if not _COMPILED:
        import re

        _COMPILED.append(re.compile(SECRET_VALUE_PATTERN))
    return _COMPILED[0]


def looks_secret(value: str) -> bool:
    """Whether ``value`` matches :data:`SECRET_VALUE_PATTERN` (tested for its required text first)."""
    if _MARKERS is not None and not any(m in value for m in _MARKERS):
        return False
    return _secret_value().search(value) is not None


def keep_variable(
    name: str, value: str, allowed: frozenset[str], blocked: frozenset[str], strict: bool
) -> bool:
    """Whether one variable survives sanitization (first matching rule wins)."""
    up = name.upper()
    if up.startswith("GEMINI_CLI_"):
        return True
    if looks_secret(value):
        return False
    if up.startswith("GIT_CONFIG_"):
        return True
    if up in allowed:
        return True
    if up in blocked:
        return False
    if up.startswith(
        "OTEL_"
    ):  # hookwise's own exporter settings are not a project hook's (docs/telemetry.md)
        return False
    if up in ALWAYS_ALLOWED:
        return True
    if up in NEVER_ALLOWED:
        return False
    if strict:
        return False
    return not any(part in up for part in SECRET_NAME_PARTS)


def is_strict(env: Mapping[str, str]) -> bool:
    """CI mode (``GITHUB_SHA`` set or ``SURFACE=Github``): unknown variables are dropped too."""
    return bool(env.get("GITHUB_SHA")) or env.get("SURFACE") == "Github"


def sanitize(
    env: Mapping[str, str],
    allowed: frozenset[str] = frozenset(),
    blocked: frozenset[str] = frozenset(),
    strict: bool | None = None,
) -> dict[str, str]:
    """A copy of ``env`` without secret-looking variables."""
    if strict is None:
        strict = is_strict(env)
    return {k: v for k, v in env.items() if keep_variable(k, v, allowed, blocked, strict)}
