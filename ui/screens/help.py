"""Keys and a summary of the rules of each game, each rule with its RULINGS id (L…, T…)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

HELP_TEXT = """\
# Larry: keys and rules

## Keys at the table
| key | does |
|---|---|
| ← → or 1–9 | select a card of your hand (or click it) |
| Enter | play the selected card **face-down**, announcing a total |
| u | play the selected card **face-up** (action cards; numbers under L12) |
| d | **doubt** the announced total |
| a | do not doubt a player who went out (L16) |
| l | arm the **"Larry!"** call for your next play (L15; only when a play can leave 1 card) |
| e | end the table with the result so far, once another seat has left |
| s | score table · ? this help · Esc lobby · q or Ctrl+C quit |
| leaving | at a networked game in progress, q, Ctrl+C and Esc ask first; the others are told |
| doubt view | yours: space next card · Enter all, then close · Esc close now |
| | other seats': turns over by itself, closes on your turn (the log has it) |

## Rules (ids from RULINGS.md)
- **L1** 54 cards: numbers 7…−2, 13 action cards, 3 gloat cards. **L2** Every card carries
  one Larry symbol (a minus point left in hand). **L3** 2–8 players, 12 to 5 cards each.
- **L4** Limit 7, clockwise; *change direction* flips it: direction reverses, limit 7↔5.
- **L5** The first seat starts hand 1; later hands, the player with the most minus points.
- **L6** On your turn doubt, or play one card: face-down announcing any total from −99 up to
  the limit (lying is the game), or an action card face-up. Playing makes you the last player,
  responsible for the whole pile.
- **L7** A round starts with an empty pile at 0; an empty pile cannot be doubted.
- **L8** An odd number of gloat cards in the pile makes any announced total right.
- **L9** Doubt: the pile is turned over. Right total: the doubter picks up 2; wrong: the last
  player picks up 2. Whoever picked up starts the next round.
- **L10** *Pick up 2*: another player picks up 2. **L11** *Give away 1*: give a card of your
  choice to another player (not with fewer than 3 cards in hand).
- **L12** *Play face-up*: that player's next own card must go face-up; a number adds its value,
  and going over the limit costs 2 cards.
- **L13** *Change direction* (see L4). **L14** An empty pick-up pile is refilled from the
  discard pile, shuffled fairly.
- **L15** A play that leaves you with exactly 1 card needs the "Larry!" call, or you pick up 2.
- **L16** After you play your last card the next player may doubt; a wrong total costs you 2
  cards and play goes on. **L17** Going out scores +2; everyone else loses their Larry symbols.
- **L18** A full game is 3 hands, highest total wins; a short game is 1 hand.

## Fair play
At a networked table every face-down card is dealt and revealed with proofs; the doubt view
shows ✓ for a proved card and ✗ for a failed proof. At a local table against bots there is
nothing to prove (–).
"""


LIE_HELP_TEXT = """\
# The Lie: keys and rules

## Keys at the table
| key | does |
|---|---|
| **Phase 1** | grab cards, all at once |
| ← → ↑ ↓ | move over the cards on the table |
| a | take the card at the cursor to the **left** end of your hand |
| d or Enter | take it to the **right** end |
| mouse | click a card: left end · right-click or shift-click: right end |
| **Phase 2** | tricks, in turn |
| ← → | choose where your combination starts (or click a card) |
| ↑ ↓ or + − | one card more or fewer (1–3 adjacent, one colour; click a neighbour) |
| Tab | jump to the next legal play (dots mark the cards of legal plays) |
| Enter | play the chosen cards · p pass |
| always | s scores · ? this help · Esc lobby · q quit |
| e | end the table with the result so far, once another seat has left |

## Rules (ids from RULINGS.md)
- **T1** 96 cards. A front: a number 1–4 on one of 4 colours. A back: a coloured number on
  black, and exactly one of its colour and number is true of the front, so a back hides one of
  6 fronts (the hint names them).
- **T2** 2–6 players.
- **T3** Phase 1: everyone grabs at once, in real time. Add each card at the far left or far
  right of your hand; never re-order it. Others see your backs. A card two players reach for
  goes to the earlier claim. The first with 12 cards calls "Done!" and leads trick 1.
- **T4** The cards left over become the face-down prize pile.
- **T5** Tricks, clockwise: the leader plays 1 card or 2–3 adjacent cards of one colour, read
  left to right as a number (4 then 1 is 41). Everyone else gets one go: pass, or play 1–3
  adjacent cards of the lead colour forming a greater number. The greatest number wins and
  leads next.
- **T6** A player with no cards left is out; going out earlier places higher. If the winner
  is out, the player with the most cards leads (ties: the first clockwise after the last out).
- **T7** With 4–6 players the round ends when 3 are out; with 2–3 when one is left.
- **T8** Prizes from the pile: 1st 3 cards, 2nd 2 (1 with two players), 3rd 1, unseen even
  by their owner until the game ends.
- **T9** 3 rounds; each new round reshuffles every card but the prizes won.
- **T10** Score: the sum of the fronts of your prize cards. Ties: the most prize cards; still
  tied, the win is shared.

## Options
- **T9** rounds, 1–3 (3 by the rules); **T3** hand size, 1–12 (12 by the rules). A short game
  is one round. Every seat agrees to them in the lobby before the first card.

## Fair play
At a local table against bots the oracle knows the deck: there is nothing to prove, and
fronts carry no mark. With friends (the lobby's `n`, *Where: on the network*, or `fairdeal host
lie`) every card is shuffled, dealt and revealed by the fair-deck protocol: the status line
shows each seat keying and shuffling; a card you claim shows ·· until the others' shares bring
its front (✓ proved); every play in a trick is marked ✓ (proved) or ✗ (a failed proof, which
stops the game and names the seat on the fault screen); the prizes are turned over with their
proofs at the end. A seat that is waited on, offline or gone is marked WAIT, OFFLINE or LEFT
(the hint line says what a waited-on seat owes: "Waiting for Ben: shares for the play");
e ends a table a seat has left, and Esc or q at a game in progress asks first and tells the
others.
"""

HELP_TEXTS = {"larry": HELP_TEXT, "lie": LIE_HELP_TEXT}


class HelpScreen(ModalScreen[None]):
    """The rules and the table's keys; `first` (the lobby's keys, say) goes before them."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,f1", "close", "Close")]

    def __init__(self, game: str | None = None, first: str = "") -> None:
        """The help of `game` ("larry", "lie"), or of every game (the lobby's help); `first`
        (the lobby's keys, say) goes before it."""
        super().__init__()
        self.game = game
        self.first = first

    def compose(self) -> ComposeResult:
        texts = [HELP_TEXTS[self.game]] if self.game else list(HELP_TEXTS.values())
        with VerticalScroll(classes="dialog wide tall"):
            yield Markdown("\n".join([self.first, *texts] if self.first else texts))
        yield Footer(compact=True, show_command_palette=False)

    def action_close(self) -> None:
        self.dismiss(None)
