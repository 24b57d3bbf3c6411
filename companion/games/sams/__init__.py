"""Sam's Battle Game (``shared/rules/004_…``).

``RULES`` is the engine (:mod:`.rules`: setup, moves, scoring); :mod:`.cards` the
36 cards, the lanes and whose turn it is; :mod:`.table` the zones and what a card
on a pad means; :mod:`.view` what each seat sees; :mod:`.solo` the companion's own
seat and :mod:`.playout` the fast model its search plays on.  The rulebook's
public names are re-exported here, so ``from companion.games import sams;
sams.DECK`` keeps working.
"""
from companion.games.sams.rules import *  # noqa: F401,F403  (the rulebook's public names)
from companion.games.sams.rules import RULES, SamsRules  # noqa: F401
