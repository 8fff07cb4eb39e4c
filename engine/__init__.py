"""fairdeal rules engine: pure, deterministic, no I/O, no crypto, no asyncio."""
