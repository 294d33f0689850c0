: << 'CMDBLOCK'
@echo off
REM Windows: cmd runs this part and exits before the bash part.
echo {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"from cmd"}}
exit /b 0
CMDBLOCK
# bash: the heredoc above swallowed the cmd part
name="$1"
script="$(dirname "$0")/$name.sh"
exec bash "$script"
