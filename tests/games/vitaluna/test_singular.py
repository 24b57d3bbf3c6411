"""Singular cards: Burn, Swap, Steal and Heal, once per game each, with their effects lasting
beyond the battle (rules, Singular cards)."""
from .battle import WALL, act, battle, cid, finish_between_battles, illegal, place_side, texts


def play(state, seat, name, **target):
    state, _ = act(state, type="singular", seat=seat, name=name)
    return act(state, type="target", seat=seat, **target)


def test_burn_removes_the_creature_until_the_end_of_the_game():
    """Burn: "permanently destroy the opposing player's card … on one of the white positions … removed
    from play until the end of the game"."""
    state = battle(["Rat"], ["Wolf", "Bat"], edits=WALL)
    state, events = play(state, 0, "burn", zone="1.white1")
    assert texts(events) == ["North burns South's Wolf: it is out until the end of the game"]
    assert state["board"][1][0] is None and state["burnt"] == [cid("Wolf")] and state["dead"] == [[], []]
    assert state["used"][0] == ["burn"]
    # the Wolf may not come back in a later battle
    state, _ = act(state, type="adjust", seat=1, counter="heart.1", delta=-10)
    state = finish_between_battles(state)
    assert illegal(state, type="place", seat=1, zone="1.white1", card=cid("Wolf")) == (
        "Wolf was burnt: it is out until the end of the game")


def test_each_singular_card_is_used_once_per_game():
    """Singular cards "can only be used once, and once they have been used, they are discarded for the
    rest of the game"."""
    state = battle(["Rat"], ["Wolf", "Bat"], edits=WALL)
    state, _ = play(state, 0, "burn", zone="1.white1")
    assert illegal(state, type="singular", seat=0, name="burn") == "North has already used Burn in this game"


def test_singular_cards_come_before_moves():
    """Sequence of play: 1. singular cards, 2. moves, 3. attacks."""
    state = battle(["Rat"], ["Wolf", "Bat"], edits=WALL)
    state, _ = act(state, type="move", seat=0, card=cid("Rat"), to="0.white2")
    assert illegal(state, type="singular", seat=0, name="burn") == "singular cards are played before moving cards in a turn"


def test_burning_the_last_creature_wins_the_battle():
    """End of a battle: "one of the players has no cards left" — checked after a singular card too."""
    state = battle(["Rat"], ["Wolf"])
    state, events = play(state, 0, "burn", zone="1.white1")
    assert [e["winner"] for e in events if e["type"] == "battle_result"] == [0]


def test_swap_exchanges_sides_with_health_and_owners_keep_them():
    """Swap: "the cards have switched sides, keeping whatever health they had … At the end of the battle,
    you both keep whichever cards have been swapped"."""
    state = battle(["Rat", "Bat"], ["Anaconda"], edits=WALL)
    state, _ = act(state, type="attack", seat=0)               # Anaconda 5 → 4
    state, _ = act(state, type="attack", seat=1)               # Anaconda (2) kills the Rat
    state, events = play(state, 0, "swap", zone="1.white1", own="0.white2")
    assert texts(events) == ["North swaps their Wall (9 health) for South's Anaconda (4 health); both change "
                             "sides for good"]
    assert state["board"][0][1] == cid("Anaconda") and state["board"][1][0] == cid("Bat")
    assert state["health"][cid("Anaconda")] == 4
    assert state["owner"][cid("Anaconda")] == 0 and state["owner"][cid("Bat")] == 1
    state, _ = act(state, type="adjust", seat=1, counter="heart.1", delta=-10)
    state = finish_between_battles(state)
    assert illegal(state, type="place", seat=1, zone="1.white1", card=cid("Anaconda")) == (
        "Anaconda belongs to North: it cannot join South's side")


def test_steal_needs_a_free_position_opposite_and_keeps_the_card():
    """Steal: "you must have a clear, white space opposite it … you get to keep the stolen card"."""
    state = battle(["Rat"], ["Wolf", "Fox"])
    assert illegal(state, type="target", seat=0, zone="1.white1") == "play a singular card first"
    state, _ = act(state, type="singular", seat=0, name="steal")
    assert illegal(state, type="target", seat=0, zone="1.white1") == (
        "Steal targets an opposing creature on a white position with your white position opposite it free")
    state, events = act(state, type="target", seat=0, zone="1.white2")
    assert state["board"][0][1] == cid("Fox") and state["owner"][cid("Fox")] == 0
    assert texts(events) == ["North steals Fox (2 health) into white 2; North keeps it"]


def test_heal_restores_full_health_and_armour():
    """Heal: "brings the card back to full health and armour", e.g. an Anaconda on 2 back to 5."""
    state = battle(["Wolf", "Bat"], ["Anaconda"], edits={**WALL, "vitaluna.anaconda": {"attrs": {"attack": 0}}})
    state, _ = act(state, type="attack", seat=0)                # 5 → 2
    assert state["health"][cid("Anaconda")] == 2
    state, events = play(state, 1, "heal", zone="1.white1")
    assert texts(events) == ["South heals Anaconda back to 5 health"]
    assert cid("Anaconda") not in state["health"]


def test_heal_needs_an_injured_creature():
    """Heal: "fully heal one of your injured cards" — an unhurt one cannot be healed."""
    state = battle(["Wolf"], ["Anaconda"])
    assert illegal(state, type="singular", seat=0, name="heal") == (
        "Heal needs one of your creatures on white that is injured")


def test_heal_restores_armour():
    """Heal brings back "full health and armour"."""
    state = battle(["Wolf", "Bat"], ["Armadillo"], edits={**WALL, "vitaluna.armadillo": {"attrs": {"attack": 0}}})
    state, _ = act(state, type="attack", seat=0)
    state, events = play(state, 1, "heal", zone="1.white1")
    assert state["spent"] == [] and texts(events) == ["South heals Armadillo back to 4 health and its armour"]


def test_a_singular_card_can_be_cancelled_before_its_target():
    """A singular card scanned by mistake goes back unused (docs/rulings/vitaluna.md)."""
    state = battle(["Rat"], ["Wolf"])
    state, _ = act(state, type="singular", seat=0, name="burn")
    assert illegal(state, type="attack", seat=0) == "choose the target of Burn first (or cancel it)"
    state, _ = act(state, type="cancel", seat=0)
    assert state["used"][0] == [] and state["turn"]["pending"] is None
