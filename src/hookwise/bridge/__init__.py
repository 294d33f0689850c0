"""The agent bridge: hookwise as the hook runtime inside coding agents (docs/agents.md).

``hookwise hook <agent> [event]`` reads an agent's hook call on stdin, fires the project's hooks and
answers in that agent's format; ``hookwise install <agent>`` writes the agent's hook configuration.
:func:`hookwise.bridge.core.answer` is the entry point (no process I/O);
:data:`hookwise.bridge.agents.AGENTS` is the table of agents.
"""
