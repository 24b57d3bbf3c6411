"""What the lights say, as plain functions of the view and the standard events (docs/leds.md)."""
from hardware.leds import Look
from hardware.signals import BattleOutcome, LaneMemory, battle_outcome, lane_look, seat_flash, seat_look


def view(active=None, awaiting=None, over=False, winner=None, zones=None):
    return {"active_seat": active, "awaiting": awaiting, "over": over,
            "result": {"winner": winner} if over else None, "zones": zones or {}}


def battle(winner, outcome, *zones):
    return {"type": "battle_result", "winner": winner, "outcome": outcome, "zones": list(zones), "text": ""}


def test_the_turn_table():
    assert str(seat_look(view(0, "scan"), 0)) == "blue pulse"
    assert str(seat_look(view(0, "scan"), 1)) == "orange solid 0.15"
    assert str(seat_look(view(1, "confirm"), 1)) == "orange double_blink"
    assert str(seat_look(view(1, "choice"), 1)) == "orange solid"
    assert str(seat_look(view(None, "confirm"), 0)) == "blue double_blink"      # either may press
    assert str(seat_look(view(None, None), 0)) == "blue solid 0.15"             # nobody is asked
    assert str(seat_look(view(over=True, winner=1), 1)) == "orange blink"
    assert str(seat_look(view(over=True, winner=1), 0)) == "off"
    assert str(seat_look(view(over=True, winner=None), 0)) == "blue blink"      # a drawn game


def test_one_battle_flashes_its_own_outcome():
    assert battle_outcome([battle(1, "win")]) == BattleOutcome(1, "win")
    assert battle_outcome([battle(None, "draw")]) == BattleOutcome(None, "draw")
    assert battle_outcome([{"type": "played"}]) is None


def test_several_battles_flash_their_sum():
    """Sam's round (RULINGS.md): the player who won more lanes wins; equal counts are a tie."""
    two_to_one = [battle(0, "win"), battle(1, "win"), battle(None, "tie"), battle(None, "draw"), battle(0, "win")]
    assert battle_outcome(two_to_one) == BattleOutcome(0, "win")
    assert battle_outcome([battle(0, "win"), battle(1, "win"), battle(None, "draw")]) == BattleOutcome(None, "tie")
    assert battle_outcome([battle(None, "tie"), battle(None, "draw")]) == BattleOutcome(None, "tie")
    assert battle_outcome([battle(None, "draw"), battle(None, "draw")]) == BattleOutcome(None, "draw")


def test_flashes_differ_by_rhythm_not_only_by_colour():
    win, loss = seat_flash(BattleOutcome(0, "win"), 0), seat_flash(BattleOutcome(0, "win"), 1)
    assert (win, loss) == (Look("blue", "win"), Look("orange", "loss"))
    assert seat_flash(BattleOutcome(None, "tie"), 1) == Look("orange", "tie")
    assert seat_flash(BattleOutcome(None, "draw"), 0) == Look("blue", "draw")


def test_lane_lights():
    assert str(lane_look(BattleOutcome(1, "win"), "rgb", None)) == "orange solid"
    assert str(lane_look(BattleOutcome(None, "tie"), "rgb", None)) == "white solid"
    assert str(lane_look(BattleOutcome(None, "draw"), "rgb", None)) == "white solid 0.15"
    assert str(lane_look(BattleOutcome(0, "win"), "plain", 0)) == "blue solid"
    assert str(lane_look(BattleOutcome(0, "win"), "plain", 1)) == "off"
    assert str(lane_look(None, "rgb", None)) == "off"


def test_a_lane_result_lasts_until_a_card_of_that_battle_moves():
    memory = LaneMemory()
    table = {"0.lane1": {"cards": ["sams.7h"]}, "1.lane1": {"cards": []}}
    memory.update(view(zones=table), [battle(0, "win", "0.lane1", "1.lane1")], 10)
    assert memory.result_for({"0.lane1", "1.lane1"}) == BattleOutcome(0, "win")
    memory.update(view(zones=table), [{"type": "played"}], 11)                  # elsewhere on the table
    assert memory.result_for({"1.lane1"}) == BattleOutcome(0, "win")
    cleared = {"0.lane1": {"cards": []}, "1.lane1": {"cards": []}}
    memory.update(view(zones=cleared), [{"type": "round_start"}], 12)
    assert memory.result_for({"0.lane1", "1.lane1"}) is None
    memory.update(view(zones=table), [{"type": "undone"}], 11)                  # back before the clearing
    assert memory.result_for({"0.lane1"}) == BattleOutcome(0, "win")
    memory.update(view(zones=table), [{"type": "undone"}], 9)                   # back before the battle
    assert memory.result_for({"0.lane1"}) is None


def test_round_result_decides_the_flash_over_the_lane_sum():
    """Sam's strict-majority variant: a 2–1 round with two draws is a round tie, not a win."""
    lanes = [battle(0, "win"), battle(0, "win"), battle(1, "win"), battle(None, "draw"), battle(None, "draw")]
    tie = {"type": "round_result", "winner": None, "outcome": "tie"}
    assert battle_outcome(lanes) == BattleOutcome(0, "win")
    assert battle_outcome(lanes + [tie]) == BattleOutcome(None, "tie")
