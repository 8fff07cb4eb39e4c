"""fairdeal's rules engine: pure, deterministic, sans-IO (no I/O, no crypto, no asyncio).

Two games sit side by side, each in its own package with the same small surface:
`fairdeal.engine.larry` and `fairdeal.engine.lie`. The registry `fairdeal.engine.games`
(`get_game("larry" | "lie")`) returns a game's `Game` (fairdeal.engine.game): `new_game`, `apply`,
`view_for`, `legal_actions`, `check_action`, `actors`, options parsing, codec, bots.

What the games share lives here:

- `Step` (new state, events, requests), the requests a driver serves (`NewDeck`, `Deal`,
  `Transfer`, `Reshuffle`, `Reveal`, and for public backs `NewGroupedDeck`, `GroupedReshuffle`,
  `Arrange`: in `fairdeal.engine.requests`) and the driver's resolutions (`Ack`, `Faces`,
  `Arrangement`), answered in order by `apply(state, DRIVER, resolution)`;
- the base typed errors (`IllegalAction` and `NotYourTurn`, `GameIsOver`, `WaitingForDriver`,
  `NoSuchSeat`, `CardNotInHand`, `BadResolution`, `UnknownAction`), each with `.seat` and `.reason`;
- the shared `Violation` event (a provable cheat by a seat) and the oracle's `Shuffled` event;
- plain-data codec helpers (`fairdeal.engine.codec`), the oracle driver (`OracleDriver`), the
  scenario runner (`fairdeal.engine.scenario`), self-play (`fairdeal.engine.selfplay`) and the bot
  interface (`fairdeal.engine.bots`).
"""

from fairdeal.engine import errors as _errors
from fairdeal.engine.errors import *  # noqa: F403 (the shared errors: see __all__)
from fairdeal.engine.events import Shuffled, Violation
from fairdeal.engine.game import Game, Knowledge
from fairdeal.engine.games import get_game
from fairdeal.engine.oracle import OracleDriver
from fairdeal.engine.requests import Ack, Arrangement, Faces, Resolution
from fairdeal.engine.step import Step

__all__ = [
    "Ack",
    "Arrangement",
    "Faces",
    "Game",
    "Knowledge",
    "OracleDriver",
    "Resolution",
    "Shuffled",
    "Step",
    "Violation",
    "get_game",
]
__all__ += _errors.__all__
