"""Sam's Battle Game: five lanes of stacked playing cards, red attack, black defence.

The rules are the author's (``shared/rules/004_…``) with the agreed rulings
(``shared/RULINGS.md``) and this project's own (``docs/rulings/sams.md``).

What the companion knows
------------------------
The cards on the table, scanned lane by lane; how many cards each player holds,
how many lie in the draw pile and in the discard pile (it counts every draw);
and which cards it has *seen* go to the discard pile, so a card that cannot be
in anyone's hand is refused.  It never needs to know a hand.

A round, as a state machine::

    play ──(24th card: the lanes are resolved)──► round_over ──next_round──► play …
                                                   └─(someone has 5 VP)──► over

State (all plain data)::

    round, turn (1–4), first (the round's first player), played (cards played
    this turn per seat), lanes[seat][lane] = [card ids, base first], hand[seat]
    (cards held), pile, discard (counts), vp[seat], redrawn[seat], rounds
    (results so far), phase; and two card sets kept as bitmasks over DECK
    (bit i = DECK[i], see :func:`cards_in`) because they are tested on every
    play: on_table, and discarded (cards known to lie in the discard pile).
"""
from __future__ import annotations

from companion.engine import Action, IllegalAction, Option, Rng, Rules, State, event

from companion.games.sams.cards import (_INFO, _SYMBOL, _ZONES, BIT, CARDS_PER_TURN, CATALOGUE, DECK, DRAW_PER_TURN, LANES,  # noqa: F401
                                        OPENING_HAND, RANK_NAMES, SUITS, TURNS, VP_TO_WIN, cards_in, generate_catalogue,
                                        hand_zone, is_face_down, lane_strength, lane_zone, symbol, to_play)
from companion.games.sams.solo import (HOLDER_SLOTS, _solo_decide, _solo_empty_holder, _solo_hand, _solo_take, decision_point,  # noqa: F401
                                     solo_hand, solo_instruction, solo_legal_actions)
from companion.games.sams.table import SamsTable, _parse_zone, _refusal, _where  # noqa: F401
from companion.games.sams.view import SamsView
from companion.words import counted

def fight(stacks: tuple[list[str], list[str]], strict_retaliation: bool) -> dict:
    """One lane's battle between seat 0's and seat 1's stacks.

    Returns ``{"outcome": "win" | "tie" | "draw" | "empty", "winner": seat | None,
    "attack": [a0, a1], "defence": [d0, d1], "why": sentence}`` where "why" has
    no names (the caller adds them).
    """
    if not stacks[0] and not stacks[1]:
        return {"outcome": "empty", "winner": None, "attack": [0, 0], "defence": [0, 0], "why": "empty"}
    (a0, d0), (a1, d1) = lane_strength(stacks[0]), lane_strength(stacks[1])
    attack, defence = [a0, a1], [d0, d1]
    if a0 != a1:
        first = 0 if a0 > a1 else 1
        second = 1 - first
        if attack[first] >= defence[second]:
            return {"attack": attack, "defence": defence, "outcome": "win", "winner": first,
                    "why": f"{{{first}}} attack {attack[first]} ≥ {{{second}}} defence {defence[second]}"}
        strikes_back = attack[second] > defence[first] if strict_retaliation else attack[second] >= defence[first]
        sign = ">" if strict_retaliation else "≥"
        if strikes_back:
            return {"attack": attack, "defence": defence, "outcome": "win", "winner": second,
                    "why": f"{{{first}}} attack {attack[first]} < {{{second}}} defence {defence[second]}; "
                           f"{{{second}}} retaliates, {attack[second]} {sign} {defence[first]}"}
        return {"attack": attack, "defence": defence, "outcome": "draw", "winner": None,
                "why": f"{{{first}}} attack {attack[first]} < {{{second}}} defence {defence[second]} and "
                       f"{{{second}}} retaliation {attack[second]} fails against {defence[first]}"}
    kills0, kills1 = a0 >= d1, a1 >= d0
    if kills0 and kills1:
        return {"attack": attack, "defence": defence, "outcome": "tie", "winner": None,
                "why": f"equal attacks {a0} strike together and both get through"}
    if kills0 or kills1:
        w = 0 if kills0 else 1
        return {"attack": attack, "defence": defence, "outcome": "win", "winner": w,
                "why": f"equal attacks {a0} strike together; only {{{w}}} gets through "
                       f"({attack[w]} ≥ defence {defence[1 - w]})"}
    return {"attack": attack, "defence": defence, "outcome": "draw", "winner": None,
            "why": f"equal attacks {a0} strike together and both are blocked"}


def round_points(lanes_won: list[int], vp: list[int], strict_majority: bool) -> tuple[list[int], int | None]:
    """VP each seat gains from a round and the round's winner (None: a round tie).

    More lanes won than the other wins the round (strict majority: 3 lanes
    needed).  A round tie gives both 1 VP, except that a player on 4 VP gains
    nothing from a tie.
    """
    w0, w1 = lanes_won
    if strict_majority:
        winner = 0 if w0 >= 3 else 1 if w1 >= 3 else None
    else:
        winner = 0 if w0 > w1 else 1 if w1 > w0 else None
    if winner is not None:
        gain = [0, 0]
        gain[winner] = 1
        return gain, winner
    return [0 if vp[s] == VP_TO_WIN - 1 else 1 for s in (0, 1)], None


class SamsRules(SamsTable, SamsView, Rules):
    name = "sams"
    title = "Sam's Battle Game"
    rules_file = "004_c6d2056a783859e7.txt"
    bench_unit = "games"
    options = (
        Option("strict_retaliation", "Strict retaliation", False,
               help="Retaliation needs attack > defence, as the rules' second sentence reads"),
        Option("strict_majority", "Strict majority", False,
               help="A round is won with 3 lanes; fewer for both is a round tie"),
        Option("first_seat", "First player", 0, choices=(0, 1),
               help="Who plays first in round 1; it alternates every round"),
        Option("solo_seat", "Companion plays", None, choices=(None, 0, 1),
               help="The companion plays this seat with cards nobody sees: draw for it, tap them on its hand pad"),
        Option("solo_strength", "Companion's strength", "normal", choices=("easy", "normal", "strong"),
               help="Easy answers at once, normal thinks a moment, strong thinks longest and plays best"),
    )

    # ---- setup -------------------------------------------------------------
    def setup(self, options: dict, seed: int) -> State:
        options = self.normalise_options(options)
        first = options["first_seat"]
        if first not in (0, 1):
            raise IllegalAction("first_seat must be 0 or 1")
        if options["solo_seat"] not in (None, 0, 1):
            raise IllegalAction("solo_seat must be 0, 1 or empty")
        if options["solo_strength"] not in ("easy", "normal", "strong"):
            raise IllegalAction("solo_strength must be easy, normal or strong")
        state = {
            "game": "sams", "rng": seed, "options": options, "phase": "play",
            "round": 1, "turn": 1, "first": first, "played": [0, 0],
            "lanes": [[[] for _ in range(LANES)] for _ in (0, 1)],
            "hand": [0, 0], "pile": len(DECK), "discard": 0, "on_table": 0, "discarded": 0,
            "vp": [0, 0], "redrawn": [False, False], "rounds": [], "winner": None, "set_aside": 0,
        }
        if options["solo_seat"] is not None:
            state["solo"] = {"seat": options["solo_seat"], "slots": [], "decision": None, "known_discards": 0,
                             "known_aside": 0}
        _draw(state, OPENING_HAND, [])
        return state

    to_play = staticmethod(to_play)

    def _playable(self, state: State) -> list[str]:
        """Cards that may be in the player's hand: not on the table, not known discarded."""
        out = state["on_table"] | state["discarded"]
        return [c for c in DECK if not BIT[c] & out]

    def _may_redraw(self, state: State, seat: int) -> bool:
        """Rules, Additional Rules: at the start of a turn, a hand of 5 may be swapped for 3."""
        return (state["phase"] == "play" and state["hand"][seat] == OPENING_HAND
                and state["played"][seat] == 0 and not state["redrawn"][seat])

    def legal_actions(self, state: State) -> list[Action]:
        if state["phase"] == "round_over":
            return [{"type": "next_round", "seat": s} for s in (0, 1)]
        if state["phase"] != "play":
            return []
        seat = self.to_play(state)
        if "solo" in state and state["solo"]["seat"] == seat:
            return solo_legal_actions(state)
        actions = [{"type": "play", "seat": seat, "lane": lane, "card": c}
                   for c in self._playable(state) for lane in range(LANES)]
        actions += [{"type": "redraw", "seat": s} for s in (0, 1) if self._may_redraw(state, s)]
        return actions

    def random_action(self, state: State, rng: Rng) -> Action:
        phase = state["phase"]
        if phase == "round_over":
            return {"type": "next_round", "seat": rng.randrange(2)}
        if phase != "play":
            seat = None
        else:                            # to_play, inlined: this runs before every play
            played = state["played"]
            seat = state["first"] if (played[0] + played[1]) % 2 == 0 else 1 - state["first"]
        if "solo" in state and state["solo"]["seat"] == seat:
            return rng.choice(solo_legal_actions(state))
        randrange = rng.randrange
        if self._may_redraw(state, seat) and randrange(20) == 0:
            return {"type": "redraw", "seat": seat}
        out = state["on_table"] | state["discarded"]
        while True:                      # rejection sampling: most cards are playable
            card = DECK[randrange(len(DECK))]
            if not BIT[card] & out:
                return {"type": "play", "seat": seat, "lane": randrange(LANES), "card": card}

    # ---- applying ------------------------------------------------------------
    # apply: the base class's one dispatch, through MOVES (after the handlers below)
    def _play(self, state: State, action: Action) -> tuple[State, list]:
        # The hottest path of the game (24 plays a round): the checks read the state once, the new
        # state is one dict copy with its changed parts set, and the event is built in place.
        seat, lane, card = action["seat"], action.get("lane"), action.get("card")
        if state["phase"] != "play":
            raise IllegalAction(f"round {state['round']} is scored; start the next round before playing")
        if card not in _INFO:
            raise IllegalAction(f"{card!r} is not one of the 36 numbered cards (2–10 of each suit)")
        if not isinstance(lane, int) or not 0 <= lane < LANES:
            raise IllegalAction(f"there is no lane {lane!r}; lanes are 0–4 (shown as 1–5)")
        players = state["options"]["players"]
        played = state["played"]
        first = state["first"]
        expected = first if (played[0] + played[1]) % 2 == 0 else 1 - first
        if seat != expected:
            raise IllegalAction(f"it is {players[expected]}'s turn to play "
                                f"(card {played[expected] + 1} of {CARDS_PER_TURN}, turn {state['turn']})")
        bit = BIT[card]
        on_table = state["on_table"]
        if bit & on_table:
            side, n = _where(state, card)
            face_down = is_face_down(state["lanes"][side][n].index(card))
            raise _refusal(state, seat, lane, f"{{card}} already lies in {players[side]}'s lane {n + 1}", card,
                           also_hidden=face_down)
        if bit & state["discarded"]:
            raise _refusal(state, seat, lane, "{card} is in the discard pile; it cannot be played before the "
                                              "discard pile is shuffled back into the draw pile", card)
        hand = state["hand"]
        if hand[seat] <= 0:
            raise IllegalAction(f"{players[seat]} has no card left in hand")
        if "solo" in state and state["solo"]["seat"] == seat:
            state = _solo_take(state, card, lane)

        lanes = state["lanes"].copy()
        side = lanes[seat].copy()
        stack = side[lane] + [card]
        side[lane] = stack
        lanes[seat] = side
        played = played.copy()
        played[seat] += 1
        hand = hand.copy()
        hand[seat] -= 1
        new = state.copy()
        new["lanes"], new["played"], new["hand"], new["on_table"] = lanes, played, hand, on_table | bit

        position = len(stack) - 1
        who = players[seat]
        # engine.event / hidden_event, written out (same keys, same order)
        if position == 0:
            events = [{"seat": seat, "zone": _ZONES[seat][lane], "card": card, "lane": lane, "face_up": True,
                       "type": "played", "text": f"{who} opens lane {lane + 1} with {_SYMBOL[card]}"}]
        elif position % 2:                 # is_face_down, inlined
            zone = _ZONES[seat][lane]
            events = [{"seat": seat, "zone": zone, "card": card, "lane": lane, "face_up": False, "type": "played",
                       "text": f"{who} buffs lane {lane + 1} with {_SYMBOL[card]} (face down)",
                       "hidden_from": [1 - seat],
                       "redacted": {"type": "played", "text": f"{who} buffs lane {lane + 1} (face down)",
                                    "seat": seat, "zone": zone}}]
        else:
            events = [{"seat": seat, "zone": _ZONES[seat][lane], "card": card, "lane": lane, "face_up": True,
                       "type": "played", "text": f"{who} buffs lane {lane + 1} with {_SYMBOL[card]} (face up)"}]

        if played[0] == CARDS_PER_TURN and played[1] == CARDS_PER_TURN:
            if new["turn"] == TURNS:
                new, more = self._resolve(new)
            else:
                new["turn"] += 1
                new["played"] = [0, 0]
                more = [event("turn", f"Turn {new['turn']} of {TURNS}: both players draw {DRAW_PER_TURN}",
                              turn=new["turn"])]
                _draw(new, DRAW_PER_TURN, more)
            events += more
        return new, events

    def _resolve(self, state: State) -> tuple[State, list]:
        """End of turn 4: buffs flip face up, every lane fights, the round is scored."""
        opts = state["options"]
        players = opts["players"]
        events = [event("reveal", f"Round {state['round']}: all buffs are turned face up", round=state["round"])]
        lanes_won = [0, 0]
        lane_results = []
        for lane in range(LANES):
            stacks = (state["lanes"][0][lane], state["lanes"][1][lane])
            r = fight(stacks, opts["strict_retaliation"])
            why = r["why"].replace("{0}", players[0]).replace("{1}", players[1])
            if r["outcome"] == "empty":
                text = f"Lane {lane + 1}: empty on both sides, no battle"
            elif r["outcome"] == "win":
                lanes_won[r["winner"]] += 1
                text = f"Lane {lane + 1}: {why} — {players[r['winner']]} wins"
            elif r["outcome"] == "tie":
                text = f"Lane {lane + 1}: {why} — a tie, nobody wins the lane"
            else:
                text = f"Lane {lane + 1}: {why} — a draw, nobody wins the lane"
            lane_results.append({"outcome": r["outcome"], "winner": r["winner"], "attack": r["attack"],
                                 "defence": r["defence"]})
            if r["outcome"] != "empty":
                events.append(event("battle_result", text, winner=r["winner"], outcome=r["outcome"], lane=lane,
                                    zones=[_ZONES[0][lane], _ZONES[1][lane]],
                                    attack=r["attack"], defence=r["defence"]))
        gain, winner = round_points(lanes_won, state["vp"], opts["strict_majority"])
        vp = [state["vp"][0] + gain[0], state["vp"][1] + gain[1]]
        text = f"Round {state['round']}: " + _round_text(players, lanes_won, winner, gain)
        events.append(event("round_result", text, winner=winner, outcome="win" if winner is not None else "tie",
                            lanes_won=lanes_won, gained=gain, vp=vp, round=state["round"]))
        rounds = state["rounds"] + [{"round": state["round"], "lanes": lane_results, "lanes_won": lanes_won,
                                     "winner": winner, "gained": gain, "vp": vp}]
        new = dict(state, vp=vp, rounds=rounds, phase="round_over")
        champion = next((s for s in (0, 1) if vp[s] >= VP_TO_WIN), None)
        if champion is not None:
            new["phase"] = "over"
            new["winner"] = champion
            events.append(event("game_over", f"{players[champion]} wins the game {vp[champion]}–{vp[1 - champion]}",
                                winner=champion, vp=vp))
        return new, events

    def _next_round(self, state: State, action: Action) -> tuple[State, list]:
        if state["phase"] != "round_over":
            raise IllegalAction("the round is still being played")
        on_table = state["on_table"]
        new = dict(state, round=state["round"] + 1, turn=1, first=1 - state["first"], played=[0, 0],
                   lanes=[[[] for _ in range(LANES)] for _ in (0, 1)], hand=[0, 0],
                   discard=state["discard"] + on_table.bit_count() + state["hand"][0] + state["hand"][1],
                   discarded=state["discarded"] | on_table, on_table=0, redrawn=[False, False], phase="play")
        players = state["options"]["players"]
        events = [event("round_start", f"Round {new['round']}: {players[new['first']]} plays first; "
                                       f"the table and the hands go to the discard pile and both players draw {OPENING_HAND}",
                        round=new["round"], first=new["first"])]
        if "solo" in state:
            events += _solo_empty_holder(new, "discard pile")
        _draw(new, OPENING_HAND, events)
        return new, events

    def _redraw(self, state: State, action: Action) -> tuple[State, list]:
        seat = action.get("seat")
        if seat not in (0, 1) or not self._may_redraw(state, seat):
            raise IllegalAction("a hand can be swapped only at the start of a turn, when it holds 5 cards, "
                                "once a round")
        hand = list(state["hand"])
        hand[seat] = 0
        redrawn = list(state["redrawn"])
        redrawn[seat] = True
        new = dict(state, hand=hand, redrawn=redrawn, set_aside=state["set_aside"] + OPENING_HAND)
        who = state["options"]["players"][seat]
        events = [event("redraw", f"{who} puts a hand of 5 into the separate pile and draws 3 for the rest "
                                  "of the round", seat=seat)]
        if "solo" in state and state["solo"]["seat"] == seat:
            events += _solo_empty_holder(new, "separate pile", aside=True)
        _draw_one_seat(new, seat, DRAW_PER_TURN, events)
        return new, events

    def _adjust(self, state: State, action: Action) -> tuple[State, list]:
        seat, delta, name = action.get("seat"), action.get("delta"), action.get("counter")
        if name != f"vp.{seat}" or not isinstance(delta, int):
            raise IllegalAction(f"Sam's Battle Game can adjust only the VP counters vp.0 and vp.1, not {name!r}")
        vp = list(state["vp"])
        vp[seat] = max(0, min(VP_TO_WIN, vp[seat] + delta))
        new = dict(state, vp=vp)
        players = state["options"]["players"]
        events = [event("adjusted", f"{players[seat]}'s VP corrected to {vp[seat]}", seat=seat, counter=name,
                        value=vp[seat])]
        if vp[seat] >= VP_TO_WIN and state["phase"] != "over":
            # Remember where the game stood, so that a correction taking the 5th VP back
            # resumes it there (mid-round: the next card; after scoring: Next).
            new["phase"], new["winner"], new["resume_phase"] = "over", seat, state["phase"]
            events.append(event("game_over", f"{players[seat]} wins the game {vp[seat]}–{vp[1 - seat]}",
                                winner=seat, vp=vp))
        elif state["phase"] == "over" and vp[state["winner"]] < VP_TO_WIN:
            new["phase"], new["winner"] = state.get("resume_phase", "round_over"), None
            new.pop("resume_phase", None)
        return new, events

    # ---- the end -------------------------------------------------------------
    def result(self, state: State) -> dict:
        players = state["options"]["players"]
        w = state["winner"]
        if w is None:
            return {"winner": None, "reason": "the game is not over", "vp": state["vp"]}
        return {"winner": w, "reason": f"{players[w]} reached {VP_TO_WIN} VP", "vp": state["vp"],
                "rounds": len(state["rounds"])}

    def summary(self, state: State) -> dict:
        return {"game": self.name, "over": self.is_over(state), "winner": state["winner"],
                "players": state["options"]["players"], "vp": state["vp"], "rounds": state["rounds"],
                "result": self.result(state) if self.is_over(state) else None}

def _round_text(players: list, lanes_won: list[int], winner: int | None, gain: list[int]) -> str:
    """"North wins 3 lanes to 1 and gains 1 VP", "a tie at 2 lanes each — North and South gain 1 VP",
    or, under strict majority, "North wins 2 lanes to 1, short of the 3 a round needs: a round tie — …"."""
    def lanes(n: int) -> str:
        return f"{n} lane{'' if n == 1 else 's'}"
    if winner is not None:
        return f"{players[winner]} wins {lanes(lanes_won[winner])} to {lanes_won[1 - winner]} and gains 1 VP"
    w0, w1 = lanes_won
    if w0 == w1:
        text = f"a tie at {lanes(w0)} each"
    else:
        leader = 0 if w0 > w1 else 1
        text = (f"{players[leader]} wins {lanes(lanes_won[leader])} to {lanes_won[1 - leader]}, short of the "
                "3 a strict majority needs: a round tie")
    got = [players[s] for s in (0, 1) if gain[s]]
    if not got:
        return text + " — nobody gains a VP (a player on 4 VP cannot win through a tie)"
    text += f" — {' and '.join(got)} {'gain' if len(got) == 2 else 'gains'} 1 VP"
    return text + ("" if len(got) == 2 else " (a player on 4 VP cannot win through a tie)")


def _draw(state: State, n: int, events: list) -> None:
    """Both players draw ``n``, the round's first player first (mutates a fresh state)."""
    for seat in (state["first"], 1 - state["first"]):
        _draw_one_seat(state, seat, n, events)


def _draw_one_seat(state: State, seat: int, n: int, events: list) -> None:
    hand = state["hand"].copy()
    if state["pile"] >= n:               # the common case: no reshuffle on the way
        state["pile"] -= n
        hand[seat] += n
        state["hand"] = hand
        return
    for _ in range(n):
        if state["pile"] == 0:
            if state["discard"] == 0 and state["set_aside"] == 0:
                break
            if state["discard"] == 0:       # nothing else left: the separate pile is all there is
                state["discard"], state["set_aside"] = state["set_aside"], 0
            aside = state["set_aside"]
            events.append(event("reshuffle", f"The draw pile is empty: the discard pile ({counted(state['discard'], 'card')}) "
                                             "is shuffled into a new draw pile"
                                             + (f"; the separate pile ({counted(aside, 'card')}) sits this shuffle out and "
                                                "becomes the discard pile" if aside else ""),
                                cards=state["discard"], set_aside=aside))
            # Swapped hands sit out this reshuffle (rules: "a separate pile"), then wait in the discard pile
            # for the next one; the companion never saw their faces, so none is known to be discarded.
            state["pile"], state["discard"], state["discarded"], state["set_aside"] = state["discard"], aside, 0, 0
            if "solo" in state:          # the companion's swapped cards now lie in the discard pile
                solo = state["solo"]
                state["solo"] = dict(solo, known_discards=solo["known_aside"] if aside else 0, known_aside=0)
        state["pile"] -= 1
        hand[seat] += 1
    state["hand"] = hand


SamsRules.MOVES = {
    "play": SamsRules._play, "next_round": SamsRules._next_round, "redraw": SamsRules._redraw,
    "adjust": SamsRules._adjust,
    "solo_hand": lambda rules, state, action: _solo_hand(state, action),
    "solo_decide": lambda rules, state, action: _solo_decide(state, action),
}

RULES = SamsRules()
