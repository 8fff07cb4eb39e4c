"""Low card at the table: what its one deal is called (the presenter's `round_name`)."""

from __future__ import annotations

from fairdeal.p2p.table.core.presenter import Presenter
from lowcard.game import LowCardState


class LowCardPresenter(Presenter[LowCardState]):
    round_name = "deal"


PRESENTER = LowCardPresenter()
