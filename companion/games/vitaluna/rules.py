"""Vita Luna's rules engine (rules text ``shared/rules/001_…``, ``shared/RULINGS.md``
section "Vita Luna", and this project's ``docs/rulings/vitaluna.md``).

A game is a sequence of battles.  As a state machine::

    start ─attack_first─┐                    (basic game: the players say who attacks first)
    bidding ────────────┴─► placement ─► battle ─► rewards ─► exchange ─► placement …
    (advanced game)         attacker,    turns:     winner,    black→blue,        └─► over
                            then         singular,  then       attacker
                            defender     moves,     loser      first
                                         attack

What the companion knows
------------------------
Every card that lies on a position (white cards face up, grey face down — the
other player never sees a grey card through :meth:`view`), every card scanned
on the shared pad (singular cards, rewards, exchanges, cards turned over in the
bidding) and *how many* cards of each colour each player holds.  A card that
was dealt face down and never placed is simply not known yet.

State (plain data)::

    phase, battle (number), attacker (seat), track [steps of seat 0, seat 1],
    board [[8 slots], [8 slots]] (0–3 white columns 1–4, 4–7 grey), health
    {card: health left} (injured creatures only), spent [creatures whose
    armour is gone], heart [n, n], dead [[…], […]] (out of this battle),
    turn {seat, acted, white, grey, promoted, pending}, placing (seat),
    rewards [[seat, colour], …], exchanging (seat), exchange [black cards given],
    owner {card: seat}, held [{colour: n}, {colour: n}], burnt […],
    used [[singulars], [singulars]], bidding {…} (see :mod:`.bidding`),
    battles [results], winner, reason, orders [None or the creatures that
    could move when that seat chose to attack every turn, ×2] (see :mod:`.orders`).
"""
from __future__ import annotations

from companion.cards import CatalogueError, user_dir as players_card_dir
from companion.engine import Action, IllegalAction, Option, Rng, Rules, State, event, hidden_event
from companion.games.vitaluna import bidding as auction, orders
from companion.games.vitaluna.cards import (ANCHOR, ARMOUR, COLOURS, HOLDS, MOVE_ANYWHERE, SINGULAR_NEEDS,
                                            SINGULAR_TARGETS, SINGULARS, Creature, add_held, card_table, user_edits)
from companion.games.vitaluna.combat import GREY, HEARTS, WHITE, Fight
from companion.games.vitaluna.table import (BETWEEN_BATTLES, SLOT_LABELS, SLOT_OF, ZONE_IDS, VitaLunaTable,
                                            slot_label, steps_to_heart)
from companion.games.vitaluna.view import VitaLunaView
from companion.words import counted


def _hand_refusals(handler):
    """``handler`` for a card scanned from a hand (a reward, an exchange): its refusal is hidden from the
    other player, as the card is (view.py).  Only these two moves are wrapped so, in :attr:`VitaLunaRules.MOVES`
    (a battle's moves are wrapped by :func:`.orders.watched`; the rest go from the one dispatch straight to their
    handlers)."""
    def hand_move(rules, state: State, action: Action):
        if not isinstance(action.get("card"), str):
            return handler(rules, state, action)
        try:
            return handler(rules, state, action)
        except IllegalAction as exc:
            raise rules.hand_refusal(state, action["card"], action.get("seat"), exc) from None
    hand_move.__name__ = hand_move.__qualname__ = handler.__name__
    hand_move.__doc__ = handler.__doc__
    return hand_move


class VitaLunaRules(VitaLunaTable, VitaLunaView, Rules):
    name = "vitaluna"
    title = "Vita Luna"
    rules_file = "001_bf8d216902250985.txt"
    bench_unit = "battles"
    options = (
        Option("extended", "Extended game", False,
               help="All three circles of the middle rectangle count: three attacking wins to reach the heart"),
        Option("advanced", "Advanced game (bidding)", False,
               help="Bid 15 markers for the first attack, 8 black and 4 blue cards instead of dealing them"),
        Option("promote_to", "Promotion", "any", choices=("any", "column"),
               help="A reserve card is promoted to any free white position, or only to the one in front of it"),
        Option("blue_opener", "Who opens blue card 1 (bidding)", "alternate", choices=auction.BLUE_OPENERS,
               help="alternate: every bid alternates, black into blue; like_black: the blue cards start like the "
                    "black ones (who bid second for the attack); rounds: attack, black and blue rounds alternate "
                    "(who bid first for the attack)"),
    )

    # ---- setup -------------------------------------------------------------
    def normalise_options(self, options: dict | None) -> dict:
        """As :meth:`Rules.normalise_options`, plus ``card_edits``: the player's own card values
        (``<data dir>/cards/vitaluna.json``), kept in the options so a record replays with them."""
        options = dict(options or {})
        edits = options.pop("card_edits", None)
        merged = super().normalise_options(options)
        merged["card_edits"] = user_edits(players_card_dir()) if edits is None else edits
        return merged

    def setup(self, options: dict, seed: int) -> State:
        options = self.normalise_options(options)
        if options["promote_to"] not in ("any", "column"):
            raise IllegalAction("promote_to must be 'any' or 'column'")
        if options["blue_opener"] not in auction.BLUE_OPENERS:
            raise IllegalAction(f"blue_opener must be one of {', '.join(auction.BLUE_OPENERS)}")
        edits = options["card_edits"]
        if not isinstance(edits, dict) or not all(isinstance(e, dict) for e in edits.values()):
            raise IllegalAction("card_edits must map card ids to {\"name\": …, \"attrs\": {…}} entries")
        try:
            card_table(edits)                       # refuse bad card values before the game starts
        except CatalogueError as exc:
            raise IllegalAction(f"the card values cannot be used: {exc}") from None
        advanced = bool(options["advanced"])
        dealt = {"black": 0, "blue": 0, "red": 0} if advanced else {"black": 4, "blue": 2, "red": 0}
        return {
            "game": "vitaluna", "rng": seed, "options": options,
            "phase": "bidding" if advanced else "start", "battle": 1, "attacker": None,
            "track": [0, 0], "board": [[None] * 8, [None] * 8], "health": {}, "spent": [],
            "heart": [HEARTS, HEARTS], "dead": [[], []], "turn": None, "placing": None,
            "rewards": [], "exchanging": None, "exchange": [],
            "owner": {}, "held": [dict(dealt), dict(dealt)], "burnt": [], "used": [[], []],
            "bidding": auction.fresh(options["blue_opener"]) if advanced else None,
            "battles": [], "winner": None, "reason": None, "orders": [None, None],
        }

    # ---- what the companion knows of the cards ---------------------------------
    def _deck(self, state: State, colour: str) -> list[str]:
        """Cards of ``colour`` that may still be in that colour's pile: nobody is known to hold them."""
        owner, burnt = state["owner"], state["burnt"]
        return [c for c in self.table(state).by_colour[colour] if c not in owner and c not in burnt]

    def _known(self, state: State, seat: int, colour: str) -> int:
        """How many of the ``colour`` cards ``seat`` holds the companion has seen (the rest were dealt
        face down and never placed)."""
        table = self.table(state)
        n = 0
        for c, s in state["owner"].items():       # a loop, not sum(generator): asked on every placement
            if s == seat and table[c].colour == colour:
                n += 1
        return n

    def check_free_card(self, state: State, card: str, colour: str, why: str) -> Creature:
        """``card`` as a creature of ``colour`` nobody holds (a card bid for, a reward, a new blue card)."""
        creature = self._creature(state, card)
        names = self._names(state)
        if creature.colour != colour:
            raise IllegalAction(f"{creature.name} is a {creature.colour} card; {why} is a {colour} card")
        if card in state["burnt"]:
            raise IllegalAction(f"{creature.name} was burnt: it is out until the end of the game")
        if card in state["owner"]:
            raise IllegalAction(f"{creature.name} belongs to {names[state['owner'][card]]}; {why} comes from "
                                f"the {colour} pile")
        return creature

    # ---- applying ------------------------------------------------------------------
    UNSEATED = frozenset({"reveal"})

    def follow_up(self, state: State, action: Action) -> Action | None:
        """A standing choice's attack, on the turn of the seat that made it (:mod:`.orders`)."""
        return orders.follow_up(state)

    # ---- start: who attacks first ----------------------------------------------------
    def _attack_first(self, state: State, action: Action):
        if state["phase"] != "start":
            raise IllegalAction("who attacks first is already decided")
        seat = action["seat"]
        new = state.copy()
        new["attacker"] = seat
        events = [event("attack_first", f"{self._names(state)[seat]} attacks first", seat=seat)]
        return self.begin_placement(new, events)

    def begin_placement(self, new: State, events: list):
        """A battle's placement opens: the attacker places first (after the start or the bidding)."""
        names = self._names(new)
        a = new["attacker"]
        new["phase"], new["placing"] = "placement", a
        events.append(event("placement", f"Battle {new['battle']}: {names[a]} attacks and places first — white "
                                          f"positions face up, grey face down, at most 8 cards", seat=a,
                            battle=new["battle"]))
        return new, events

    # ---- bidding: its moves are in bidding.py ------------------------------------------
    # ---- placement --------------------------------------------------------------------------
    def _place(self, state: State, action: Action):
        seat, zone, card = action["seat"], action.get("zone"), action.get("card")
        names = self._names(state)
        if state["phase"] != "placement":
            raise IllegalAction(f"cards are placed before a battle; now: {self._phase_label(state)}")
        if seat != state["placing"]:
            p = state["placing"]
            raise IllegalAction(f"{names[p]} is placing now; {names[seat]} places after {names[p]} presses Done"
                                if p == state["attacker"] else f"{names[seat]} has finished placing")
        where = SLOT_OF.get(zone)
        if where is None or where[0] != seat:
            raise IllegalAction(f"{zone!r} is not one of {names[seat]}'s positions")
        slot = where[1]
        creature = self._creature(state, card)
        if card in state["burnt"]:
            raise _placing_refusal("{card} was burnt: it is out until the end of the game", creature, slot, seat)
        owner = state["owner"].get(card)
        if owner is not None and owner != seat:
            raise _placing_refusal(f"{{card}} belongs to {names[owner]}: it cannot join {names[seat]}'s side",
                                   creature, slot, seat)
        row = list(state["board"][seat])
        if row[slot] is not None:
            text = f"{names[seat]}'s {slot_label(slot)} already holds {{}}; lift it first"
            full = text.format(self._shown_name(state, row[slot], slot, seat))
            if slot in WHITE:
                raise IllegalAction(full)
            raise IllegalAction(full, redacted=text.format("a face-down card"), hidden_from=[1 - seat])
        if owner is None and self._known(state, seat, creature.colour) >= state["held"][seat][creature.colour]:
            n = state["held"][seat][creature.colour]
            raise _placing_refusal(f"{names[seat]} holds {n} {creature.colour} card{'' if n == 1 else 's'}"
                                   + (", all of them known" if n else "") + ": {card} is not one of them",
                                   creature, slot, seat)
        new = state.copy()
        if card in row:
            row[row.index(card)] = None            # moved from another position while placing
        elif card in state["board"][1 - seat]:
            raise _placing_refusal(f"{{card}} already lies on {names[1 - seat]}'s side", creature, slot, seat)
        row[slot] = card
        board = _with(state["board"], seat, row)
        new["board"] = board
        if owner is None:
            owned = state["owner"].copy()
            owned[card] = seat
            new["owner"] = owned
        zone_id = ZONE_IDS[seat][slot]
        where = SLOT_LABELS[slot]
        # the dicts engine.event and hidden_event make, written out (same keys, same order): a third of a
        # battle's moves are placements
        if slot in WHITE:
            return new, [{"seat": seat, "zone": zone_id, "card": card, "type": "placed",
                          "text": f"{names[seat]} places {self.table(state).labels[card]} on {where}"}]
        return new, [{"seat": seat, "zone": zone_id, "card": card, "type": "placed",
                      "text": f"{names[seat]} places {creature.name} face down on {where}", "hidden_from": [1 - seat],
                      "redacted": {"type": "placed", "text": f"{names[seat]} places a card face down on {where}",
                                   "seat": seat, "zone": zone_id}}]

    def _unplace(self, state: State, action: Action):
        seat, zone = action["seat"], action.get("zone")
        names = self._names(state)
        if state["phase"] not in BETWEEN_BATTLES:
            raise IllegalAction("cards leave the battle only by dying, Burn, Swap or Steal")
        where = SLOT_OF.get(zone)
        if where is None or where[0] != seat:
            raise IllegalAction(f"{zone!r} is not one of {names[seat]}'s positions")
        slot = where[1]
        card = state["board"][seat][slot]
        if card is None:
            raise IllegalAction(f"{names[seat]}'s {slot_label(slot)} is already empty")
        if state["phase"] == "placement" and seat == state["attacker"] != state["placing"]:
            raise IllegalAction(f"{names[seat]} has finished placing")
        row = list(state["board"][seat])
        row[slot] = None
        board = _with(state["board"], seat, row)
        text = f"{names[seat]} takes {self.table(state)[card].name} off {slot_label(slot)}"
        if slot in WHITE:
            ev = event("unplaced", text, seat=seat, zone=zone, card=card)
        else:
            ev = hidden_event("unplaced", text, f"{names[seat]} takes a face-down card off {slot_label(slot)}",
                              [1 - seat], seat=seat, zone=zone, card=card)
        return dict(state, board=board), [ev]

    def _done(self, state: State, action: Action):
        seat = action["seat"]
        names = self._names(state)
        phase = state["phase"]
        if phase == "placement":
            if seat != state["placing"]:
                raise IllegalAction(f"{names[state['placing']]} is placing now")
            if not any(state["board"][seat]):
                raise IllegalAction(f"{names[seat]} must place at least one creature before the battle")
            if seat == state["attacker"]:
                d = 1 - seat
                new = state.copy()
                new["placing"] = d
                return new, [event("placement", f"{names[d]} defends and places now, seeing "
                                                                   f"{names[seat]}'s white positions", seat=d)]
            return self._start_battle(state)
        if phase == "exchange":
            if seat != state["exchanging"]:
                raise IllegalAction(f"{names[state['exchanging']]} is exchanging cards now")
            if state["exchange"]:
                raise IllegalAction(f"{names[seat]} has given {counted(len(state['exchange']), 'black card')}: "
                                    "finish the exchange by scanning the new blue card, or undo")
            if seat == state["attacker"]:
                return dict(state, exchanging=1 - seat), [event(
                    "exchange", f"{names[1 - seat]} may swap two black cards for a blue one, or keep them",
                    seat=1 - seat)]
            return self.begin_placement(dict(state, exchanging=None), [])
        raise IllegalAction(f"there is nothing to finish now: {self._phase_label(state)}")

    def _start_battle(self, state: State):
        a = state["attacker"]
        names = self._names(state)
        new = state.copy()
        new["phase"] = "battle"
        new["placing"] = None
        new["heart"] = [HEARTS, HEARTS]
        new["health"] = {}
        new["spent"] = []
        new["dead"] = [[], []]
        new["turn"] = _fresh_turn(a)
        return new, [event("battle_start", f"Battle {state['battle']} begins: {names[a]} attacks, "
                                           f"{HEARTS} hearts each", seat=a, battle=state["battle"])]

    # ---- a battle turn --------------------------------------------------------------------------
    def _my_turn(self, state: State, seat: int, doing: str) -> dict:
        if state["phase"] != "battle":
            raise IllegalAction(f"{doing} happens during a battle; now: {self._phase_label(state)}")
        turn = state["turn"]
        if seat != turn["seat"]:
            raise IllegalAction(f"it is {self._names(state)[turn['seat']]}'s turn")
        return turn

    def move_problem(self, state: State, seat: int, card: str, to: str) -> str | None:
        """Why ``seat`` may not move ``card`` to zone ``to`` now, or None when the move is legal.

        One move in the white row (to the next free position; a move-anywhere
        creature to any free one, or a swap with any own creature), one in the
        grey row, one promotion from grey to a free white position; anchored
        creatures never move on white, held ones not at all (RULINGS, Vita Luna).
        """
        names, table = self._names(state), self.table(state)
        turn = state["turn"]
        if turn["pending"]:
            return _pending(turn)
        row = state["board"][seat]
        if card not in row:
            return f"{table[card].name if card in table else card} is not on {names[seat]}'s positions"
        where = SLOT_OF.get(to)
        if where is None or where[0] != seat:
            return f"{names[seat]} can move only to their own positions"
        src, dst = row.index(card), where[1]
        if src == dst:
            return "the card is already there"
        me = table[card]
        other = row[dst]
        if src in GREY:
            if dst in GREY:
                if turn["grey"]:
                    return f"{names[seat]} has already moved a reserve card this turn"
                if other is not None:
                    return f"{slot_label(dst)} is taken; a reserve card moves to a free grey position"
                return None
            if other is not None:
                if (me.epics | table[other].epics) & MOVE_ANYWHERE:
                    return self._reserve_swap_problem(state, seat, dst, src)
                return f"{slot_label(dst)} is taken; promote to a free white position"
            if turn["promoted"]:
                return f"{names[seat]} has already promoted a card this turn"
            if state["options"]["promote_to"] == "column" and dst != src - 4:
                return f"a reserve card is promoted to the white position in front of it ({slot_label(src - 4)})"
            return None
        if dst in GREY:
            if other is not None and (me.epics | table[other].epics) & MOVE_ANYWHERE:
                return self._reserve_swap_problem(state, seat, src, dst)
            return "a card in play cannot go back to the reserve during a battle"
        if turn["white"]:
            return f"{names[seat]} has already moved in the white row this turn"
        if me.epics & ANCHOR:
            return f"{me.name} is anchored: it cannot move once on a white position"
        if self._held(state, seat, src):
            return f"{me.name} is held by {table[state['board'][1 - seat][src]].name}"
        if other is None:
            if abs(dst - src) == 1 or me.epics & MOVE_ANYWHERE:
                return None
            return f"{me.name} moves only to the next position (it has no move anywhere)"
        them = table[other]
        if not (me.epics | them.epics) & MOVE_ANYWHERE:
            return "two creatures swap only if one of them can move anywhere"
        if them.epics & ANCHOR:
            return f"{them.name} is anchored and cannot be swapped"
        if self._held(state, seat, dst):
            return f"{them.name} is held by {table[state['board'][1 - seat][dst]].name}"
        return None

    def _can_ever_hurt(self, state: State) -> bool:
        """Whether any creature can still deal damage in this battle (docs/rulings/vitaluna.md, "No way
        to win"): one on white with attack above 0, or one in the reserve with attack above 0 that can
        get onto white — promoted to a free white position of its side, or swapped in by a move-anywhere
        creature that is neither anchored nor held.  Every hit changes something (health, armour, a
        heart), so a battle in which this holds goes on towards its end; one in which it fails cannot.
        No singular card can change that for the player who needs it: Burn frees the opponent's
        position, Steal needs a free position of one's own, Swap and Heal act on white creatures."""
        table = self.table(state)
        for seat in (0, 1):
            row = state["board"][seat]
            for w in WHITE:
                if row[w] and table[row[w]].attack > 0:
                    return True
            free_white = None in row[:4]             # a free white position (WHITE)
            for g in GREY:
                card = row[g]
                if not card or table[card].attack <= 0:
                    continue
                if free_white:
                    return True
                me = table[card]
                if me.epics & ANCHOR:
                    continue
                if any((me.epics | table[row[w]].epics) & MOVE_ANYWHERE and not table[row[w]].epics & ANCHOR
                       and not self._held(state, seat, w) for w in WHITE):
                    return True
        return False

    def _reserve_swap_problem(self, state: State, seat: int, white: int, grey: int) -> str | None:
        """Why the creature on ``white`` may not swap with the reserve card on ``grey`` (one of them can
        move anywhere): rules, Move anywhere — "to swap with any of its own side (as long as they don't
        have the anchor epic)"; RULINGS: the player's own reserve creature included.  It is the turn's
        white move.  The reserve card is never named: it lies face down until it arrives."""
        names, table = self._names(state), self.table(state)
        row = state["board"][seat]
        w = table[row[white]]
        if state["turn"]["white"]:
            return f"{names[seat]} has already moved in the white row this turn"
        if w.epics & ANCHOR:
            return f"{w.name} is anchored: it cannot move once on a white position"
        if table[row[grey]].epics & ANCHOR:
            return f"the reserve card on {slot_label(grey)} is anchored and cannot be swapped"
        if self._held(state, seat, white):
            return f"{w.name} is held by {table[state['board'][1 - seat][white]].name}"
        return None

    def _held(self, state: State, seat: int, slot: int) -> bool:
        holder = state["board"][1 - seat][slot]
        return holder is not None and bool(self.table(state)[holder].epics & HOLDS)

    def _move(self, state: State, action: Action):
        seat, card, to = action["seat"], action.get("card"), action.get("to")
        turn = self._my_turn(state, seat, "moving")
        problem = self.move_problem(state, seat, card, to)
        if problem:
            raise IllegalAction(problem)
        names, table = self._names(state), self.table(state)
        row = list(state["board"][seat])
        src, dst = row.index(card), SLOT_OF[to][1]
        other = row[dst]
        row[src], row[dst] = other, card
        board = _with(state["board"], seat, row)
        me = table[card]
        who = names[seat]
        if other is not None and (src in GREY) != (dst in GREY):
            turn = turn.copy()
            turn["acted"], turn["white"] = True, True
            white, grey = (src, dst) if src in WHITE else (dst, src)
            up, down = table[row[white]], table[row[grey]]
            # the creature going down lies face down from now on: only its owner reads its name
            ev = hidden_event("moved", f"{who} swaps {down.name} from {slot_label(white)} into the reserve "
                                       f"({slot_label(grey)}) and brings {up.label()} up to {slot_label(white)}",
                              f"{who} brings {up.label()} up from the reserve to {slot_label(white)} and puts "
                              f"the creature from there face down on {slot_label(grey)}", [1 - seat],
                              seat=seat, zone=to, card=card, swapped=other)
        elif src in GREY and dst in GREY:
            turn = turn.copy()
            turn["acted"], turn["grey"] = True, True
            ev = hidden_event("moved", f"{who} moves {me.name} from {slot_label(src)} to {slot_label(dst)}",
                              f"{who} moves a reserve card from {slot_label(src)} to {slot_label(dst)}",
                              [1 - seat], seat=seat, zone=to, card=card)
        elif src in GREY:
            turn = turn.copy()
            turn["acted"], turn["promoted"] = True, True
            ev = event("promoted", f"{who} promotes {me.label()} from {slot_label(src)} to {slot_label(dst)}",
                       seat=seat, zone=to, card=card)
        else:
            turn = turn.copy()
            turn["acted"], turn["white"] = True, True
            text = (f"{who} swaps {me.name} ({slot_label(src)}) and {table[other].name} ({slot_label(dst)})"
                    if other else f"{who} moves {me.name} from {slot_label(src)} to {slot_label(dst)}")
            ev = event("moved", text, seat=seat, zone=to, card=card, swapped=other)
        new = state.copy()
        new["board"], new["turn"] = board, turn
        return new, [ev]

    def _attack(self, state: State, action: Action):
        seat = action["seat"]
        turn = self._my_turn(state, seat, "attacking")
        if turn["pending"]:
            raise IllegalAction(_pending(turn))
        names = self._names(state)
        fight = Fight.of(state, self.table(state))
        events, loser = fight.attack_step(seat, names)
        if not events:
            events.append(event("no_attack", f"{names[seat]} has no creature that attacks", seat=seat))
        new = state.copy()
        fight.store(new)
        if loser is not None:
            why = "has no hearts left" if fight.heart[loser] <= 0 else "has no creatures left"
            return self._end_battle(new, loser, f"{names[loser]} {why}", events)
        if not self._can_ever_hurt(new):
            return self._end_battle(new, state["attacker"], "no creature in the battle can ever attack again, "
                                                             "so the attacker cannot win it", events)
        new["turn"] = _fresh_turn(1 - seat)
        events.append({"seat": 1 - seat, "type": "turn", "text": f"{names[1 - seat]}'s turn"})  # event(), written out
        return new, events

    def _end_battle(self, new: State, loser: int, reason: str, events: list):
        names = self._names(new)
        winner, attacker = 1 - loser, new["attacker"]
        steps = steps_to_heart(new["options"])
        track = list(new["track"])
        record = {"battle": new["battle"], "attacker": attacker, "winner": winner, "reason": reason,
                  "heart": list(new["heart"])}
        new["battles"] = new["battles"] + [record]
        # the dead go back to their owners' hands; survivors stay on their positions, healed, with armour
        new.update(turn=None, dead=[[], []], health={}, spent=[])
        if winner == attacker:
            track[attacker] += 1
            new["track"] = track
            where = ("the heart" if track[attacker] == steps
                     else "the red circle" if track[attacker] == steps - 1 else f"circle {track[attacker]}")
            text = f"Battle {new['battle']}: {names[winner]} wins ({reason}) and advances to {where}"
        else:
            text = f"Battle {new['battle']}: {names[winner]} defends successfully ({reason}); no counter moves"
        events.append(event("battle_result", text, winner=winner, outcome="win", battle=new["battle"],
                            reason=reason, track=track))
        if track[attacker] >= steps:
            new.update(phase="over", winner=attacker, reason=f"{names[attacker]} reached {names[loser]}'s heart")
            events.append(event("game_over", f"{names[attacker]} reaches {names[loser]}'s heart and wins the game",
                                winner=attacker))
            return new, events
        if winner == attacker and track[attacker] == steps - 1:
            rewards = [[winner, "red"], [loser, "blue"]]
        else:
            rewards = [[winner, "black"], [loser, "black"]]
        new.update(phase="rewards", rewards=rewards, attacker=1 - attacker, battle=new["battle"] + 1)
        events.append(event("rewards", " and ".join(f"{names[s]} takes a {c} card" for s, c in rewards)
                            + ": scan it on the shared pad", rewards=rewards))
        return new, events

    # ---- singular cards ---------------------------------------------------------------------------
    def singular_targets(self, state: State, seat: int, name: str) -> list[Action]:
        """Every way ``seat`` could use singular card ``name`` now (target actions)."""
        board, table = state["board"], self.table(state)
        mine, theirs = board[seat], board[1 - seat]
        zones, foes = ZONE_IDS[seat], ZONE_IDS[1 - seat]
        base = {"type": "target", "seat": seat}
        if name == "burn":
            return [dict(base, zone=foes[c]) for c in WHITE if theirs[c]]
        if name == "steal":
            return [dict(base, zone=foes[c]) for c in WHITE if theirs[c] and mine[c] is None]
        if name == "heal":
            return [dict(base, zone=zones[c]) for c in WHITE if mine[c] and self._injured(state, mine[c], table)]
        return [dict(base, zone=foes[t], own=zones[c]) for c in WHITE if mine[c] for t in WHITE if theirs[t]]

    @staticmethod
    def _injured(state: State, card: str, table: dict) -> bool:
        return card in state["health"] or card in state["spent"]

    def _singular(self, state: State, action: Action):
        seat, name = action["seat"], action.get("name")
        turn = self._my_turn(state, seat, "playing a singular card")
        names = self._names(state)
        if name not in SINGULARS:
            raise IllegalAction(f"singular cards are Burn, Swap, Steal and Heal, not {name!r}")
        if turn["pending"]:
            raise IllegalAction(_pending(turn))
        if turn["acted"]:
            raise IllegalAction("singular cards are played before moving cards in a turn")
        if name in state["used"][seat]:
            raise IllegalAction(f"{names[seat]} has already used {name.capitalize()} in this game")
        if not self.singular_targets(state, seat, name):
            raise IllegalAction(f"{name.capitalize()} needs {SINGULAR_NEEDS[name]}")
        return dict(state, turn=dict(turn, pending=name)), [event(
            "singular", f"{names[seat]} plays {name.capitalize()}: choose its target on the screen", seat=seat,
            singular=name)]

    def _cancel(self, state: State, action: Action):
        turn = self._my_turn(state, action["seat"], "cancelling a singular card")
        if not turn["pending"]:
            raise IllegalAction("no singular card is waiting for a target")
        return dict(state, turn=dict(turn, pending=None)), [event(
            "singular_cancelled", f"{turn['pending'].capitalize()} goes back to {self._names(state)[turn['seat']]}'s hand, unused",
            seat=turn["seat"])]

    def _target(self, state: State, action: Action):
        seat = action["seat"]
        turn = self._my_turn(state, seat, "choosing a target")
        name = turn["pending"]
        if not name:
            raise IllegalAction("play a singular card first")
        wanted = {"zone": action.get("zone")}
        if name == "swap":
            wanted["own"] = action.get("own")
        options = self.singular_targets(state, seat, name)
        if not any(all(o.get(k) == v for k, v in wanted.items()) for o in options):
            raise IllegalAction(SINGULAR_TARGETS[name])
        names, table = self._names(state), self.table(state)
        fight = Fight.of(state, table)
        foe = 1 - seat
        t_seat, t_slot = SLOT_OF[wanted["zone"]]
        victim = fight.board[t_seat][t_slot]
        new = state.copy()
        new["turn"] = dict(turn, pending=None)
        used = list(state["used"])
        used[seat] = used[seat] + [name]
        new["used"] = used
        owner = dict(state["owner"])
        held = state["held"]
        creature = table[victim]
        if name == "burn":
            fight.board[foe][t_slot] = None
            fight.health.pop(victim, None)
            owner.pop(victim, None)
            held = add_held(held, foe, creature.colour, -1)
            new["burnt"] = state["burnt"] + [victim]
            text = f"{names[seat]} burns {names[foe]}'s {creature.name}: it is out until the end of the game"
        elif name == "steal":
            fight.board[foe][t_slot] = None
            fight.board[seat][t_slot] = victim
            owner[victim] = seat
            held = add_held(add_held(held, foe, creature.colour, -1), seat, creature.colour, 1)
            text = (f"{names[seat]} steals {creature.name} ({fight.hp(victim)} health) into {slot_label(t_slot)}; "
                    f"{names[seat]} keeps it")
        elif name == "heal":
            fight.health.pop(victim, None)
            fight.spent.discard(victim)
            text = f"{names[seat]} heals {creature.name} back to {creature.health} health" + (
                " and its armour" if creature.epics & ARMOUR else "")
        else:
            o_slot = SLOT_OF[wanted["own"]][1]
            mine = fight.board[seat][o_slot]
            fight.board[seat][o_slot], fight.board[foe][t_slot] = victim, mine
            owner[victim], owner[mine] = seat, foe
            mc = table[mine]
            held = add_held(add_held(held, foe, creature.colour, -1), seat, creature.colour, 1)
            held = add_held(add_held(held, seat, mc.colour, -1), foe, mc.colour, 1)
            text = (f"{names[seat]} swaps their {mc.name} ({fight.hp(mine)} health) for {names[foe]}'s "
                    f"{creature.name} ({fight.hp(victim)} health); both change sides for good")
        fight.store(new)
        new["owner"], new["held"] = owner, held
        # the positions it changed: the target's, and where a stolen or swapped creature now stands
        moved = {"steal": [ZONE_IDS[seat][t_slot]], "swap": [wanted.get("own")]}.get(name, [])
        events = [event("singular_used", text, seat=seat, singular=name, card=victim,
                        zones=[wanted["zone"]] + [z for z in moved if z])]
        lost = fight.losers()
        if lost:
            return self._end_battle(new, lost[0], f"{names[lost[0]]} has no creatures left", events)
        return new, events

    # ---- between battles -----------------------------------------------------------------------------
    def _reward(self, state: State, action: Action):
        seat, card = action["seat"], action.get("card")
        names = self._names(state)
        if state["phase"] != "rewards":
            raise IllegalAction(f"rewards are taken after a battle; now: {self._phase_label(state)}")
        due_seat, colour = state["rewards"][0]
        if seat != due_seat:
            raise IllegalAction(f"{names[due_seat]} takes their {colour} card first")
        new = state.copy()
        new["rewards"], new["held"] = state["rewards"][1:], add_held(state["held"], seat, colour, 1)
        if card is None:
            events = [event("reward", f"{names[seat]} takes a {colour} card (not scanned)", seat=seat, colour=colour)]
        else:
            creature = self.check_free_card(state, card, colour, f"{names[seat]}'s reward")
            if self._where(state, card):
                raise IllegalAction(f"{creature.name} lies on a position; a reward comes from the {colour} pile")
            owner = dict(state["owner"])
            owner[card] = seat
            new["owner"] = owner
            events = [hidden_event("reward", f"{names[seat]} takes {self.table(state).labels[card]}",
                                   f"{names[seat]} takes a {colour} card", [1 - seat], seat=seat, card=card,
                                   colour=colour)]
        if not new["rewards"]:
            a = new["attacker"]
            new.update(phase="exchange", exchanging=a, exchange=[])
            events.append(event("exchange", f"{names[a]} may swap two black cards for a blue one, or keep them",
                                seat=a))
        return new, events

    def _exchange(self, state: State, action: Action):
        seat, card = action["seat"], action.get("card")
        names = self._names(state)
        if state["phase"] != "exchange":
            raise IllegalAction("two black cards are swapped for a blue one after a battle, before the next")
        if seat != state["exchanging"]:
            raise IllegalAction(f"{names[state['exchanging']]} is exchanging cards now")
        given = state["exchange"]
        new = state.copy()
        if len(given) < 2:
            creature = self._creature(state, card)
            if creature.colour != "black":
                raise IllegalAction(f"{creature.name} is {creature.colour}: give two black cards first, then scan "
                                    "the new blue card")
            if card in state["burnt"]:
                raise IllegalAction(f"{creature.name} was burnt: it is out until the end of the game")
            if state["owner"].get(card, seat) != seat:
                raise IllegalAction(f"{creature.name} belongs to {names[1 - seat]}")
            if card in given:
                raise IllegalAction(f"{creature.name} is already given; scan a second black card")
            black = state["held"][seat]["black"]
            if black < 2:
                raise IllegalAction(f"{names[seat]} holds {counted(black, 'black card')}: "
                                    "two are needed for a blue one")
            if card not in state["owner"]:
                unseen = black - self._known(state, seat, "black") - sum(c not in state["owner"] for c in given)
                if unseen <= 0:
                    raise IllegalAction(f"{names[seat]}'s {counted(black, 'black card')} are all known: {creature.name} is "
                                        "not one of them")
            where = self._where(state, card)
            if where:
                raise IllegalAction(f"{creature.name} lies on {slot_label(where[1])}: lift it off its position, "
                                    "then scan it")
            new["exchange"] = given + [card]
            more = "one more black card" if len(given) == 0 else "the new blue card"
            return new, [hidden_event("exchange_give", f"{names[seat]} gives back {creature.name}: scan {more}",
                                      f"{names[seat]} gives back a black card: scan {more}", [1 - seat],
                                      seat=seat, card=card)]
        creature = self.check_free_card(state, card, "blue", "the card received for two blacks")
        if self._where(state, card):
            raise IllegalAction(f"{creature.name} lies on a position; the new blue card comes from the blue pile")
        owner = dict(state["owner"])
        for black in given:
            owner.pop(black, None)
        owner[card] = seat
        held = add_held(add_held(state["held"], seat, "black", -2), seat, "blue", 1)
        new.update(owner=owner, held=held, exchange=[])
        return new, [hidden_event("exchanged", f"{names[seat]} swaps two black cards for {self.table(state).labels[card]}",
                                  f"{names[seat]} swaps two black cards for a blue card", [1 - seat], seat=seat,
                                  card=card)]

    # ---- corrections ----------------------------------------------------------------------------------
    def _adjust(self, state: State, action: Action):
        seat, name, delta = action.get("seat"), action.get("counter"), action.get("delta")
        names = self._names(state)
        if seat not in (0, 1) or not isinstance(delta, int) or isinstance(delta, bool):
            raise IllegalAction("an adjustment needs a seat (0 or 1) and a whole-number delta")
        if name == f"heart.{seat}" and state["phase"] == "battle":
            heart = list(state["heart"])
            heart[seat] = min(HEARTS, heart[seat] + delta)
            new = state.copy()
            new["heart"] = heart
            events = [event("adjusted", f"{names[seat]}'s heart corrected to {heart[seat]}", seat=seat,
                            counter=name, value=heart[seat])]
            if heart[seat] <= 0:
                return self._end_battle(new, seat, f"{names[seat]} has no hearts left", events)
            return new, events
        if name == f"track.{seat}":
            track = list(state["track"])
            track[seat] = max(0, min(steps_to_heart(state["options"]) - 1, track[seat] + delta))
            return dict(state, track=track), [event("adjusted", f"{names[seat]}'s counter corrected to step "
                                                                f"{track[seat]}", seat=seat, counter=name,
                                                    value=track[seat])]
        if name == f"markers.{seat}" and state["phase"] == "bidding":
            b = state["bidding"]
            markers = list(b["markers"])
            markers[seat] = max(0, markers[seat] + delta)
            new = state.copy()
            new["bidding"] = dict(b, markers=markers)
            return new, [event("adjusted", f"{names[seat]}'s bidding markers corrected to {markers[seat]}",
                               seat=seat, counter=name, value=markers[seat])]
        raise IllegalAction(f"{name!r} cannot be corrected now; counters: heart.N during a battle, track.N, "
                            "markers.N during the bidding")

    #: A battle's moves are :func:`.orders.watched` (a standing choice to attack every turn is checked
    #: after them); a card scanned from a hand has its refusal hidden (:func:`_hand_refusals`).
    MOVES = {
        "attack_first": _attack_first, "bid_first": auction.bid_first, "reveal": auction.reveal, "bid": auction.bid,
        "place": _place, "unplace": _unplace, "done": _done,
        "reward": _hand_refusals(_reward), "exchange": _hand_refusals(_exchange),
        **{kind: orders.watched(handler) for kind, handler in (
            ("move", _move), ("attack", _attack), ("singular", _singular), ("target", _target), ("cancel", _cancel),
            ("adjust", _adjust), ("attack_every_turn", orders.attack_every_turn),
            ("stop_attacking", orders.stop_attacking))},
    }

    # ---- what may happen -------------------------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "start":
            return [{"type": "attack_first", "seat": s} for s in (0, 1)]
        if phase == "bidding":
            b = state["bidding"]
            if b["stage"] == "first":
                return [{"type": "bid_first", "seat": s} for s in (0, 1)]
            seat = auction.to_bid(b)
            if seat is None:
                return [{"type": "reveal", "card": c} for c in self._deck(state, b["stage"])]
            return [{"type": "bid", "seat": seat, "amount": n} for n in range(b["markers"][seat] + 1)]
        if phase == "placement":
            seat = state["placing"]
            out = [{"type": "place", "seat": seat, "zone": ZONE_IDS[seat][slot], "card": c}
                   for c in self._placeable(state, seat) for slot in range(8) if state["board"][seat][slot] is None]
            out += self._unplaceable(state)
            if any(state["board"][seat]):
                out.append({"type": "done", "seat": seat})
            return out
        if phase == "battle":
            turn = state["turn"]
            seat = turn["seat"]
            if turn["pending"]:
                return self.singular_targets(state, seat, turn["pending"]) + [{"type": "cancel", "seat": seat}]
            out = []
            if not turn["acted"]:
                out += [{"type": "singular", "seat": seat, "name": n} for n in SINGULARS
                        if n not in state["used"][seat] and self.singular_targets(state, seat, n)]
            for card in state["board"][seat]:
                if card is None:
                    continue
                for zone in ZONE_IDS[seat]:
                    if self.move_problem(state, seat, card, zone) is None:
                        out.append({"type": "move", "seat": seat, "card": card, "to": zone})
            out.append({"type": "attack", "seat": seat})
            return out + orders.legal(state)
        if phase == "rewards":
            seat, colour = state["rewards"][0]
            on_board = {c for row in state["board"] for c in row if c}
            return [{"type": "reward", "seat": seat, "card": None}] + [
                {"type": "reward", "seat": seat, "card": c} for c in self._deck(state, colour) if c not in on_board]
        if phase == "exchange":
            return self._exchange_actions(state) + self._unplaceable(state)
        return []

    def _placeable(self, state: State, seat: int) -> list[str]:
        """Creatures ``seat`` may put on a position: their own known cards off the board, and any
        card nobody is known to hold (a face-down card dealt to them), unless burnt."""
        owner, burnt = state["owner"], state["burnt"]
        on_board = {c for row in state["board"] for c in row if c}
        unseen = {colour: self._known(state, seat, colour) < state["held"][seat][colour] for colour in COLOURS}
        return [c.id for c in self.table(state).values() if isinstance(c, Creature) and c.id not in on_board
                and c.id not in burnt and (owner.get(c.id) == seat or (c.id not in owner and unseen[c.colour]))]

    def _unplaceable(self, state: State) -> list[Action]:
        out = []
        for s in (0, 1):
            if state["phase"] == "placement" and s != state["placing"] and state["placing"] != state["attacker"]:
                continue
            out += [{"type": "unplace", "seat": s, "zone": ZONE_IDS[s][slot]}
                    for slot in range(8) if state["board"][s][slot]]
        return out

    def _exchange_actions(self, state: State) -> list[Action]:
        seat = state["exchanging"]
        given = state["exchange"]
        if len(given) == 2:
            on_board = {c for row in state["board"] for c in row if c}
            return [{"type": "exchange", "seat": seat, "card": c} for c in self._deck(state, "blue")
                    if c not in on_board]
        out = [] if given else [{"type": "done", "seat": seat}]
        if state["held"][seat]["black"] < 2:
            return out
        table, owner = self.table(state), state["owner"]
        board = state["board"]
        out += [{"type": "exchange", "seat": seat, "card": c} for c, s in owner.items()
                if s == seat and table[c].colour == "black" and c not in given and c not in board[s]]
        return out

    def random_action(self, state: State, rng: Rng) -> Action:
        """A random legal action, sampled without listing them all in the hot phases."""
        phase = state["phase"]
        if phase == "battle":
            return self._random_turn_action(state, rng)
        if phase == "placement":
            seat = state["placing"]
            row = state["board"][seat]
            free = [z for z, c in zip(ZONE_IDS[seat], row) if c is None]
            placed = 8 - len(free)
            if placed and (not free or rng.randrange(7) == 0):
                return {"type": "done", "seat": seat}
            card = self._random_card(state, seat, rng)
            if card is None:
                if placed:
                    return {"type": "done", "seat": seat}
                card = rng.choice(self._placeable(state, seat))
            return {"type": "place", "seat": seat, "zone": rng.choice(free), "card": card}
        if phase == "rewards":
            seat, colour = state["rewards"][0]
            return {"type": "reward", "seat": seat, "card": self._random_free(state, colour, rng)}
        if phase == "exchange":
            actions = self._exchange_actions(state)
            done = [a for a in actions if a["type"] == "done"]
            if done and (len(actions) < 3 or rng.randrange(3)):
                return done[0]
            return rng.choice([a for a in actions if a["type"] != "done"] or actions)
        if phase == "bidding" and state["bidding"]["stage"] != "first" and auction.to_bid(state["bidding"]) is not None:
            seat = auction.to_bid(state["bidding"])
            return {"type": "bid", "seat": seat, "amount": rng.randrange(min(state["bidding"]["markers"][seat], 4) + 1)}
        return super().random_action(state, rng)

    def _random_card(self, state: State, seat: int, rng: Rng) -> str | None:
        """What a random player places: one of their known cards off the board, or an unknown one
        their counts say they hold (drawn from the cards nobody is known to hold)."""
        owner, table = state["owner"], self.table(state)
        board = state["board"]
        mine = []
        known = dict.fromkeys(COLOURS, 0)
        for c, s in owner.items():
            if s == seat:
                known[table[c].colour] += 1
                if c not in board[0] and c not in board[1]:
                    mine.append(c)
        unknown = [colour for colour in COLOURS if state["held"][seat][colour] > known[colour]]
        if unknown and (not mine or rng.randrange(2)):
            card = self._random_free(state, rng.choice(unknown), rng)
            if card is not None:
                return card
        return rng.choice(mine) if mine else None

    def _random_free(self, state: State, colour: str, rng: Rng) -> str | None:
        """A random card of ``colour`` that nobody is known to hold and no position holds."""
        pile = self.table(state).by_colour[colour]
        owner, burnt, board = state["owner"], state["burnt"], state["board"]
        for _ in range(8):                    # rejection sampling: most of a pile is usually free
            card = pile[rng.randrange(len(pile))] if pile else None
            if card is None:
                return None
            if card not in owner and card not in burnt and card not in board[0] and card not in board[1]:
                return card
        free = [c for c in self._deck(state, colour) if c not in board[0] and c not in board[1]]
        return rng.choice(free) if free else None

    def _random_turn_action(self, state: State, rng: Rng) -> Action:
        turn = state["turn"]
        seat = turn["seat"]
        if turn["pending"]:
            targets = self.singular_targets(state, seat, turn["pending"])
            return rng.choice(targets) if targets and rng.randrange(8) else {"type": "cancel", "seat": seat}
        roll = rng.randrange(12)
        if roll == 0 and not turn["acted"] and len(state["used"][seat]) < 4:
            name = SINGULARS[rng.randrange(4)]
            if name not in state["used"][seat] and self.singular_targets(state, seat, name):
                return {"type": "singular", "seat": seat, "name": name}
        elif roll < 6:
            row = state["board"][seat]
            card = row[rng.randrange(8)]
            if card is not None:
                to = ZONE_IDS[seat][rng.randrange(8)]
                if self.move_problem(state, seat, card, to) is None:
                    return {"type": "move", "seat": seat, "card": card, "to": to}
        return {"type": "attack", "seat": seat}

    # ---- the end ---------------------------------------------------------------------------------------
    def result(self, state: State) -> dict:
        if state["winner"] is None:
            return {"winner": None, "reason": "the game is not over", "track": state["track"]}
        return {"winner": state["winner"], "reason": state["reason"], "track": state["track"],
                "battles": len(state["battles"])}

    def summary(self, state: State) -> dict:
        return {"game": self.name, "over": self.is_over(state), "winner": state["winner"],
                "players": self._names(state), "track": state["track"],
                "steps_to_heart": steps_to_heart(state["options"]), "battles": state["battles"],
                "burnt": state["burnt"], "used": state["used"],
                "result": self.result(state) if self.is_over(state) else None}

    def bench_playout(self, seed: int, on_apply=None) -> int:
        """Fully automatic random games; returns how many battles they completed."""
        state = self.playout({"card_edits": {}}, seed, on_apply=on_apply)
        return len(state["battles"])

def _placing_refusal(text: str, creature: Creature, slot: int, seat: int) -> IllegalAction:
    """A refused placement: ``text`` names the card as {card}; a card put on a grey position would lie
    face down, so the other player and the shared screen read "a <colour> card" instead."""
    full = text.replace("{card}", creature.name)
    if slot not in GREY:
        return IllegalAction(full)
    return IllegalAction(full, redacted=text.replace("{card}", f"a {creature.colour} card"), hidden_from=[1 - seat])


def _fresh_turn(seat: int) -> dict:
    return {"seat": seat, "acted": False, "white": False, "grey": False, "promoted": False, "pending": None}


def _pending(turn: dict) -> str:
    return f"choose the target of {turn['pending'].capitalize()} first (or cancel it)"


def _with(items: list, seat: int, value) -> list:
    """A copy of a per-seat list with ``seat``'s entry set to ``value``."""
    out = list(items)
    out[seat] = value
    return out


RULES = VitaLunaRules()
