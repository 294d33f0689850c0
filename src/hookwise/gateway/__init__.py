"""``hookwise mcp``: an MCP proxy that fires hooks around every tool of the server it fronts
(docs/mcp.md).

:mod:`hookwise.gateway.policy` is the pure part (what a firing's result does to a listing, a call, a
result); :mod:`hookwise.gateway.proxy` runs it on the official ``mcp`` SDK (extra
``hookwise[mcp]``).
"""
