"""Territory at the table: the profile, pad events through a real session, records (issue 5, Deliver 5–6)."""
import json
from pathlib import Path

import pytest

from companion import records
from companion.games.territory import RULES
from companion.session import Session
from companion.table import Layout, PadEvent, load_profile
from companion.tags import virtual_uid

from .play import T

PROFILE = Path(__file__).parents[3] / "firmware_config" / "tables" / "territory.toml"


def test_default_profile_has_a_pad_for_every_zone():
    """Issue 5, Deliver 5: one pad per land per player, a land-deck pad and a ready pad per player."""
    profile = load_profile(PROFILE)
    zones = [z.id for z in RULES.zones(RULES.default_options())]
    profile.layout("territory").validate(zones)
    assert len(zones) == 13 and len(profile.pads) == 13
    assert all(z.stack for z in RULES.zones({}) if ".land" in z.id)


def _seen(session, zone, card):
    return session.handle_pad_event(PadEvent(pad=zone, uid=virtual_uid(card), kind="seen"))


def _gone(session, zone, card):
    return session.handle_pad_event(PadEvent(pad=zone, uid=virtual_uid(card), kind="gone"))


def test_a_round_played_with_pad_events(store):
    for card in ("ash", "fang", "bramble", "pine-forest", "grey-peaks", "still-lake", "green-meadow", "red-dunes",
                 "oasis"):
        store.tags.register(virtual_uid(T(card)), T(card))
    # every pad a hold pad, so that lifting and moving cards reach the engine (the default table taps)
    hold = Layout.identity("territory", [z.id for z in RULES.zones(RULES.normalise_options({}))])
    session = Session.start(store, "territory", {}, seed=5, layout=hold)
    # decks: scan each creature on the ready pad, one at a time
    for zone, card in (("0.ready", "ash"), ("0.ready", "fang"), ("1.ready", "bramble")):
        _seen(session, zone, T(card))
        _gone(session, zone, T(card))
    assert session.state["decks"] == [[T("ash"), T("fang")], [T("bramble")]]
    session.confirm(0)
    session.confirm(1)
    # a land scanned on a land pad is refused, with where it belongs
    rejected = _seen(session, "0.land1", T("oasis"))
    assert rejected[0]["type"] == "rejected" and "scan it on the land-deck pad" in rejected[0]["text"]
    for land in ("pine-forest", "grey-peaks", "still-lake", "green-meadow", "red-dunes"):
        _seen(session, "land_deck", T(land))
        _gone(session, "land_deck", T(land))
    assert session.view()["phase"] == "deploy"
    # deploy face down; a card moved from one pad to another is taken back and deployed again
    _seen(session, "0.land2", T("ash"))
    _seen(session, "0.land1", T("ash"))
    _seen(session, "0.land1", T("fang"))
    assert [r["id"] for r in session.state["slots"][0]["piles"][0]] == [T("ash"), T("fang")]
    assert session.state["slots"][1]["piles"][0] == []
    wrong_side = _seen(session, "0.land1", T("bramble"))
    assert "South's creature: it goes on South's side" in wrong_side[0]["text"]
    # RULINGS, hidden information in refusals: the shared screen reads it without the card, in text or fields
    public = session.public_events(wrong_side)[0]
    assert public["text"] == "The card on North's pad at land 1 is South's creature: it goes on South's side"
    assert "Bramble" not in json.dumps(public) and T("bramble") not in json.dumps(public)
    events = _seen(session, "1.land1", T("bramble"))
    shared = session.public_events(events)
    assert shared[0]["text"] == "South deploys a creature face down at Pine Forest (land 1)"
    assert "Bramble" not in json.dumps(session.view(None)) and T("bramble") not in json.dumps(session.view(0))
    session.confirm(0)
    session.confirm(1)
    assert session.view()["phase"] == "combat" and session.view()["awaiting"] == "choice"
    session.act({"type": "done", "seat": 1})              # South does not Roar: 12 against 7
    assert session.state["claimed"][0] == [T("pine-forest")]
    # next round: Pine Forest's place is empty
    assert "deal land 1" in session.view()["phase_label"]
    late = _seen(session, "0.land2", T("ash"))
    assert "Deploy phase only" in late[0]["text"]


def test_random_game_record_replays_to_the_same_state():
    seen = []
    state = RULES.playout(None, 11, on_apply=lambda s, a, n, e: seen.append(a))
    record = records.make_record(RULES, RULES.normalise_options(None), 11, seen, state)
    rules, replayed = records.replay(json.loads(json.dumps(record)))
    assert replayed == state
    assert rules.summary(replayed)["winner"] == state["winner"]


def test_tampered_record_names_the_bad_entry():
    seen = []
    state = RULES.playout(None, 12, on_apply=lambda s, a, n, e: seen.append(a))
    record = records.make_record(RULES, RULES.normalise_options(None), 12, seen, state)
    n = next(i for i, a in enumerate(seen) if a["type"] == "deploy")
    record["actions"][n] = dict(seen[n], creature=T("no-such-beast"))
    with pytest.raises(records.RecordError, match=f"action {n + 1} .*illegal: .*no-such-beast"):
        records.replay(record)
