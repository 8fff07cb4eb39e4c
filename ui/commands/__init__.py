"""One module per `fairdeal` subcommand, each with `configure(parser)` and `run(args) -> int`."""
