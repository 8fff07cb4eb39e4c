"""The fair deck: mental-poker shuffle, deal and reveal with zero-knowledge proofs."""
