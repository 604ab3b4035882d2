"""Renderers: they format a run's results; they compute nothing."""
