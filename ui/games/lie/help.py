"""The Lie's keys and a summary of its rules, each rule with its RULINGS id (T…)."""

HELP_TEXT = """\
# The Lie: keys and rules

## Keys at the table
| key | does |
|---|---|
| **Phase 1** | grab cards, all at once: take one, see its front, then place it |
| ← → ↑ ↓ | move over the cards on the table |
| Enter or space | take the card at the cursor (or click it): its front shows beside your hand |
| ← or a | place your new card at the **left** end of your hand |
| → or d | place it at the **right** end (your first card starts the hand by itself) |
| mouse | click a table card to take it; click the left or right half of your hand to place |
| **Phase 2** | tricks, in turn |
| ← → | choose where your combination starts (or click a card) |
| ↑ ↓ or + − | one card more or fewer (1–3 adjacent, one colour; click a neighbour) |
| Tab | jump to the next legal play (dots mark the cards of legal plays) |
| Enter | play the chosen cards · p pass |
| always | s scores · ? this help · Esc lobby · q quit |
| e | end the table with the result so far, once another seat has left |

## Rules (each id as in RULES.md)
- **T1** 96 cards. A front: a number 1–4 on one of 4 colours. A back: a coloured number on
  black, and exactly one of its colour and number is true of the front, so a back hides one of
  6 fronts (the hint names them).
- **T2** 2–6 players.
- **T3** Phase 1: everyone grabs at once, in real time. Take a card, look at its front (only
  you see it), then add it at the far left or far right of your hand; take the next one only
  after placing it, and never re-order the hand. Others see your backs. A card two players
  reach for goes to the earlier claim. The first with 12 cards placed calls "Done!" and leads
  trick 1.
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
