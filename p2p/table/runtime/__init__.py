"""The async runtime of a networked seat: the peer, its pump, recovery, silence
watch and departures."""
