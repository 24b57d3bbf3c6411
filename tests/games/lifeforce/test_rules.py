"""Lifeforce Battle duels and battles: the rules text (shared/rules/000_…) and RULINGS.md.

North is seat 0, South seat 1.  Games start from the sample decks with the cards a test
needs swapped in (see play.py); every action goes through RULES.apply.
"""
import pytest

from companion.engine import IllegalAction
from companion.games.lifeforce import RULES
from companion.games.lifeforce.animals import Animal, strengths
from companion.games.lifeforce.rules import BIT

from .play import NORTH, SOUTH, accounted, act, cid, counts, duel, place, start

COLOURS = ("red", "orange", "yellow", "blue", "purple", "green")
# Rules text, "The strengths are": Blue > Orange, Orange > Red, Red > Yellow, Yellow > Blue.
STRONG = {("blue", "orange"), ("orange", "red"), ("red", "yellow"), ("yellow", "blue")}


def beast(colour, years, low=None):
    return Animal(f"lifeforce.test-{colour}-{years}", f"{colour} {years}", colour, years, low)


# ---- colour strengths and the worked examples ------------------------------------------

def test_worked_example_1_orange_11_doubles_to_22_and_beats_red_20():
    """Rules text, Example 1: Red 20 attacks, Orange 11 counters; Orange is strong against Red,
    so 22 beats 20."""
    assert strengths(beast("red", 20), None, beast("orange", 11), None) == (20, 22, False, True)


def test_worked_example_2_red_7_doubles_to_14_and_loses_to_yellow_20():
    """Rules text, Example 2: Red 7 attacks, Yellow 20 counters; Red is strong against Yellow,
    so the attack is 14, and 20 is higher than 14."""
    assert strengths(beast("red", 7), None, beast("yellow", 20), None) == (14, 20, True, False)


def test_worked_example_2_through_the_engine_goldcrest_7_against_harbour_porpoise_20():
    """Rules text, Example 2 with real cards of exactly those lifespans (Goldcrest 7, Red;
    Harbour Porpoise 20, Yellow): South's counterattack wins, 20 > 14."""
    s = start(north=["goldcrest", "honey-bee-queen"], south=["harbour-porpoise"])
    s, events = duel(s, ("goldcrest", ["honey-bee-queen"]),
                     ("harbour-porpoise", ["eurasian-magpie"]))
    result = next(e for e in events if e["type"] == "battle_result")
    assert result["winner"] == SOUTH and result["outcome"] == "win"
    duel_text = next(e for e in events if e["type"] == "duel")["text"]
    assert "Goldcrest (7 ×2 = 14, Red is strong)" in duel_text and "Harbour Porpoise (20)" in duel_text


def test_worked_example_1_through_the_engine_doubled_counter_just_beats_the_attacker():
    """Rules text, Example 1 with real cards: Great Tit (Red, 15) attacks; Emperor Scorpion
    (Orange, 6–8, 'max') counters with 8 ×2 = 16 > 15."""
    s = start(north=["great-tit", "honey-bee-queen", "stag-beetle"], south=["emperor-scorpion"])
    s, events = duel(s, ("great-tit", ["honey-bee-queen", "stag-beetle"]),
                     ("emperor-scorpion", ["eurasian-magpie"], "max"))
    assert next(e for e in events if e["type"] == "battle_result")["winner"] == SOUTH
    assert s["battles"][-1]["totals"] == [15, 16]


@pytest.mark.parametrize("a", COLOURS)
@pytest.mark.parametrize("b", COLOURS)
def test_each_colour_pair_doubles_only_the_strong_side(a, b):
    """Rules text, 'Battle variables': a strong colour doubles its attack or counterattack; every
    other pair (Purple and Green included) compares plain lifespans."""
    sa, sb, da, db = strengths(beast(a, 10), None, beast(b, 10), None)
    assert da == ((a, b) in STRONG) and db == ((b, a) in STRONG)
    assert (sa, sb) == (20 if da else 10, 20 if db else 10)


def test_blue_beats_a_longer_lived_orange_through_the_engine():
    """Blue is strong against Orange: Atlantic Herring 22 ×2 = 44 beats a Red King Crab 30."""
    s = start(north=["atlantic-herring"], south=["red-king-crab"])
    s, events = duel(s, ("atlantic-herring", ["mallard"]), ("red-king-crab", ["red-junglefowl"], "max"))
    assert s["battles"][-1]["totals"] == [44, 30] and s["battles"][-1]["winner"] == NORTH


def test_purple_against_another_colour_is_a_plain_comparison():
    """Ruling: 'Purple or Green against any other colour is a plain comparison'."""
    s = start(north=["leatherback-sea-turtle"], south=["peregrine-falcon"])
    s, events = duel(s, ("leatherback-sea-turtle", ["mallard", "common-swift"]),
                     ("peregrine-falcon", ["chaffinch"]))
    assert s["battles"][-1]["totals"] == [30, 25] and s["battles"][-1]["winner"] == NORTH


def test_doubling_never_raises_the_support_needed():
    """Rules text: support cards 'need to equal the attacking or countering animal's original
    lifespan only' — Atlantic Herring (22) stands with support 29 though it fights with 44."""
    s = start(north=["atlantic-herring"], south=["red-king-crab"])
    s, events = place(s, NORTH, "atlantic-herring", ["common-swift", "honey-bee-queen"])
    assert s["phase"] == "counter"
    assert "support 29 ≥ 22" in events[-1]["text"]
    s, events = place(s, SOUTH, "red-king-crab", ["eurasian-magpie", "house-sparrow"], mode="max")
    s, events = act(s, type="resolve", seat=NORTH)
    assert s["battles"][-1]["totals"] == [44, 30]


# ---- support, declarations and the hand -------------------------------------------------

def test_an_attack_whose_support_is_too_small_is_rejected_with_the_numbers():
    """Rules text: support lifespans must 'equal or exceed the lifespan of your attacking animal';
    support cards count their maximum lifespan (Stag Beetle 3–7 counts 7): 7 + 8 = 15 < 21."""
    s = start(north=["common-swift", "stag-beetle", "honey-bee-queen"])
    s, _ = place(s, NORTH, "common-swift", ["stag-beetle", "honey-bee-queen"], done=False)
    with pytest.raises(IllegalAction, match="support 15 < lifespan 21"):
        act(s, type="done", seat=NORTH)
    s, _ = act(s, type="support", seat=NORTH, card=cid("indian-peafowl"))      # + 23 = 38
    s, _ = act(s, type="done", seat=NORTH)
    assert s["phase"] == "counter" and s["turn"] == SOUTH


def test_equal_support_is_enough():
    """Rules text: 'equal or exceed'. Smooth Newt 20 supported by Atlantic Horseshoe Crab 20."""
    s = start(north=["smooth-newt", "atlantic-horseshoe-crab"])
    s, _ = place(s, NORTH, "smooth-newt", ["atlantic-horseshoe-crab"])
    assert s["phase"] == "counter"


def test_a_lifespan_range_must_be_declared_low_or_max():
    """Rules text: 'To use the lower number, say low … To use the higher number, say max'. The
    Seep Tubeworm (170–250) with support 100 + 50 + 48 = 198 stands as low, not as max."""
    s = start(south=["seep-tubeworm", "american-lobster", "purple-sea-urchin", "golden-eagle"], first=SOUTH)
    s, _ = place(s, SOUTH, "seep-tubeworm", ["american-lobster", "purple-sea-urchin", "golden-eagle"],
                 done=False)
    with pytest.raises(IllegalAction, match=r"say low \(170\) or max \(250\) first"):
        act(s, type="done", seat=SOUTH)
    s, _ = act(s, type="declare", seat=SOUTH, mode="max")
    with pytest.raises(IllegalAction, match="support 198 < lifespan 250"):
        act(s, type="done", seat=SOUTH)
    s, events = act(s, type="declare", seat=SOUTH, mode="low")
    assert "fights with 170 years" in events[0]["text"]
    s, _ = act(s, type="done", seat=SOUTH)
    assert s["phase"] == "counter"


def test_a_single_lifespan_has_nothing_to_declare():
    s = start()
    s, _ = place(s, NORTH, "common-swift", done=False)
    with pytest.raises(IllegalAction, match="single lifespan"):
        act(s, type="declare", seat=NORTH, mode="low")


def test_cards_come_from_a_hand_of_five():
    """Rules text: players hold 5 cards; animal and support come from the hand, so a sixth card
    in one duel is refused."""
    s = start()
    s, _ = place(s, NORTH, "common-swift", ["mallard", "osprey", "rock-dove", "canada-goose"], done=False)
    assert counts(s, NORTH)["hand"] == 0 and counts(s, NORTH)["in_play"] == 5
    with pytest.raises(IllegalAction, match="no card left in hand"):
        act(s, type="support", seat=NORTH, card=cid("bald-eagle"))


def test_taking_a_card_back_returns_it_to_the_hand():
    s = start()
    s, _ = place(s, NORTH, "common-swift", ["mallard"], done=False)
    s, events = act(s, type="withdraw", seat=NORTH, card=cid("mallard"))
    assert counts(s, NORTH)["hand"] == 4 and counts(s, NORTH)["in_play"] == 1
    assert "support 0 of 21" in events[0]["text"]


def test_only_the_player_whose_turn_it_is_places_cards():
    """Rules text: the attacker places first, then the non-attacking player counters."""
    s = start()
    with pytest.raises(IllegalAction, match="it is North's attack: South waits until North presses done"):
        act(s, type="play_animal", seat=SOUTH, card=cid("lion"))


def test_a_card_of_the_other_deck_a_graveyard_or_a_discard_pile_is_refused():
    s = start()
    with pytest.raises(IllegalAction, match="Lion is not in North's deck"):
        act(s, type="play_animal", seat=NORTH, card=cid("lion"))
    with pytest.raises(IllegalAction, match="Great Tit is not in North's deck"):
        act(s, type="play_animal", seat=NORTH, card=cid("great-tit"))
    s, _ = duel(s, ("common-swift", ["mallard"]), ("wels-catfish", ["golden-eagle", "greater-flamingo"]))  # 21 < 60
    s, _ = act(s, type="call", seat=SOUTH)
    s, _ = act(s, type="play_animal", seat=SOUTH, card=cid("jaguar"))
    s, _ = act(s, type="support", seat=SOUTH, card=cid("brown-kiwi"))
    s, _ = act(s, type="done", seat=SOUTH)
    with pytest.raises(IllegalAction, match="Common Swift is in North's graveyard"):
        act(s, type="play_animal", seat=NORTH, card=cid("common-swift"))
    s, _ = place(s, NORTH, "rock-dove", ["osprey", "canada-goose"])
    s, _ = act(s, type="resolve", seat=NORTH)                # Red is strong against Yellow: 70 > 28
    s, _ = act(s, type="check", seat=NORTH)                                     # South attacks
    with pytest.raises(IllegalAction, match="Wels Catfish is cooling down in South's discard pile"):
        act(s, type="play_animal", seat=SOUTH, card=cid("wels-catfish"))


# ---- battles, piles and counts -----------------------------------------------------------

def test_loser_cards_to_graveyard_winner_cards_to_discard_then_both_draw_to_five():
    """Rules text: the loser puts the animal and support in the graveyard, the winner in the
    discard pile; both draw to 5. Every card is always in exactly one place."""
    s = start()
    s, events = duel(s, ("common-swift", ["mallard", "osprey"]), ("wels-catfish", ["golden-eagle", "greater-flamingo"]))
    assert [e["type"] for e in events][-2:] == ["battle_result", "call_or_check"]
    assert "North's 3 cards go to the graveyard, South's 3 to the discard pile" in events[-2]["text"]
    assert counts(s, NORTH) == {"deck": 42, "hand": 5, "discard": 0, "graveyard": 3, "in_play": 0}
    assert counts(s, SOUTH) == {"deck": 42, "hand": 5, "discard": 3, "graveyard": 0, "in_play": 0}
    assert accounted(s, NORTH) == accounted(s, SOUTH) == 50
    assert s["phase"] == "call" and s["battle_winner"] == SOUTH


def test_winner_calls_to_attack_next_or_checks_to_let_the_loser_attack():
    """Rules text: the winner says 'I call' to go first, or 'check' and the other player attacks."""
    s = start()
    s, _ = duel(s, ("common-swift", ["mallard"]), ("wels-catfish", ["golden-eagle", "greater-flamingo"]))
    with pytest.raises(IllegalAction, match="South won the battle"):
        act(s, type="call", seat=NORTH)
    called, _ = act(s, type="call", seat=SOUTH)
    assert called["starter"] == SOUTH and called["turn"] == SOUTH and called["battle"] == 2
    checked, events = act(s, type="check", seat=SOUTH)
    assert checked["starter"] == NORTH and "North attacks first in battle 2" in events[0]["text"]


def test_stalemate_of_length_1_equal_lifespans():
    """Rules text: equal lifespans are a stalemate; all cards stay, both draw to 5, the player who
    began the battle attacks again. Ruling: the higher sum over all duels wins (23+32 > 23+29)."""
    s = start(north=["ocean-quahog", "red-sea-urchin"], south=["seep-tubeworm", "american-lobster"])
    s, events = duel(s, ("european-starling", ["ocean-quahog"]), ("house-sparrow", ["seep-tubeworm"]))
    stalemate = events[-1]
    assert stalemate["type"] == "stalemate" and "equal strengths 23" in stalemate["text"]
    assert s["phase"] == "attack" and s["turn"] == NORTH and len(s["duels"]) == 2
    assert counts(s, NORTH) == {"deck": 43, "hand": 5, "discard": 0, "graveyard": 0, "in_play": 2}
    s, events = duel(s, ("osprey", ["red-sea-urchin"]), ("chaffinch", ["american-lobster"]))
    assert events[-2]["type"] == "battle_result" and events[-2]["winner"] == NORTH
    assert s["battles"][-1]["totals"] == [55, 52]
    assert counts(s, SOUTH)["graveyard"] == 4 and counts(s, NORTH)["discard"] == 4


def test_stalemate_of_length_2():
    s = start(north=["ocean-quahog", "red-sea-urchin", "spiny-dogfish"],
              south=["seep-tubeworm", "american-lobster", "green-sea-turtle"])
    s, e1 = duel(s, ("european-starling", ["ocean-quahog"]), ("house-sparrow", ["seep-tubeworm"]))
    s, e2 = duel(s, ("ide", ["red-sea-urchin"]), ("bowfin", ["american-lobster"]))
    assert e1[-1]["type"] == e2[-1]["type"] == "stalemate"
    assert "equal sums 53 over 2 duels" in e2[-1]["text"]
    s, e3 = duel(s, ("rock-dove", ["spiny-dogfish"]), ("red-junglefowl", ["green-sea-turtle"]))
    assert s["battles"][-1]["totals"] == [88, 83] and s["battles"][-1]["winner"] == NORTH
    assert counts(s, SOUTH)["graveyard"] == 6


def test_stalemate_of_length_3():
    """'A stalemate can continue again and again, as many times as it takes to end the battle.'"""
    s = start(north=["ocean-quahog", "red-sea-urchin", "spiny-dogfish", "alligator-snapping-turtle"],
              south=["seep-tubeworm", "american-lobster", "green-sea-turtle", "desert-tortoise"], first=SOUTH)
    s, e = duel(s, ("house-sparrow", ["seep-tubeworm"]), ("european-starling", ["ocean-quahog"]))
    s, e = duel(s, ("bowfin", ["american-lobster"]), ("ide", ["red-sea-urchin"]))
    s, e = duel(s, ("mountain-goat", ["green-sea-turtle"]), ("meerkat", ["spiny-dogfish"]))
    assert e[-1]["type"] == "stalemate" and s["turn"] == SOUTH and len(s["duels"]) == 4
    s, e = duel(s, ("red-junglefowl", ["desert-tortoise"]), ("rock-dove", ["alligator-snapping-turtle"]))
    assert s["battles"][-1]["totals"] == [23 + 30 + 21 + 35, 23 + 30 + 21 + 30]
    assert s["battles"][-1]["winner"] == NORTH and len(s["battles"][-1]["duels"]) == 4
    assert counts(s, SOUTH)["graveyard"] == 8 and counts(s, NORTH)["discard"] == 8
    assert s["battle_winner"] == NORTH


@pytest.mark.parametrize("north_animal, south_animal", [
    ("leatherback-sea-turtle", "fire-salamander"),     # Purple vs Green
    ("mata-mata", "asp-viper"),                        # Purple vs Purple
    ("smooth-newt", "hellbender"),                     # Green vs Green
])
def test_purple_and_green_against_each_other_are_always_a_stalemate(north_animal, south_animal):
    """Rules text: 'Purple and Green cards always create a stalemate against each other,
    regardless of the lifespan of the animals' (Purple vs Green, Purple vs Purple, Green vs Green)."""
    s = start(north=[north_animal, "ocean-quahog"], south=[south_animal, "seep-tubeworm"])
    s, events = duel(s, (north_animal, ["ocean-quahog"]), (south_animal, ["seep-tubeworm"]))
    assert events[-1]["type"] == "stalemate"
    assert "Purple and Green cannot battle each other" in events[-1]["text"]


def test_a_purple_green_duel_counts_its_plain_lifespans_in_the_battle_sum():
    """Ruling: the battle is won by the higher sum over all its duels; 'a Purple/Green pair counts
    its plain lifespans'. Leatherback 30 vs Fire Salamander 24, then Common Swift 21 vs Eurasian
    Magpie 22: North wins 51 to 46 though South won the second duel."""
    s = start(north=["leatherback-sea-turtle", "ocean-quahog"], south=["fire-salamander", "seep-tubeworm"])
    s, _ = duel(s, ("leatherback-sea-turtle", ["ocean-quahog"]), ("fire-salamander", ["seep-tubeworm"]))
    s, events = duel(s, ("common-swift", ["mallard"]), ("eurasian-magpie", ["house-sparrow"]))
    assert s["battles"][-1]["totals"] == [51, 46] and s["battles"][-1]["winner"] == NORTH


def test_a_purple_green_pair_in_the_last_duel_means_another_duel_whatever_the_sums():
    """Ruling: 'a new Purple/Green pair in the last duel' means another stalemate duel."""
    s = start(north=["leatherback-sea-turtle", "ocean-quahog", "red-sea-urchin"],
              south=["fire-salamander", "seep-tubeworm", "american-lobster"])
    s, _ = duel(s, ("european-starling", ["ocean-quahog"]), ("house-sparrow", ["seep-tubeworm"]))
    s, events = duel(s, ("leatherback-sea-turtle", ["red-sea-urchin"]), ("fire-salamander", ["american-lobster"]))
    assert events[-1]["type"] == "stalemate" and len(s["duels"]) == 3


def test_an_empty_deck_takes_the_shuffled_discard_pile():
    """Rules text: the discard pile 'cannot be touched until their deck runs out of cards. Before
    the discard pile is used again, the player's opponent must shuffle it.' A hand-made position:
    North's deck is empty and 45 cards cool down in the discard pile; North wins a battle with
    3 cards (discard 48) and must draw 3, so the 48 become the deck and North draws from it."""
    s = start()
    s, _ = place(s, NORTH, "rock-dove", ["osprey", "mallard"])
    s, _ = place(s, SOUTH, "eurasian-magpie", ["house-sparrow"])
    on_table = {cid("rock-dove"), cid("osprey"), cid("mallard")}
    mask = 0
    for c in [c for c in s["options"]["decks"][NORTH] if c not in on_table][:45]:
        mask |= BIT[c]
    s = dict(s, deck=[0, s["deck"][1]], discard=[mask, 0])           # hand 2 + table 3 + discard 45
    assert accounted(s, NORTH) == 50
    s, events = act(s, type="resolve", seat=NORTH)                  # 35 > 22
    reshuffle = next(e for e in events if e["type"] == "reshuffle")
    assert reshuffle["seat"] == NORTH and reshuffle["cards"] == 48
    assert "South shuffles North's discard pile (48 cards) into a new deck" in reshuffle["text"]
    assert counts(s, NORTH) == {"deck": 45, "hand": 5, "discard": 0, "graveyard": 0, "in_play": 0}


# ---- setup ---------------------------------------------------------------------------------

def test_each_player_may_take_a_new_starting_hand_once_before_the_first_attack():
    """Rules text: 'You may exchange your starting hand only once.'"""
    s = RULES.setup(RULES.normalise_options({}), 3)
    assert counts(s, NORTH) == {"deck": 45, "hand": 5, "discard": 0, "graveyard": 0, "in_play": 0}
    s, events = act(s, type="mulligan", seat=NORTH)
    assert "South shuffles North's old hand back into North's deck" in events[0]["text"]
    assert counts(s, NORTH)["hand"] == 5 and counts(s, NORTH)["deck"] == 45
    with pytest.raises(IllegalAction, match="already exchanged"):
        act(s, type="mulligan", seat=NORTH)
    s, _ = act(s, type="first_attacker", seat=SOUTH)
    assert s["turn"] == SOUTH and s["starter"] == SOUTH
    with pytest.raises(IllegalAction, match="only before the first attack"):
        act(s, type="mulligan", seat=SOUTH)


def test_nothing_is_played_before_the_first_attacker_is_chosen():
    s = RULES.setup(RULES.normalise_options({}), 3)
    with pytest.raises(IllegalAction, match="choose who attacks first"):
        act(s, type="play_animal", seat=NORTH, card=cid("common-swift"))


# ---- the end ---------------------------------------------------------------------------

def _down_to(s, seat, graveyard: int, hand: int, keep=()):
    """Hand-made position: ``graveyard`` of ``seat``'s cards are in the graveyard, ``hand`` in hand,
    deck and discard empty (graveyard + hand = 50); the cards in ``keep`` stay playable."""
    assert graveyard + hand == 50
    keep = {cid(k) for k in keep}
    mask = 0
    for c in [c for c in s["options"]["decks"][seat] if c not in keep][:graveyard]:
        mask |= BIT[c]
    deck, hands, graves = list(s["deck"]), list(s["hand"]), list(s["graveyard"])
    deck[seat], hands[seat], graves[seat] = 0, hand, mask
    return dict(s, deck=deck, hand=hands, graveyard=graves)


def _north_down_to(s, graveyard: int, hand: int):
    return _down_to(s, NORTH, graveyard, hand, keep=("common-swift", "mallard", "osprey"))


def test_a_player_whose_50_cards_are_all_in_the_graveyard_loses():
    """Rules text: 'The gameplay continues until a player loses all their cards to their graveyard'."""
    s = _north_down_to(start(), graveyard=47, hand=3)
    s, events = duel(s, ("common-swift", ["mallard", "osprey"]), ("wels-catfish", ["golden-eagle", "greater-flamingo"]))
    assert RULES.is_over(s)
    assert RULES.result(s)["winner"] == SOUTH
    assert "all 50 of North's cards are in the graveyard" in RULES.result(s)["reason"]
    assert [e["type"] for e in events][-1] == "game_over"


def test_a_player_left_with_one_card_has_run_out_and_loses():
    """Rules text: 'If a player runs out of cards … they must forfeit'; one card cannot make a
    supported attack (an animal and at least one support card)."""
    s = _north_down_to(start(), graveyard=47, hand=3)
    s, events = duel(s, ("common-swift", ["mallard"]), ("wels-catfish", ["golden-eagle", "greater-flamingo"]))
    assert RULES.result(s)["winner"] == SOUTH
    assert "North has run out of cards (1 left" in RULES.result(s)["reason"]
    assert counts(s, NORTH) == {"deck": 0, "hand": 1, "discard": 0, "graveyard": 49, "in_play": 0}


def test_both_players_out_of_cards_before_a_stalemate_duel_is_a_draw():
    """After a stalemate both draw to 5 (rules text); with deck and discard pile empty both are
    left with one card, so neither can continue: the game is a draw."""
    s = start(north=["ocean-quahog"], south=["seep-tubeworm"])
    s = _down_to(s, NORTH, 47, 3, keep=("european-starling", "ocean-quahog"))
    s = _down_to(s, SOUTH, 47, 3, keep=("house-sparrow", "seep-tubeworm"))
    s, events = duel(s, ("european-starling", ["ocean-quahog"]), ("house-sparrow", ["seep-tubeworm"]))
    assert [e["type"] for e in events][-2:] == ["stalemate", "game_over"]
    assert RULES.result(s)["winner"] is None and RULES.result(s)["reason"] == "both players ran out of cards"
    assert events[-1]["text"] == "The game is a draw: both players ran out of cards"


def test_a_player_who_cannot_support_declares_it_and_loses():
    """Rules text: a player who 'cannot support any more attacks or counterattacks' must forfeit.
    (South's hand is corrected to 1 card: with two a supported play always exists.)"""
    s = start()
    s, _ = place(s, NORTH, "common-swift", ["mallard"])
    s, _ = act(s, type="adjust", seat=SOUTH, counter="hand.1", delta=-4)
    with pytest.raises(IllegalAction, match="North waits until South presses done"):
        act(s, type="cannot_support", seat=NORTH)
    s, events = act(s, type="cannot_support", seat=SOUTH)
    assert RULES.result(s) == {"winner": NORTH, "reason": "South cannot support a counterattack",
                               "battles": 0, "graveyard": [0, 0]}
    assert events[-1]["type"] == "game_over" and events[-1]["winner"] == NORTH


def test_a_player_may_forfeit_at_any_time():
    """Rules text: the game ends when 'a player forfeits the game'."""
    s = RULES.setup(RULES.normalise_options({"players": ["Ada", "Bo"]}), 1)
    s, events = act(s, type="forfeit", seat=SOUTH)
    assert RULES.result(s)["winner"] == NORTH and events[0]["text"] == "Ada wins the game: Bo forfeits"
    with pytest.raises(IllegalAction, match="the game is over"):
        act(s, type="first_attacker", seat=NORTH)


# ---- corrections ------------------------------------------------------------------------

def test_hand_count_correction_moves_cards_between_deck_and_hand():
    s = start()
    s, events = act(s, type="adjust", seat=NORTH, counter="hand.0", delta=-1)
    assert counts(s, NORTH)["hand"] == 4 and counts(s, NORTH)["deck"] == 46 and accounted(s, NORTH) == 50
    with pytest.raises(IllegalAction, match="only a hand count"):
        act(s, type="adjust", seat=NORTH, counter="graveyard.0", delta=1)
    with pytest.raises(IllegalAction, match="cannot go below 0"):
        act(s, type="adjust", seat=NORTH, counter="hand.0", delta=-9)


def test_apply_never_changes_the_state_it_is_given():
    s = start()
    import copy
    before = copy.deepcopy(s)
    t, _ = place(s, NORTH, "common-swift", ["mallard"])
    assert s == before and t != s


@pytest.mark.parametrize("action", [
    {"type": "support", "seat": NORTH},
    {"type": "support", "seat": NORTH, "card": ["lifeforce.mallard"]},
    {"type": "play_animal", "seat": "0", "card": "lifeforce.mallard"},
    {"type": "declare", "seat": NORTH, "mode": "huge"},
    {"type": "withdraw", "seat": NORTH, "card": ["x"]},
    {"type": "identify", "seat": NORTH, "card": None},
    {"type": "adjust", "seat": NORTH, "counter": "hand.0", "delta": "1"},
    {"type": "fly", "seat": NORTH},
])
def test_malformed_actions_are_refused_in_words(action):
    """Bad input gets a clear error and changes nothing."""
    s = start()
    with pytest.raises(IllegalAction):
        RULES.apply(s, action)
