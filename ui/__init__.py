"""fairdeal user interface: the Textual app and the command line."""
