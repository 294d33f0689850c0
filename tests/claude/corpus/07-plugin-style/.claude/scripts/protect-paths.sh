#!/usr/bin/env bash
# Reads the plugin root from its environment, as plugin scripts do.
source "${CLAUDE_PLUGIN_ROOT}/scripts/lib/common.sh" || exit 1
path=$(jq -r '.tool_input.file_path // ""')
if [[ "$path" =~ $protected_re ]]; then
  jq -n --arg p "$path" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: ("protected path: " + $p)}}'
fi
