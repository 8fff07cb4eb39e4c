"""Finding and gathering a table: mDNS discovery, the lobby's machines and messages, the roster."""
