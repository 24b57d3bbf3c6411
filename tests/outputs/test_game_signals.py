"""Turn, battle and lane lights following real games.

A real :class:`Session` on a temporary SQLite store, the real outputs
(:class:`TableOutputs`) and gpiozero mock pins; the lights' clock is moved by
hand so that every rhythm is checked at a known instant.  The expected
signals are the table of ``docs/leds.md``.
"""
import time

import pytest

from companion import games
from companion.engine import Rng
from companion.session import Session
from companion.simulate import register_virtual_tags
from companion.table import SEEN, PadEvent
from companion.tags import virtual_uid
from hardware.outputs import TableOutputs
from hardware.pins import parse_pins

from .conftest import BLUE, DARK, NORTH, ORANGE, SOUTH, TABLE, pin_values

SEAT_PINS = (NORTH, SOUTH)
SEAT_RGB = (BLUE, ORANGE)
DIM = 0.15

# The docs/leds.md table: what the mover's light does while the game waits for …
RHYTHM_FOR_AWAITING = {"scan": "pulse", "confirm": "double_blink", "choice": "solid", None: "solid"}


def scaled(rgb, level):
    return tuple(round(c * level, 3) for c in rgb)


def documented_look(view: dict, seat: int) -> str:
    """docs/leds.md, "Turn lights", as the string a light's look prints as."""
    colour = ("blue", "orange")[seat]
    if view["over"]:
        winner = (view.get("result") or {}).get("winner")
        return f"{colour} blink" if winner in (None, seat) else "off"
    mover = view["active_seat"] == seat or (view["active_seat"] is None and view["awaiting"] is not None)
    if mover:
        assert view["awaiting"] in RHYTHM_FOR_AWAITING, f"engine.py: awaiting must be one of {list(RHYTHM_FOR_AWAITING)}"
        return f"{colour} {RHYTHM_FOR_AWAITING[view['awaiting']]}"
    return f"{colour} solid {DIM}"


def looks(outputs) -> tuple[str, str]:
    return str(outputs.light("north").look), str(outputs.light("south").look)


@pytest.fixture
def outputs(pin_factory, clock, table_pins):
    with TableOutputs(table_pins, pin_factory=pin_factory, clock=clock, animate=False, hold_time=0.05) as out:
        yield out


@pytest.mark.parametrize("game", games.available())
def test_turn_lights_follow_a_seeded_game(game, store, outputs, pin_factory, clock):
    """Every engine, one seeded random game through the session: after every change the
    lights show the documented signal, on the pins too; a single battle's result flashes;
    the game ends with the winner's light blinking and the loser's off."""
    session = Session.start(store, game, seed=7)
    rules = session.rules
    outputs.attach(session)
    rng = Rng(7)
    movers_seen = set()
    previous = looks(outputs)
    for _ in range(5000):
        view = session.view(None)
        assert looks(outputs) == (documented_look(view, 0), documented_look(view, 1)), view["phase"]
        if view["over"]:
            break
        clock.advance(2.0)                   # every flash of the last change is over
        events = session.act(rules.random_action(session.state, rng))
        now_looks = looks(outputs)
        battles = [e for e in events if e["type"] == "battle_result"]
        if len(battles) == 1:
            winner, outcome = battles[0]["winner"], battles[0]["outcome"]
            for seat in (0, 1):
                # the first instant of each documented flash
                expected = {"win": SEAT_RGB[seat] if winner == seat else DARK,
                            "tie": SEAT_RGB[seat], "draw": scaled(SEAT_RGB[seat], DIM)}[outcome]
                assert pin_values(pin_factory, *SEAT_PINS[seat]) == expected, (outcome, winner, seat)
        elif not battles:
            for seat in (0, 1):
                if now_looks[seat] != previous[seat]:
                    # every steady rhythm starts at its bright step, so a change shows at once
                    level = 0.0 if now_looks[seat] == "off" else DIM if now_looks[seat].endswith(str(DIM)) else 1.0
                    assert pin_values(pin_factory, *SEAT_PINS[seat]) == scaled(SEAT_RGB[seat], level)
        movers_seen |= {seat for seat in (0, 1) if not now_looks[seat].endswith(str(DIM))}
        previous = now_looks
    else:
        pytest.fail(f"{game}: the seeded game did not end")
    assert movers_seen == {0, 1}
    winner = session.rules.result(session.state)["winner"]
    if winner is not None:
        clock.advance(2.0)
        outputs.light("north").render()
        outputs.light("south").render()
        assert pin_values(pin_factory, *SEAT_PINS[1 - winner]) == DARK


# ---- Sam's Battle Game: one round, hand-checked --------------------------------------

LANE_TABLE = dict(TABLE, leds=TABLE["leds"] + [
    {"id": "lane1", "kind": "rgb", "pads": ["0.lane1", "1.lane1"], "red": 2, "green": 3, "blue": 4},
    {"id": "lane2-south", "kind": "plain", "seat": 1, "pads": ["0.lane2", "1.lane2"], "gpio": 15},
    {"id": "lane3-north", "kind": "plain", "seat": 0, "pads": ["0.lane3", "1.lane3"], "gpio": 14},
    {"id": "lane4-north", "kind": "plain", "seat": 0, "pads": ["0.lane4", "1.lane4"], "gpio": 25},
])

# North (first player) and South alternate; each entry is (lane, card), lanes 0-based.
NORTH_PLAYS = [(0, "10h"), (1, "2s"), (2, "5h"), (3, "10s"), (4, "7h"), (0, "9h"),
               (1, "3s"), (2, "4s"), (3, "9s"), (4, "6h"), (0, "8h"), (4, "8s")]
SOUTH_PLAYS = [(0, "2c"), (1, "10d"), (2, "5d"), (3, "10c"), (4, "7d"), (0, "3c"),
               (1, "9d"), (2, "4c"), (3, "9c"), (4, "2d"), (1, "8d"), (4, "5c")]
# By the rules (004_…, "Battle" and RULINGS.md): lane attack = sum of red (1 if none), defence = sum of black.
#   lane 1: North 10♥9♥8♥ attack 27 vs South 2♣3♣ defence 5 → North wins
#   lane 2: South 10♦9♦8♦ attack 27 vs North 2♠3♠ defence 5 → South wins
#   lane 3: 5♥4♠ vs 5♦4♣: equal attacks 5 ≥ defence 4 both ways → a tie
#   lane 4: 10♠9♠ vs 10♣9♣: equal attacks 1 < defence 19 both ways → a draw
#   lane 5: North 7♥6♥ (13) vs South 7♦2♦ (9); 13 ≥ South's defence 5 → North wins
# North wins 2 lanes to 1: the round, so the turn lights flash a North win.


def play_round(session, clock, outputs) -> list[tuple[str, str]]:
    seen = [looks(outputs)]
    for (n_lane, n_card), (s_lane, s_card) in zip(NORTH_PLAYS, SOUTH_PLAYS):
        for seat, lane, card in ((0, n_lane, n_card), (1, s_lane, s_card)):
            clock.advance(2.0)
            session.act({"type": "play", "seat": seat, "lane": lane, "card": f"sams.{card}"})
            seen.append(looks(outputs))
    return seen


def press(pin_factory, gpio, seconds=0.03):
    pin = pin_factory.pin(gpio)
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()


def test_sams_round_turn_lights_battle_flash_lane_lights_and_buttons(store, pin_factory, clock):
    pins = parse_pins(LANE_TABLE, "test table")
    # no press a busy machine stretches becomes a hold; the hold below shortens it first
    with TableOutputs(pins, pin_factory=pin_factory, clock=clock, animate=False, hold_time=600.0) as outputs:
        session = Session.start(store, "sams", seed=1)
        outputs.attach(session)
        seen = play_round(session, clock, outputs)

        north_moves = ("blue pulse", "orange solid 0.15")
        south_moves = ("blue solid 0.15", "orange pulse")
        assert seen[:-1] == [north_moves, south_moves] * 12
        # The 24th card resolves the round: both may press Next.
        assert seen[-1] == ("blue double_blink", "orange double_blink")

        # The turn lights flash the round: North three quick blinks while South's light is dark;
        # then both start the double blink (0.12 s on, 0.12 s off, 0.12 s on, a pause).
        start = clock.now
        north_then, south_then = [], []
        for t in (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 1.05, 1.2, 1.4):
            clock.now = start + t
            for light in (outputs.light("north"), outputs.light("south")):
                light.render()
            north_then.append(pin_values(pin_factory, *NORTH))
            south_then.append(pin_values(pin_factory, *SOUTH))
        assert north_then == [BLUE, DARK, BLUE, DARK, BLUE, DARK] + [BLUE, DARK, BLUE, DARK]
        assert south_then == [DARK, DARK, DARK, DARK, DARK, DARK] + [ORANGE, DARK, ORANGE, DARK]

        # Lane lights: lane 1 North's blue; lane 2 South won (South's plain light on);
        # lane 3 a tie (North's plain light dim); lane 4 a draw (off).
        assert pin_values(pin_factory, 2, 3, 4) == BLUE
        assert pin_values(pin_factory, 15, 14, 25) == (1.0, DIM, 0.0)

        # North's button: a short press means "next round", logged exactly like the touch.
        assert {"type": "next_round", "seat": 0} in session.rules.legal_actions(session.state)
        press(pin_factory, 26)
        assert session.actions[-1] == {"type": "next_round", "seat": 0}
        assert looks(outputs) == ("blue solid 0.15", "orange pulse")     # round 2: South plays first
        assert pin_values(pin_factory, 2, 3, 4, 15, 14, 25) == (0.0,) * 6  # the lanes were cleared

        # South holds the button: undo, back to the scored round, lane lights as they were, no new flash.
        clock.advance(2.0)
        for button in outputs.buttons.buttons:
            button.device.hold_time = 0.05
        hold = pin_factory.pin(27)
        hold.drive_low()
        deadline = time.monotonic() + 30.0                # a bound for a broken hold, not a timing
        while session.actions[-1].get("type") == "next_round" and time.monotonic() < deadline:
            time.sleep(0.01)
        hold.drive_high()
        assert len(session.actions) == 24
        assert looks(outputs) == ("blue double_blink", "orange double_blink")
        assert outputs.light("north").flashing is None
        assert pin_values(pin_factory, 2, 3, 4) == BLUE
        assert pin_values(pin_factory, 15, 14, 25) == (1.0, DIM, 0.0)


def test_a_refused_scan_sounds_the_buzzer(store, outputs, pin_factory, clock):
    """A card on a pad out of turn is refused by the rules: the session reports it, the buzzer beeps twice."""
    register_virtual_tags(store, "sams")
    session = Session.start(store, "sams", seed=1)
    outputs.attach(session)
    events = session.handle_pad_event(PadEvent("1.lane1", virtual_uid("sams.7h"), SEEN, 0.0))
    assert [e["type"] for e in events] == ["rejected"]
    start = clock.now
    beeps = []
    for t in (0.0, 0.1, 0.2, 0.3):
        clock.now = start + t
        outputs.buzzer.render()
        beeps.append(pin_values(pin_factory, 12)[0])
    assert beeps == [1.0, 0.0, 1.0, 0.0]
    assert looks(outputs) == ("blue pulse", "orange solid 0.15")   # the turn is unchanged


def test_an_unknown_tag_sounds_the_buzzer(store, outputs, pin_factory, clock):
    session = Session.start(store, "sams", seed=1)
    outputs.attach(session)
    events = session.handle_pad_event(PadEvent("0.lane1", "04A1B2C3", SEEN, 0.0))
    assert [e["type"] for e in events] == ["unknown_tag"]
    assert pin_values(pin_factory, 12) == (1.0,)


def test_attaching_a_new_game_follows_it_and_drops_the_old_one(store, outputs, clock):
    first = Session.start(store, "sams", seed=1)
    outputs.attach(first)
    second = Session.start(store, "sams", {"first_seat": 1}, seed=2)
    outputs.attach(second)
    assert looks(outputs) == ("blue solid 0.15", "orange pulse")
    first.act({"type": "play", "seat": 0, "lane": 0, "card": "sams.7h"})     # the old game: ignored
    assert looks(outputs) == ("blue solid 0.15", "orange pulse")


def test_a_lane_light_follows_the_profile_layout_from_pads_to_zones(store, pin_factory, clock):
    """led-demo.toml: the battle light sits beside pads n-attacker and s-attacker, which the
    Lifeforce layout maps to the attacker zones; after a battle it shows the winner's colour."""
    from pathlib import Path

    from companion.table import load_profile
    from hardware.pins import parse_pins as pins_of

    profile = load_profile(Path(__file__).resolve().parents[2] / "firmware_config/tables/led-demo.toml")
    pins = pins_of(profile.raw, profile.source, profile.pads)
    with TableOutputs(pins, pin_factory=pin_factory, clock=clock, animate=False) as outputs:
        session = Session.start(store, "lifeforce", seed=7, layout=profile.layout("lifeforce"))
        outputs.attach(session)
        rng = Rng(7)
        for _ in range(2000):
            clock.advance(2.0)
            events = session.act(session.rules.random_action(session.state, rng))
            battles = [e for e in events if e["type"] == "battle_result"]
            if battles:
                break
        else:
            pytest.fail("no battle in the seeded Lifeforce game")
        assert {"0.attacker", "1.attacker"} <= set(battles[0]["zones"])
        assert pin_values(pin_factory, 2, 3, 4) == SEAT_RGB[battles[0]["winner"]]


def test_solo_play_lights_the_lane_the_companion_plays_on(store, pin_factory, clock):
    """docs/leds.md, "Solo play": the lane light of the lane the companion's card goes to
    pulses in the companion's colour until that card lies there."""
    pins = parse_pins(LANE_TABLE, "test table")
    with TableOutputs(pins, pin_factory=pin_factory, clock=clock, animate=False, hold_time=0.05) as outputs:
        session = Session.start(store, "sams", {"solo_seat": 1, "first_seat": 1}, seed=1)
        outputs.attach(session)
        for card in ("2h", "9s", "5d", "10c", "7h"):
            session.act({"type": "solo_hand", "seat": 1, "card": f"sams.{card}"})
        assert str(outputs.light("lane1").look) != "orange pulse"
        at = [1, 1, 0, 0]
        session.act({"type": "solo_decide", "seat": 1, "slot": 0, "lane": 0, "at": at})
        assert str(outputs.light("lane1").look) == "orange pulse"
        assert str(outputs.light("south").look) == "orange pulse"
        session.act({"type": "play", "seat": 1, "lane": 0, "card": "sams.2h"})
        assert str(outputs.light("lane1").look) != "orange pulse"


LIFEFORCE_TABLE = dict(TABLE, leds=TABLE["leds"] + [
    {"id": "south-attacker", "kind": "rgb", "pads": ["1.attacker"], "red": 2, "green": 3, "blue": 4},
    {"id": "south-support", "kind": "plain", "seat": 1, "pads": ["1.support"], "gpio": 15},
])


def test_solo_lifeforce_lights_the_pad_the_companions_next_card_goes_to(store, pin_factory, clock):
    """docs/leds.md, "Solo play": in Lifeforce Battle the light of the companion's attacker pad
    pulses until the animal from the named slot lies there, then its support pad's light until
    the last support card does."""
    from companion.games.lifeforce import RULES as lifeforce, sample_decks
    from companion.games.lifeforce import solo as companion
    pins = parse_pins(LIFEFORCE_TABLE, "test table")
    south = sample_decks()[1]
    with TableOutputs(pins, pin_factory=pin_factory, clock=clock, animate=False, hold_time=0.05) as outputs:
        session = Session.start(store, "lifeforce", {"solo_seat": 1}, seed=1)
        outputs.attach(session)
        for card in south[:5]:
            session.act({"type": "solo_hand", "seat": 1, "card": card})
        session.act({"type": "solo_decide", "seat": 1, "at": companion.decision_point(session.state),
                     "choice": "keep"})
        session.act({"type": "first_attacker", "seat": 1})
        build = companion.builds_of(session.state)[0]
        assert str(outputs.light("south-attacker").look) != "orange pulse"
        session.act({"type": "solo_decide", "seat": 1, "at": companion.decision_point(session.state), **build})
        assert str(outputs.light("south-attacker").look) == "orange pulse"
        assert str(outputs.light("south").look) == "orange pulse"
        slots = session.state["solo"]["slots"]
        session.act({"type": "play_animal", "seat": 1, "card": slots[build["animal"]]})
        assert str(outputs.light("south-attacker").look) != "orange pulse"
        assert str(outputs.light("south-support").look) == "orange pulse"
        for slot in build["support"]:
            session.act({"type": "support", "seat": 1, "card": slots[slot]})
        assert lifeforce.view(session.state, None)["active_seat"] == 0        # its build stands: North counters
        assert str(outputs.light("south-support").look) != "orange pulse"
