"""Rulesets: one YAML file per jurisdiction, loaded into pydantic models."""
