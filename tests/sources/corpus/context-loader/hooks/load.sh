#!/usr/bin/env bash
# Emits the plugin's notes as context and counts sessions in the plugin's data directory.
set -e
notes="$(cat "$CLAUDE_PLUGIN_ROOT/notes.md")"
n=$(cat "$CLAUDE_PLUGIN_DATA/sessions" 2>/dev/null || echo 0)
echo $((n + 1)) > "$CLAUDE_PLUGIN_DATA/sessions"
python3 -c 'import json,sys; print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": sys.argv[1]}}))' "$notes"
