"""Ratings across events: openskill's Plackett–Luce model, per player per game, with every step kept.

*Why openskill and not Glicko-2.*  Both are Bayesian skill ratings with a mean
and an uncertainty, so a newcomer's rating moves fast and a regular's slowly.
Glicko-2 is specified for *rating periods* (results batched, then a volatility
step per period; Glickman's own description, glicko.net/glicko/glicko2.pdf,
says it works best with an average of at least 10–15 games per player in a
period), which a club night of three to seven rounds, with players who come
now and then, does not fit; openskill (Weng & Lin's online ranking
model, the open-licence relative of TrueSkill) updates after every game, needs
no period or volatility constant, and its Python package is maintained and
pure Python.  Its ``ordinal`` (μ − 3σ) is the number shown: it starts at 0 and
rises as the companion becomes sure of a player.

A player across events is their name, compared case-insensitively (a club
knows its players by name; two players of the same name enter as "Ann B." and
"Ann K.").  Every *game* counts, not every match: a 2–1 is three games, rated
in the order win, loss, win (the tables' records give the real order once
part 1's hub stores them; the counts alone do not).  A drawn game is a tie.
Byes are not games and change no rating.  Only results are used — nothing
about the cards a player held.
"""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from companion.event import standings


@dataclass(frozen=True)
class GameResult:
    """One game between two players: ``score`` is a's: 1 won, 0 lost, 0.5 drawn."""
    game: str
    a: str
    b: str
    score: float
    event: str
    round: int
    at: float | None = None


def player_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def games_of_event(state: dict) -> list[GameResult]:
    """Every game of every settled match of the event, in round and table order."""
    names = {p["id"]: p["name"] for p in state["players"]}
    started = {r["number"]: r.get("started_at") for r in state["rounds"]}
    out = []
    for m in standings.settled_matches(state):
        if m.b is None:
            continue
        wins_a, wins_b, draws = m.games
        order = []
        while wins_a or wins_b:            # interleaved, the match's winner first
            first_a = wins_a >= wins_b
            for side in ((1.0, 0.0) if first_a else (0.0, 1.0)):
                if side == 1.0 and wins_a:
                    order.append(1.0)
                    wins_a -= 1
                elif side == 0.0 and wins_b:
                    order.append(0.0)
                    wins_b -= 1
        order += [0.5] * draws
        out += [GameResult(state["game"], names[m.a], names[m.b], s, state["name"], m.round, started.get(m.round))
                for s in order]
    return out


def rate(games: list[GameResult]) -> dict[str, dict[str, dict]]:
    """game → player key → {name, mu, sigma, rating (ordinal), games, history: [...]}, in the order given."""
    model = PlackettLuce()
    table: dict[str, dict[str, dict]] = {}
    for g in games:
        board = table.setdefault(g.game, {})
        sides = []
        for name in (g.a, g.b):
            entry = board.setdefault(player_key(name), {"name": name, "mu": model.mu, "sigma": model.sigma,
                                                         "games": 0, "history": []})
            sides.append(entry)
        ra, rb = (model.create_rating([e["mu"], e["sigma"]]) for e in sides)
        ranks = [1, 1] if g.score == 0.5 else ([1, 2] if g.score == 1.0 else [2, 1])
        [[na], [nb]] = model.rate([[ra], [rb]], ranks=ranks)
        for entry, new, other, score in ((sides[0], na, g.b, g.score), (sides[1], nb, g.a, 1 - g.score)):
            entry.update(mu=new.mu, sigma=new.sigma, games=entry["games"] + 1)
            entry["history"].append({"event": g.event, "round": g.round, "at": g.at, "opponent": other,
                                     "score": score, "rating": round(new.ordinal(), 2)})
    for board in table.values():
        for entry in board.values():
            entry["rating"] = round(entry["mu"] - 3 * entry["sigma"], 2)
    return table


def rate_events(states: list[dict]) -> dict[str, dict[str, dict]]:
    """The ratings after every game of ``states`` (events in the order they were held)."""
    return rate([g for s in states for g in games_of_event(s)])
