"""The companion's own seat in Lifeforce Battle (solo play).

The person at the table handles the companion's cards without seeing their
faces.  They shuffle its deck, draw for it and tap each drawn card face down on
its **hand pad** (zone ``<seat>.hand``), then put the card into the numbered
slot of its **holder** that the screen names.  The companion (``companion.solo``)
then decides, and each decision is a logged ``solo_decide`` action carrying the
moment it was made for (:func:`decision_point`), so a game replays and resumes
exactly and a decision the game has moved past (an undo while it thought) is
refused:

* its starting hand: ``keep`` or ``mulligan`` (the person puts the holder's
  cards back into its deck, shuffles it and draws 5 again);
* a build, attack or counter: ``build`` with the holder slot of the animal,
  "low" or "max" for a ranged animal, and the support slots.  The screen says
  "South attacks: slot 2 on South's attacker pad, slots 1 and 4 on South's
  support pad"; the pad event of each of those
  cards on its pad is the play.  When the animal lands, the companion says its
  low or max; when the last card lands, its build stands (the engine's done);
* after winning a battle: ``call`` or ``check``;
* ``cannot_support``, should it ever hold fewer than two cards in a duel.

A card of the holder put anywhere else is refused with the slot it goes back
to, never with its face; so is any card of the companion's deck whose face the
table has not seen.  The companion's cards lie in ``state["solo"]["slots"]``,
which no view shows (:func:`view` gives only which slots hold a card).

The companion's thinking is :class:`LifeforcePlayer` at the end of this module: search
(:mod:`companion.solo.search`) over the fast model of :mod:`.playout`, which deals the hands the
companion cannot see.
"""
from __future__ import annotations

import random
from itertools import combinations

from companion import holder
from companion.engine import Action, IllegalAction, State, event, hidden_event
from companion.games.lifeforce.animals import ANIMALS, BIT
from companion.games.lifeforce.playout import (CALL, CHECK, INDEX, LOW, InfoSet, battle_value, builds, to_actions,
                                               weak_hand)
from companion.solo.search import search

HOLDER_SLOTS = 5        # a hand never holds more than 5 cards (draw to 5)
BUILDING = ("attack", "counter")


def hand_zone(seat: int) -> str:
    """Zone id of the companion's hand pad: "0.hand" or "1.hand"."""
    return f"{seat}.hand"


def new_solo(seat: int) -> dict:
    """The solo part of a fresh state: the holder is empty, nothing decided."""
    return {"seat": seat, "slots": [], "decision": None, "kept": False}


def solo_hand(state: State) -> list[str]:
    """The cards in the companion's holder, slot order, empty slots left out."""
    return [c for c in state["solo"]["slots"] if c is not None]


def missing(state: State) -> int:
    """How many cards drawn for the companion still wait to be tapped on its hand pad."""
    solo = state["solo"]
    return max(0, state["hand"][solo["seat"]] - len(solo_hand(state)))


def _who(state: State) -> str:
    return state["options"]["players"][state["solo"]["seat"]]


def is_secret(state: State, card: str) -> bool:
    """A card of the companion's deck whose face the table has not seen: in its deck or its
    holder, not in its graveyard, discard pile or on the battle stage — unless the other
    player's deck holds a copy of it too (then it may be theirs, and theirs is no secret)."""
    solo = state.get("solo")
    bit = BIT.get(card) if isinstance(card, str) else None
    if solo is None or bit is None or state["phase"] == "over":
        return False
    seat = solo["seat"]
    if not bit & state["deckmask"][seat]:
        return False
    if bit & (state["graveyard"][seat] | state["discard"][seat] | state["table"][seat]):
        return False
    return not bit & state["deckmask"][1 - seat] or card in solo["slots"]


def secret_refusal(text: str) -> IllegalAction:
    """A refusal about one of the companion's secret cards: ``text`` never names it, and the
    shared screen's copy of the event drops the card id too."""
    return IllegalAction(text, redacted=text, hidden_from=[0, 1])


def decision_point(state: State) -> list:
    """The moment a decision is made for (phase, battle, duel, the companion's hand, its
    mulligan): a ``solo_decide`` made for another moment is refused."""
    seat = state["solo"]["seat"]
    return [state["phase"], state["battle"], len(state["duels"]), state["hand"][seat],
            state["mulliganed"][seat]]


def moment(state: State) -> str | None:
    """The decision the companion faces now: "setup" (keep or take a new hand), "build", "call",
    or None (nothing to decide, a decision already taken, or its holder not yet complete)."""
    solo = state.get("solo")
    if solo is None or state["phase"] == "over" or missing(state):
        return None
    seat, phase = solo["seat"], state["phase"]
    if phase == "setup":
        return None if solo["kept"] or state["mulliganed"][seat] else "setup"
    if phase in BUILDING and state["turn"] == seat and solo["decision"] is None:
        duel = state["duels"][-1]
        if duel["animal"][seat] is None and not duel["support"][seat]:
            return "build"
        return None
    if phase == "call" and state["battle_winner"] == seat:
        return "call"
    return None


def undecided_at_setup(state: State) -> bool:
    """Before battle 1, the companion's starting hand is not settled: not all drawn, not yet
    looked at, or taken anew and not all drawn again.  Who attacks first waits for it."""
    solo = state.get("solo")
    if solo is None or state["phase"] != "setup":
        return False
    return bool(missing(state)) or not (solo["kept"] or state["mulliganed"][solo["seat"]])


def _slot_numbers(slots: list[int]) -> str:
    """"slot 2", "slots 1 and 4", "slots 1, 3 and 4"."""
    numbers = [str(s + 1) for s in sorted(slots)]
    if len(numbers) == 1:
        return f"slot {numbers[0]}"
    return f"slots {', '.join(numbers[:-1])} and {numbers[-1]}"


def _slots_text(slots: list[int]) -> str:
    return f"the card{'s' if len(slots) > 1 else ''} in {_slot_numbers(slots)}"


def instruction(state: State) -> str | None:
    """What the person does for the companion now, as the screen says it; None when nothing."""
    solo = state.get("solo")
    if solo is None or state["phase"] == "over":
        return None
    who = _who(state)
    n = missing(state)
    if n:
        return (f"Draw {n} card{'s' if n > 1 else ''} for {who}: tap each face down on {who}'s hand pad, "
                f"then put it in the slot shown")
    now = moment(state)
    if now is not None:
        return f"{who} is thinking…"
    decision = solo["decision"]
    if decision is None or state["phase"] not in BUILDING or state["turn"] != solo["seat"]:
        return None
    seat = solo["seat"]
    role = "attacks" if state["phase"] == "attack" else "counters"
    left = [s for s in decision["support"] if solo["slots"][s] is not None]
    support = f"{_slot_numbers(left)} on {who}'s support pad" if left else ""
    animal = state["duels"][-1]["animal"][seat]
    # Where each card goes comes first: a narrow screen keeps the sentence's beginning, so at
    # 800x480 the attacker's slot shows, then (once the animal lies there) the support's slots.
    if animal is None:
        return (f"{who} {role}: {_slot_numbers([decision['animal']])} on {who}'s attacker pad"
                + (f", {support}" if support else ""))
    beast = ANIMALS[animal]
    mode = state["duels"][-1]["mode"][seat]
    said = f"{mode} " if beast.has_range else ""
    return f"{who} {role}: {support} ({beast.name}, {said}{beast.lifespan(mode)})"


def target(state: State) -> str | None:
    """The pad zone the companion's next card goes to (its light may pulse), or None."""
    solo = state.get("solo")
    if solo is None or solo["decision"] is None or state["phase"] not in BUILDING:
        return None
    seat = solo["seat"]
    if state["duels"][-1]["animal"][seat] is None:
        return f"{seat}.attacker"
    return f"{seat}.support"


def view(state: State) -> dict | None:
    """What every screen may know of the companion's seat: which slots hold a card, what it
    decided (slots, never faces), what the person does now and where its next card goes."""
    solo = state.get("solo")
    if solo is None:
        return None
    return {"seat": solo["seat"], "strength": state["options"]["solo_strength"],
            "slots": [c is not None for c in solo["slots"]], "missing": missing(state),
            "decision": solo["decision"], "thinking": moment(state) is not None,
            "instruction": instruction(state), "target": target(state)}


# ---- what the companion may do -----------------------------------------------------------------
def builds_of(state: State) -> list[dict]:
    """Every build the companion's holder allows now, as ``solo_decide`` choices (slots): each
    animal, each mode of a ranged one, each set of support slots reaching its lifespan."""
    slots = state["solo"]["slots"]
    held = [n for n, c in enumerate(slots) if c is not None]
    out = []
    for a in held:
        beast = ANIMALS[slots[a]]
        others = [n for n in held if n != a]
        for mode in (("low", "max") if beast.has_range else (None,)):
            need = beast.lifespan(mode)
            for k in range(1, len(others) + 1):
                for support in combinations(others, k):
                    if sum(ANIMALS[slots[s]].lifespan_max for s in support) >= need:
                        out.append({"choice": "build", "animal": a, "mode": mode, "support": list(support)})
    return out


def legal_actions(state: State) -> list[Action]:
    """The companion seat's actions now (its hand pad, its decision, its next card), or []."""
    solo = state["solo"]
    seat = solo["seat"]
    if state["phase"] == "over":
        return []
    if missing(state):
        out = state["graveyard"][seat] | state["discard"][seat] | state["table"][seat]
        held = set(solo_hand(state))
        return [{"type": "solo_hand", "seat": seat, "card": c} for c in state["options"]["decks"][seat]
                if not BIT[c] & out and c not in held]
    now = moment(state)
    at = decision_point(state)
    if now == "setup":
        choices = [{"choice": "keep"}, {"choice": "mulligan"}]
    elif now == "call":
        choices = [{"choice": "call"}, {"choice": "check"}]
    elif now == "build":
        choices = builds_of(state) or [{"choice": "cannot_support"}]
    else:
        choices = []
    if choices:
        return [{"type": "solo_decide", "seat": seat, "at": at, **c} for c in choices]
    decision = solo["decision"]
    if decision is None or state["phase"] not in BUILDING or state["turn"] != seat:
        return []
    actions = []
    if state["duels"][-1]["animal"][seat] is None:
        actions.append({"type": "play_animal", "seat": seat, "card": solo["slots"][decision["animal"]]})
    actions += [{"type": "support", "seat": seat, "card": solo["slots"][s]} for s in decision["support"]
                if solo["slots"][s] is not None]
    return actions


# ---- applying ----------------------------------------------------------------------------------
def hand(state: State, action: Action) -> tuple[State, list]:
    """``solo_hand``: a card drawn for the companion was tapped on its hand pad."""
    solo = state.get("solo")
    card = action.get("card")
    if solo is None or action.get("seat") != solo["seat"]:
        raise IllegalAction("only the companion's seat has a hand pad")
    seat, who = solo["seat"], _who(state)
    if not isinstance(card, str) or card not in ANIMALS:
        raise IllegalAction("that is not a Lifeforce Battle card: put it back in the box")
    bit = BIT[card]
    if not bit & state["deckmask"][seat]:
        other = state["options"]["players"][1 - seat]
        raise IllegalAction(f"that card is not in {who}'s deck" + (
            f" (it is {other}'s): give it back to {other}" if bit & state["deckmask"][1 - seat] else ""))
    if not missing(state):
        raise secret_refusal(f"{who} holds all the cards it drew: put that card back on top of {who}'s deck")
    if bit & (state["graveyard"][seat] | state["discard"][seat] | state["table"][seat]) or card in solo["slots"]:
        raise IllegalAction(f"that card cannot be in {who}'s hand (it lies on the battle stage, in a pile or "
                            "already in the holder): put it back where it was")
    slots, slot = holder.take(solo["slots"], card, HOLDER_SLOTS, who)
    new = dict(state, solo=dict(solo, slots=slots))
    text = holder.slot_sentence(slot, who)
    return new, [hidden_event("solo_hand", f"{who} drew {ANIMALS[card].name}: slot {slot + 1}", text, [0, 1],
                              seat=seat, zone=hand_zone(seat), card=card, slot=slot)]


def decide(rules, state: State, action: Action) -> tuple[State, list]:
    """``solo_decide``: the companion's decision for the moment ``action["at"]``."""
    solo = state.get("solo")
    if solo is None or action.get("seat") != solo["seat"]:
        raise IllegalAction("only the companion's seat decides by itself")
    seat, who = solo["seat"], _who(state)
    if state["phase"] == "over":
        raise IllegalAction("the game is over")
    if missing(state):
        raise IllegalAction(f"{who}'s hand is not complete yet: " + instruction(state))
    if action.get("at") != decision_point(state):
        raise IllegalAction("the game moved on while the companion was thinking")
    now, choice = moment(state), action.get("choice")
    allowed = {"setup": ("keep", "mulligan"), "call": ("call", "check"), "build": ("build", "cannot_support")}
    if choice not in allowed.get(now, ()):
        raise IllegalAction(f"{who} has no {choice!r} to decide now")
    if choice == "keep":
        return dict(state, solo=dict(solo, kept=True)), [
            event("solo_decide", f"{who} keeps its starting hand", seat=seat, choice=choice)]
    if choice == "mulligan":
        new, events = rules._mulligan(at_table(state), {"type": "mulligan", "seat": seat})
        held = [n for n, c in enumerate(solo["slots"]) if c is not None]
        new["solo"] = dict(solo, slots=[])
        events.append(event("solo_decide", f"Put {_slots_text(held)} of {who}'s holder back into {who}'s deck, "
                                           f"shuffle it, then draw 5 for {who}", seat=seat, choice=choice))
        return new, events
    if choice in ("call", "check"):
        new, events = rules._call(at_table(state), {"type": choice, "seat": seat})
        new["solo"] = solo
        return new, events
    if choice == "cannot_support":
        new, events = rules._cannot_support(at_table(state), {"type": "cannot_support", "seat": seat})
        new["solo"] = solo
        return new, events
    build = _checked_build(state, action)
    new = dict(state, solo=dict(solo, decision=build))
    return new, [event("solo_decide", instruction(new), seat=seat, zone=target(new), choice="build",
                       slot=build["animal"], support=build["support"])]


def _checked_build(state: State, action: Action) -> dict:
    slots = state["solo"]["slots"]

    def card_in(slot) -> str:
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < len(slots) or slots[slot] is None:
            raise IllegalAction(f"slot {slot!r} of the holder is empty")
        return slots[slot]

    animal, support, mode = action.get("animal"), action.get("support"), action.get("mode")
    beast = ANIMALS[card_in(animal)]
    if not isinstance(support, list) or not support or len(set(map(repr, support))) != len(support):
        raise IllegalAction("a build needs one or more different support slots")
    if animal in support:
        raise IllegalAction("the animal cannot support itself")
    total = sum(ANIMALS[card_in(s)].lifespan_max for s in support)
    if beast.has_range and mode not in ("low", "max"):
        raise IllegalAction("a ranged animal needs 'low' or 'max'")
    if not beast.has_range and mode is not None:
        raise IllegalAction("that animal has a single lifespan: nothing to declare")
    if total < beast.lifespan(mode):
        raise IllegalAction("that support does not reach the animal's lifespan")
    return {"animal": animal, "mode": mode, "support": sorted(support)}


def check_place(state: State, kind: str, card: str) -> int:
    """The holder slot of ``card`` when ``kind`` ("play_animal" or "support") is what the
    companion decided for it now; otherwise a refusal that says where the card goes back."""
    solo = state["solo"]
    who = _who(state)
    if card not in solo["slots"]:
        raise secret_refusal(f"that card is not in {who}'s holder: put it back where it came from")
    slot = solo["slots"].index(card)
    decision = solo["decision"]
    told = instruction(state) or f"{who} is not placing cards now"
    if decision is None or state["phase"] not in BUILDING or state["turn"] != solo["seat"]:
        raise secret_refusal(f"take that card back to slot {slot + 1}: {told}")
    if (kind == "play_animal") != (slot == decision["animal"]) or (kind == "support" and slot not in decision["support"]):
        raise secret_refusal(f"take that card back to slot {slot + 1}: {told}")
    return slot


def at_table(state: State) -> State:
    """``state`` without the companion's hand: the game as the rules see any player's move.  The
    companion's own moves (its decisions, the cards it places) are the engine's moves made on it,
    which the moves' solo checks (:func:`refuse_direct`, :func:`place`) let through; the caller
    puts the hand back."""
    return {key: value for key, value in state.items() if key != "solo"}


def place(rules, state: State, action: Action) -> tuple[State, list]:
    """The companion's card lands where it decided: the engine's play_animal or support places it
    as for any player (on the state without the companion's hand, so the move's own solo checks
    let it through), its slot empties, the animal's low or max is said, and the last card makes
    the build stand."""
    solo = state["solo"]
    seat = solo["seat"]
    slot = check_place(state, action["type"], action.get("card"))
    decision = solo["decision"]
    new, events = rules.MOVES[action["type"]](rules, at_table(state), action)
    slots = list(solo["slots"])
    slots[slot] = None
    if action["type"] == "play_animal" and decision["mode"] is not None:
        new, said = rules._declare(new, {"type": "declare", "seat": seat, "mode": decision["mode"]})
        events += said
    if all(slots[s] is None for s in [decision["animal"]] + decision["support"]):
        decision = None
        new, done = rules._done(new, {"type": "done", "seat": seat})
        events += done
    new["solo"] = dict(solo, slots=slots, decision=decision)
    return new, events


def refuse_direct(state: State, action: Action) -> None:
    """The companion's buttons are its own: nobody presses done, low/max, call or check, takes a
    new hand or takes a card back for it, and its hand count follows its holder."""
    solo = state.get("solo")
    if solo is None or action.get("seat") != solo["seat"]:
        return
    kind, who = action.get("type"), _who(state)
    if kind in ("declare", "done", "withdraw", "call", "check", "mulligan", "cannot_support"):
        told = instruction(state)
        raise IllegalAction(f"{who} decides that itself" + (f": {told}" if told else ""))
    if kind == "adjust":
        raise IllegalAction(f"{who}'s hand is what its holder holds: tap the cards drawn for it on its hand pad")


# ---- the companion's thinking ------------------------------------------------------------------
class LifeforcePlayer:
    """A seat of Lifeforce Battle played by search (:func:`companion.solo.search.search`).

    It decides a whole build at once (the animal, low or max, the support) and, after
    winning a battle, whether to call or check.  It knows the engine's state — all of it
    public in Lifeforce — and its own :attr:`hand` (card ids; the caller keeps it, at a
    real table from the hand pad), and nothing else.  ``seconds`` bounds the thinking per
    decision; ``iterations`` bounds it by deals instead (for tests that must not depend on
    the machine).  ``seed`` makes its choices repeatable.
    """

    def __init__(self, seat: int, seconds: float | None = 0.15, iterations: int | None = None, seed: int = 0):
        self.seat = seat
        self.seconds = seconds
        self.iterations = iterations
        self.rng = random.Random(seed)
        self.hand: list[str] = []

    def choose_move(self, state: dict) -> tuple:
        """The macro move (see the module's docstring) this seat makes now."""
        phase, seat = state["phase"], self.seat
        if phase == "call":
            if state["battle_winner"] != seat:
                raise ValueError("this seat did not win the battle")
        elif phase not in ("attack", "counter") or state["turn"] != seat:
            raise ValueError("it is not this seat's turn to place cards")
        elif state["duels"][-1]["animal"][seat] is not None or state["duels"][-1]["support"][seat]:
            raise ValueError("this seat has already placed cards in this duel")
        info = InfoSet(state, seat, self.hand)
        if phase != "call":
            options = builds(info.hand)
            if len(options) == 1:
                return options[0]
        before = [len(info.grave[0]), len(info.grave[1])]
        return search(info.sample, seat, lambda g: battle_value(g, seat, before), self.rng,
                      iterations=self.iterations, seconds=self.seconds)

    def choose(self, state: dict) -> list[dict]:
        """The engine actions of :meth:`choose_move`, in the order they are made."""
        return to_actions(self.seat, self.choose_move(state))

    # ---- at the table (solo play) ------------------------------------------------------------
    def decide(self, state: dict) -> dict:
        """The ``solo_decide`` action of the companion's seat in a solo game, now.

        Its hand is the engine's ``solo`` holder (the cards tapped on its hand pad); the rest
        is :meth:`choose_move`'s information set.  Before battle 1 it keeps its starting hand
        or takes a new one (:func:`weak_hand`); a build names holder slots, never faces.
        """
        seat = self.seat
        self.hand = solo_hand(state)
        base = {"type": "solo_decide", "seat": seat, "at": decision_point(state)}
        now = moment(state)
        if now == "setup":
            deck = state["options"]["decks"][seat]
            return {**base, "choice": "mulligan" if weak_hand(self.hand, deck) else "keep"}
        if now == "build" and not builds([INDEX[c] for c in self.hand]):
            return {**base, "choice": "cannot_support"}
        move = self.choose_move(state)
        if move in (CALL, CHECK):
            return {**base, "choice": move[0]}
        animal, low, support = move
        slot_of = {INDEX[c]: n for n, c in enumerate(state["solo"]["slots"]) if c is not None}
        return {**base, "choice": "build", "animal": slot_of[animal],
                "mode": ("low" if low else "max") if LOW[animal] else None,
                "support": sorted(slot_of[c] for c in support)}
