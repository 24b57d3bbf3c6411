"""Sam's Battle Game (``shared/rules/004_…``).

``RULES`` is the engine (:mod:`.rules`: setup, moves, scoring, the table's zones
and views); :mod:`.playout` is the fast model the solo player searches on.  The
rulebook's public names are re-exported here, so ``from companion.games import
sams; sams.DECK`` keeps working.
"""
from companion.games.sams.rules import *  # noqa: F401,F403  (the rulebook's public names)
from companion.games.sams.rules import RULES, SamsRules  # noqa: F401
