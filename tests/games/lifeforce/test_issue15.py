"""Lifeforce Battle: the points a close reading of the rules text found (issue 15).

Every test reaches its situation through the engine's public API; the own-cards
tests run two separate Python processes, one per machine, because an own card
becomes known to the process that sets up its game.
"""
import json
import subprocess
import sys

import pytest

from companion.engine import IllegalAction
from companion.games.lifeforce import RULES

from .play import NORTH, SOUTH, act, cid, place, start


# ---- "cannot support any more attacks or counterattacks" ---------------------------------

def test_rule_cannot_support_is_not_offered_while_two_cards_are_at_hand():
    """Rules, Step 5: a player who 'cannot support any more attacks or counterattacks' must forfeit.
    RULINGS: that is a loss only when no supported play exists — and with two cards one always does
    (the lower lifespan attacks, the other supports it with its maximum lifespan)."""
    s = start()
    assert {"type": "cannot_support", "seat": NORTH} not in RULES.legal_actions(s)
    with pytest.raises(IllegalAction, match="North can support an attack: with two cards"):
        act(s, type="cannot_support", seat=NORTH)
    assert not RULES.is_over(s)


def test_rule_cannot_support_counts_the_cards_a_player_may_take_back():
    """Cards a player has put into the duel come back into hand when lifted: a hand of 0 with an
    animal and its support on the stage can still support (the same cards)."""
    s = start()
    s, _ = act(s, type="adjust", seat=NORTH, counter="hand.0", delta=-3)          # North holds 2
    s, _ = place(s, NORTH, "common-swift", ["mallard"], done=False)
    assert s["hand"][NORTH] == 0
    assert {"type": "cannot_support", "seat": NORTH} not in RULES.legal_actions(s)
    with pytest.raises(IllegalAction, match="can support"):
        act(s, type="cannot_support", seat=NORTH)


def test_rule_cannot_support_with_one_card_ends_the_game():
    """With a single card (hand corrected to 1) no supported play exists: declaring it loses."""
    s = start()
    s, _ = place(s, NORTH, "common-swift", ["mallard"])
    s, _ = act(s, type="adjust", seat=SOUTH, counter="hand.1", delta=-4)
    assert {"type": "cannot_support", "seat": SOUTH} in RULES.legal_actions(s)
    s, events = act(s, type="cannot_support", seat=SOUTH)
    assert RULES.result(s)["winner"] == NORTH and events[-1]["type"] == "game_over"


def test_rule_random_players_declare_cannot_support_only_when_it_is_legal():
    """Property: the random player (simulate, bench) never picks a refused 'cannot support'."""
    for seed in range(30):
        RULES.playout(None, seed, on_apply=lambda before, action, after, events: (
            action["type"] != "cannot_support" or action in RULES.legal_actions(before)) or pytest.fail(action))


# ---- players' own cards: a game replays without their card file ------------------------

OWN = {"game": "lifeforce", "format": 1, "cards": [
    {"id": "lifeforce.garden-robin-print", "name": "Garden Robin (own print)",
     "attrs": {"colour": "red", "class": "birds", "lifespan_max": 19, "source": "my own card"}}]}

MACHINE_A = """
import json, sys
from pathlib import Path
from companion import cards
cards.use_user_dir(Path(sys.argv[1]))            # what the composition root does first
from companion import records
from companion.games.lifeforce import RULES, sample_decks
from companion.games.lifeforce.animals import ANIMALS
decks = sample_decks()
north = list(decks[0])
victim = next(c for c in north if ANIMALS[c].colour == "red")
north[north.index(victim)] = "lifeforce.garden-robin-print"
options = RULES.normalise_options({"decks": [north, decks[1]]})
state = RULES.setup(options, 3)
support_n = next(c for c in north if c not in ("lifeforce.garden-robin-print",) and ANIMALS[c].lifespan_max >= 19)
south_animal = next(c for c in decks[1] if ANIMALS[c].colour == "blue")
support_s = next(c for c in decks[1] if c != south_animal and ANIMALS[c].lifespan_max >= ANIMALS[south_animal].lifespan_max)
actions = [{"type": "first_attacker", "seat": 0},
           {"type": "play_animal", "seat": 0, "card": "lifeforce.garden-robin-print"},
           {"type": "support", "seat": 0, "card": support_n}, {"type": "done", "seat": 0},
           {"type": "play_animal", "seat": 1, "card": south_animal},
           {"type": "support", "seat": 1, "card": support_s}, {"type": "done", "seat": 1},
           {"type": "resolve", "seat": 0}]
for a in actions:
    state, _ = RULES.apply(state, a)
record = records.make_record(RULES, options, 3, actions, state)
Path(sys.argv[2]).write_text(json.dumps(record))
print(json.dumps({"own": options["own_cards"], "summary": RULES.summary(state)}))
"""


def run(*args):
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_rule_own_cards_travel_in_the_record_and_replay_on_another_machine(tmp_path):
    """docs/architecture.md: games whose records must replay anywhere copy the player's cards into
    their setup options. A game with an own card replays with `companion replay` on a machine
    without the card file."""
    home_a, home_b = tmp_path / "a", tmp_path / "b"
    (home_a / "cards").mkdir(parents=True)
    home_b.mkdir()
    (home_a / "cards" / "lifeforce.json").write_text(json.dumps(OWN))
    record = tmp_path / "game.json"
    played = json.loads(run("-c", MACHINE_A, str(home_a), str(record)))
    assert played["own"] == {"lifeforce.garden-robin-print": {
        "name": "Garden Robin (own print)", "attrs": OWN["cards"][0]["attrs"]}}
    assert played["summary"]["battles"]                        # the own card fought a battle
    replayed = json.loads(run("-m", "companion.cli", "--data-dir", str(home_b), "replay", str(record)))
    assert replayed == json.loads(json.dumps(played["summary"]))


def test_rule_own_card_cannot_change_a_shipped_card():
    """An own card needs its own id: one that gives a shipped card other values is refused with a
    sentence (otherwise a record would mean different cards on different machines)."""
    great_tit = {cid("great-tit"): {"name": "Great Tit", "attrs": {"colour": "red", "lifespan_max": 99}}}
    with pytest.raises(IllegalAction, match="Great Tit .* is a shipped card with other values: give your own "
                                            "card its own id"):
        RULES.setup(RULES.normalise_options({"own_cards": great_tit}), 1)
