#!/usr/bin/env bash
# Refuse writes that contain credentials. Exit 2 = block, stderr goes to Claude.
input=$(cat)
tool=$(jq -r '.tool_name' <<<"$input")
path=$(jq -r '.tool_input.file_path // empty' <<<"$input")
content=$(jq -r '.tool_input.content // .tool_input.new_string // ""' <<<"$input")
case "$tool" in Write|Edit|MultiEdit) ;; *) echo "unexpected tool $tool" >&2; exit 1 ;; esac
if [[ "$path" == *.env ]] || grep -Eq 'AKIA[0-9A-Z]{16}|-----BEGIN (RSA|EC) PRIVATE KEY-----' <<<"$content"; then
  echo "Refusing to write a secret into $path" >&2
  exit 2
fi
exit 0
