"""fairdeal peer-to-peer layer: discovery, transport, table log, fair deck, table protocol."""
