"""Larry in plain text: `fairdeal play --plain` (and play without a terminal), prompts on stdin.

It reads stdin line by line, so it also works with piped input (an empty line takes the suggested
default). `TextGame` narrates the events, prompts the human seat and lets the bots play.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fairdeal.engine.bots import Bot
    from fairdeal.engine.larry.actions import Action
    from fairdeal.engine.larry.events import Event
    from fairdeal.engine.larry.view import LarryView
    from fairdeal.engine.oracle import OracleDriver


def run_plain(args: argparse.Namespace) -> int:
    import random

    from fairdeal.engine.larry.options import LarryOptions
    from fairdeal.engine.oracle import OracleDriver
    from fairdeal.engine.selfplay import make_bots

    try:
        options = LarryOptions(short_game=args.short)
        options.validate(args.players)
        if not 0 <= args.seat < args.players:
            raise ValueError(f"--seat must be 0-{args.players - 1}")
        rng = random.Random(args.seed)
        bots = make_bots(args.bot_kind, args.players, rng)
    except ValueError as error:
        raise SystemExit(f"fairdeal play: {error}") from None
    driver = OracleDriver(args.players, options, seed=rng.randrange(1 << 32))
    game = TextGame(driver, args.seat, bots, _read_line, print, args.name or _user_name())
    try:
        return game.play()
    except KeyboardInterrupt:
        print("\nGame abandoned.")
        return 130


def _user_name() -> str:
    """The name the app gives a new player (p2p/identity.py): the account's, else "player"."""
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "player"


def _read_line(prompt: str) -> str | None:
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    return None if line == "" else line.strip()


class InputEnded(Exception):
    pass


CARD_NAMES = {
    "face_up": "[Play face-up]",
    "pick_up_2": "[Pick up 2]",
    "give_away_1": "[Give away 1]",
    "change_direction": "[Change direction]",
    "gloat": "[Gloat]",
}


@dataclass(frozen=True)
class _Entry:
    """One menu line: an action (None: a face-down play of `slot`, the total asked next)."""

    text: str
    action: Action | None
    slot: int | None = None
    gift: bool = False  # give away 1: the card to give is asked next


class TextGame:
    """The terminal game loop: narrates events, prompts the human seat, lets bots play."""

    def __init__(
        self,
        driver: OracleDriver,
        seat: int,
        bots: list[Bot[LarryView, Action]],
        read: Callable[[str], str | None],
        write: Callable[[str], None],
        human_name: str = "Player",
    ) -> None:
        from fairdeal.engine.bots import bot_name

        self.driver = driver
        self.seat = seat
        self.bots = bots
        self.read = read
        self.write = write
        # The app's names: the player's own, and "Ada (bot)", "Ben (bot)"… in seat order
        # (p2p/table/runtime/local.py), not "Seat 1 (heuristic)".
        others = iter(range(driver.players))
        self.names = [
            human_name if s == seat else bot_name(next(others)) for s in range(driver.players)
        ]
        self._told = 0

    # -- the loop ------------------------------------------------------------------------------
    def play(self) -> int:
        from fairdeal.engine.larry.errors import IllegalAction
        from fairdeal.engine.larry.legal import check_action
        from fairdeal.engine.larry.view import view_for

        driver = self.driver
        self.write("Larry! Play cards face-down, announce the new total, doubt the liars.")
        self.write("Cards are shown by value; action cards face-up do what they say.")
        try:
            while not driver.state.over:
                self._narrate()
                state = driver.state
                actor = state.to_act()
                assert actor is not None
                view = view_for(state, driver.knowledge[actor], actor)
                action = self.bots[actor].choose(view) if actor != self.seat else self._ask(view)
                try:
                    check_action(view, action)  # the seat's own cards too (L12), before acting
                    driver.act(actor, action)
                except IllegalAction as error:
                    if actor != self.seat:
                        raise  # a bot's bug: the prompts offer only legal moves to a person
                    self.write(f"Not allowed: {error.reason}")
        except InputEnded:
            self.write("\nInput ended; the game is abandoned.")
            return 1
        self._narrate()
        return 0

    # -- narration ------------------------------------------------------------------------------
    def _narrate(self) -> None:
        events = self.driver.events
        while self._told < len(events):
            text = self.describe(events[self._told])
            self._told += 1
            if text:
                self.write(text)

    def card(self, face: int) -> str:
        from fairdeal.engine.larry.cards import deck_of

        name = deck_of(self.driver.options)[face].name
        return CARD_NAMES.get(name, name)

    def describe(self, event: Event) -> str:
        """The screens' log line for `event` (ui/games/larry/narrator.py), with what the screen
        shows beside its log: a doubt's pile card by card, the running totals after a hand."""
        from fairdeal.engine.larry import events as ev
        from fairdeal.engine.larry.cards import deck_of
        from fairdeal.ui.games.larry.narrator import event_text, gift_text

        n = self.names
        deck = deck_of(self.driver.options)
        text = event_text(event, n, deck) or ""
        if isinstance(event, ev.CardGiven) and self.seat in (event.seat, event.target):
            face = self.driver.knowledge[self.seat].get(event.slot)  # ours to know (L11)
            return gift_text(event, n, deck[face] if face is not None else None)
        if isinstance(event, ev.HandStarted):
            return "\n" + text  # a blank line between hands
        if isinstance(event, ev.DoubtResolved):
            cards = ", ".join(self.card(face) for face in event.cards)
            return f"{text}\n  The pile: {cards}."
        if isinstance(event, ev.HandScored):
            totals = ", ".join(f"{n[s]} {total:+d}" for s, total in enumerate(event.totals))
            return f"{text} Totals: {totals}."
        return text

    # -- prompting ------------------------------------------------------------------------------
    def _line(self, prompt: str) -> str:
        line = self.read(prompt)
        if line is None:
            raise InputEnded
        return line

    def _status(self, view: LarryView) -> None:
        way = "clockwise" if view.direction == 1 else "counter-clockwise"
        counts = ", ".join(
            f"{self.names[s]}: {size}" for s, size in enumerate(view.hand_sizes) if s != self.seat
        )
        shown = [self.card(face) for _, face in view.pile if face is not None]
        self.write(
            f"\nLimit {view.limit} ({way}). Announced total: {view.announced}. "
            f"Pile: {view.pile_size} card(s)"
            + (f", face-up/yours: {', '.join(shown)}" if shown else "")
            + f". Pick-up pile: {view.pickup_count}."
        )
        self.write(f"Cards held: {counts}")
        if view.obligated[self.seat]:
            self.write("A face-up card lies before you: your next card must be played face-up.")
        if view.out_seat is not None:
            self.write(f"{self.names[view.out_seat]} went out. Doubt, or accept?")
        hand = ", ".join(sorted(self.card(face) for _, face in view.hand if face is not None))
        self.write(f"Your hand: {hand}")

    def _menu(self, view: LarryView) -> list[_Entry]:
        """The legal actions, with face-down plays and gifts asked for in a second step."""
        from fairdeal.engine.larry.actions import PlayFaceUp
        from fairdeal.engine.larry.legal import (
            accept_actions,
            doubt_actions,
            face_down_actions,
            face_up_actions,
        )

        entries: list[_Entry] = []
        for action in doubt_actions(view):
            last = self.names[view.last_player] if view.last_player is not None else "the"
            entries.append(_Entry(f"doubt {last}'s total", action))
        for action in accept_actions(view):
            entries.append(_Entry("accept (do not doubt)", action))
        if face_down_actions(view):
            seen: set[str] = set()
            for slot, face in sorted(view.hand, key=lambda entry: entry[1] or 0):
                if face is not None and self.card(face) not in seen:
                    entries.append(_Entry(f"play {self.card(face)} face-down", None, slot))
                    seen.add(self.card(face))
        hand = dict(view.hand)
        offered: set[str] = set()
        for action in face_up_actions(view):
            assert isinstance(action, PlayFaceUp)
            face = hand[action.slot]
            text = f"play {self.card(face) if face is not None else '?'} face-up"
            if action.target is not None:
                text += f" at {self.names[action.target]}"
            if action.give is not None:  # one entry per target; the gift is asked next
                text += " (you choose the card to give)"
            if text in offered:  # two cards of a kind make the same move: offer it once
                continue
            offered.add(text)
            entries.append(_Entry(text, action, gift=action.give is not None))
        return entries

    def _ask(self, view: LarryView) -> Action:
        from dataclasses import replace

        from fairdeal.engine.larry.actions import PlayFaceDown, PlayFaceUp
        from fairdeal.engine.larry.cards import deck_of

        self._status(view)
        entries = self._menu(view)
        for number, entry in enumerate(entries, 1):
            self.write(f"  [{number}] {entry.text}")
        entry = entries[self._number(f"Your choice [1-{len(entries)}, default 1]: ", entries) - 1]
        if entry.gift:
            assert isinstance(entry.action, PlayFaceUp)
            played = entry.action.slot
            choices: dict[str, int] = {}  # two cards of a kind are one choice: name -> a slot
            for slot, face in view.hand:
                name = self.card(face) if face is not None else f"? (slot {slot})"
                if slot != played and name not in choices:
                    choices[name] = slot
            others = list(choices.items())
            for number, (name, _) in enumerate(others, 1):
                self.write(f"  [{number}] give {name}")
            pick = self._number(f"Which card to give [1-{len(others)}, default 1]: ", others)
            return self._with_larry(replace(entry.action, give=others[pick - 1][1]), view)
        if entry.action is not None:
            return self._with_larry(entry.action, view)
        assert entry.slot is not None
        face = dict(view.hand)[entry.slot]
        value = deck_of(view.options)[face].value if face is not None else 0
        suggestion = min(view.announced + value, view.limit)
        while True:
            text = self._line(
                f"Announce the new total (at most {view.limit}) [default {suggestion}]: "
            )
            if not text:
                announce = suggestion
                break
            try:
                announce = int(text)
                break
            except ValueError:
                self.write("Please type a whole number.")
        return self._with_larry(PlayFaceDown(entry.slot, announce), view)

    def _number(self, prompt: str, choices: list[Any]) -> int:
        while True:
            answer = self._line(prompt) or "1"
            if answer.isdigit() and 1 <= int(answer) <= len(choices):
                return int(answer)
            self.write("Please type one of the numbers shown.")

    def _with_larry(self, action: Action, view: LarryView) -> Action:
        """L15: a play that leaves one card needs the call; the human must make it."""
        from dataclasses import replace

        from fairdeal.engine.larry.actions import PlayFaceDown, PlayFaceUp

        if not isinstance(action, PlayFaceDown | PlayFaceUp):
            return action
        left = len(view.hand) - 1 - (1 if isinstance(action, PlayFaceUp) and action.give else 0)
        if left != 1:
            return replace(action, larry=False)
        answer = self._line("You will hold one card. Call it? [type larry, default larry]: ")
        return replace(action, larry=answer.lower() in ("", "larry", "y", "yes"))
