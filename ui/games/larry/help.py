"""Larry's idea for a newcomer, its keys and a summary of its rules, each with its id (L…)."""

HELP_TEXT = """\
# Larry: keys and rules

## The idea
Each card you play face-down adds to a running total, and **you say the new total**: you may
say any number, but **never more than the limit** (7, or 5 after a change of direction). So when
your card would take the pile over the limit, you must lie. The next player may doubt you: the
pile is turned over, and **the last player answers for the whole pile**, not just their card
(L6, L9). Get rid of your cards first.

## Keys at the table
| key | does |
|---|---|
| ← → or 1–9 | select a card of your hand (or click it) |
| Enter | play the selected card **face-down**, announcing a total |
| u | play the selected card **face-up** (action cards; numbers under L12) |
| d | **doubt** the announced total |
| a | **let go**: do not doubt a player who went out (L16) |
| l | arm the **"Larry!"** call for your next play (L15; only when a play can leave 1 card) |
| e | end the table with the result so far, once another seat has left |
| s | score table · ? this help · Esc lobby · q or Ctrl+C quit |
| leaving | at a networked game in progress, q, Ctrl+C and Esc ask first; the others are told |
| doubt view | yours: space next card · Enter all, then close · Esc close now |
| | other seats': turns over by itself, closes on your turn (the log has it) |

## Rules (each id as in RULES.md)
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
