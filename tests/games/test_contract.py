"""The engine contract, checked over every game in the registry (as OpenSpiel's consistency tests
run over every game).

For a few random legal games of each game, action by action, through the public API only:

* ``apply`` never mutates its input (a deep copy taken before equals the state after);
* ``random_action`` only returns legal actions: ``apply`` takes it, and its kind and seat are among
  ``legal_actions`` (which lists one instance of a move with many values, e.g. Territory's recover);
* ``follow_up`` names only an action ``apply`` takes in the state the action led to;
* ``scan_for`` and ``interpret`` round-trip: the card that ``scan_for`` says makes an action,
  put on that zone, means an action that leads to the same state;
* a face-down card stays hidden: an event hidden from a seat names a card that neither that
  seat's view nor the shared screen's view (seat None) shows while the game stays in that phase,
  and neither does its redacted twin;
* the game ends, and its record replays to the same summary and the same final state;
* after the end (docs/rulings/engine.md) every action but ``adjust`` is refused with "the game is
  over", no counter the shared screen marks adjustable is refused for the game being over, and a
  correction is taken and logged.
"""
import copy
import json

import pytest

from companion import games
from companion.engine import IllegalAction, Rng, Rules, redact_event
from companion.records import make_record, replay

GAMES = games.available()
SEEDS = (1, 2, 3)


def test_the_registry_holds_all_five_games():
    assert set(GAMES) == {"sams", "lifeforce", "vitaluna", "territory", "arcmage"}


def _card_ids(event: dict) -> set[str]:
    """The card ids an event names in its fields (``card``, ``cards``)."""
    found = set()
    for key in ("card", "cards"):
        value = event.get(key)
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list):
            found.update(v for v in value if isinstance(v, str))
    return found


def _shows(view: dict, card: str) -> bool:
    return json.dumps(f"{card}") in json.dumps(view, ensure_ascii=False)


def _playout(rules, seed: int):
    """A random legal game, checked at every action; returns (options, actions, final state)."""
    options = rules.normalise_options({})
    state = rules.setup(options, seed)
    rng = Rng(seed ^ 0x5DEECE66D)
    actions = []
    while not rules.is_over(state):
        assert len(actions) < 20_000, f"{rules.name}: a random game did not end"
        action = rules.random_action(state, rng)
        legal = rules.legal_actions(state)
        if legal:   # a game may list one instance of a many-valued move (Territory's recover): kind and seat
            assert (action["type"], action.get("seat")) in {(a["type"], a.get("seat")) for a in legal}, \
                f"{rules.name}: random_action gave {action}, not among the legal actions"
        frozen = copy.deepcopy(state)
        new, events = rules.apply(state, action)
        assert state == frozen, f"{rules.name}: apply mutated its input state on {action}"
        follow = rules.follow_up(new, action)
        if follow is not None:          # what the input road would apply next must be legal then
            rules.apply(new, follow)

        scan = rules.scan_for(state, action)
        if scan is not None:
            zone, card = scan
            meant = rules.interpret(state, zone, card, True)
            assert meant is not None, f"{rules.name}: scan_for({action}) gave {scan}, which interpret ignores"
            assert rules.apply(state, meant)[0] == new, f"{rules.name}: {scan} means {meant}, not {action}"
            assert state == frozen

        for event in events:
            hidden_from = event.get("hidden_from")
            if not hidden_from:
                continue
            secret = _card_ids(event) - _card_ids(event.get("redacted") or {})
            # the card may be turned up by the same action (Sam's last card of a round is scored at
            # once): the views are checked while the game stays in the phase the card went down in
            still_down = new.get("phase") == state.get("phase")
            for seat in list(hidden_from) + [None]:
                twin = redact_event(event, seat)
                for card in secret:
                    assert not _shows(twin, card), f"{rules.name}: {event['type']} names {card} to seat {seat}"
                    assert not (still_down and _shows(rules.view(new, seat), card)), \
                        f"{rules.name}: after {action}, seat {seat}'s view shows the face-down {card}"
        actions.append(action)
        state = new
    return options, actions, state


@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_the_contract_and_replay_to_the_same_summary(name):
    rules = games.get(name)
    for seed in SEEDS:
        options, actions, final = _playout(rules, seed)
        assert rules.view(final, None)["over"] is True and rules.result(final)["winner"] in (0, 1, None)
        replayed_rules, replayed = replay(json.loads(json.dumps(make_record(rules, options, seed, actions, final))))
        assert replayed_rules is rules
        assert replayed == final and rules.summary(replayed) == rules.summary(final)


@pytest.mark.parametrize("name", GAMES)
def test_after_the_end_only_corrections_are_taken_and_they_are_logged(name):
    rules = games.get(name)
    final = rules.playout(None, 5)
    for kind in rules.MOVES:
        if kind == "adjust":
            continue
        with pytest.raises(IllegalAction, match="the game is over"):
            rules.apply(final, {"type": kind, "seat": 0})
    adjustable = [c for c in rules.view(final, None)["counters"] if c["adjustable"]]
    assert adjustable, f"{name}: no counter can be corrected"
    taken = []
    for c in adjustable:                  # up or down, whichever the count allows (a deck may be empty)
        frozen = copy.deepcopy(final)
        seat = c["seat"] if c["seat"] is not None else 0
        for delta in (1, -1):
            try:
                new, events = rules.apply(final, {"type": "adjust", "seat": seat, "counter": c["id"], "delta": delta})
            except IllegalAction as exc:
                assert "over" not in str(exc), f"{name}: {c['id']} refused after the end: {exc}"
                continue
            assert final == frozen and events, f"{name}: correcting {c['id']} after the end logged nothing"
            taken.append(new != final)
    assert any(taken), f"{name}: no correction is taken after the end"


@pytest.mark.parametrize("name", GAMES)
def test_every_game_dispatches_through_its_moves_table(name):
    """One dispatch (engine.Rules.apply): unknown kinds and missing seats are refused the same way."""
    rules = games.get(name)
    state = rules.setup(rules.normalise_options({}), 1)
    assert type(rules).apply is Rules.apply, f"{name} overrides the one dispatch"
    with pytest.raises(IllegalAction, match="has no action 'fly'"):
        rules.apply(state, {"type": "fly", "seat": 0})
    seated = next(k for k in rules.MOVES if k not in rules.UNSEATED)
    with pytest.raises(IllegalAction, match="needs the seat"):
        rules.apply(state, {"type": seated})
