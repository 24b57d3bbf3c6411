"""Lights on gpiozero mock pins: looks, rhythms, flashes, the buzzer and the animation thread."""
import time

import pytest

from hardware.leds import PATTERNS, Animator, BuzzerIndicator, Look, PlainLight, RgbLight

from .conftest import BLUE, DARK, NORTH, ORANGE, pin_values

PINS = dict(zip(("red", "green", "blue"), NORTH))


def test_a_steady_colour_reaches_the_pins_at_once(pin_factory, clock):
    with RgbLight("north", PINS, pin_factory=pin_factory, clock=clock) as light:
        assert pin_values(pin_factory, *NORTH) == DARK
        light.show(Look("blue"))
        assert pin_values(pin_factory, *NORTH) == BLUE
        light.show(Look("orange", "solid", 0.15))
        assert pin_values(pin_factory, *NORTH) == pytest.approx((0.15, 0.0375, 0.0), abs=0.001)


def test_common_anode_leds_are_driven_inverted(pin_factory, clock):
    with RgbLight("north", PINS, common_anode=True, pin_factory=pin_factory, clock=clock) as light:
        light.show(Look("orange"))
        assert pin_values(pin_factory, *NORTH) == (0.0, 0.75, 1.0)


def test_a_pulse_starts_bright_and_breathes(pin_factory, clock):
    """Waiting for a card: the light changes at once (bright), then dims and comes back over 1.6 s."""
    with RgbLight("north", PINS, pin_factory=pin_factory, clock=clock) as light:
        start = clock.now
        light.show(Look("blue", "pulse"))
        levels = []
        for t in (0.0, 0.4, 0.8, 1.2, 1.6):
            light.render(start + t)
            levels.append(pin_values(pin_factory, *NORTH)[2])      # the blue leg
        assert levels == [1.0, 0.575, 0.15, 0.575, 1.0]


def test_showing_the_same_look_again_keeps_its_rhythm(pin_factory, clock):
    with RgbLight("north", PINS, pin_factory=pin_factory, clock=clock) as light:
        light.show(Look("blue", "pulse"))
        clock.advance(0.8)
        light.show(Look("blue", "pulse"))            # an unrelated change of the game
        assert pin_values(pin_factory, *NORTH)[2] == 0.15


def test_a_flash_plays_once_then_the_steady_look_returns(pin_factory, clock):
    """A won battle: three quick blinks (0.15 s on, 0.15 s off), then the turn signal again."""
    with RgbLight("north", PINS, pin_factory=pin_factory, clock=clock) as light:
        light.show(Look("blue", "solid", 0.15))
        start = clock.now
        light.flash(Look("blue", "win"))
        seen = []
        for t in (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95):
            light.render(start + t)
            seen.append(pin_values(pin_factory, *NORTH))
        assert seen == [BLUE, DARK, BLUE, DARK, BLUE, DARK, (0.0, 0.022, 0.15)]
        assert light.flashing is None


def test_flashes_queue_instead_of_cutting_each_other_off(pin_factory, clock):
    with RgbLight("north", PINS, pin_factory=pin_factory, clock=clock) as light:
        start = clock.now
        light.flash(Look("blue", "loss"))             # 0.9 s dark
        light.flash(Look("blue", "tie"))              # then two long blinks
        light.render(start + 0.5)
        assert pin_values(pin_factory, *NORTH) == DARK
        light.render(start + 0.9 + 0.1)
        assert pin_values(pin_factory, *NORTH) == BLUE


def test_a_flash_must_end(pin_factory, clock):
    with RgbLight("north", PINS, pin_factory=pin_factory, clock=clock) as light:
        with pytest.raises(ValueError, match="a flash needs a pattern that ends, not 'pulse'"):
            light.flash(Look("blue", "pulse"))


def test_a_plain_led_shows_the_rhythm_as_brightness(pin_factory, clock):
    with PlainLight("lane1", 4, pin_factory=pin_factory, clock=clock) as light:
        light.show(Look("orange", "double_blink"))
        start = clock.now
        seen = []
        for t in (0.05, 0.17, 0.29, 0.5, 1.25):
            light.render(start + t)
            seen.append(pin_values(pin_factory, 4)[0])
        assert seen == [1.0, 0.0, 1.0, 0.0, 1.0]


def test_the_buzzer_beeps_twice(pin_factory, clock):
    with BuzzerIndicator("buzzer", 12, pin_factory=pin_factory, clock=clock) as buzzer:
        start = clock.now
        buzzer.flash(Look("white", "beep"))
        seen = []
        for t in (0.0, 0.1, 0.2, 0.3):
            buzzer.render(start + t)
            seen.append(pin_values(pin_factory, 12)[0])
        assert seen == [1.0, 0.0, 1.0, 0.0]


def test_unknown_colours_and_patterns_are_refused_in_words():
    with pytest.raises(ValueError, match="unknown LED colour 'green'"):
        Look("green")
    with pytest.raises(ValueError, match="unknown LED pattern 'strobe'"):
        Look("blue", "strobe")


def test_every_flash_ends_and_every_rhythm_repeats():
    flashes = {name for name, p in PATTERNS.items() if not p.repeat}
    assert flashes == {"win", "loss", "tie", "draw", "beep"}
    for name in flashes:
        assert PATTERNS[name].level(PATTERNS[name].duration + 0.01) is None


def test_the_animation_thread_moves_a_pulse_on_its_own(pin_factory):
    """The real clock and the real thread: within 0.3 s a pulse has changed the pin several times."""
    light = RgbLight("north", PINS, pin_factory=pin_factory)
    animator = Animator([light], fps=100)
    try:
        light.show(Look("blue", "pulse"))
        pin = pin_factory.pin(13)
        pin.clear_states()
        animator.start()
        deadline = time.monotonic() + 2.0
        while len(pin.states) < 5 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(pin.states) >= 5
        assert all(0.15 <= s.state <= 1.0 for s in pin.states[1:])
    finally:
        animator.close()
        light.close()


def test_closing_turns_the_light_off_and_frees_its_pins(pin_factory, clock):
    light = RgbLight("north", PINS, pin_factory=pin_factory, clock=clock)
    light.show(Look("orange"))
    light.close()
    assert pin_values(pin_factory, *NORTH) == DARK
    light.show(Look("blue"))                           # after close: ignored, not an error
    assert pin_values(pin_factory, *NORTH) == DARK
    with RgbLight("again", PINS, pin_factory=pin_factory, clock=clock) as again:
        again.show(Look("blue"))
        assert pin_values(pin_factory, *NORTH) == BLUE
