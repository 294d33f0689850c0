#!/usr/bin/env bash
# Plain stdout of a SessionStart hook becomes context in Claude Code.
src=$(jq -r '.source')
echo "Project conventions: run the tests with make test (session source: $src)."
