"""Standings: match points and the customary tiebreakers, recomputed from the stored results alone.

The definitions are those of Wizards of the Coast's *Magic: The Gathering
Tournament Rules*, Appendix C "Tiebreaker Explanation" (quoted in
docs/event.md), which most card-game events use:

* **match points**: 3 for a match won, 1 for a draw, 0 for a loss; a bye is
  a match won;
* **game points**: 3 for a game won, 1 for a game drawn; a bye is a 2–0 win
  (1–0 in single-game events);
* **match-win %** (MW%): match points ÷ 3 × rounds played, byes included, at
  least 0.33; **game-win %** (GW%): game points ÷ 3 × games played, at least
  0.33;
* **opponents' match-win %** (OMW%) and **opponents' game-win %** (OGW%): the
  average of each opponent's MW% (GW%), *ignoring the rounds in which the
  player had a bye*.  A player who has met nobody yet has the floor, 0.33.

Ranking: match points, then OMW%, GW%, OGW%; a tie after all four is broken
by a coin seeded from the event's seed (never by name or registration order).
Only settled results count — confirmed by both players, entered or corrected
by the organiser, or a bye; a reported, unconfirmed or disputed one does not.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

FLOOR = Fraction(33, 100)
SETTLED = ("confirmed", "final")


@dataclass(frozen=True)
class Match:
    """One settled match: ``games`` = (wins of a, wins of b, draws); ``b`` None is a bye."""
    round: int
    a: str
    b: str | None
    games: tuple[int, int, int]


def settled_matches(state: dict) -> list[Match]:
    """Every match of the event whose result counts, in round and table order."""
    out = []
    for rnd in state["rounds"]:
        for p in rnd["pairings"]:
            result = p.get("result")
            if result and result["status"] in SETTLED:
                out.append(Match(rnd["number"], p["a"], p["b"], tuple(result["games"])))
    return out


@dataclass
class Row:
    id: str
    name: str
    points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    game_points: int = 0
    games_played: int = 0
    opponents: tuple = ()
    rank: int = 0
    dropped: bool = False
    # the four percentages as integers over ``scale`` (the opponents' ones over ``scale`` × ``spread``):
    # exact, and compared as plain integers when ranking
    scale: int = 100
    spread: int = 1
    mw_n: int = 33
    gw_n: int = 33
    omw_n: int = 33
    ogw_n: int = 33

    @property
    def mw(self) -> Fraction:
        return Fraction(self.mw_n, self.scale)

    @property
    def gw(self) -> Fraction:
        return Fraction(self.gw_n, self.scale)

    @property
    def omw(self) -> Fraction:
        return Fraction(self.omw_n, self.scale * self.spread)

    @property
    def ogw(self) -> Fraction:
        return Fraction(self.ogw_n, self.scale * self.spread)

    @property
    def record(self) -> str:
        return f"{self.wins}–{self.losses}–{self.draws}"

    def as_dict(self) -> dict:
        return {"rank": self.rank, "id": self.id, "name": self.name, "points": self.points,
                "record": self.record, "byes": self.byes, "dropped": self.dropped,
                "omw": round(self.omw_n / (self.scale * self.spread), 4), "gw": round(self.gw_n / self.scale, 4),
                "ogw": round(self.ogw_n / (self.scale * self.spread), 4)}


def compute(state: dict) -> list[Row]:
    """The standings of the event from its settled results (see the module's docstring), best first."""
    rows = {p["id"]: Row(p["id"], p["name"], dropped=p.get("dropped") is not None) for p in state["players"]}
    played: dict[str, int] = {pid: 0 for pid in rows}
    opponents: dict[str, list[str]] = {pid: [] for pid in rows}
    for m in settled_matches(state):
        ga, gb, gd = m.games
        sides = [(m.a, ga, gb)] + ([(m.b, gb, ga)] if m.b is not None else [])
        for pid, won, lost in sides:
            row = rows[pid]
            played[pid] += 1
            row.game_points += 3 * won + gd
            row.games_played += won + lost + gd
            if won > lost:
                row.wins += 1
                row.points += 3
            elif won < lost:
                row.losses += 1
            else:
                row.draws += 1
                row.points += 1
        if m.b is None:
            rows[m.a].byes += 1
        else:
            opponents[m.a].append(m.b)
            opponents[m.b].append(m.a)
    # Exact and fast: every percentage as an integer over one common denominator ``scale`` (a multiple
    # of 100 and of every 3 × rounds or games played); an average over k opponents is multiplied by
    # spread / k, spread being a multiple of every k, so that all compare as integers.
    dens = {100} | {3 * n for n in played.values() if n} | {3 * r.games_played for r in rows.values() if r.games_played}
    scale = math.lcm(*dens)
    floor = 33 * scale // 100
    mw = {pid: max(floor, rows[pid].points * scale // (3 * n)) if n else floor for pid, n in played.items()}
    gw = {pid: max(floor, r.game_points * scale // (3 * r.games_played)) if r.games_played else floor
          for pid, r in rows.items()}
    spread = math.lcm(*({1} | {len(o) for o in opponents.values() if o}))
    for pid, row in rows.items():
        opp = opponents[pid]
        row.opponents = tuple(opp)
        row.scale, row.spread, row.mw_n, row.gw_n = scale, spread, mw[pid], gw[pid]
        if opp:
            row.omw_n = sum(mw[o] for o in opp) * (spread // len(opp))
            row.ogw_n = sum(gw[o] for o in opp) * (spread // len(opp))
        else:
            row.omw_n = row.ogw_n = floor * spread
    coin = random.Random(f"standings:{state['seed']}")
    coins = {pid: coin.random() for pid in sorted(rows)}
    ordered = sorted(rows.values(), key=lambda r: (-r.points, -r.omw_n, -r.gw_n, -r.ogw_n, coins[r.id]))
    for i, row in enumerate(ordered):
        row.rank = i + 1
    return ordered
