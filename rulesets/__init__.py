"""The bundled rulesets, shipped as package data (see pyproject.toml)."""
