"""`fairdeal report`: one self-contained HTML page per table, saying what the audit proved.

The page is built from the replay's frames (p2p.table.tools.replay: the audit's own pass, one
reading of the log) by the shared sections here (`build.py`: the verdict, the table, the timeline,
the doubts, the scores) and, for what only one game has, the part its app record names
(ui/screen_game.py, `report_part`). `page.py` is the skeleton every page shares: inline CSS, no
external resource, readable without script.
"""
