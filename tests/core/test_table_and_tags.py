"""Tags (UID → card) and table profiles (pad → zone)."""
import pytest

from companion.games import get
from companion.table import (GONE, SEEN, Layout, PadEvent, ProfileError, TableState, UnknownTag, UnusedPad,
                             ZoneChange, load_profile, parse_profile)
from companion.tags import BadUid, normalise_uid, virtual_uid


@pytest.mark.parametrize("raw, expected", [
    ("04:a2:b3:c4", "04A2B3C4"),                        # 4 bytes (MIFARE Classic)
    ("04 A2 B3 C4 D5 E6 80", "04A2B3C4D5E680"),         # 7 bytes (NTAG213/215)
    ("04a2b3c4d5e6808182a0", "04A2B3C4D5E6808182A0"),   # 10 bytes
    (b"\x04\xa2\xb3\xc4", "04A2B3C4"),
])
def test_uids_of_every_length_are_normalised(raw, expected):
    assert normalise_uid(raw) == expected


@pytest.mark.parametrize("raw, message", [("04A2B3", "3 bytes"), ("xyz", "not a hex UID"), ("04A2B3C4D5", "5 bytes")])
def test_bad_uids_are_refused_with_the_reason(raw, message):
    with pytest.raises(BadUid, match=message):
        normalise_uid(raw)


def test_registry_maps_uids_to_cards_and_forgets(store):
    store.tags.register("04:a2:b3:c4:d5:e6:80", "sams.7h")
    assert store.tags.lookup("04A2B3C4D5E680") == "sams.7h"
    assert store.tags.uids_of("sams.7h") == ["04A2B3C4D5E680"]
    store.tags.register("04A2B3C4D5E680", "sams.8h")              # re-registering moves the tag
    assert store.tags.lookup("04a2b3c4d5e680") == "sams.8h"
    store.tags.forget("04A2B3C4D5E680")
    assert store.tags.lookup("04A2B3C4D5E680") is None


def test_virtual_uids_are_stable_seven_byte_nxp_uids():
    uid = virtual_uid("sams.7h")
    assert uid == virtual_uid("sams.7h") and uid.startswith("04") and len(bytes.fromhex(uid)) == 7
    assert uid != virtual_uid("sams.8h")


def test_table_state_turns_pad_events_into_zone_changes():
    layout = Layout("sams", {"n1": "0.lane1", "n2": "0.lane2"})
    cards = {"04000001": "sams.7h", "04000002": "sams.8h"}
    table = TableState(layout, cards.get)
    assert table.feed(PadEvent("n1", "04000001", SEEN)) == [ZoneChange("n1", "0.lane1", "sams.7h", True, "04000001")]
    assert table.feed(PadEvent("n1", "04000001", SEEN)) == []                 # a repeat is no change
    assert table.feed(PadEvent("n1", "0400BEEF", SEEN)) == [UnknownTag("n1", "0400BEEF")]
    assert table.feed(PadEvent("x9", "04000002", SEEN)) == [UnusedPad("x9", "04000002", "sams.8h")]
    # seen on a second pad while still on the first: it moved
    assert table.feed(PadEvent("n2", "04000001", SEEN)) == [
        ZoneChange("n1", "0.lane1", "sams.7h", False, "04000001"),
        ZoneChange("n2", "0.lane2", "sams.7h", True, "04000001")]
    assert table.feed(PadEvent("n2", "04000001", GONE))[0].present is False
    assert table.feed(PadEvent("n2", "04000001", GONE)) == []


def test_pad_event_kind_is_checked():
    with pytest.raises(ValueError, match="seen"):
        PadEvent("n1", "04000001", "here")


PROFILE = """
name = "two lanes"
[[readers]]
id = "a"
kind = "rc522"
pads = ["n1"]
[[readers]]
id = "b"
kind = "rc522"
pads = ["s1"]
[layouts.sams]
n1 = "0.lane1"
s1 = "1.lane1"
"""


def test_profile_file_loads_layouts(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(PROFILE)
    profile = load_profile(path)
    assert profile.pads == ["n1", "s1"] and profile.layout("sams").zone_of("s1") == "1.lane1"
    with pytest.raises(ProfileError, match="no \\[layouts.vitaluna\\]"):
        profile.layout("vitaluna")
    zones = [z.id for z in get("sams").zones({})]
    with pytest.raises(ProfileError, match="no pad for zone"):
        profile.layout("sams").validate(zones, str(path))


@pytest.mark.parametrize("text, message", [
    ("name = 'x'\n[layouts.sams\n", "not valid TOML"),
    (PROFILE.replace('pads = ["s1"]', 'pads = ["n1"]'), "listed by two readers"),
    (PROFILE + 'q9 = "0.lane2"\n', "uses pads no reader has: q9"),
    (PROFILE.replace('pads = ["s1"]', 'pads = "s1"'), r"t.toml, line 10: readers\[1\].pads: 's1' is not of type 'array'"),
])
def test_broken_profiles_are_refused_with_every_problem(tmp_path, text, message):
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ProfileError, match=message):
        load_profile(path)


def test_missing_profile_file():
    with pytest.raises(ProfileError, match="no such table profile"):
        load_profile("/nonexistent/table.toml")


def test_layout_names_unknown_zones():
    layout = Layout("sams", {"p": "0.lane9"})
    with pytest.raises(ProfileError, match="'0.lane9', which sams does not have"):
        layout.validate([z.id for z in get("sams").zones({})])


def test_players_own_cards_are_merged_over_the_shipped_catalogue(tmp_path):
    """Issue 2/3/4/6: the catalogue format lets a player add their own printed cards."""
    import json
    from companion.cards import load_catalogue, user_problems
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "sams.json").write_text(json.dumps({"game": "sams", "format": 1, "cards": [
        {"id": "sams.7h", "name": "Seven of Hearts (gold foil)", "attrs": {"rank": 7, "suit": "hearts"}}]}))
    merged = load_catalogue("sams", user_dir=tmp_path)
    assert merged["sams.7h"].name == "Seven of Hearts (gold foil)" and len(merged) == 36
    assert load_catalogue("sams")["sams.7h"].name == "7 of Hearts"
    (tmp_path / "cards" / "sams.json").write_text('{"game": "sams", "cards": [{"id": "chess.king", "name": "K"}]}')
    # A broken file of the players' never hides the game: the shipped cards stay, the reason is kept.
    assert load_catalogue("sams", user_dir=tmp_path)["sams.7h"].name == "7 of Hearts"
    assert "does not start with 'sams.'" in user_problems()["sams"]


def test_a_piles_cards_laid_again_after_its_notice_enter_their_zone_once():
    """docs/hardware/tables.md, "A pile's cards laid again": the notice asks the player to lift the pile off and
    lay its cards one at a time; a card of the pile already counted on that tap pad, laid again, is no second
    entry — within RELAY_S of the notice and on that pad only; a card first read after the notice counts once."""
    from companion.table import RELAY_S, UNREAD
    layout = Layout("sams", {"n1": "0.lane1", "n2": "0.lane2"}, {"n1": "tap", "n2": "tap"})
    state = TableState(layout, lambda uid: {"A1": "c1", "B2": "c2", "C3": "c3", "D4": "c4"}.get(uid))

    def entries(*events):
        return [(s.pad, s.card_id) for ev in events for s in state.feed(ev) if isinstance(s, ZoneChange) and s.present]
    # a slap: A read and counted, then the pile (A, B, C) cannot be read: the notice
    assert entries(PadEvent("n1", "A1", SEEN, 10.0), PadEvent("n1", "", UNREAD, 10.3)) == [("n1", "c1")]
    # the pile comes off, then its cards are laid one at a time: A again (already counted), B and C (new)
    assert entries(PadEvent("n1", "A1", GONE, 11.5), PadEvent("n1", "B2", GONE, 11.5)) == []
    assert entries(PadEvent("n1", "A1", SEEN, 12.0), PadEvent("n1", "A1", GONE, 12.3)) == []
    assert entries(PadEvent("n1", "B2", SEEN, 12.8), PadEvent("n1", "B2", GONE, 13.1)) == [("n1", "c2")]
    assert entries(PadEvent("n1", "C3", SEEN, 13.6), PadEvent("n1", "C3", GONE, 13.9)) == [("n1", "c3")]
    # laid a second time ("each until it is read"): still once
    assert entries(PadEvent("n1", "B2", SEEN, 14.4)) == []
    # the same card on another pad is another play; a card never in the pile counts as always
    assert entries(PadEvent("n2", "A1", SEEN, 14.5), PadEvent("n1", "D4", SEEN, 14.6)) == [("n2", "c1"), ("n1", "c4")]
    # after the window a tap of A on n1 is a play again
    assert entries(PadEvent("n1", "A1", SEEN, 10.3 + RELAY_S + 1)) == [("n1", "c1")]


def test_a_pads_unread_notice_names_it_as_the_board_does_and_says_what_to_do_by_its_mode(store):
    """Issue 23, deliverable 2: the player is told which pad and "lay the cards one at a time" — the pad named
    by its zone's label, as the board names it (the players' names, not a pad id); a tap pad's cards then go
    onto its pile, a hold pad keeps only the card that belongs there (its zone holds one card)."""
    from companion.session import Session
    from companion.simulate import register_virtual_tags
    from companion.table import UNREAD
    register_virtual_tags(store, "lifeforce")
    layout = Layout("lifeforce", {"n-a": "0.attacker", "n-s": "0.support", "x9": "nowhere"},
                    {"n-a": "hold", "n-s": "tap"})
    session = Session.start(store, "lifeforce", {"players": ["Ada", "Bo"]}, seed=1, layout=layout)
    said = {}
    for pad in ("n-a", "n-s", "x9"):
        said[pad] = [e["text"] for e in session.handle_pad_event(PadEvent(pad, "", UNREAD, 1.0))
                     if e["type"] == "unread_cards"]
    assert said["n-s"] == ["Ada support: a card could not be read (cards on top of each other). Lift them off and "
                           "lay the cards one at a time, each until it is read, then onto its pile"]
    assert said["n-a"] == ["Ada attacker: a card could not be read (cards on top of each other). Lift them off and "
                           "lay the cards one at a time, each until it is read, then leave only the card that "
                           "belongs there"]
    assert said["x9"][0].startswith("Pad x9: a card could not be read")
