"""The solo player of Lifeforce Battle: secret-keeping, legal, and better than chance."""
import random
from itertools import combinations

from companion.games.lifeforce import RULES, sample_decks
from companion.games.lifeforce import playout as model
from companion.games.lifeforce.solo import LifeforcePlayer
from companion.solo.bench import play_lifeforce_game

DECKS = sample_decks()


def _position(seed: int, battles: int) -> tuple[model.Game, list]:
    """A random game on the fast model, stopped when seat 0 is to build after ``battles`` battles."""
    g = model.new_game(seed, DECKS)
    g.record = record = []
    g.horizon = model.NO_HORIZON
    g.start(0)
    done = 0
    while True:
        if g.stage == "call":
            g.call(g.rng.random() < 0.5)
        elif g.turn == 0 and done >= battles:
            return g, record
        else:
            g.build_randomly()
            done += bool(record) and record[-1][1] == "battle"
        assert g.stage != "over", "pick another seed: the game ended early"


def _engine_state(record: list) -> dict:
    state = RULES.setup({"decks": DECKS}, 0)
    for seat, what, *_ in record:
        for action in model.to_actions(seat, what):
            state, _ = RULES.apply(state, action)
    return state


def _hidden_hand_swapped(g: model.Game) -> model.Game:
    """The same game but for the opponent's hand: two of its cards swapped with its deck."""
    other = g.copy()
    hand, deck = other.hand[1], other.deck[1]
    for i in range(2):
        hand[i], deck[i] = deck[i], hand[i]
    return other


def test_the_move_never_depends_on_the_opponents_hidden_hand():
    """Two games that differ only in the cards South holds: North sees the same, chooses the same."""
    for seed, battles in ((3, 3), (8, 5)):         # South to counter, and South having attacked
        g, record = _position(seed, battles)
        other = _hidden_hand_swapped(g)
        assert sorted(other.hand[1]) != sorted(g.hand[1])
        decisions = []
        for game in (g, other):
            state = _engine_state(record)            # the table: the same in both games
            player = LifeforcePlayer(0, seconds=None, iterations=300, seed=5)
            player.hand = [model.card_id(c) for c in game.hand[0]]
            decisions.append(player.choose(state))
        assert decisions[0] == decisions[1]
        assert model.from_actions(decisions[0]) in model.builds(g.hand[0])


def test_the_information_set_deals_the_opponents_hand_from_its_unseen_cards():
    g, record = _position(4, 3)
    state = _engine_state(record)
    info = model.InfoSet(state, 0, [model.card_id(c) for c in g.hand[0]])
    assert sorted(info.unseen) == sorted(g.hand[1] + g.deck[1])
    dealt = set()
    for i in range(40):
        s = info.sample(random.Random(i))
        assert len(s.hand[1]) == len(g.hand[1]) and sorted(s.hand[0]) == sorted(g.hand[0])
        assert sorted(s.deck[0]) == sorted(g.deck[0])
        for seat in (0, 1):
            assert sorted(s.grave[seat]) == sorted(g.grave[seat])
            assert sorted(s.table[seat]) == sorted(g.table[seat])
            total = len(s.deck[seat]) + len(s.hand[seat]) + len(s.discard[seat]) + len(s.grave[seat]) + len(
                s.table[seat])
            assert total == 50
        dealt.add(tuple(sorted(s.hand[1])))
    assert len(dealt) > 30                       # dealt at random, not copied from the real hand


def test_every_choice_is_legal_and_the_engine_accepts_it():
    """Whole games against the random player: every decision goes through the engine's API."""
    for seed in (1, 2):
        winner = play_lifeforce_game(seed, seed % 2, model.random_move, None, 25, [])
        assert winner in (0, 1, None)


def test_the_solo_player_beats_a_random_player():
    wins = sum(play_lifeforce_game(seed, seed % 2, model.random_move, None, 60, []) == seed % 2
               for seed in range(10, 16))
    assert wins >= 5


def test_the_greedy_player_counters_with_the_fewest_cards_that_win():
    checked = 0
    for seed in range(6, 60):
        g, _ = _position(seed, 1 + seed % 4)
        if g.stage != "attack" or g.tot != [0, 0]:
            continue                                     # a fresh battle, seat 0 attacking
        g.apply(model.greedy_move(g, random.Random(0)))
        attack = g.cur[0]
        move = model.greedy_move(g, random.Random(0))
        winning = []
        for m in model.builds(g.hand[1]):
            mine = model.lifespan(m[0], m[1]) * (2 if model.STRONG[model.COLOUR[m[0]]][model.COLOUR[attack]] else 1)
            theirs = g.life[0] * (2 if model.STRONG[model.COLOUR[attack]][model.COLOUR[m[0]]] else 1)
            pg = model.COLOUR[m[0]] in model.PG and model.COLOUR[attack] in model.PG
            if mine > theirs and not pg:
                winning.append(m)
        pool = winning or model.builds(g.hand[1])
        assert move in pool and len(move[2]) == min(len(m[2]) for m in pool)
        checked += 1
    assert checked >= 5


def test_bench_solo_reports_lifeforce_with_the_same_keys_as_sams():
    from companion.solo.bench import bench_solo
    out = bench_solo(game="lifeforce", games=1, iterations=15)
    for key in ("win_rate_vs_random", "win_rate_vs_random_ci95", "win_rate_vs_greedy", "win_rate_vs_greedy_ci95",
                "think_ms_p50", "think_ms_p95"):
        assert key in out
    assert out["moves_thought"] > 10
    assert "error" in bench_solo(game="chess", games=1)


def test_the_build_menu_offers_per_animal_and_mode_the_fewest_and_the_cheapest_support():
    """``builds`` (the search's moves) against its definition, every subset of the rest of the
    hand tried: per animal and mode that some support reaches, the fewest cards (then the lowest
    total of maximum lifespans) and the cheapest (then the fewest), each once, as sorted tuples."""
    rng = random.Random(3)
    ranged = [c for c in range(len(model.MAX)) if model.LOW[c]]
    pool = sorted({model.INDEX[c] for c in DECKS[0] + DECKS[1]} | set(ranged))

    def total(cards):
        return sum(model.MAX[c] for c in cards)

    for _ in range(2000):
        hand = rng.sample(pool, rng.choice((2, 3, 4, 5, 5)))
        offered: dict = {}
        for animal, low, support in model.builds(hand):
            assert support == tuple(sorted(support)) and animal not in support
            offered.setdefault((animal, low), []).append(support)
        reaching = {}
        for animal in hand:
            rest = [c for c in hand if c != animal]
            for low in ((0, 1) if model.LOW[animal] else (0,)):
                fit = [s for k in range(1, len(rest) + 1) for s in combinations(sorted(rest), k)
                       if total(s) >= model.lifespan(animal, low)]
                if fit:
                    reaching[(animal, low)] = fit
        assert offered.keys() == reaching.keys(), hand
        for key, supports in offered.items():
            fit = reaching[key]
            assert all(s in fit for s in supports), (hand, key)
            fewest = min((len(s), total(s)) for s in fit)
            cheapest = min((total(s), len(s)) for s in fit)[::-1]
            assert sorted((len(s), total(s)) for s in supports) == sorted({fewest, cheapest}), (hand, key)


def test_the_build_menus_the_search_remembers_stay_bounded():
    """The search remembers each hand's build menu; on a Pi a game's tens of thousands of hands
    must not pile up (the memory a solo game may take)."""
    rng = random.Random(5)
    deck = [model.INDEX[c] for c in sample_decks()[0]]
    model._BUILDS.clear()
    for _ in range(model.BUILDS_REMEMBERED * 2):
        hand = rng.sample(deck, 5)
        assert model.builds(hand) == model._builds(sorted(hand))
    assert 0 < len(model._BUILDS) <= model.BUILDS_REMEMBERED
