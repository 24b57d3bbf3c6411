"""The solo player's fast model of Lifeforce Battle agrees with the rules engine.

The model is what the search plays out thousands of times a move; if it drifted
from the engine the solo player would be optimising a different game.  Random
games are played on the fast path (the same code the search and
`companion bench engines` use) and then fed, macro move by macro move, through
the engine's public API — play_animal, declare, support…, done; resolve;
call/check; mulligan and first_attacker at the start — which must accept every
action and agree on every battle's winner and totals, the graveyards, the
discard/deck/hand counts and the game's winner.

A whole game is about 340 engine actions; the test replays 10,000 whole games
(about 340,000 battles, some 40 s) and, from 10 mid-game positions of each of
the first 300, one more random battle played from that position on a copy of
the model with another seed (3,000 more battles, each checked the same way
against the engine's state at that position).
"""
import random
from collections import Counter

from companion.games.lifeforce import RULES, sample_decks
from companion.games.lifeforce.animals import BIT
from companion.games.lifeforce import playout as model

from .stats import uniform_enough

DECKS = sample_decks()


def _mask(cards) -> int:
    out = 0
    for c in cards:
        out |= BIT[model.card_id(c)]
    return out


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


def _feed(state: dict, record: list, where: str) -> dict:
    """Every entry of ``record`` through the engine; a resolved duel must be scored alike."""
    for entry in record:
        seat, what = entry[0], entry[1]
        for action in model.to_actions(seat, what):
            state, _ = RULES.apply(state, action)
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


def replay_and_compare(seed: int, branches: int = 0) -> int:
    """A whole random game on the fast path, fed through the engine battle by battle; from
    about ``branches`` of its positions after a battle, one more random battle on a copy.
    Returns the number of branched battles."""
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
    state = _feed(state, record, f"game {seed}")
    fed = len(record)
    branch_rng = random.Random(~seed)
    battle = branched = 0
    while game.stage != "over":
        _play_battle(game)
        state = _feed(state, record[fed:], f"game {seed}")
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


def test_fast_path_agrees_with_the_engine_over_10000_random_games_and_3000_more_battles():
    # issue 17: identical outcomes over at least 10,000 random games; the first 300 games also
    # branch a further random battle from about ten of their positions.
    branched = sum(replay_and_compare(seed, branches=10 if seed < 300 else 0) for seed in range(10_000))
    assert branched >= 3_000


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
