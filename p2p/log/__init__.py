"""The signed table log: envelopes, the ordered log, keeping it in step, and transcripts on disk."""
