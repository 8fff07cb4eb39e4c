"""An Input that applies keys in the order they arrive, however fast they come.

Textual's Input inserts a printable key in its own key handler, but runs an editing key's binding
(Backspace, Delete, the arrows, Enter…) only once that key event has bubbled up to the app, a few
messages later. When keys arrive in one burst (a fast typist, SSH, a paste of keystrokes) the
printable key that follows overtakes the edit: `Backspace 8 Enter` on "2" inserts the 8 first
("28"), then deletes it, and submits "2". This Input runs its own bindings in its key handler, so
every key takes effect before the next one is read.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class KeyedInput(Input):
    async def on_key(self, event: events.Key) -> None:
        # Textual runs this class's handler before Input's own key handler, and that one only
        # when this one does not prevent the default: a printable key goes on to it.
        bindings = self._bindings.key_to_bindings.get(event.key, ())
        if bindings and not event.is_printable:
            event.stop()
            event.prevent_default()
            self._restart_blink()
            await self.run_action(bindings[0].action)
