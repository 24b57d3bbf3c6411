"""Arcmage at the table: zones, the default table profile, pad events through a real session
(SQLite), hidden information, game records and replays, random games, the benchmark."""
import json
from pathlib import Path

import pytest

from companion import cli
from companion.engine import IllegalAction, redact_event
from companion.games.arcmage import RULES
from companion.games.arcmage.cards import kind as card_kind
from companion.games.arcmage.state import PILES, main_cards_accounted
from companion.records import RecordError, make_record, replay
from companion.session import Session
from companion.table import PadEvent, load_profile
from companion.tags import virtual_uid

from .play import GAIAN_CHAPTER, LEGION_CHAPTER, NORTH, SOUTH, act, cid, end_turn, gold, put, started, to_phase
from tests.games.playouts import random_game

PROFILE = Path(__file__).resolve().parents[3] / "firmware_config" / "tables" / "arcmage.toml"


# ---- zones and the table profile ---------------------------------------------------------

def test_zones_are_front_three_domain_tops_region_vault_and_play_pad_per_player():
    """Issue 6: 'pads for the Front, the top of each of the three domains, the active region, the vault
    and a hand-off pad for scanning cards into play' — per player, as the rules text's 'Table Layout'
    gives every player the same areas."""
    zones = {z.id: z for z in RULES.zones(RULES.normalise_options({}))}
    kinds = ("front", "politics", "science", "faith", "region", "vault", "handoff")
    assert set(zones) == {f"{seat}.{k}" for seat in (0, 1) for k in kinds}
    assert zones["1.vault"].seat == SOUTH and zones["0.front"].stack and not zones["0.handoff"].stack
    assert zones["0.faith"].label == "North: Faith domain (top)"


def test_default_table_profile_maps_fourteen_bridge_pads_to_the_zones():
    profile = load_profile(PROFILE)
    layout = profile.layout("arcmage")
    layout.validate([z.id for z in RULES.zones(RULES.normalise_options({}))], str(PROFILE))
    assert layout.zone_of("s-play") == "1.handoff" and layout.zone_of("n-faith") == "0.faith"
    assert [r["kind"] for r in profile.raw["readers"]] == ["bridge"] and len(profile.pads) == 14


# ---- interpreting sightings --------------------------------------------------------------

def test_what_a_card_on_each_pad_means():
    s = RULES.setup(RULES.normalise_options({}), 1)
    assert RULES.interpret(s, "0.region", cid("sacred-grove"), True) == {
        "type": "region", "seat": NORTH, "card": cid("sacred-grove")}
    s = gold(started(), NORTH, 3)                                                  # three Ghouls in the vault
    s, _ = to_phase(s, "play1")
    assert RULES.interpret(s, "0.handoff", cid("living-bow"), True) == {
        "type": "play", "seat": NORTH, "card": cid("living-bow")}
    action = RULES.interpret(s, "0.vault", cid("bribe"), True)
    assert action == {"type": "resource", "seat": NORTH, "card": cid("bribe")}
    assert RULES.interpret(s, "0.vault", cid("ghoul"), True) == {                 # a fourth Ghoul (own tag)
        "type": "resource", "seat": NORTH, "card": cid("ghoul")}
    s, _ = RULES.apply(s, action)
    assert RULES.interpret(s, "0.vault", cid("ghoul"), True) is None              # vault done: put back
    s, _ = to_phase(s, "entrance")
    action = RULES.interpret(s, "0.science", cid("elf-druid"), True)
    assert action == {"type": "enter", "seat": NORTH, "card": cid("elf-druid"), "to": "science"}
    assert RULES.scan_for(s, action) == ("0.science", cid("elf-druid"))
    s, _ = RULES.apply(s, action)
    assert RULES.interpret(s, "0.science", cid("elf-druid"), True) == action      # Entrance: a second copy
    assert RULES.scan_for(s, action) is None           # the simulated table has one tag per card: the screen
    assert RULES.interpret(s, "0.science", cid("elf-druid"), False) is None       # lifted to read it
    s, _ = to_phase(s, "discard")
    assert RULES.interpret(s, "0.science", cid("elf-druid"), True) is None        # put back


def test_a_top_servant_placed_on_the_front_in_a_move_phase_moves():
    s = started()
    s, druid = put(s, NORTH, "faith", "elf-druid")
    s, _ = to_phase(s, "move1")
    action = RULES.interpret(s, "0.front", cid("elf-druid"), True)
    assert action == {"type": "move", "seat": NORTH, "card": druid, "to": "front"}
    assert RULES.scan_for(s, action) == ("0.front", cid("elf-druid"))


def test_a_wrong_scan_is_refused_saying_where_the_card_belongs():
    s, _ = to_phase(started(), "play1")
    with pytest.raises(IllegalAction, match=r"Wild Boar enters play in your Entrance phase \(now: Play phase\). "
                                            "Take it back into your hand."):
        RULES.interpret(s, "0.front", cid("wild-boar"), True)
    with pytest.raises(IllegalAction, match="Wild Boar is a creature: put it on your Front pad or on top of a domain pad"):
        RULES.interpret(s, "0.handoff", cid("wild-boar"), True)
    with pytest.raises(IllegalAction, match="Necropolis is a region: it belongs on the region pad"):
        RULES.interpret(s, "1.front", cid("necropolis"), True)
    with pytest.raises(IllegalAction, match="Bribe is not a creature: only creatures go into a domain"):
        RULES.interpret(s, "0.faith", cid("bribe"), True)


def test_lifting_a_card_waiting_for_its_target_takes_it_back():
    s, _ = to_phase(gold(started(), NORTH, 3), "play1")
    s, _ = RULES.apply(s, RULES.interpret(s, "0.handoff", cid("thorn-wall"), True))
    assert RULES.view(s, None)["awaiting"] == "choice" and "area:0:front" in RULES.view(s, None)["detail"]["targets"]
    assert RULES.interpret(s, "0.handoff", cid("thorn-wall"), False) == {"type": "cancel", "seat": NORTH}


def test_the_confirm_button_means_ready_next_done_blocking_resolve():
    s = RULES.setup(RULES.normalise_options({}), 1)
    assert RULES.confirm_action(s, NORTH) is None                                   # no region yet
    s, _ = act(s, "region", NORTH, card=cid("sacred-grove"))
    assert RULES.confirm_action(s, NORTH) == {"type": "ready", "seat": NORTH}
    s, _ = to_phase(started(), "draw")
    assert RULES.confirm_action(s, NORTH) == {"type": "draw", "seat": NORTH}          # one card must be drawn
    s, _ = act(s, "draw", NORTH)
    assert RULES.confirm_action(s, NORTH) == {"type": "next", "seat": NORTH}
    s, _ = to_phase(s, "move1")
    assert RULES.confirm_action(s, NORTH) == {"type": "next", "seat": NORTH}
    assert RULES.confirm_action(s, SOUTH) is None
    s, boar = put(s, NORTH, "front", "wild-boar")
    s, _ = act(s, "attack", NORTH, attackers=[boar])
    assert RULES.confirm_action(s, SOUTH) == {"type": "blocks_done", "seat": SOUTH}
    s, _ = act(s, "blocks_done", SOUTH)
    assert RULES.confirm_action(s, NORTH) == {"type": "resolve", "seat": NORTH}


# ---- hidden information ------------------------------------------------------------------

def test_the_vault_and_the_chapter_under_the_active_region_stay_hidden():
    """Rules text: resources are put 'face down in the Vault'; the chapter 'keeps your region cards face
    down, with only one active region turned face up'."""
    s = RULES.setup(RULES.normalise_options({}), 3)
    s, events = act(s, "region", NORTH, card=cid("sacred-grove"))
    assert redact_event(events[0], None)["text"] == "North puts a region in the chapter."
    assert "Sacred Grove" not in json.dumps(RULES.view(s, None)) + json.dumps(RULES.view(s, SOUTH))
    s = started()
    s, _ = to_phase(s, "play1")
    s, events = act(s, "resource", NORTH, card=cid("bone-dragon"))
    for seat in (None, SOUTH):
        shown = json.dumps(RULES.view(s, seat)) + json.dumps([redact_event(e, seat) for e in events])
        assert "bone-dragon" not in shown and "Bone Dragon" not in shown
        assert "heart-of-the-forest" not in shown and "sacred-grove" not in shown
        assert RULES.view(s, seat)["zones"]["0.vault"]["cards"] == [{"hidden": True}]
        assert RULES.view(s, seat)["zones"]["0.region"]["cards"] == [cid("whispering-woods"), {"hidden": True}, {"hidden": True}]
    assert RULES.view(s, NORTH)["zones"]["0.vault"]["cards"] == [cid("bone-dragon")]
    # the moves a screen may turn into buttons say nothing about the vault either
    s = end_turn(end_turn(s))
    s, _ = to_phase(s, "play1")
    offered = [a for a in RULES.legal_actions(s) if a["type"] == "resource"]
    assert cid("bone-dragon") in {a["card"] for a in offered}
    assert all(RULES.scan_for(s, a) == ("0.vault", a["card"]) for a in offered)


# ---- a real session fed with pad events --------------------------------------------------

def _seen(session, pad, slug):
    return session.handle_pad_event(PadEvent(pad=pad, uid=virtual_uid(cid(slug)), kind="seen"))


def _gone(session, pad, slug):
    return session.handle_pad_event(PadEvent(pad=pad, uid=virtual_uid(cid(slug)), kind="gone"))


def test_a_game_started_and_played_with_pad_events_and_the_screen(store):
    slugs = GAIAN_CHAPTER + LEGION_CHAPTER + ["wild-boar", "ghoul", "orc-raider"]
    for slug in slugs:
        store.tags.register(virtual_uid(cid(slug)), cid(slug))
    session = Session.start(store, "arcmage", {"vp_target": 5}, seed=4)
    _seen(session, "0.region", GAIAN_CHAPTER[0])
    # a region of another faction on North's face-down chapter: refused, but not named on the shared screen
    refused = session.public_events(_seen(session, "0.region", LEGION_CHAPTER[0]))[0]
    assert refused["type"] == "rejected" and refused["text"].startswith("That card is Dark Legion")
    assert "Cursed Marshes" not in json.dumps(refused) and cid(LEGION_CHAPTER[0]) not in json.dumps(refused)
    _gone(session, "0.region", LEGION_CHAPTER[0])
    for slug in GAIAN_CHAPTER[1:]:
        _seen(session, "0.region", slug)
    for slug in LEGION_CHAPTER:
        _seen(session, "1.region", slug)
    session.confirm(NORTH)
    session.confirm(SOUTH)
    view = session.view(None)
    assert view["phase"] == "unmark" and view["active_seat"] == NORTH
    assert view["detail"]["players"][NORTH]["region"]["name"] == "Whispering Woods"
    for _ in range(3):
        session.confirm(NORTH)                                        # unmark → upkeep → tactical → draw
    session.act({"type": "draw", "seat": NORTH})
    session.confirm(NORTH)                                            # → Play phase
    events = _seen(session, "0.vault", "ghoul")
    assert redact_event(events[0], None)["text"] == "North puts a card face down into the vault."

    logged = len(session.actions)
    events = _seen(session, "0.front", "wild-boar")                   # too early: rejected, nothing logged
    assert events[0]["type"] == "rejected"
    assert events[0]["text"] == "Wild Boar enters play in your Entrance phase (now: Play phase). Take it back into your hand."
    assert len(session.actions) == logged
    session.handle_pad_event(PadEvent(pad="0.front", uid=virtual_uid(cid("wild-boar")), kind="gone"))

    session.act({"type": "next", "seat": NORTH, "to": "entrance"})
    events = _seen(session, "0.front", "wild-boar")
    assert events[0]["text"] == "North pays 1 gold: Wild Boar (2/1) enters the Front."
    assert session.view(None)["zones"]["0.front"]["cards"] == [cid("wild-boar")]
    assert session.view(None)["detail"]["players"][NORTH]["hand"] == 6   # 7 + 1 − vault − boar
    session.confirm(NORTH)                                            # → Discard
    session.confirm(NORTH)                                            # → South's turn
    assert session.view(None)["active_seat"] == SOUTH
    session.undo()
    assert session.view(None)["active_seat"] == NORTH and session.view(None)["phase"] == "discard"


# ---- records and replays -------------------------------------------------------------------

def _random_game(seed):
    return random_game(RULES, seed)


def test_a_random_game_replays_from_its_record_to_the_same_state():
    """A game is its record: options + seed + actions rebuild the same final state."""
    options, actions, final = _random_game(21)
    record = json.loads(json.dumps(make_record(RULES, options, 21, actions, final)))
    rules, state = replay(record)
    assert rules is RULES and state == final
    assert record["summary"]["result"] == final["result"]


def test_a_tampered_record_names_the_bad_action():
    options, actions, final = _random_game(22)
    record = json.loads(json.dumps(make_record(RULES, options, 22, actions, final)))
    n = next(i for i, a in enumerate(record["actions"]) if a["type"] == "draw")
    record["actions"][n]["seat"] = 1 - record["actions"][n]["seat"]
    with pytest.raises(RecordError, match=f"action {n + 1} .*illegal: It is North's turn, not South's|"
                                          f"action {n + 1} .*illegal: It is South's turn, not North's"):
        replay(record)


def test_companion_replay_prints_the_summary(tmp_path, capsys):
    options, actions, final = _random_game(23)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(make_record(RULES, options, 23, actions, final)))
    assert cli.main(["replay", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["result"] == final["result"] and summary["turn"] == final["turn"]
    assert summary["battles"] == final["battles"] and all(b["outcome"] in ("win", "tie", "draw") for b in summary["battles"])
    assert [p["vp"] for p in summary["players"]] == [final["p"][0]["vp"], final["p"][1]["vp"]]


# ---- random games: properties ---------------------------------------------------------------

def _places(state):
    """Every card instance in play or face down on the table, with where it is."""
    out = []
    for seat in (0, 1):
        p = state["p"][seat]
        for pile in PILES:
            for c in p[pile]:
                out.append(c["id"])
                out += [e["id"] for e in c["equip"]] + [sp["id"] for sp in c["spells"]]
        out += [r["id"] for r in p["vault"]] + [r["id"] for r in p["chapter"]]
        out += [e["id"] for e in p["dropped"]] + [sp["id"] for sp in p["spells"]]
    return out


def _unlabelled(action):
    return {k: v for k, v in action.items() if k != "label"}


def test_property_random_games_end_and_every_card_is_always_in_exactly_one_place():
    """Issue 6: 'random legal games always end or reach a turn limit without error, and each card is always
    in exactly one zone': no card instance in two places, each player's 60 main cards all accounted for
    (deck, hand, vault, grave, in play, removed), the regions too; apply never changes its input."""
    outcomes = set()
    checks = {"n": 0}

    def check(before, action, after, events):
        checks["n"] += 1
        places = _places(after)
        assert len(places) == len(set(places)), action
        for seat in (0, 1):
            assert main_cards_accounted(after, seat, lambda c: card_kind(c) == "region") == 60, action
            p = after["p"][seat]
            assert min(p["deck"], p["hand"]) >= 0
            if after["phase"] != "setup":
                regions = len(p["chapter"]) + sum(1 for g in p["grave"] if g and card_kind(g) == "region")
                assert 1 <= regions <= 3
        if checks["n"] % 97 == 0:
            frozen = json.dumps(before, sort_keys=True)
            RULES.apply(before, action)
            assert json.dumps(before, sort_keys=True) == frozen          # the input is untouched
            assert action in [_unlabelled(a) for a in RULES.legal_actions(before)]   # sampled legally
            for seat in (None, NORTH, SOUTH):
                json.dumps(RULES.view(after, seat))                      # every screen renders, as JSON

    for seed in range(40):
        options = {"vp_target": 2} if seed % 4 == 0 else {}
        final = RULES.playout(options, seed, on_apply=check)
        assert RULES.is_over(final) and final["turn"] < 200
        assert json.loads(json.dumps(final)) == final                       # plain JSON data, no tuples
        outcomes.add(final["result"]["how"])
    assert {"deck_out", "regions"} <= outcomes        # VP wins: see test_rules (random play rarely dominates)


def test_bench_engines_reports_turns_per_second(capsys):
    """Issue 6: '`companion bench engines` adds Arcmage: random turns per second'."""
    assert cli.main(["bench", "engines", "--game", "arcmage", "--seconds", "0.3"]) == 0
    figures = json.loads(capsys.readouterr().out)["engines"]["arcmage"]
    assert figures["turns_per_second"] > 0 and figures["units_completed"] > 0


def test_a_random_game_plays_through_the_simulated_table():
    """`companion simulate --game arcmage`: regions, vault cards, creatures and played cards are put on
    pads (virtual tags through a real session); the rest is done on the screen."""
    from companion.simulate import simulate
    outcome = simulate(game="arcmage", seed=2)
    assert outcome["summary"]["over"] and outcome["played_by_placing_cards"] >= 6   # at least the regions
