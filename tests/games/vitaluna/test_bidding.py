"""The advanced game's bidding (rules, Advanced game; RULINGS, Vita Luna: ties and quotas)."""
from .battle import act, illegal, new_game, texts

BLACKS = ["vitaluna.rat", "vitaluna.wolf", "vitaluna.fox", "vitaluna.owl", "vitaluna.crab", "vitaluna.mole",
          "vitaluna.frog", "vitaluna.toad"]


def advanced(first_bidder=0):
    state = new_game({"advanced": True})
    assert state["phase"] == "bidding"
    state, _ = act(state, type="bid_first", seat=first_bidder)
    return state


def bid(state, first, a_first, a_second):
    state, _ = act(state, type="bid", seat=first, amount=a_first)
    return act(state, type="bid", seat=1 - first, amount=a_second)


def test_attack_bid_tie_goes_to_the_first_bidder_and_both_pay():
    """RULINGS: "the higher bid wins and both pay; a tie goes to the player who bid first"."""
    state = advanced(first_bidder=0)
    assert illegal(state, type="bid", seat=1, amount=1) == "it is North's bid"
    state, events = bid(state, 0, 1, 1)
    assert state["attacker"] == 0 and state["bidding"]["markers"] == [14, 14]
    assert texts(events, "bid_won") == ["North wins the first attack, 1 to 1 (a tie goes to the first bidder)"]


def test_higher_bid_wins_and_who_bids_first_alternates():
    """Advanced game: "Whichever player bid second when bidding for being the attacker, places the first
    bid in this round … Now we turn over the second black card, and now it is player one's turn first"."""
    state = advanced(first_bidder=0)
    state, _ = bid(state, 0, 1, 2)                                       # South wins the attack
    assert state["attacker"] == 1
    assert illegal(state, type="bid", seat=0, amount=0) == "turn the next card over on the shared pad before bidding"
    state, events = act(state, type="reveal", card="vitaluna.wolf")
    assert texts(events) == ["Up for bidding: Wolf 3/2 — South bids first"]
    state, events = bid(state, 1, 3, 4)
    assert state["owner"]["vitaluna.wolf"] == 0 and state["bidding"]["markers"] == [10, 10]
    state, events = act(state, type="reveal", card="vitaluna.rat")
    assert texts(events) == ["Up for bidding: Rat 1/1 — North bids first"]
    assert illegal(state, type="bid", seat=0, amount=11) == "North can bid 0 to 10 markers, not 11"


def test_black_quota_sends_the_rest_to_the_other_player():
    """Advanced game: "If player one had bid enough to win the first four cards, then the next four black
    cards must be given to player 2"."""
    state = advanced(first_bidder=0)
    state, _ = bid(state, 0, 0, 0)
    for n, card in enumerate(BLACKS[:4]):
        state, _ = act(state, type="reveal", card=card)
        first = 1 if n % 2 == 0 else 0
        state, events = bid(state, first, 1 if first == 0 else 0, 1 if first == 1 else 0)
    assert [state["owner"][c] for c in BLACKS[:4]] == [0, 0, 0, 0]
    assert texts(events, "dealt") == ["North has 4 black cards: the 4 remaining go to South face down"]
    assert state["bidding"]["stage"] == "blue" and state["held"][1]["black"] == 4
    assert illegal(state, type="reveal", card="vitaluna.rabbit") == (
        "Rabbit is a black card; the next card to bid for is a blue card")


def test_blue_bidding_then_placement_with_the_attack_winner():
    """Sequence of bidding: attack, black cards, blue cards; then the game goes on as the basic game."""
    state = advanced(first_bidder=1)
    state, _ = bid(state, 1, 0, 3)                                       # North outbids: North attacks
    assert state["attacker"] == 0
    # North takes four blacks at 1 each (South bids 0), then South gets the other four
    for n in range(4):
        state, _ = act(state, type="reveal", card=BLACKS[n])
        opener = 0 if n % 2 == 0 else 1                                  # item 1 opens with the attack's 2nd bidder
        state, _ = bid(state, opener, 1 if opener == 0 else 0, 0 if opener == 0 else 1)
    assert state["bidding"]["stage"] == "blue"
    state, events = act(state, type="reveal", card="vitaluna.cheetah")   # item 9: opened by North (1 - first bidder)
    assert texts(events) == ["Up for bidding: Cheetah 3/3 (move anywhere) — North bids first"]
    state, _ = bid(state, 0, 2, 2)                                       # tie: North
    state, _ = act(state, type="reveal", card="vitaluna.lynx")
    state, _ = bid(state, 1, 0, 1)                                       # North again, quota of 2 blue reached
    assert state["phase"] == "placement" and state["placing"] == 0
    assert state["held"] == [{"black": 4, "blue": 2, "red": 0}, {"black": 4, "blue": 2, "red": 0}]


def test_both_out_of_markers_the_rest_is_dealt():
    """Advanced game: "if both players run out of bidding markers before all the cards have been bid for,
    then the remaining cards are shuffled and dealt out … 2 blues and 4 blacks each"."""
    state = advanced(first_bidder=0)
    state, events = bid(state, 0, 15, 15)
    assert texts(events, "dealt") == [
        "Both players are out of markers: shuffle the 8 remaining black cards and deal 4 to North and 4 to "
        "South face down",
        "Both players are out of markers: shuffle the 4 remaining blue cards and deal 2 to North and 2 to "
        "South face down"]
    assert state["phase"] == "placement" and state["attacker"] == 0
    assert state["held"][0] == {"black": 4, "blue": 2, "red": 0}
