"""What every host of hooks shares: the reference agent (:mod:`hookwise.agent`) and the framework
adapters (:mod:`hookwise.adapters`) stand side by side on it.

* :mod:`~hookwise.host.llm_format` — the stable hook-facing ``llm_request`` / ``llm_response``
  format, translated to and from a model's own;
* :mod:`~hookwise.host.verdicts` — what each hook answer means for the host (run, ask, deny, stop, a
  replaced request or response), written once.
"""
