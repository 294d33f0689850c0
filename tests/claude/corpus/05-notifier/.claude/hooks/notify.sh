#!/usr/bin/env bash
# Desktop notification stand-in: notify-send / osascript would go here.
msg=$(jq -r '"\(.notification_type): \(.message)"')
echo "$msg" >> "$CLAUDE_PROJECT_DIR/.claude/notifications.log"
