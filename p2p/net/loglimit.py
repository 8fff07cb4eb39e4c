"""Log lines about strangers' bad input, rate-limited: a flood of hostile connections must not
fill the disk with log lines (one per connection was 7 MB for a flood).

`LogLimiter` lets `burst` lines through per `window` seconds and counts the rest; the first line
after a window in which some were dropped says how many.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

DEFAULT_BURST = 10
DEFAULT_WINDOW_S = 60.0


class LogLimiter:
    def __init__(
        self,
        logger: logging.Logger,
        *,
        burst: int = DEFAULT_BURST,
        window: float = DEFAULT_WINDOW_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._burst = burst
        self._window = window
        self._clock = clock
        self._started = clock()
        self._logged = 0
        self.suppressed = 0  # dropped in the current window

    def warning(self, message: str, *args: object) -> None:
        now = self._clock()
        if now - self._started >= self._window:
            if self.suppressed:
                self._logger.warning(
                    "%d more such line(s) in the last %.0f s were not logged",
                    self.suppressed,
                    now - self._started,
                )
            self._started, self._logged, self.suppressed = now, 0, 0
        if self._logged < self._burst:
            self._logged += 1
            self._logger.warning(message, *args)
        else:
            self.suppressed += 1
