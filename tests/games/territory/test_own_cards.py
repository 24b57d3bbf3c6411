"""Players' own cards (issue 5, Deliver 1: the designer) played at the table.

A game that uses designed cards carries them in its setup options, so its record replays anywhere.
"""
import json

import pytest

from companion import records
from companion.engine import IllegalAction
from companion.games.territory import RULES

from .play import T, act, battle

OWN = {
    "biomes": [{"id": "moor", "name": "Moor", "counts_as": "swamp", "why": "wet peat, like a swamp"}],
    "cards": [
        {"id": "territory.nessie", "name": "Nessie", "attrs": {
            "kind": "creature", "species": "Lake Monster", "types": ["aquatic", "reptile"], "base_power": 4,
            "biomes": {"lake": 3, "mountain": -2},
            "abilities": [{"name": "Wave", "when": "activated", "costs": [{"type": "rest", "amount": 1}],
                           "effects": [{"type": "damage", "target": "enemies", "amount": 1}]}],
            "cost": 11, "stars": 2}},
        {"id": "territory.black-moor", "name": "Black Moor", "attrs": {
            "kind": "land", "biome": "moor",
            "passive": {"name": "Peat", "effects": [{"type": "power", "amount": 1, "of_type": "reptile"}]}}},
    ],
}


def test_designed_cards_play_and_replay():
    """Nessie (4, Lake +3) on a Moor (counts as Swamp, reptiles +1 power): 4 + 0 + 1 = 5; Wave deals 1 to Pike
    (2 → 1)."""
    options = RULES.normalise_options({"cards": OWN})
    s = RULES.setup(options, 4)
    actions = [{"type": "register", "seat": 0, "creature": T("nessie")},
               {"type": "register", "seat": 1, "creature": T("pike")},
               {"type": "done", "seat": 0}, {"type": "done", "seat": 1},
               {"type": "deal", "land": T("black-moor")}]
    actions += [{"type": "deal", "land": T(l)} for l in ("pine-forest", "grey-peaks", "still-lake", "oasis")]
    actions += [{"type": "deploy", "seat": 0, "creature": T("nessie"), "slot": 0},
                {"type": "deploy", "seat": 1, "creature": T("pike"), "slot": 0},
                {"type": "done", "seat": 0}, {"type": "done", "seat": 1},
                {"type": "activate", "seat": 0, "creature": T("nessie"), "ability": 0}]
    for a in actions:
        s = act(s, a)
    assert s["battles"][0]["totals"] == [5, 1] and s["claimed"][0] == [T("black-moor")]
    assert s["resting"][0] == {T("nessie"): 1}
    record = json.loads(json.dumps(records.make_record(RULES, options, 4, actions, s)))
    assert records.replay(record)[1] == s


def test_designed_card_cannot_take_a_shipped_id():
    bad = {"cards": [{"id": "territory.ash", "name": "Not Ash", "attrs": {"kind": "creature", "base_power": 9}}]}
    with pytest.raises(IllegalAction, match="territory.ash is already a card .*its own id"):
        RULES.setup(RULES.normalise_options({"cards": bad}), 1)


def test_designed_card_the_engine_cannot_play_is_refused_with_the_reason():
    bad = {"cards": [{"id": "territory.gremlin", "name": "Gremlin", "attrs": {
        "kind": "creature", "base_power": 1,
        "abilities": [{"name": "Chaos", "effects": [{"type": "swap", "target": "all"}]}]}}]}
    with pytest.raises(IllegalAction, match=r"territory.gremlin \(Gremlin\): ability 1, ability 'Chaos'.*'swap'"):
        RULES.setup(RULES.normalise_options({"cards": bad}), 1)


def test_designed_card_with_a_wrong_printed_cost_is_refused():
    """Rules, Total Cost: the cost follows from the stats; a card printed with another cost is caught."""
    wrong = json.loads(json.dumps(OWN))
    wrong["cards"][0]["attrs"]["cost"] = 9
    wrong["cards"][0]["id"] = "territory.nessie-2"
    with pytest.raises(IllegalAction, match="says cost 9, 2 stars, but its stats cost 11, 2 stars"):
        RULES.setup(RULES.normalise_options({"cards": wrong}), 1)


def test_all_lands_damage_keeps_face_down_creatures_secret():
    """Hidden information: damage reaching a land not fought yet names its face-down target only to its owner."""
    from companion.engine import redact_event
    caller = {"cards": [{"id": "territory.storm-caller", "name": "Storm Caller", "attrs": {
        "kind": "creature", "species": "Thunder Bird", "types": ["bird"], "base_power": 1,
        "abilities": [{"name": "Storm", "when": "activated", "effects": [
            {"type": "damage", "target": "enemies", "amount": 1, "scope": "all_lands"}]}]}}]}
    s = RULES.setup(RULES.normalise_options({"cards": caller}), 2)
    for a in ([{"type": "register", "seat": 0, "creature": T("storm-caller")},
               {"type": "register", "seat": 1, "creature": T("pike")},
               {"type": "done", "seat": 0}, {"type": "done", "seat": 1}]
              + [{"type": "deal", "land": T(l)} for l in ("pine-forest", "grey-peaks", "still-lake", "oasis",
                                                         "red-dunes")]
              + [{"type": "deploy", "seat": 0, "creature": T("storm-caller"), "slot": 0},
                 {"type": "deploy", "seat": 1, "creature": T("pike"), "slot": 2},
                 {"type": "done", "seat": 0}, {"type": "done", "seat": 1}]):
        s = act(s, a)
    events = []
    s = act(s, {"type": "activate", "seat": 0, "creature": T("storm-caller"), "ability": 0}, events)
    hit = [e for e in events if e["type"] == "damage"][0]
    assert "Pike" in redact_event(hit, 1)["text"]
    for seat in (None, 0):
        assert "Pike" not in redact_event(hit, seat)["text"]
        assert redact_event(hit, seat)["text"] == ("Storm Caller (Thunder Bird)'s damage reaches South's face-down "
                                                   "pile at land 3")
    assert battle(s, 2)["totals"] == [0, 4]                  # Pike 2 − 1 + Lake 3


def test_designed_cards_belong_to_the_games_set_up_with_them():
    """A record must replay anywhere, so a game set up without a designed card cannot use it, even after another
    game on the same companion admitted it."""
    RULES.setup(RULES.normalise_options({"cards": OWN}), 1)
    plain = RULES.setup(RULES.normalise_options({}), 1)
    with pytest.raises(IllegalAction, match="set up without it"):
        act(plain, {"type": "register", "seat": 0, "creature": T("nessie")})
    with pytest.raises(IllegalAction, match="set up without it"):
        RULES.interpret(plain, "0.ready", T("nessie"), True)
