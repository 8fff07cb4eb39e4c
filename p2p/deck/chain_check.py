"""The batched check of one list's shuffle chain, multiplied out as its bases become final.

A list's shuffles arrive in seat order. Each other seat's proof is weighed (p2p/deck/batch.py) as
soon as it arrives: its own bases (c, ĉ, t, t̂) are multiplied out at once; a deck's A and B are
multiplied once every checked proof that uses it is in (seat k's output deck is seat k+1's
input, so most decks wait for the next shuffle); G, Y and the Pedersen generators, common to the
whole chain, at the end. `result`, called with the list's last shuffle, adds the parts up and,
if the sum is not the identity, checks each proof alone in seat order, so the first bad
shuffle's author is blamed exactly as without batching.

`run` decides where the multiplications happen: on an executor's worker (a seat at a table) or
at once (the auditor, an observer). Work on the worker may wait for earlier work only: a deck's
part waits for the weighing of the proofs that use it, submitted before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .batch import (
    ProofTerms,
    Weight,
    deck_sum,
    fresh_weight,
    holds,
    shared_sum,
    verify_each,
    weigh,
)
from .errors import ProofError
from .group import GroupError, Point
from .masking import MaskedCard
from .shuffle import ShuffleProof, ShuffleStatement

T = TypeVar("T")
Deck = tuple[MaskedCard, ...]


def run_on(parallel: Executor | None) -> Callable[..., Future[Any]]:
    """Submit to `parallel`, or without one run at once into a finished future."""
    if parallel is not None:
        return parallel.submit

    def now(fn: Callable[..., T], /, *args: Any) -> Future[T]:
        done: Future[T] = Future()
        try:
            done.set_result(fn(*args))
        except Exception as exc:  # kept for `result`, as an executor would
            done.set_exception(exc)
        return done

    return now


def _deck_part(
    deck: Deck, before: Future[ProofTerms] | None, after: Future[ProofTerms] | None
) -> Point:
    """A deck's part of the sum: as the output of the proof `before`, the input of `after`."""
    uses = []
    if before is not None:
        uses.append(before.result().outputs)
    if after is not None:
        uses.append(after.result().inputs)
    return deck_sum(deck, *uses)


@dataclass(slots=True)
class _SoFar:
    """What one check holds so far; a copy shares the running work, not the lists."""

    pairs: list[tuple[ShuffleStatement, ShuffleProof]] = field(default_factory=list)
    terms: list[Future[ProofTerms]] = field(default_factory=list)
    decks: list[Future[Point]] = field(default_factory=list)
    # The last checked proof's output deck, until the next shuffle says who else uses it.
    open: tuple[Deck, Future[ProofTerms]] | None = None

    def copy(self) -> _SoFar:
        return _SoFar(list(self.pairs), list(self.terms), list(self.decks), self.open)


class ChainCheck:
    """One list's batched check (see the module docstring)."""

    def __init__(
        self,
        run: Callable[..., Future[Any]],
        weight: Weight = fresh_weight,
        so_far: _SoFar | None = None,
    ):
        self._run = run
        self._weight = weight
        self._so_far = _SoFar() if so_far is None else so_far

    def copy(self) -> ChainCheck:
        """The same check so far (its running work shared) that can go on on its own."""
        return ChainCheck(self._run, self._weight, self._so_far.copy())

    def add(self, statement: ShuffleStatement, proof: ShuffleProof) -> None:
        """A shuffle to check: weigh it now; its input deck is final (the previous shuffle's
        output, if that one is checked too)."""
        terms: Future[ProofTerms] = self._run(weigh, statement, proof, self._weight)
        before = None
        if self._so_far.open is not None and self._so_far.open[0] == statement.inputs:
            before = self._so_far.open[1]
            self._so_far.open = None
        self._close_open()
        self._so_far.decks.append(self._run(_deck_part, statement.inputs, before, terms))
        self._so_far.pairs.append((statement, proof))
        self._so_far.terms.append(terms)
        self._so_far.open = (statement.outputs, terms)

    def skip(self) -> None:
        """A shuffle not checked (this seat's own): the previous output deck has no other use."""
        self._close_open()

    def _close_open(self) -> None:
        if self._so_far.open is not None:
            deck, terms = self._so_far.open
            self._so_far.decks.append(self._run(_deck_part, deck, terms, None))
            self._so_far.open = None

    def result(self) -> None:
        """Wait for every part; if they do not add up to the identity, check each proof alone
        in seat order and raise the first failing author's `ProofError`."""
        self._close_open()
        try:
            terms = [future.result() for future in self._so_far.terms]
            parts = [t.own for t in terms] + [future.result() for future in self._so_far.decks]
            ok = holds([*parts, shared_sum(terms)])
        except (GroupError, ProofError):
            ok = False
        if not ok:
            verify_each(self._so_far.pairs)


def verify_batch(
    pairs: Iterable[tuple[ShuffleStatement, ShuffleProof]], weight: Weight = fresh_weight
) -> None:
    """Check the shuffles of `pairs` (a chain in seat order, or several) in one batch, at once;
    if it fails, check them one by one in that order and blame the first that fails."""
    check = ChainCheck(run_on(None), weight)
    for statement, proof in pairs:
        check.add(statement, proof)
    check.result()
