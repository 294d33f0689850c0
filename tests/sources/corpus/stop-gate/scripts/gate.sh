#!/usr/bin/env bash
# First Stop: block and ask for a test run; later Stops: allow. State lives next to the project.
state_dir="${CLAUDE_PROJECT_DIR:?}/.stop-gate"
mkdir -p "$state_dir"
count=$(cat "$state_dir/count" 2>/dev/null || echo 0)
count=$((count + 1))
echo "$count" > "$state_dir/count"
if [ "$count" -eq 1 ]; then
  printf '{"decision":"block","reason":"stop-gate: run the tests once more before stopping"}\n'
fi
exit 0
