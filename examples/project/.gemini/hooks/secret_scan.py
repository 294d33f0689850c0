#!/usr/bin/env python3
"""BeforeTool guard for write_file and replace: no credentials in the repository.

Looks at the text the tool is about to write (write_file `content`, replace
`new_string`) and denies the call when it contains something that looks like a
credential, naming the kind and the line so the model can fix it.
"""

import json
import re
import sys

PATTERNS = [
    ("AWS access key id", r"\bAKIA[0-9A-Z]{16}\b"),
    ("private key", r"-----BEGIN (RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----"),
    ("GitHub token", r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),
    ("Google API key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
    ("Slack token", r"\bxox[abpr]-[A-Za-z0-9-]{10,}\b"),
    ("Stripe secret key", r"\bsk_live_[A-Za-z0-9]{20,}\b"),
    ("password assignment", r"(?i)\b(password|passwd|secret)\s*[:=]\s*['\"][^'\"]{8,}['\"]"),
]


def main() -> int:
    event = json.load(sys.stdin)
    args = event.get("tool_input", {})
    text = str(args.get("content", "")) + "\n" + str(args.get("new_string", ""))
    path = args.get("file_path", "?")
    for kind, pattern in PATTERNS:
        m = re.search(pattern, text)
        if m:
            line = text.count("\n", 0, m.start()) + 1
            print(
                json.dumps(
                    {
                        "decision": "deny",
                        "reason": f"secret-scan: {path} line {line} looks like a {kind}; "
                        "read it from the environment or a secrets manager instead",
                    }
                )
            )
            return 0
    print(json.dumps({"decision": "allow"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
