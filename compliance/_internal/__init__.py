"""What the public API (:mod:`compliance.api`) and the command line are built from: not for import by users.

Nothing here is promised from one version to the next (docs/api.md).
"""
