#!/usr/bin/env bash
# Adds the prompt's word count as context for the model.
input="$(cat)"
words=$(printf '%s' "$input" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["prompt"].split()))')
printf '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"polyglot: the prompt has %s words"}}\n' "$words"
