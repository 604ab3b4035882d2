"""Reading transcripts: .json, .jsonl and Markdown procedure documents, one coup at a time."""
