"""A club event: Swiss rounds, results from the tables, standings, ratings and deck checks.

An event is a game of its own, in the boardgame.io shape: plain JSON data
(:mod:`companion.event.moves`), pure moves that return a new state, seeded
randomness kept in the state, and a log that replays
(:class:`companion.event.store.EventStore`).  Everything a page, a slip or a
rating shows is computed from that log alone:

* :mod:`~companion.event.swiss` — the pairings of a round (networkx's maximum
  weight matching), each with the sentence that explains it;
* :mod:`~companion.event.standings` — match points and the tiebreakers of the
  Magic Tournament Rules' Appendix C;
* :mod:`~companion.event.ratings` — openskill ratings per player per game,
  across events, with their history;
* :mod:`~companion.event.deckcheck` — a deck passed over a pad, compared with
  its registered list;
* :mod:`~companion.event.pages` and :mod:`~companion.event.slips` — HTML pages
  (a TV page, a player's page) and printable PDFs, as functions of the state,
  so any server can mount them.

Nothing here imports kivy, hardware or ui.  See docs/event.md.
"""

#: how a table's match is played (the event's ``format``), in the organiser's words
FORMATS = {"bo1": "single games", "bo3": "best of three"}
#: when the registered deck lists are shown to everyone (the event's ``decks_public``)
DECKS_PUBLIC = ("never", "after", "always")
