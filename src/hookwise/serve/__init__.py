"""``hookwise serve``: the hook runtime as a long-running local HTTP service (docs/fleet.md).

- :mod:`hookwise.serve.dialects`: one row per agent (``AGENTS``): its request body → a firing, the
  firing's result → the agent's answer.
- :mod:`hookwise.serve.projects`: which project a request belongs to (only under ``--root``), one
  :class:`~hookwise.engine.HookSystem` per project, reloaded when a settings file changes.
- :mod:`hookwise.serve.app`: the transport-free request handler (routes, token, body cap, timeouts).
- :mod:`hookwise.serve.http`: the standard library's threading HTTP server on TCP or a Unix socket.
- :mod:`hookwise.serve.client`: a small client over a Unix socket (``hookwise hook``'s fast path).
"""
