"""The solo player's fast model of Lifeforce Battle agrees with the rules engine.

The model is what the search plays out thousands of times a move; if it drifted
from the engine the solo player would be optimising a different game.  Random
games are played on the fast path (the same code the search and
`companion bench engines` use) and then fed, macro move by macro move, through
the engine's public API — play_animal, declare, support…, done; resolve;
call/check; mulligan and first_attacker at the start — which must accept every
action and agree on every battle's winner and totals, the graveyards, the
discard/deck/hand counts and the game's winner.

A whole game is about 340 engine actions; the test replays 2,000 whole games
(about 67,000 battles) and, from 10 mid-game positions of each of the first
300, one more random battle played from that position on a copy of the model
with another seed (3,000 more battles, each checked the same way against the
engine's state at that position).

Why 2,000 and not issue 17's 10,000 (which took 70 s of the suite): a
disagreement lives in some situation of the rules, and the test counts, on the
engine's side, every situation in which the two could part — each kind of end
(a player out of cards, all in the graveyard, both out at once: a draw), each
kind of stalemate (equal sums, a Purple/Green pair), battles of one to four or
more duels, reshuffled discard piles, mulligans, low and max — and requires each
to come up often enough (:data:`SEEN_AT_LEAST`).  The rarest, a draw, comes up in
26 of the 2,000 games: a mistake that showed in only one draw in five would still
be caught with probability 1 − 0.8²⁶ > 99.6 %; one that showed in 0.3 % of all
games, with probability 1 − 0.997²⁰⁰⁰ > 99.7 %.  The seeds are fixed, so the same
games are played every run.  The issue's full count runs as
``python -m tests.solo.test_lifeforce_model 10000`` (prints what it saw; exit 1
on a disagreement).
"""
import random
import sys
from collections import Counter

from companion.games.lifeforce import RULES, sample_decks
from companion.games.lifeforce.animals import BIT
from companion.games.lifeforce import playout as model

from .stats import uniform_enough

DECKS = sample_decks()
GAMES = 2_000
BRANCHED_GAMES = 300
# Each situation in which the model and the engine could part, and how often the 2,000 games must
# meet it (they meet it: draws 26, four or more duels in a battle 40, mulligans 389, …).
SEEN_AT_LEAST = {"over: a draw, both out of cards": 20, "over: out of cards": 500, "over: all in the graveyard": 500,
                 "stalemate: equal sums": 1000, "stalemate: Purple/Green": 2000, "battle of 1 duel": 10_000,
                 "battle of 2 duels": 2000, "battle of 3 duels": 200, "battle of 4+ duels": 20, "reshuffle": 5000,
                 "mulligan": 200, "declare low": 2000, "declare max": 2000}


def _situations(action: dict, events: list, state: dict) -> list[str]:
    """The situations of :data:`SEEN_AT_LEAST` that applying ``action`` met (``state``: after)."""
    met = []
    if action["type"] == "mulligan":
        met.append("mulligan")
    elif action["type"] == "declare":
        met.append(f"declare {action['mode']}")
    for e in events:
        kind = e["type"]
        if kind == "reshuffle":
            met.append("reshuffle")
        elif kind == "stalemate":
            met.append("stalemate: " + ("Purple/Green" if state["duels"][-2]["stalemate_pair"] else "equal sums"))
        elif kind == "battle_result":
            n = len(state["battles"][-1]["duels"])
            met.append(f"battle of {n} duel{'s' if n > 1 else ''}" if n < 4 else "battle of 4+ duels")
        elif kind == "game_over":
            met.append("over: a draw, both out of cards" if e["winner"] is None else
                       "over: all in the graveyard" if "graveyard" in e["reason"] else "over: out of cards")
    return met


_BIT_OF = [BIT[model.card_id(c)] for c in range(len(model.MAX))]     # model card → engine bit


def _mask(cards) -> int:
    return sum(map(_BIT_OF.__getitem__, cards))          # a pile holds each card once


def _agree(state: dict, g: model.Game, where: str) -> None:
    for s in (0, 1):
        assert state["graveyard"][s] == _mask(g.grave[s]), where
        assert state["hand"][s] == len(g.hand[s]), where
        assert state["deck"][s] == len(g.deck[s]), where
        assert state["discard"][s].bit_count() == len(g.discard[s]), where
        assert state["table"][s] == _mask(g.table[s]), where
    assert state["winner"] == g.winner, where


def _places(g: model.Game) -> tuple:
    """Every pile of both seats (as sets: the model's piles are bags) and the game's counters."""
    return ([sorted(pile[s]) for pile in (g.deck, g.hand, g.discard, g.grave, g.table) for s in (0, 1)],
            g.stage, g.winner, g.battle, g.duels, g.tot, g.cur, g.last_battle)


def _feed(state: dict, record: list, where: str, seen: Counter | None = None) -> dict:
    """Every entry of ``record`` through the engine; a resolved duel must be scored alike.  The
    situations the engine met are counted in ``seen``."""
    for entry in record:
        seat, what = entry[0], entry[1]
        for action in model.to_actions(seat, what):
            state, events = RULES.apply(state, action)
            if seen is not None:
                seen.update(_situations(action, events, state))
        if what == "battle":
            winner, totals, to_grave, to_discard = entry[2]
            last = state["battles"][-1]
            assert (last["winner"], last["totals"], last["to_graveyard"], last["to_discard"]) == (
                winner, totals, to_grave, to_discard), where
        elif what == "stalemate":
            done = [d for d in state["duels"] if "strength" in d]
            assert [sum(d["strength"][s] for d in done) for s in (0, 1)] == entry[2], where
    return state


def _play_battle(g: model.Game) -> None:
    """Random builds and calls until the next battle is decided or the game ends, as
    :meth:`model.Game.play_game_randomly` plays them (the same random draws)."""
    rnd = g.rng.random
    record = g.record
    while g.stage != "over":
        if g.stage == "call":
            g.call(rnd() < 0.5)
        else:
            g.build_randomly()
        if record and record[-1][1] == "battle":
            return


def replay_and_compare(seed: int, branches: int = 0, seen: Counter | None = None) -> int:
    """A whole random game on the fast path, fed through the engine battle by battle; from
    about ``branches`` of its positions after a battle, one more random battle on a copy.
    Returns the number of branched battles; counts the situations met in ``seen``."""
    game = model.new_game(seed, DECKS)
    whole: list = []
    whole_game = model.new_game(seed, DECKS)
    whole_game.play_game_randomly(whole)
    # the same game step by step (same seed, same draws), the engine in lockstep
    game.record = record = []
    game.horizon = model.NO_HORIZON
    rnd = game.rng.random
    for seat in (0, 1):
        if rnd() * 10 < 1:
            game.mulligan(seat)
    game.start(int(rnd() * 2))
    state = RULES.setup({"decks": DECKS}, seed)
    state = _feed(state, record, f"game {seed}", seen)
    fed = len(record)
    branch_rng = random.Random(~seed)
    battle = branched = 0
    while game.stage != "over":
        _play_battle(game)
        state = _feed(state, record[fed:], f"game {seed}", seen)
        fed = len(record)
        _agree(state, game, f"game {seed}, battle {battle}")
        battle += 1
        if branches and game.stage != "over" and branch_rng.random() < branches / 30:
            other = game.copy()
            other.rng = random.Random(branch_rng.random())
            other.record = []
            _play_battle(other)
            where = f"game {seed}, a battle branched after battle {battle}"
            _agree(_feed(state, other.record, where), other, where)
            branched += 1
    assert record == whole                    # step by step is play_game_randomly …
    assert _places(whole_game) == _places(game)    # … and leaves every card where it leaves them
    assert model.new_game(seed, DECKS).play_game_randomly() == game.winner   # unrecorded: the same game
    assert state["phase"] == "over"
    return branched


def agree_over(games: int, branched_games: int = BRANCHED_GAMES) -> tuple[int, Counter]:
    """``games`` whole random games (seeds 0, 1, …) checked against the engine, the first
    ``branched_games`` branching a further battle from about ten of their positions; returns the
    number of branched battles and the situations the engine met."""
    seen = Counter()
    branched = sum(replay_and_compare(seed, branches=10 if seed < branched_games else 0, seen=seen)
                   for seed in range(games))
    return branched, seen


def test_fast_path_agrees_with_the_engine_in_every_situation_over_2000_games_and_3000_more_battles():
    # issue 17: identical outcomes over random games (see the module's docstring for why 2,000 do)
    branched, seen = agree_over(GAMES)
    assert branched >= 3_000
    rare = {what: seen[what] for what, floor in SEEN_AT_LEAST.items() if seen[what] < floor}
    assert not rare, f"too few games met these situations to vouch for them: {rare}"


def test_random_builds_and_draws_are_uniform():
    """The fast path's random player is :func:`model.random_build`'s: the animal equally likely
    any card of the hand, low or max at even odds for a ranged animal, the first support card
    equally likely any other card; a draw equally likely any card of the deck.  20,000 builds
    from one hand of 5 (the Stag Beetle, 3-7, among cards of 20-23 years: every animal can be
    supported, so no try fails) and 20,000 draws of 3 from one deck of 45."""
    beetle = model.INDEX["lifeforce.stag-beetle"]
    others = [c for c in range(len(model.MAX)) if not model.LOW[c] and 20 <= model.MAX[c] <= 23][:4]
    hand = [beetle, *others]
    g = model.new_game(3, DECKS)
    g.rng = random.Random(8)
    animals, first_support, lows = Counter(), Counter(), Counter()
    for _ in range(20_000):
        g.hand[0], g.table[0], g.stage, g.turn, g.record = hand[:], [], "attack", 0, []
        g.build_randomly()
        (_, (animal, low, support)), = g.record
        assert sorted([animal, *support] + g.hand[0]) == sorted(hand)
        assert sum(model.MAX[c] for c in support) >= model.lifespan(animal, low)
        animals[animal] += 1
        first_support[animal, support[0]] += 1
        if animal == beetle:
            lows[low] += 1
    assert uniform_enough(animals, 5)
    assert uniform_enough(first_support, 5 * 4)
    assert uniform_enough(lows, 2)
    deck = [model.INDEX[c] for c in DECKS[0]][:45]
    drawn = Counter()
    for _ in range(20_000):
        got: list = []
        model._take(got, deck[:], 3, g.rng.getrandbits)
        assert len(set(got)) == 3
        drawn.update(got)
    assert uniform_enough(drawn, 45)


if __name__ == "__main__":              # issue 17's full count: python -m tests.solo.test_lifeforce_model 10000
    import json
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    branched_battles, situations = agree_over(count)      # an AssertionError (exit 1) names the game
    print(json.dumps({"games": count, "branched_battles": branched_battles, "agree": True,
                      "situations": dict(sorted(situations.items()))}, indent=1))
