"""baccarat-audit: replay recorded baccarat coups against a jurisdiction's rules."""

__version__ = "0.1.0"
