"""Transcripts: the recorded coups of one table (spec: transcript-v1)."""
