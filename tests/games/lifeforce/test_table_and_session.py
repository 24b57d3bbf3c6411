"""Lifeforce Battle at the table: zones, the default table profile, pad events through a real
session (SQLite), game records and replays, random games, the benchmark."""
import copy
import json
from pathlib import Path

import pytest

from companion import cli
from companion.bench import bench_engine
from companion.engine import Rng
from companion.games.lifeforce import RULES
from companion.records import RecordError, make_record, replay
from companion.session import Session
from companion.table import Layout, PadEvent, load_profile
from companion.tags import virtual_uid

from .play import NORTH, SOUTH, accounted, cid
from tests.games.playouts import random_game

PROFILE = Path(__file__).resolve().parents[3] / "firmware_config" / "tables" / "lifeforce.toml"


# ---- zones and the table profile ---------------------------------------------------------

def test_zones_are_an_attacker_and_a_support_pad_per_player_and_a_deck_check_pad():
    """Issue 3: 'per player one attacker pad and one support pad (several cards at once), plus a
    deck-check pad'."""
    zones = {z.id: z for z in RULES.zones(RULES.normalise_options({}))}
    assert set(zones) == {"0.attacker", "0.support", "1.attacker", "1.support", "deck_check"}
    assert zones["0.support"].stack and not zones["1.attacker"].stack
    assert zones["deck_check"].seat is None and zones["1.support"].seat == SOUTH


def test_default_table_profile_maps_five_pads_to_the_five_zones_and_has_a_solo_hand_pad():
    """Issue 17: solo play needs the companion's hand pad; the default table maps it to South."""
    profile = load_profile(PROFILE)
    layout = profile.layout("lifeforce")
    layout.validate([z.id for z in RULES.zones(RULES.normalise_options({}))], str(PROFILE))
    assert layout.zone_of("n-support") == "0.support" and layout.zone_of("deck-check") == "deck_check"
    assert "hand" not in layout.pad_to_zone                  # two people: the hand pad is not the game's
    assert len(profile.raw["readers"]) == 6
    solo = load_profile(PROFILE).layout("lifeforce")
    solo.validate(RULES.zones(RULES.normalise_options({"solo_seat": SOUTH})), str(PROFILE))
    assert solo.pads_of("1.hand") == ["hand"] and solo.mode_of("hand") == "tap"


def test_a_card_tapped_on_the_hand_pad_of_the_default_table_goes_into_the_companions_holder(store):
    from companion.games.lifeforce import sample_decks, solo as companion
    from companion.simulate import register_virtual_tags
    from companion.table import SEEN
    layout = load_profile(PROFILE).layout("lifeforce")
    layout.validate(RULES.zones(RULES.normalise_options({"solo_seat": SOUTH})), str(PROFILE))
    register_virtual_tags(store, "lifeforce")
    session = Session.start(store, "lifeforce", {"solo_seat": SOUTH}, seed=1, layout=layout)
    card = sample_decks()[SOUTH][3]
    events = session.handle_pad_event(PadEvent("hand", virtual_uid(card), SEEN, 0.0))
    assert companion.solo_hand(session.state) == [card]
    assert [e["text"] for e in session.public_events(events)] == ["Slot 1 of South's holder: put that card there, face down"]


# ---- interpreting sightings --------------------------------------------------------------

def _started(seed=11):
    state = RULES.setup(RULES.normalise_options({}), seed)
    state, _ = RULES.apply(state, {"type": "first_attacker", "seat": NORTH})
    return state


def test_a_card_on_the_attacker_pad_plays_the_animal_on_the_support_pad_adds_support():
    s = _started()
    assert RULES.interpret(s, "0.attacker", cid("osprey"), True) == {
        "type": "play_animal", "seat": NORTH, "card": cid("osprey")}
    s, _ = RULES.apply(s, RULES.interpret(s, "0.attacker", cid("osprey"), True))
    assert RULES.interpret(s, "0.support", cid("mallard"), True) == {
        "type": "support", "seat": NORTH, "card": cid("mallard")}
    assert RULES.interpret(s, "0.attacker", cid("osprey"), True) is None          # read again
    assert RULES.interpret(s, "0.attacker", cid("osprey"), False) == {            # lifted while placing
        "type": "withdraw", "seat": NORTH, "card": cid("osprey")}
    assert RULES.scan_for(s, {"type": "support", "seat": NORTH, "card": cid("mallard")}) == (
        "0.support", cid("mallard"))


def test_a_wrong_card_is_refused_saying_where_it_belongs():
    s = _started()
    with pytest.raises(Exception, match="Lion is not in North's deck: it belongs on South's side"):
        RULES.interpret(s, "0.support", cid("lion"), True)
    with pytest.raises(Exception, match="Great Tit is not in North's deck"):
        RULES.interpret(s, "0.attacker", cid("great-tit"), True)
    with pytest.raises(Exception, match="it is North's attack: South waits until North presses done"):
        RULES.interpret(s, "1.attacker", cid("lion"), True)


def test_the_deck_check_pad_says_whose_card_it_is_and_where_it_is():
    s = _started()
    action = RULES.interpret(s, "deck_check", cid("lion"), True)
    assert action == {"type": "identify", "card": cid("lion")}
    same, events = RULES.apply(s, action)
    assert same == s
    assert events[0]["text"] == "Lion (Yellow, 27 years): South's card, in South's deck or hand"
    _, events = RULES.apply(s, {"type": "identify", "card": cid("great-tit")})
    assert events[0]["text"] == "Great Tit (Red, 15 years) is in neither player's deck"


def test_the_physical_confirm_button_means_done_then_resolve_then_call():
    s = _started()
    assert RULES.confirm_action(s, NORTH) == {"type": "done", "seat": NORTH}
    assert RULES.confirm_action(s, SOUTH) is None


# ---- a real session fed with pad events --------------------------------------------------

def _tags(store, *slugs):
    for slug in slugs:
        store.tags.register(virtual_uid(cid(slug)), cid(slug))


def _seen(session, pad, slug):
    return session.handle_pad_event(PadEvent(pad=pad, uid=virtual_uid(cid(slug)), kind="seen"))


def _gone(session, pad, slug):
    return session.handle_pad_event(PadEvent(pad=pad, uid=virtual_uid(cid(slug)), kind="gone"))


def test_a_battle_played_with_pad_events_buttons_and_the_screen(store):
    _tags(store, "osprey", "mallard", "rock-dove", "eurasian-magpie", "house-sparrow", "lion")
    # every pad a hold pad, so that lifting a support card reaches the engine (the default table taps)
    hold = Layout.identity("lifeforce", [z.id for z in RULES.zones(RULES.normalise_options({}))])
    session = Session.start(store, "lifeforce", {}, seed=5, layout=hold)
    session.act({"type": "first_attacker", "seat": NORTH})

    events = _seen(session, "0.attacker", "osprey")
    assert events[0]["text"] == "North attacks with Osprey (Red, 32 years)"
    _seen(session, "0.support", "mallard")
    _seen(session, "0.support", "rock-dove")
    assert session.view()["zones"]["0.support"]["summary"] == "2 cards · support 64 of 32 ✓"
    events = _gone(session, "0.support", "mallard")                   # changed her mind
    assert events[0]["type"] == "withdraw"
    assert session.view()["zones"]["0.support"]["cards"] == [cid("rock-dove")]

    # South puts a card down too early: rejected with the reason, nothing logged
    logged = len(session.actions)
    events = _seen(session, "1.attacker", "lion")
    assert events[0]["type"] == "rejected"
    assert events[0]["text"] == "it is North's attack: South waits until North presses done"
    assert len(session.actions) == logged
    _gone(session, "1.attacker", "lion")

    session.confirm(NORTH)                                              # done: 35 ≥ 32
    assert session.view()["phase"] == "counter"
    _seen(session, "1.attacker", "eurasian-magpie")
    _seen(session, "1.support", "house-sparrow")
    session.confirm(SOUTH)
    events = session.confirm(NORTH)                                     # resolve
    result = next(e for e in events if e["type"] == "battle_result")
    assert result["winner"] == NORTH
    assert result["text"] == ("North wins battle 1, 32 to 22. South's 2 cards go to the graveyard, "
                              "North's 2 to the discard pile")
    view = session.view(None)
    assert view["active_seat"] == NORTH and view["awaiting"] == "choice"
    assert {c["id"]: c["value"] for c in view["counters"] if c["seat"] == SOUTH} == {
        "deck.1": 43, "hand.1": 5, "discard.1": 0, "graveyard.1": 2, "in_play.1": 0}
    assert set(view["detail"]["graveyard"][SOUTH]) == {cid("eurasian-magpie"), cid("house-sparrow")}
    session.act({"type": "call", "seat": NORTH})
    assert session.view()["active_seat"] == NORTH


def test_a_session_refuses_a_scan_of_the_other_players_card(store):
    _tags(store, "lion")
    session = Session.start(store, "lifeforce", {}, seed=5)
    session.act({"type": "first_attacker", "seat": NORTH})
    events = _seen(session, "0.attacker", "lion")
    assert events == [{"type": "rejected", "pad": "0.attacker", "zone": "0.attacker", "card": cid("lion"),
                       "text": "Lion is not in North's deck: it belongs on South's side of the table"}]
    assert session.actions == [{"type": "first_attacker", "seat": NORTH}]


# ---- records and replays -------------------------------------------------------------------

def _random_game(seed):
    return random_game(RULES, seed)


def test_a_random_game_replays_from_its_record_to_the_same_state():
    """A game is its record: options + seed + actions rebuild the same final state."""
    options, actions, final = _random_game(21)
    record = json.loads(json.dumps(make_record(RULES, options, 21, actions, final)))
    rules, state = replay(record)
    assert rules is RULES and state == final
    assert record["summary"]["winner"] == final["winner"]


def test_a_tampered_record_names_the_bad_action():
    options, actions, final = _random_game(22)
    record = json.loads(json.dumps(make_record(RULES, options, 22, actions, final)))
    n = next(i for i, a in enumerate(record["actions"]) if a["type"] == "done")
    record["actions"][n]["seat"] = 1 - record["actions"][n]["seat"]
    with pytest.raises(RecordError, match=f"action {n + 1} "):
        replay(record)


def test_companion_replay_prints_the_summary(tmp_path, capsys):
    options, actions, final = _random_game(23)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(make_record(RULES, options, 23, actions, final)))
    assert cli.main(["replay", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["winner"] == final["winner"] and len(summary["battles"]) == len(final["battles"])
    assert summary["counts"][0]["graveyard"] == final["graveyard"][0].bit_count()


# ---- random games: properties ---------------------------------------------------------------

def test_property_random_games_end_and_every_card_is_always_in_exactly_one_place():
    """Issue 3: random legal games always end; the 50 cards of each player are always accounted
    for in exactly one place (deck, hand, discard, graveyard, in play — and the piles and the
    table never share a card)."""
    seen = {"reshuffle": 0, "stalemate": 0, "game_over": 0}
    reasons = set()

    def check(state, action, new, events):
        for seat in (0, 1):
            assert accounted(new, seat) == 50
            assert new["hand"][seat] >= 0 and new["deck"][seat] >= 0
            piles = (new["discard"][seat], new["graveyard"][seat], new["table"][seat])
            assert piles[0] & piles[1] == piles[0] & piles[2] == piles[1] & piles[2] == 0
            assert all(p & ~new["deckmask"][seat] == 0 for p in piles)
        for e in events:
            if e["type"] in seen:
                seen[e["type"]] += 1

    for seed in range(60):
        final = RULES.playout(None, seed, on_apply=check)
        assert RULES.is_over(final)
        reasons.add(final["reason"].split(" ", 1)[1][:12])
    assert seen["game_over"] == 60
    assert seen["reshuffle"] > 0 and seen["stalemate"] > 0
    assert len(reasons) >= 2


def test_property_random_actions_are_legal_and_apply_never_mutates_its_input():
    rng = Rng(99)
    # three whole games (some 2,000 actions each, now that "cannot support" ends a game only when it is true)
    for seed in range(3):
        state = RULES.setup(RULES.normalise_options({}), seed)
        while not RULES.is_over(state):
            action = RULES.random_action(state, rng)
            assert action in RULES.legal_actions(state)
            before = copy.deepcopy(state)
            new, _ = RULES.apply(state, action)
            assert state == before and new is not state
            state = new


def test_the_random_player_draws_once_a_decision_as_rng_draw_does():
    """random_action writes Rng.draw's step out (it runs on every action of a random game): the
    generator must move exactly as one draw() moves it, or the same seed would not make the same
    game as the generator's own draw."""
    state, rng = RULES.setup(RULES.normalise_options({}), 7), Rng(7)
    for _ in range(120):
        twin = Rng(rng.state)
        twin.draw()
        action = RULES.random_action(state, rng)
        assert rng.state == twin.state, action
        state, _ = RULES.apply(state, action)
        if RULES.is_over(state):
            break


def test_every_listed_legal_action_applies():
    state = RULES.setup(RULES.normalise_options({}), 4)
    rng = Rng(4)
    for _ in range(150):
        if RULES.is_over(state):
            break
        for action in RULES.legal_actions(state):
            RULES.apply(state, action)
        state, _ = RULES.apply(state, RULES.random_action(state, rng))


def test_view_has_the_standard_keys_and_no_seat_sees_more_than_the_table():
    """Nothing on the Lifeforce table is face down and hands are never known: every seat and the
    shared screen see the same view."""
    state = RULES.playout(None, 3, max_actions=100_000)
    for s in (state, _started()):
        shared = RULES.view(s, None)
        assert {"game", "active_seat", "phase", "phase_label", "awaiting", "counters", "zones", "over",
                "result", "players", "detail"} <= set(shared)
        assert RULES.view(s, 0) == RULES.view(s, 1) == shared
    json.dumps(shared)


# ---- the benchmark ----------------------------------------------------------------------------

def test_bench_engines_counts_whole_random_games():
    figures = bench_engine("lifeforce", seconds=0.2)
    assert figures["games_per_second"] > 0 and figures["actions_timed"] > 0
