// Reads Claude's PreToolUse input on stdin; denies `rm -rf` with a permissionDecision.
const fs = require("fs");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const command = (input.tool_input && input.tool_input.command) || "";
if (input.hook_event_name !== "PreToolUse" || input.tool_name !== "Bash") {
  process.stderr.write(`unexpected input: ${input.hook_event_name} ${input.tool_name}\n`);
  process.exit(1);
}
if (/\brm\s+-rf\b/.test(command)) {
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: `node-guard: refusing ${command} (plugin root ${process.env.CLAUDE_PLUGIN_ROOT})`,
    },
  }));
}
process.exit(0);
