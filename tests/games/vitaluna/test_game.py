"""Whole games: properties of random legal play, records, the session with pad events, hidden
information, the catalogue and the table profile."""
import copy
import json
from pathlib import Path

import pytest

from companion import records
from companion.cards import CatalogueError, load_catalogue
from companion.engine import Rng
from companion.games.vitaluna import RULES
from companion.games.vitaluna.cards import EPICS, card_table, user_edits
from companion.session import Session
from companion.table import PadEvent, load_profile
from companion.tags import virtual_uid

from .battle import WALL, act, battle, cid, new_game

ROOT = Path(__file__).resolve().parents[3]
OPTION_SETS = [{}, {"extended": True}, {"advanced": True}, {"advanced": True, "extended": True, "promote_to": "column"}]


def check_invariants(before, action, state, events):
    """Property: no health above printed health, every creature in exactly one place, hearts ≤ 10."""
    table = RULES.table(state)
    places = [c for row in state["board"] for c in row if c] + state["dead"][0] + state["dead"][1] + state["burnt"]
    assert len(places) == len(set(places)), f"a creature is in two places after {action}"
    for card, hp in state["health"].items():
        assert 0 < hp < table[card].health, f"{card} has {hp} health (printed {table[card].health})"
        assert any(card in row for row in state["board"]), f"{card} has health but is not on the board"
    assert all(h <= 10 for h in state["heart"])
    assert not set(state["burnt"]) & set(state["owner"])


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_games_end_and_keep_the_invariants(options):
    """Property (issue 4, Must show): random legal battles always end, health never exceeds printed
    health, every creature is always in exactly one place."""
    battles = 0
    for seed in range(40):
        state = RULES.playout({**options, "card_edits": {}}, seed, on_apply=check_invariants)
        assert RULES.is_over(state) and state["winner"] in (0, 1)
        assert state["track"][state["winner"]] == (3 if options.get("extended") else 2)
        battles += len(state["battles"])
    assert battles >= 80


def test_apply_never_mutates_and_states_are_json():
    """Engine contract: apply never mutates its input; state is plain JSON data."""
    def check(before, action, state, events):
        assert json.loads(json.dumps(state)) == state
        assert json.loads(json.dumps(events)) == events

    def guard(seed):
        rng, state = Rng(seed), RULES.setup(RULES.normalise_options({"card_edits": {}}), seed)
        while not RULES.is_over(state):
            action = RULES.random_action(state, rng)
            snapshot = copy.deepcopy(state)
            new, events = RULES.apply(state, action)
            assert state == snapshot
            check(state, action, new, events)
            state = new
    for seed in range(3):
        guard(seed)


def test_random_action_is_always_legal():
    """random_action samples quickly but only ever returns an action legal_actions lists."""
    for seed, options in enumerate(OPTION_SETS * 2):
        rng = Rng(seed)
        state = RULES.setup(RULES.normalise_options({**options, "card_edits": {}}), seed)
        while not RULES.is_over(state):
            action = RULES.random_action(state, rng)
            assert action in RULES.legal_actions(state), action
            state, _ = RULES.apply(state, action)


def test_a_record_replays_to_the_same_state_and_a_tampered_one_is_refused():
    """A game is its record (companion replay); a changed action is named in the error."""
    options = RULES.normalise_options({"card_edits": {}})
    actions = []
    RULES.playout(options, 7, on_apply=lambda s, a, n, e: actions.append(a))
    final = RULES.playout(options, 7)
    record = records.make_record(RULES, options, 7, actions, final)
    _, replayed = records.replay(json.loads(json.dumps(record)))
    assert replayed == final
    assert record["summary"]["winner"] == final["winner"] and record["summary"]["battles"]
    attack = next(n for n, a in enumerate(actions) if a["type"] == "attack")
    tampered = dict(record, actions=actions[:attack] + [dict(actions[attack], seat=1 - actions[attack]["seat"])]
                    + actions[attack + 1:])
    with pytest.raises(records.RecordError, match=f"action {attack + 1} .*illegal: it is"):
        records.replay(tampered)


def test_grey_cards_are_hidden_from_the_other_seat_and_the_shared_screen():
    """Placement: "The ones in the reserve (grey) positions must be placed face down"."""
    state = battle(["Wolf"], ["Bat"], grey0=["Cheetah"], grey1=["Anaconda"], edits=WALL)
    for seat in (1, None):
        text = json.dumps(RULES.view(state, seat))
        assert "cheetah" not in text.lower()
    assert "Anaconda" not in json.dumps(RULES.view(state, 0))
    mine = RULES.view(state, 0)
    assert mine["zones"]["0.grey1"]["cards"] == [cid("Cheetah")]
    assert RULES.view(state, None)["zones"]["0.grey1"] == {"cards": [{"hidden": True}], "summary": "a card face down"}


def test_hidden_placement_event_is_redacted():
    from companion.engine import redact_event
    state = new_game()
    state, _ = act(state, type="attack_first", seat=0)
    state, events = act(state, type="place", seat=0, zone="0.grey2", card=cid("Cheetah"))
    assert redact_event(events[0], None)["text"] == "North places a card face down on grey 2"
    assert "Cheetah" not in json.dumps(redact_event(events[0], 1))
    assert redact_event(events[0], 0)["text"] == "North places Cheetah face down on grey 2"


def test_view_has_the_standard_keys():
    view = RULES.view(battle(["Wolf"], ["Rat"]), None)
    for key in ("game", "active_seat", "phase", "phase_label", "awaiting", "counters", "zones", "over", "result",
                "players", "detail"):
        assert key in view
    assert view["phase_label"] == "Battle 1: North's turn — singular cards, moves, then attack"
    assert {c["id"] for c in view["counters"] if c["adjustable"]} == {"track.0", "track.1", "heart.0", "heart.1"}


def test_a_session_plays_from_pad_events(store):
    """Cards on pads become placements, moves and singular cards; a wrong scan is refused with a reason."""
    session = Session.start(store, "vitaluna", {"card_edits": WALL}, seed=3)
    for card in ("wolf", "gyr-falcon", "bat", "burn-1", "cheetah", "rat"):
        store.tags.register(virtual_uid(f"vitaluna.{card}"), f"vitaluna.{card}")

    def put(pad, card, kind="seen"):
        return session.handle_pad_event(PadEvent(pad=pad, uid=virtual_uid(f"vitaluna.{card}"), kind=kind))

    session.act({"type": "attack_first", "seat": 0})
    put("0.white1", "wolf")
    put("0.grey1", "cheetah")
    rejected = put("1.white1", "gyr-falcon")
    assert rejected[0]["type"] == "rejected"
    assert rejected[0]["text"] == "North is placing now; South places after North presses Done"
    session.confirm(0)                                               # Done
    put("1.white1", "gyr-falcon", "gone")
    put("1.white1", "gyr-falcon")
    put("1.white2", "bat")
    session.confirm(1)
    assert session.view()["phase"] == "battle"
    events = put("scan", "burn-1")
    assert events[0]["type"] == "singular" and session.state["turn"]["pending"] == "burn"
    session.act({"type": "cancel", "seat": 0})
    put("0.grey1", "cheetah", "gone")
    events = put("0.white3", "cheetah")                               # a promotion, seen by the pads
    assert events[0]["text"] == "North promotes Cheetah 3/3 (move anywhere) from grey 1 to white 3"
    events = session.confirm(0)                                      # attack
    assert "Wolf (3) hits Gyr Falcon (2 health): dies" in [e["text"] for e in events]
    assert put("1.white1", "gyr-falcon", "gone") == []               # lifting the dead Falcon means nothing
    refused = put("1.white3", "gyr-falcon")
    assert refused[0]["text"] == "Gyr Falcon died in this battle: it stays out until the next one"
    assert [a["type"] for a in session.actions].count("place") == 4


def test_table_profile_maps_every_zone():
    """firmware_config/tables/vitaluna.toml: 8 pads per player and the shared pad."""
    profile = load_profile(ROOT / "firmware_config" / "tables" / "vitaluna.toml")
    zones = [z.id for z in RULES.zones(RULES.normalise_options({"card_edits": {}}))]
    profile.layout("vitaluna").validate(zones)
    assert len(zones) == 17 and "scan" in zones and "1.grey4" in zones


def test_catalogue_has_the_named_creatures_and_every_epic_several_times():
    """Issue 4, Catalogue: the creatures the rules name, with their printed values; every epic ≥ 3 times."""
    table = card_table({})
    assert (table[cid("Wolf")].attack, table[cid("Wolf")].health) == (3, 2)
    assert table[cid("Rat")].attack == 1 and table[cid("Anaconda")].health == 5 and table[cid("Rock")].attack == 0
    assert table[cid("Porcupine")].epic_names() == ["retaliate"] and table[cid("Porcupine")].health == 4
    assert table[cid("Gyr Falcon")].epic_names() == ["move anywhere"] == table[cid("Cheetah")].epic_names()
    creatures = [c for c in table.values() if hasattr(c, "epics")]
    for bit, label in EPICS.values():
        assert sum(1 for c in creatures if c.epics & bit) >= 3, label
    assert {c.colour for c in creatures} == {"black", "blue", "red"}
    singulars = [c for c in load_catalogue("vitaluna") if c["kind"] == "singular"]
    assert sorted(c["singular"] for c in singulars) == ["burn", "burn", "heal", "heal", "steal", "steal",
                                                        "swap", "swap"]
    assert all("sample" in c.attrs for c in load_catalogue("vitaluna"))


def test_players_correct_card_values_in_their_own_catalogue(tmp_path):
    """docs/rulings/vitaluna.md: sample values are edited in <data dir>/cards/vitaluna.json."""
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "vitaluna.json").write_text(json.dumps({"game": "vitaluna", "format": 1, "cards": [
        {"id": "vitaluna.cheetah", "name": "Cheetah", "attrs": {"attack": 4, "health": 2}}]}))
    edits = user_edits(tmp_path)
    state = battle(["Cheetah"], ["Rat"], edits=edits)
    assert RULES.table(state)[cid("Cheetah")].attack == 4
    assert state["options"]["card_edits"] == edits                  # kept in the record's options
    (tmp_path / "cards" / "vitaluna.json").write_text(json.dumps({"game": "vitaluna", "format": 1, "cards": [
        {"id": "vitaluna.cheetah", "name": "Cheetah", "attrs": {"health": 0}}]}))
    with pytest.raises(CatalogueError, match="health must be a whole number ≥ 1"):
        user_edits(tmp_path)


def test_bench_counts_battles():
    """`companion bench engines --game vitaluna` counts fully automatic random battles."""
    assert RULES.bench_unit == "battles"
    assert sum(RULES.bench_playout(seed) for seed in range(5)) >= 10


def test_the_simulated_table_plays_and_replays_a_game(tmp_path, monkeypatch):
    """`companion simulate --game vitaluna`: a random game through pad events, then its record again."""
    from companion.simulate import simulate
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    out = simulate(game="vitaluna", seed=4, options={"advanced": True}, export_path=str(tmp_path / "game.json"))
    assert out["summary"]["over"] and out["played_by_placing_cards"] > 20
    again = simulate(record_path=str(tmp_path / "game.json"))
    assert again["summary"]["winner"] == out["summary"]["winner"]


def test_bad_card_values_are_refused_at_setup():
    """Bad values in a player's card file stop the setup with a sentence naming the card."""
    from companion.engine import IllegalAction
    with pytest.raises(IllegalAction, match="vitaluna.wolf \\(Wolf\\): attack must be a whole number ≥ 0"):
        new_game(edits={"vitaluna.wolf": {"attrs": {"attack": -1}}})


def test_no_view_or_public_event_ever_shows_a_face_down_card():
    """Hidden information: a grey card's id reaches neither the shared screen nor the other player."""
    from companion.engine import redact_event

    def check(before, action, state, events):
        for seat in (0, 1):
            grey = [c for c in state["board"][seat][4:] if c] + [c for c in before["board"][seat][4:] if c]
            if not grey:
                continue
            for looker in (None, 1 - seat):
                text = json.dumps(RULES.view(state, looker)) + json.dumps([redact_event(e, looker) for e in events
                                                                          if e["type"] != "promoted"])
                leaked = [c for c in grey if f'"{c}"' in text and c not in state["board"][seat][:4]
                          and c not in state["board"][1 - seat]]
                assert not leaked, f"{leaked} seen by {looker} after {action}"
    for seed in range(15):
        RULES.playout({"card_edits": {}}, seed, on_apply=check)
