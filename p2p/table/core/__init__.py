"""The table's sans-IO core: the driver that wires small machines, the request server,
setup, shares and give-aways."""
