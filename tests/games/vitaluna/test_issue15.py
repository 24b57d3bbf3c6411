"""Vita Luna: the points a close reading of the rules text found (issue 15).

Every test reaches its situation through the engine's public API (setup, apply,
interpret, legal_actions, view), the way a game at the table does.
"""
import pytest

from companion.engine import IllegalAction, redact_event
from companion.games.vitaluna import RULES
from companion.games.vitaluna.bidding import opener

from .battle import act, battle, cid, fight_battle, illegal, new_game, texts
from .test_bidding import BLACKS, bid
from .test_track import game

BLUES = ["vitaluna.cheetah", "vitaluna.lynx", "vitaluna.anaconda"]


def placing(seat=0, **options):
    state = new_game(options)
    state, _ = act(state, type="attack_first", seat=seat)
    return state


def place(state, seat, zone, card):
    return act(state, type="place", seat=seat, zone=f"{seat}.{zone}", card=card)


# ---- Placement is checked against what a player was dealt ---------------------------------

def test_rule_a_player_fields_only_the_colours_and_counts_dealt():
    """Basic game: 'Deal four black cards … and two blue cards … to each player'; RULINGS: a player
    fields only the colours and counts dealt to them. A fifth black card, a third blue one or any
    red one is refused, and the count of cards held stays 6."""
    state = placing()
    for n, card in enumerate(BLACKS[:4]):
        state, _ = place(state, 0, f"white{n + 1}" if n < 2 else f"grey{n - 1}", card)
    state, _ = place(state, 0, "white3", BLUES[0])
    state, _ = place(state, 0, "white4", BLUES[1])
    assert illegal(state, type="place", seat=0, zone="0.grey3", card=BLACKS[4]) == (
        "North holds 4 black cards, all of them known: Crab is not one of them")
    assert illegal(state, type="place", seat=0, zone="0.grey3", card=BLUES[2]) == (
        "North holds 2 blue cards, all of them known: Anaconda is not one of them")
    assert illegal(state, type="place", seat=0, zone="0.grey3", card="vitaluna.elephant") == (
        "North holds 0 red cards: Elephant is not one of them")
    held = {c["id"]: c["value"] for c in RULES.view(state, None)["counters"]}
    # all six on the board: none in hand (issue 25: was "Cards held 6", read as a hand of 6)
    assert held["hand.0"] == 0 and state["held"][0] == {"black": 4, "blue": 2, "red": 0}
    placeable = {a["card"] for a in RULES.legal_actions(state) if a["type"] == "place"}
    assert placeable == set()                      # all six are on the board; nothing else is North's


def test_rule_refused_card_for_a_grey_position_is_not_named_to_the_table():
    """Hidden information: a card put on a grey position would lie face down, so its refusal names
    it only for its owner; the shared screen reads its colour (the back every player sees)."""
    state = placing()
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "place", "seat": 0, "zone": "0.grey1", "card": "vitaluna.elephant"})
    assert "Elephant" in str(refused.value)
    assert refused.value.redacted == "North holds 0 red cards: a red card is not one of them"
    assert refused.value.hidden_from == [1]


def test_rule_cards_swapped_between_sides_count_for_their_new_holder():
    """Swap and Steal change who holds a card (counts follow), so a stolen card may be fielded by the
    thief in the next battle and not by its old owner."""
    state = battle(["Wolf"], [None, "Fox"])
    state, _ = act(state, type="attack", seat=0)
    state, _ = act(state, type="singular", seat=1, name="steal")
    state, _ = act(state, type="target", seat=1, zone="0.white1")
    assert state["owner"][cid("Wolf")] == 1
    assert state["held"][0]["black"] == 3 and state["held"][1]["black"] == 5


# ---- Black to blue: only black cards the player holds -------------------------------------

def test_rule_black_to_blue_exchange_needs_two_black_cards_held():
    """Black to blue: 'swap two black cards for one random, new blue card … multiple times' — as long
    as the player holds two black cards. North holds 5 (4 dealt + the reward): two exchanges, then
    1 black card is left and a third is refused."""
    state, _ = fight_battle(game(extended=True), True)
    state, _ = act(state, type="reward", seat=0, card=None)
    state, _ = act(state, type="reward", seat=1, card=None)
    state, _ = act(state, type="done", seat=1)                            # South exchanges nothing
    assert state["exchanging"] == 0 and state["held"][0]["black"] == 5
    for black, blue in [(("vitaluna.rat", "vitaluna.wolf"), "vitaluna.cheetah"),
                        (("vitaluna.fox", "vitaluna.mole"), "vitaluna.lynx")]:
        for card in black:
            state, _ = act(state, type="exchange", seat=0, card=card)
        state, _ = act(state, type="exchange", seat=0, card=blue)
    assert state["held"][0] == {"black": 1, "blue": 4, "red": 0}
    assert illegal(state, type="exchange", seat=0, card="vitaluna.crab") == (
        "North holds 1 black card: two are needed for a blue one")
    assert [a["type"] for a in RULES.legal_actions(state) if a.get("seat") == 0 and a["type"] == "exchange"] == []


def test_rule_black_to_blue_gives_only_black_cards_the_player_may_hold():
    """A black card the companion has not seen is accepted only while some of the player's black cards
    are unseen: North's 5 black cards are Slayer (seen on the board) and 4 unseen; giving 4 unseen
    leaves none, so a fifth unseen card cannot be North's."""
    state, _ = fight_battle(game(extended=True), True)
    state, _ = act(state, type="reward", seat=0, card="vitaluna.rat")         # seen: North's
    state, _ = act(state, type="reward", seat=1, card=None)
    state, _ = act(state, type="done", seat=1)
    for card in ("vitaluna.wolf", "vitaluna.fox"):
        state, _ = act(state, type="exchange", seat=0, card=card)
    state, _ = act(state, type="exchange", seat=0, card="vitaluna.cheetah")
    state, _ = act(state, type="exchange", seat=0, card="vitaluna.mole")
    assert illegal(state, type="exchange", seat=0, card="vitaluna.crab") == (
        "North's 3 black cards are all known: Crab is not one of them")
    state, _ = act(state, type="exchange", seat=0, card="vitaluna.rat")      # the seen one is fine
    assert state["exchange"] == ["vitaluna.mole", "vitaluna.rat"]


# ---- Move anywhere: a swap with the player's own reserve creature ------------------------------

def test_rule_move_anywhere_swaps_with_the_players_own_reserve_creature():
    """Epic 1, Move anywhere: 'to swap with any of its own side (as long as they don't have the anchor
    epic)'; RULINGS: the player's own reserve creature included. Gyr Falcon (white 1) and the Wolf
    in reserve change places; it is the turn's white move."""
    state = battle(["Gyr Falcon"], ["Rat"], grey0=["Wolf"])
    move = {"type": "move", "seat": 0, "card": cid("Gyr Falcon"), "to": "0.grey1"}
    assert move in RULES.legal_actions(state)
    state, events = act(state, **move)
    assert state["board"][0][0] == cid("Wolf") and state["board"][0][4] == cid("Gyr Falcon")
    assert texts(events) == ["North swaps Gyr Falcon from white 1 into the reserve (grey 1) and brings Wolf 3/2 "
                             "up to white 1"]
    assert redact_event(events[0], None)["text"] == ("North brings Wolf 3/2 up from the reserve to white 1 and puts "
                                                     "the creature from there face down on grey 1")
    assert illegal(state, type="move", seat=0, card=cid("Wolf"), to="0.white2") == (
        "North has already moved in the white row this turn")
    state, events = act(state, type="attack", seat=0)
    assert "Wolf (3) hits Rat (1 health): dies" in texts(events)


def test_rule_move_anywhere_reserve_swap_from_the_table():
    """At the table the player lifts both cards and puts the reserve card on the white pad first: the
    engine reads that as the same swap."""
    state = battle(["Gyr Falcon"], ["Rat"], grey0=["Wolf"])
    action = RULES.interpret(state, "0.white1", cid("Wolf"), True)
    assert action == {"type": "move", "seat": 0, "card": cid("Wolf"), "to": "0.white1"}
    state, _ = act(state, **action)
    assert RULES.interpret(state, "0.grey1", cid("Gyr Falcon"), True) is None    # already counted there
    assert state["board"][0][0] == cid("Wolf") and state["board"][0][4] == cid("Gyr Falcon")


def test_rule_move_anywhere_cannot_swap_an_anchored_reserve_card_and_does_not_name_it():
    state = battle(["Gyr Falcon"], ["Rat"], grey0=["Rock"])
    problem = illegal(state, type="move", seat=0, card=cid("Gyr Falcon"), to="0.grey1")
    assert problem == "the reserve card on grey 1 is anchored and cannot be swapped"


def test_rule_a_creature_without_move_anywhere_still_cannot_go_back_to_the_reserve():
    state = battle(["Wolf"], ["Rat"], grey0=["Fox"])
    assert illegal(state, type="move", seat=0, card=cid("Wolf"), to="0.grey1") == (
        "a card in play cannot go back to the reserve during a battle")


# ---- A battle that nothing can change ends -------------------------------------------------------

# Eight creatures with attack 0 (two black and two blue per side, so each side fields what it was dealt)
WALLS = {cid(n): {"name": f"Wall {n}", "attrs": {"attack": 0, "health": 9, "epics": [], "colour": colour}}
         for n, colour in [("Rat", "black"), ("Fox", "black"), ("Cheetah", "blue"), ("Lynx", "blue"),
                           ("Mole", "black"), ("Crab", "black"), ("Bear", "blue"), ("Stag", "blue")]}


def test_rule_battle_with_every_attacker_stuck_behind_attack_0_creatures_ends():
    """Rules: the battle ends when a player has no cards or no lives left; RULINGS: a battle in which no
    attack can change anything any more ends by a documented rule (docs/rulings/vitaluna.md, "No way
    to win": the defender wins). North's Wolf waits in reserve behind four attack-0 creatures that
    nothing can ever remove: the battle ends after North's first attack step."""
    state = battle(["Rat", "Fox", "Cheetah", "Lynx"], ["Mole", "Crab", "Bear", "Stag"], grey0=["Wolf"],
                   edits=WALLS)
    assert state["phase"] == "battle"
    state, events = act(state, type="attack", seat=0)
    result = next(e for e in events if e["type"] == "battle_result")
    assert result["winner"] == 1 and state["track"] == [0, 0] and state["phase"] == "rewards"
    assert "no creature in the battle can ever attack again" in result["text"]


def test_rule_battle_goes_on_while_a_reserve_attacker_can_still_reach_white():
    """The same with North's white 4 free: the Wolf can be promoted, so the battle goes on."""
    state = battle(["Rat", "Fox", "Cheetah"], ["Mole", "Crab", "Bear", "Stag"], grey0=["Wolf"], edits=WALLS)
    state, events = act(state, type="attack", seat=0)
    assert state["phase"] == "battle" and not [e for e in events if e["type"] == "battle_result"]


def test_rule_battle_goes_on_while_move_anywhere_can_bring_a_reserve_attacker_in():
    """With a move-anywhere creature on white the Wolf can be swapped in: the battle goes on."""
    walls = dict(WALLS)
    walls[cid("Lynx")] = {"name": "Wall Lynx", "attrs": {"attack": 0, "health": 9, "epics": ["move_anywhere"]}}
    state = battle(["Rat", "Fox", "Cheetah", "Lynx"], ["Mole", "Crab", "Bear", "Stag"], grey0=["Wolf"],
                   edits=walls)
    state, _ = act(state, type="attack", seat=0)
    assert state["phase"] == "battle"


# ---- Bidding: who opens blue card 1 -------------------------------------------------------------

def bid_blacks(state, north_wins):
    """Bid for black cards until North has 4: North wins the cards in ``north_wins`` (by card number),
    South the others; returns the state at blue card 1."""
    n = 0
    while state["bidding"]["stage"] == "black":
        state, _ = act(state, type="reveal", card=BLACKS[n])
        first = opener(state["bidding"])
        north, south = (1, 0) if n in north_wins else (0, 1)
        state, _ = bid(state, first, north if first == 0 else south, south if first == 0 else north)
        n += 1
    return state, n


@pytest.mark.parametrize("rule,black_bids,opens", [
    ("alternate", 4, 1), ("like_black", 4, 1), ("rounds", 4, 0),
    ("alternate", 5, 0), ("like_black", 5, 1), ("rounds", 5, 0)])
def test_rule_who_opens_blue_card_1_follows_the_option(rule, black_bids, opens):
    """Advanced game: 'Remember to alternate who bids first each time!' and the blue cards 'follow the
    same pattern as for the black cards' leave open who opens blue card 1 (docs/rulings/vitaluna.md):
    alternate — every bid alternates, black into blue; like_black — as black card 1, the player who
    bid second for the attack (South); rounds — attack, black and blue rounds alternate, so the player
    who bid first for the attack (North). North bids first for the attack; North takes 4 of the first
    ``black_bids`` black cards, the rest go to South by quota."""
    state = new_game({"advanced": True, "blue_opener": rule})
    state, _ = act(state, type="bid_first", seat=0)
    state, _ = bid(state, 0, 0, 0)
    wins = {0, 1, 2, 3} if black_bids == 4 else {0, 1, 2, 4}
    state, n = bid_blacks(state, wins)
    assert n == black_bids and state["bidding"]["stage"] == "blue"
    state, events = act(state, type="reveal", card="vitaluna.cheetah")
    assert texts(events)[0].endswith(f"{['North', 'South'][opens]} bids first")
    state, _ = bid(state, opens, 0, 0)                       # a tie: the opener takes it
    state, events = act(state, type="reveal", card="vitaluna.lynx")
    assert texts(events)[0].endswith(f"{['North', 'South'][1 - opens]} bids first")   # then it alternates


def test_rule_blue_opener_is_a_setup_option():
    option = next(o for o in RULES.options if o.id == "blue_opener")
    assert option.default == "alternate" and option.choices == ("alternate", "like_black", "rounds")
    with pytest.raises(IllegalAction, match="blue_opener must be one of"):
        new_game({"blue_opener": "coin"})


# ---- Hearts -------------------------------------------------------------------------------------

def test_rule_hearts_are_refilled_at_the_start_of_every_battle():
    """Basic game: '10 hearts for each player … they will get refilled at the beginning of a new battle'."""
    from .battle import SLAYERS, WALLS as WALL_NAMES, finish_between_battles, place_side
    state, _ = fight_battle(game(), True)                 # North's Slayer empties South's heart
    assert state["battles"][0]["heart"][1] <= 0
    state = finish_between_battles(state)                 # South attacks battle 2
    state = place_side(state, 1, [WALL_NAMES[1]])
    state = place_side(state, 0, [SLAYERS[0]])
    assert state["phase"] == "battle" and state["heart"] == [10, 10]


# ---- Hidden information in refusals during a battle -----------------------------------------------

def test_rule_a_reserve_card_scanned_elsewhere_in_a_battle_is_not_named_to_the_table():
    """A card that lies face down in a reserve stays unnamed when a refusal mentions it; its owner
    reads the whole sentence."""
    state = battle(["Wolf"], ["Anaconda"], grey0=["Fox"])
    state, _ = act(state, type="attack", seat=0)                      # South's turn now
    with pytest.raises(IllegalAction) as refused:
        RULES.interpret(state, "0.white2", cid("Fox"), True)         # North moves out of turn
    assert "Fox" in str(refused.value) and refused.value.hidden_from == [1]
    assert "Fox" not in refused.value.redacted and "a card" in refused.value.redacted


def test_rule_a_card_put_on_an_occupied_grey_position_does_not_name_the_occupant():
    state = placing()
    state, _ = place(state, 0, "grey1", "vitaluna.wolf")
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "place", "seat": 0, "zone": "0.grey1", "card": "vitaluna.fox"})
    assert str(refused.value) == "North's grey 1 already holds Wolf; lift it first"
    assert refused.value.redacted == "North's grey 1 already holds a face-down card; lift it first"


def test_rule_a_card_put_on_a_grey_pad_between_battles_is_not_named():
    """Between battles (rewards) a card put on a grey pad is refused without its name."""
    state, _ = fight_battle(game(), True)
    with pytest.raises(IllegalAction) as refused:
        RULES.interpret(state, "1.grey2", "vitaluna.fox", True)
    assert refused.value.redacted.startswith("A card: cards are placed once the rewards")
    assert "Fox" not in refused.value.redacted and refused.value.hidden_from == [0]


def test_rule_a_refused_reward_or_exchange_card_is_not_named_to_the_table():
    """Rewards and exchanges are scanned from the hand, hidden from the other player; so are their refusals."""
    state, _ = fight_battle(game(extended=True), True)
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "reward", "seat": 0, "card": "vitaluna.cheetah"})
    assert str(refused.value) == "Cheetah is a blue card; North's reward is a black card"
    assert refused.value.redacted == "That card is a blue card; North's reward is a black card"
    assert refused.value.hidden_from == [1]
