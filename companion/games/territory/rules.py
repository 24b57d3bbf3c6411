"""Creature Combat Territory: five lands, face-down creatures, rest counters.

The rules are the author's (``shared/rules/002_…``) with the agreed rulings
(``shared/RULINGS.md``) and this project's own (``docs/rulings/territory.md``).

What the companion knows
------------------------
Each player's creature deck, scanned once on their ready pad before the game
(or a sample deck), and from then on where every creature is: ready,
deployed to a land, resting with n Rest counters, or removed from the game.
Lands are scanned on the land-deck pad as they are dealt; the land deck itself
is only counted.  Nothing in a hand is ever needed: this game has no hands.

A round, as a state machine::

    register ─► deal ─(5 lands in play, or the land deck is empty)─► deploy
    deploy ─(both done)─► combat: land 1 … land 5, each: reveal → abilities → totals → claim
                          (any deployed creature's ability, while a land it affects is not fought)
    combat ─► round end steps 1 and 2 (automatic) ─► recover (step 3, each player's choice) ─► deal …
    any time: forfeit; the agreed early end once someone holds 50 % + 1 of the lands

State (plain data)::

    phase, round, decks[seat] (registered creature ids), ready[seat] (ids),
    resting[seat] {id: Rest counters ≥ 1}, removed[seat] (ids),
    slots[0..4]: None or {"land": id, "piles": [[deployed…], [deployed…]],
                           "fought": bool, "winner": seat | None},
    land_deck (lands left), claimed[seat] (land ids), done[seat], battle (slot
    being fought), effects (round effects of activated and all-lands abilities),
    battles (every land fought, for the summary), agree_end[seat], stalled (rounds
    in a row without a claim once the land deck is empty), winner, reason.

A deployed creature is ``{"id", "dmg", "exh", "dis", "rest", "support", "sac",
"used", "base", "power", "shown"}``: damage and exhaustion taken, biome bonus
lost to Disorient, Rest counters gained, whether it only supports, whether it
is sacrificed at round end, abilities used this round, its Base Power and
power when its land was fought, and whether it was turned face up to use an
ability before its land was revealed.
"""
from __future__ import annotations

from companion.engine import (Action, IllegalAction, Option, Rng, Rules, State, event,
                              hidden_event)
from companion.words import counted

from .cards import CardError, Effect
from .catalogue import (CATALOGUE, CREATURE_IDS, CREATURES, FINAL_COST, LAND_IDS, LANDS, STARS, admit, deck_cost,
                        in_game, name, players_cards)
from .table import LAND_ZONES, NOT_IN_GAME, SLOTS, TerritoryTable, land_zone, ready_zone
from .view import TerritoryView
from .combat import (active_effects, new_deployed, own_base, pay_costs, reaches, requirements_hold, shielded,
                     strengths, take_damage)

ALL_CLAIMED = "every land has been claimed"
SAMPLE_DECKS = ("pack-of-the-peaks", "sea-and-sky")



# ---------------------------------------------------------------- the rules
class TerritoryRules(TerritoryTable, TerritoryView, Rules):
    name = "territory"
    title = "Creature Combat Territory"
    rules_file = "002_88c89583c3ef7893.txt"
    bench_unit = "rounds"
    options = (
        Option("decks", "Creature decks", "scan", choices=("scan", "samples"),
               help="scan: each player scans their creature deck on their ready pad before the first round; "
                    "samples: North plays Pack of the Peaks, South Sea and Sky"),
        Option("deck_budget", "Creature deck budget", 100,
               help="The most a creature deck may cost (Final Costs added up); both players agree on it"),
        Option("lands_per_player", "Lands per player", 25,
               help="Each player's land deck; both are shuffled together into one land deck"),
        Option("early_end", "Early end at 50 % + 1", True,
               help="Once a player holds more than half of all lands, both may agree on screen to end the game"),
        Option("stalled_rounds", "End after rounds without a claim", 3,
               help="Once the land deck is empty, the game ends after this many rounds in a row in which no land "
                    "is claimed (most lands wins); 0: only when every land is claimed"),
        Option("empty_side_claims", "An empty side can claim", True,
               help="On: the highest total claims, so a side with no creature there (0) claims a land against a "
                    "total below 0. Off: only a side with a creature at the land can claim it"),
    )

    # ---- setup ---------------------------------------------------------------
    def normalise_options(self, options: dict | None) -> dict:
        """The listed options, plus ``cards``: the players' own cards this game uses (see :func:`.catalogue.admit`);
        it is not a setting on the setup screen but the card designer's file, carried in the record."""
        options = dict(options or {})
        cards = options.pop("cards", None)
        merged = super().normalise_options(options)
        if cards is None:
            cards = players_cards()
        if cards is not None:
            merged["cards"] = cards
        return merged

    def setup(self, options: dict, seed: int) -> State:
        options = self.normalise_options(options)
        if "cards" in options:
            try:
                admit(options["cards"])
            except CardError as exc:
                raise IllegalAction(str(exc)) from None
        if options["decks"] not in ("scan", "samples"):
            raise IllegalAction("the 'decks' option is 'scan' or 'samples'")
        for key, least in (("deck_budget", 1), ("lands_per_player", 1), ("stalled_rounds", 0)):
            value = options[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise IllegalAction(f"the {key!r} option must be a whole number of at least {least}, not {value!r}")
        state = {
            "game": self.name, "rng": seed, "options": options, "phase": "register", "round": 1,
            "decks": [[], []], "ready": [[], []], "resting": [{}, {}], "removed": [[], []],
            "slots": [None] * SLOTS, "land_deck": 2 * options["lands_per_player"], "claimed": [[], []],
            "done": [False, False], "battle": None, "effects": [], "battles": [], "agree_end": [False, False],
            "stalled": 0, "winner": None, "reason": None,
        }
        if options["decks"] == "samples":
            decks = [list(CATALOGUE.decks[d]["creatures"]) for d in SAMPLE_DECKS]
            state.update(decks=decks, ready=[list(decks[0]), list(decks[1])], phase="deal")
        return state

    # ---- helpers ---------------------------------------------------------------
    @staticmethod
    def players(state: State) -> list[str]:
        return state["options"]["players"]

    def early_end_leader(self, state: State) -> int | None:
        """The seat holding 50 % of all lands + 1, when the early end is on."""
        if not state["options"]["early_end"]:
            return None
        need = state["options"]["lands_per_player"] + 1          # half of 2 × per player, plus one
        for seat in (0, 1):
            if len(state["claimed"][seat]) >= need:
                return seat
        return None

    @staticmethod
    def usable(state: State, seat: int):
        """Rules, Ability: "You can activate these abilities at any time, as long as the creature is deployed
        to a land" — with RULINGS: before the lands they affect are resolved.

        Yields ``(slot, rec, ability index, ability, targets)`` for every activated ability ``seat`` may use
        now, at whichever land its creature lies: during combat, while some land it affects (its own, or
        every land for an all-lands ability) is not resolved yet.  ``targets`` is None for an ability that
        picks no target, else the enemies at its land — only once that land is revealed, since nobody can
        choose among face-down cards.
        """
        battle = state["battle"]
        if state["phase"] != "combat" or battle is None:
            return
        for slot, entry in enumerate(state["slots"]):
            if entry is None or not entry["piles"][seat]:
                continue
            land = LANDS[entry["land"]]
            pile = entry["piles"][seat]
            fought = entry["fought"]
            for rec in pile:
                for ai, ability, all_lands, needs_target in _ACTIVATED[rec["id"]]:
                    if ai in rec["used"] or (fought and not all_lands):
                        continue                      # used, or everything it could change is decided
                    if not requirements_hold(ability, rec, pile, land):
                        continue
                    if needs_target:
                        enemies = entry["piles"][1 - seat]
                        if slot > battle or not enemies:
                            continue
                        yield slot, rec, ai, ability, [e["id"] for e in enemies]
                    else:
                        yield slot, rec, ai, ability, None

    def activations(self, state: State, seat: int) -> list[Action]:
        """Activated abilities ``seat`` may use now (see :meth:`usable`), with their targets."""
        out = []
        for _, rec, ai, _, targets in self.usable(state, seat):
            base = {"type": "activate", "seat": seat, "creature": rec["id"], "ability": ai}
            if targets is None:
                out.append(base)
            else:
                out.extend(dict(base, target=t) for t in targets)
        return out

    def may_activate(self, state: State, seat: int) -> bool:
        """Whether ``seat`` could still change the land being fought: an ability of a creature there, or an
        all-lands ability of a creature anywhere.  While either player can, the land waits for both to pass;
        abilities that only reach later lands wait for those lands' turn (they may still be used now)."""
        # :meth:`usable`'s walk, written out to stop at the first: asked after every move of combat
        battle = state["battle"]
        if state["phase"] != "combat" or battle is None:
            return False
        for slot, entry in enumerate(state["slots"]):
            if entry is None or not entry["piles"][seat]:
                continue
            pile = entry["piles"][seat]
            # away from the land being fought (or at a fought one) only an all-lands ability counts
            abilities = _ACTIVATED if slot == battle and not entry["fought"] else _ALL_LANDS_ACTIVATED
            for rec in pile:
                for ai, ability, _, needs_target in abilities[rec["id"]]:
                    if ai in rec["used"]:
                        continue
                    if needs_target and (slot > battle or not entry["piles"][1 - seat]):
                        continue
                    if requirements_hold(ability, rec, pile, LANDS[entry["land"]]):
                        return True
        return False

    # ---- what may happen now -------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        phase = state["phase"]
        if phase == "over":
            return []
        actions: list[Action] = []
        if phase == "register":
            for seat in (0, 1):
                if state["done"][seat]:
                    continue
                taken = set(state["decks"][0]) | set(state["decks"][1])
                room = state["options"]["deck_budget"] - deck_cost(state["decks"][seat])
                actions += [{"type": "register", "seat": seat, "creature": c} for c in CREATURE_IDS
                            if c not in taken and FINAL_COST[c] <= room]
                actions += [{"type": "unregister", "seat": seat, "creature": c} for c in state["decks"][seat]]
                if state["decks"][seat]:
                    actions.append({"type": "done", "seat": seat})
        elif phase == "deal":
            actions += [{"type": "deal", "land": land} for land in LAND_IDS]
        elif phase == "deploy":
            slots = [i for i, s in enumerate(state["slots"]) if s is not None]
            for seat in (0, 1):
                actions += [{"type": "deploy", "seat": seat, "creature": c, "slot": i}
                            for c in state["ready"][seat] for i in slots]
                actions += [{"type": "undeploy", "seat": seat, "creature": r["id"]}
                            for i in slots for r in state["slots"][i]["piles"][seat]]
                if not state["done"][seat]:
                    actions.append({"type": "done", "seat": seat})
        elif phase == "combat":
            for seat in (0, 1):
                if not state["done"][seat]:
                    actions += self.activations(state, seat)
                    actions.append({"type": "done", "seat": seat})
        elif phase == "recover":
            for seat in (0, 1):
                if not state["done"][seat]:
                    default = self.default_recovery(state, seat)
                    actions.append({"type": "recover", "seat": seat, "uses": default})
                    if default:
                        actions.append({"type": "recover", "seat": seat, "uses": []})
        if phase != "register":
            leader = self.early_end_leader(state)
            if leader is not None:
                actions += [{"type": "end_early", "seat": s} for s in (0, 1) if not state["agree_end"][s]]
        actions += [{"type": "forfeit", "seat": s} for s in (0, 1)]
        return actions

    def random_action(self, state: State, rng: Rng) -> Action:
        """A random legal action, sampled directly (much faster than listing them all).

        Players deploy most of their ready creatures, agree to an early end now
        and then, and forfeit very rarely, so random games look like games.
        """
        phase = state["phase"]
        roll = rng.randrange(100_000)          # one draw decides the rare actions: forfeit 1 in 5,000 …
        if roll < 20:
            return {"type": "forfeit", "seat": roll & 1}
        if roll < 5_000 and phase != "register" and self.early_end_leader(state) is not None:   # … early end 1 in 20
            seats = [s for s in (0, 1) if not state["agree_end"][s]]
            if seats:
                return {"type": "end_early", "seat": seats[roll % len(seats)]}
        if phase == "deal":
            return {"type": "deal", "land": LAND_IDS[roll % len(LAND_IDS)]}
        done = state["done"]
        seat = (roll >> 1) & 1 if not (done[0] or done[1]) else (1 if done[0] else 0)
        if phase == "deploy":
            ready = state["ready"][seat]
            if ready and rng.randrange(8):
                slots = [i for i, s in enumerate(state["slots"]) if s is not None]   # lands in play
                return {"type": "deploy", "seat": seat, "creature": rng.choice(ready), "slot": rng.choice(slots)}
            return {"type": "done", "seat": seat}
        if phase == "combat":
            options = self.activations(state, seat)
            if options and rng.randrange(3):
                return rng.choice(options)
            return {"type": "done", "seat": seat}
        if phase == "recover":
            resting = dict(state["resting"][seat])
            uses = []
            for i, land_id in enumerate(state["claimed"][seat]):
                if not resting:
                    break
                if rng.randrange(5) == 0:
                    continue
                cid = rng.choice(sorted(resting))
                uses.append([i, cid])
                left = resting[cid] - LANDS[land_id].recovery_for(CREATURES[cid])
                if left <= 0:
                    del resting[cid]
                else:
                    resting[cid] = left
            return {"type": "recover", "seat": seat, "uses": uses}
        # register: build a random deck within the budget, with at least one creature that has power
        deck = state["decks"][seat]
        room = state["options"]["deck_budget"] - deck_cost(deck)
        strong = any(CREATURES[c].base_power > 0 for c in deck)
        if strong and rng.randrange(max(2, 12 - len(deck))) == 0:
            return {"type": "done", "seat": seat}
        taken = set(state["decks"][0]) | set(state["decks"][1])
        for _ in range(20):
            c = CREATURE_IDS[rng.randrange(len(CREATURE_IDS))]
            if c not in taken and FINAL_COST[c] <= room:
                return {"type": "register", "seat": seat, "creature": c}
        if deck:
            return {"type": "done", "seat": seat}
        cheapest = min((c for c in CREATURE_IDS if c not in taken), key=FINAL_COST.get)
        if FINAL_COST[cheapest] > room:
            return {"type": "forfeit", "seat": seat}        # no creature fits the budget: nothing else is legal
        return {"type": "register", "seat": seat, "creature": cheapest}

    # ---- applying --------------------------------------------------------------------
    UNSEATED = frozenset({"deal", "adjust"})

    def _register(self, state: State, action: Action) -> tuple[State, list]:
        seat, cid = action["seat"], _card_field(action, "creature")
        players = self.players(state)
        if state["phase"] != "register":
            raise IllegalAction("decks are registered before the first round; the game has started")
        if cid not in CREATURES:
            raise IllegalAction(f"{name(cid)} is not a creature of the Territory catalogue"
                                + (" (it is a land: lands are dealt from the land deck)" if cid in LANDS else ""))
        if not in_game(state["options"], cid):
            raise IllegalAction(NOT_IN_GAME.format(name(cid)))
        other = self.owner(state, cid)
        if other is not None:
            raise IllegalAction(f"{name(cid)} is already in {players[other]}'s deck")
        deck = state["decks"][seat]
        cost = deck_cost(deck) + FINAL_COST[cid]
        budget = state["options"]["deck_budget"]
        if cost > budget:
            raise IllegalAction(f"{name(cid)} costs {FINAL_COST[cid]}: {players[seat]}'s deck would cost {cost}, "
                                f"over the agreed {budget}")
        decks = _with(state["decks"], seat, deck + [cid])
        done = _with(state["done"], seat, False)
        new = state.copy()
        new["decks"], new["done"] = decks, done
        return new, [hidden_event("registered", f"{players[seat]} adds {name(cid)} (cost {FINAL_COST[cid]}) "
                                                f"to their deck: {counted(len(decks[seat]), 'creature')}, cost {cost}/{budget}",
                                  f"{players[seat]} adds a creature: {counted(len(decks[seat]), 'creature')}",
                                  [1 - seat], seat=seat, zone=ready_zone(seat),
                                  creature=cid)]

    def _unregister(self, state: State, action: Action) -> tuple[State, list]:
        seat, cid = action["seat"], _card_field(action, "creature")
        if state["phase"] != "register":
            raise IllegalAction("decks are fixed once the first round has started")
        if cid not in state["decks"][seat]:
            raise IllegalAction(f"{name(cid)} is not in {self.players(state)[seat]}'s deck")
        decks = list(state["decks"])
        decks[seat] = [c for c in decks[seat] if c != cid]
        done = _with(state["done"], seat, False)
        who = self.players(state)[seat]
        return dict(state, decks=decks, done=done), [
            hidden_event("unregistered", f"{who} takes {name(cid)} out of their deck",
                         f"{who} takes a creature out of their deck", [1 - seat], seat=seat, creature=cid)]

    def _done(self, state: State, action: Action) -> tuple[State, list]:
        seat = action["seat"]
        phase = state["phase"]
        who = self.players(state)[seat]
        if phase not in ("register", "deploy", "combat"):
            raise IllegalAction({"deal": "deal the lands first: scan each new land on the land-deck pad",
                                 "recover": f"{who} chooses which Rest counters their lands remove "
                                            "(or accepts the proposal)"}[phase])
        if state["done"][seat]:
            raise IllegalAction(f"{who} is already done; waiting for {self.players(state)[1 - seat]}")
        if phase == "register" and not state["decks"][seat]:
            raise IllegalAction(f"{who} has not scanned any creature onto their ready pad yet")
        done = _with(state["done"], seat, True)
        new = state.copy()
        new["done"] = done
        text = {"register": f"{who}'s deck is registered",
                "deploy": f"{who} has finished deploying",
                "combat": f"{who} passes at land {(state['battle'] or 0) + 1}"}[phase]
        events = [event("done", text, seat=seat)]
        if not all(done):
            return new, events
        if phase == "register":
            new["ready"] = [list(new["decks"][0]), list(new["decks"][1])]
            costs = [deck_cost(d) for d in new["decks"]]
            events.append(event("decks", f"Decks registered: {self.players(state)[0]} {counted(len(new['decks'][0]), 'creature')} "
                                         f"(cost {costs[0]}), {self.players(state)[1]} {len(new['decks'][1])} "
                                         f"(cost {costs[1]})", costs=costs))
            return self._start_deal(new, events)
        if phase == "deploy":
            return self._start_combat(new, events)
        return self._resolve(new, events)

    # -- round begin
    def _start_deal(self, state: State, events: list) -> tuple[State, list]:
        state = state.copy()
        state["phase"], state["done"] = "deal", [False, False]
        if state["land_deck"] == 0 or all(s is not None for s in state["slots"]):
            return self._start_deploy(state, events)
        events.append(event("round_start", f"Round {state['round']}: deal lands from the land deck and scan "
                                           f"each on the land-deck pad ({state['land_deck']} left)",
                            round=state["round"]))
        return state, events

    def _deal(self, state: State, action: Action) -> tuple[State, list]:
        land_id = _card_field(action, "land")
        if state["phase"] != "deal":
            raise IllegalAction("lands are dealt at the start of a round, when a land's place is empty")
        if land_id not in LANDS:
            raise IllegalAction(f"{name(land_id)} is not a land"
                                + (" (it is a creature: deploy it on one of your land pads)"
                                   if land_id in CREATURES else " of the Territory catalogue"))
        if not in_game(state["options"], land_id):
            raise IllegalAction(NOT_IN_GAME.format(name(land_id)))
        if state["land_deck"] <= 0:
            raise IllegalAction("the land deck is empty (correct its count if a land is left)")
        slot = state["slots"].index(None)
        slots = _with(state["slots"], slot, {"land": land_id, "piles": [[], []], "fought": False,
                                             "winner": None})
        new = state.copy()
        new["slots"], new["land_deck"] = slots, state["land_deck"] - 1
        land = LANDS[land_id]
        events = [event("dealt", f"Land {slot + 1}: {land.name}, {CATALOGUE.biomes.label(land.biome)}"
                                 f"{_PASSIVE[land_id]} ({new['land_deck']} left in the deck)", slot=slot, land=land_id)]
        if new["land_deck"] == 0 or None not in slots:
            return self._start_deploy(new, events)
        return new, events

    # -- deploy
    def _start_deploy(self, state: State, events: list) -> tuple[State, list]:
        state = state.copy()
        state["phase"], state["done"] = "deploy", [False, False]
        events.append(event("deploy", f"Round {state['round']}: deploy creatures face down in front of the lands",
                            round=state["round"]))
        return state, events

    def _deploy(self, state: State, action: Action) -> tuple[State, list]:
        seat, cid, slot = action["seat"], _card_field(action, "creature"), action.get("slot")
        players = self.players(state)
        if state["phase"] != "deploy":
            raise IllegalAction("creatures are deployed only in the Deploy phase"
                                + (f" (round {state['round']} is in combat)" if state["phase"] == "combat" else ""))
        if not isinstance(slot, int) or not 0 <= slot < SLOTS or state["slots"][slot] is None:
            raise IllegalAction(f"there is no land at position {slot + 1 if isinstance(slot, int) else slot!r}")
        if cid not in state["ready"][seat]:
            raise self.not_ready(state, seat, cid, slot)
        ready = list(state["ready"])
        ready[seat] = mine = list(ready[seat])
        mine.remove(cid)
        pile = state["slots"][slot]["piles"][seat]
        slots = _with_pile(state["slots"], slot, seat, pile + [new_deployed(cid)])
        done = _with(state["done"], seat, False) if state["done"][seat] else state["done"]
        land = LANDS[state["slots"][slot]["land"]].name
        new = state.copy()
        new["ready"], new["slots"], new["done"] = ready, slots, done
        who, zone = players[seat], LAND_ZONES[seat][slot]
        # engine.hidden_event, written out (same keys, same order): half of a round's moves are deploys
        return new, [{"seat": seat, "zone": zone, "creature": cid, "slot": slot, "type": "deployed",
                      "text": f"{who} deploys {name(cid)} face down at {land} (land {slot + 1})",
                      "hidden_from": [1 - seat],
                      "redacted": {"type": "deployed",
                                   "text": f"{who} deploys a creature face down at {land} (land {slot + 1})",
                                   "seat": seat, "zone": zone}}]

    def _undeploy(self, state: State, action: Action) -> tuple[State, list]:
        seat, cid = action["seat"], _card_field(action, "creature")
        if state["phase"] != "deploy":
            raise IllegalAction("deployed creatures stay until the round ends")
        at = self.where(state, seat, cid)
        if at[0] != "deployed":
            raise IllegalAction(f"{name(cid)} is not deployed")
        slot = at[1]
        pile = state["slots"][slot]["piles"][seat]
        slots = _with_pile(state["slots"], slot, seat, [r for r in pile if r["id"] != cid])
        ready = _with(state["ready"], seat, state["ready"][seat] + [cid])
        done = _with(state["done"], seat, False)
        who = self.players(state)[seat]
        return dict(state, slots=slots, ready=ready, done=done), [
            hidden_event("undeployed", f"{who} takes {name(cid)} back from land {slot + 1}",
                         f"{who} takes a creature back from land {slot + 1}", [1 - seat], seat=seat,
                         zone=land_zone(seat, slot), creature=cid, slot=slot)]

    # -- combat
    # The steps of combat below (_start_combat, _enter_battle, _resolve, _claim) are handed the copy of the
    # state that the move applying them made, and change it in place: a round's lands are fought one after
    # another in one move, and a copy per step was most of their cost.
    def _start_combat(self, new: State, events: list) -> tuple[State, list]:
        events.append(event("combat", f"Round {new['round']}: combat, land by land", round=new["round"]))
        new["phase"] = "combat"
        return self._enter_battle(new, 0, events)

    def _enter_battle(self, new: State, start: int, events: list) -> tuple[State, list]:
        """Reveal the next land's creatures; open the window for activated abilities or fight at once."""
        slots = new["slots"]
        for slot in range(start, SLOTS):       # the next land in play (a loop: this runs for every land)
            if slots[slot] is not None:
                break
        else:
            return self._round_end(new, events)
        new["battle"] = slot
        entry = slots[slot]
        players = self.players(new)
        land_name = LANDS[entry["land"]].name
        for seat in (0, 1):
            pile = entry["piles"][seat]
            if pile:
                ids = [r["id"] for r in pile]
                events.append({"seat": seat, "slot": slot, "zone": LAND_ZONES[seat][slot], "creatures": ids,
                               "type": "revealed",       # engine.event, written out: every land, every round
                               "text": f"Land {slot + 1} ({land_name}): {players[seat]} reveals "
                                       + ", ".join(map(name, ids))})
        done = [not self.may_activate(new, 0), not self.may_activate(new, 1)]
        new["done"] = done
        if done[0] and done[1]:
            return self._resolve(new, events)
        return new, events

    def _activate(self, state: State, action: Action) -> tuple[State, list]:
        """Rules, Ability: an activated ability of a deployed creature, once per round, paid when used.

        Any deployed creature may use it during combat while a land it affects is unresolved (see
        :meth:`usable`); a creature whose land is not revealed yet is turned face up to use it.
        """
        seat, cid, ai = action["seat"], _card_field(action, "creature"), action.get("ability")
        target = _card_field(action, "target")
        players = self.players(state)
        if state["phase"] != "combat":
            raise IllegalAction("activated abilities are used in combat, from the first land's reveal until the "
                                "lands they affect are fought")
        at = self.where(state, seat, cid)
        if at[0] != "deployed":
            where = {"absent": f"not one of {players[seat]}'s creatures", "ready": "on the ready pile",
                     "resting": "resting", "removed": "out of the game"}[at[0]]
            raise IllegalAction(f"{name(cid)} is {where}: only deployed creatures use their abilities")
        slot = at[1]
        battle = state["battle"]
        entry = state["slots"][slot]
        pile = entry["piles"][seat]
        rec = next(r for r in pile if r["id"] == cid)
        creature = CREATURES[cid]
        if not isinstance(ai, int) or not 0 <= ai < len(creature.abilities) or not creature.abilities[ai].activated:
            raise IllegalAction(f"{name(cid)} has no activated ability number {ai!r}")
        ability = creature.abilities[ai]
        if ai in rec["used"]:
            raise IllegalAction(f"{name(cid)} already used {ability.name} this round (once per round)")
        every_land = any(e.scope == "all_lands" for e in ability.effects)
        if entry["fought"] and not every_land:
            raise IllegalAction(f"land {slot + 1} has been fought: {ability.name} of {name(cid)} reaches only that "
                                "land, so it can change nothing any more")
        land = LANDS[entry["land"]]
        if not requirements_hold(ability, rec, pile, land):
            needs = ", ".join(r.text() for r in ability.requires)
            raise IllegalAction(f"{ability.name} needs {needs}, which does not hold for {name(cid)} at {land.name}")
        enemies = entry["piles"][1 - seat]
        if ability.needs_target:
            if slot > battle:
                raise IllegalAction(f"{ability.name} picks one enemy at land {slot + 1}, whose creatures are still "
                                    "face down: use it once that land is revealed")
            if not any(e["id"] == target for e in enemies):
                choices = ", ".join(name(e["id"]) for e in enemies) or "none"
                raise IllegalAction(f"{ability.name} needs one enemy at land {slot + 1} as its target "
                                    f"(enemies there: {choices})")
        elif target is not None:
            raise IllegalAction(f"{ability.name} does not pick a target")

        paid = dict(pay_costs(rec, ability), used=rec["used"] + [ai])
        face_down = slot > battle and not rec.get("shown")
        if face_down:
            paid["shown"] = True          # to use an ability the player shows the card
        piles = [list(entry["piles"][0]), list(entry["piles"][1])]
        piles[seat] = [paid if r is rec else r for r in pile]
        slots = _with(state["slots"], slot, dict(entry, piles=piles))
        new = state.copy()
        new["slots"] = slots
        where = f" at land {slot + 1}" + (", turning it face up" if face_down else "") if slot != battle else ""
        events = [event("ability", f"{players[seat]}'s {name(cid)}{where} uses {_USES[cid, ai]}",
                        seat=seat, slot=slot, creature=cid, ability=ai, zone=LAND_ZONES[seat][slot])]
        effects_list = list(state["effects"])
        for ei, effect in enumerate(ability.effects):
            if effect.kind == "damage":
                self._deal_damage(new, seat, cid, effect, slot, target, events)
            else:
                effects_list.append({"src": cid, "seat": seat, "ability": ai, "effect": ei,
                                     "land": None if effect.scope == "all_lands" else slot})
        new["effects"] = effects_list
        done = _with(new["done"], seat, not self.may_activate(new, seat))
        done[1 - seat] = not self.may_activate(new, 1 - seat)
        new["done"] = done
        if all(done):
            return self._resolve(new, events)
        return new, events

    def _show(self, state: State, action: Action) -> tuple[State, list]:
        """Turn a face-down creature up to use its ability before its land is fought (the table's gesture:
        lift it off its land pad and put it back; see table.interpret).  Its ability buttons then appear on the
        shared screen, which never offers a face-down creature's."""
        seat, cid = action["seat"], _card_field(action, "creature")
        if state["phase"] != "combat":
            raise IllegalAction("creatures are turned face up in combat, to use an ability before their land is "
                                "fought")
        at = self.where(state, seat, cid)
        if at[0] != "deployed":
            raise IllegalAction(f"{name(cid)} is not one of {self.players(state)[seat]}'s deployed creatures")
        slot = at[1]
        pile = state["slots"][slot]["piles"][seat]
        rec = next(r for r in pile if r["id"] == cid)
        if slot <= state["battle"] or rec["shown"]:
            raise IllegalAction(f"{name(cid)} is face up already")
        slots = _with_pile(state["slots"], slot, seat, [dict(r, shown=True) if r is rec else r for r in pile])
        who = self.players(state)[seat]
        return dict(state, slots=slots), [
            event("shown", f"{who} turns {name(cid)} face up at land {slot + 1} to use its ability", seat=seat,
                  slot=slot, creature=cid, zone=land_zone(seat, slot))]

    def _deal_damage(self, state: State, seat: int, src: str, effect: Effect, slot: int, target, events) -> None:
        """Damage from ``src`` (which lies at ``slot``) to its targets there, or at every land not yet fought
        for all-lands damage; hits on piles not revealed yet name the creature to its owner only.

        Mutates ``state``'s already-copied ``slots`` list, copying each pile it changes.
        """
        players = self.players(state)
        slots = state["slots"]
        battle = state["battle"]
        lands = [slot] if effect.scope == "land" else [i for i in range(battle, SLOTS)
                                                       if slots[i] is not None and not slots[i]["fought"]]
        for i in lands:
            entry = slots[i]
            effects = active_effects(state, i, entry["piles"])
            piles = list(entry["piles"])
            changed = False
            for s in (0, 1):
                row = list(piles[s])
                for n, rec in enumerate(row):
                    cid = rec["id"]
                    if target is not None and cid != target:
                        continue
                    if not reaches(effect, seat, src, s, cid):
                        continue
                    if s != seat and shielded(effects, s, cid):
                        text = f"{name(cid)} is shielded: {name(src)}'s damage has no effect"
                        kind = "shielded"
                        data = {"slot": i, "creature": cid}
                    else:
                        new_rec, taken, out = take_damage(rec, effect.amount)
                        row[n] = new_rec
                        changed = True
                        text = (f"{name(src)} deals {taken} damage to {players[s]}'s {name(cid)}: "
                                f"Base Power {own_base(rec)} → {own_base(new_rec)}")
                        if out:
                            text += (f", knocked out (+{counted(STARS[cid], 'Rest counter')}, "
                                     "its Star Count)")
                        kind = "damage"
                        data = {"slot": i, "creature": cid, "amount": taken, "knocked_out": out}
                    if i <= battle or rec.get("shown"):
                        events.append(event(kind, text, seat=s, **data))
                    else:       # an all-lands effect reaching a land not revealed yet: the creature stays secret
                        events.append(hidden_event(kind, text, f"{name(src)}'s damage reaches {players[s]}'s "
                                                               f"face-down pile at land {i + 1}",
                                                   [1 - s], seat=s, zone=land_zone(s, i), **data))
                piles[s] = row
            if changed:
                slots[i] = dict(entry, piles=piles)

    def _resolve(self, state: State, events: list) -> tuple[State, list]:
        """Rules, Combat 2–5: passives, totals, the highest total claims the land; a tie leaves it.

        ``state`` is the move's own copy (see :meth:`_start_combat`): it is changed in place."""
        slot = state["battle"]
        entry = state["slots"][slot]
        land = LANDS[entry["land"]]
        players = self.players(state)
        if not entry["piles"][0] and not entry["piles"][1]:
            return self._claim(state, slot, [0, 0], list(entry["piles"]),
                               f"Land {slot + 1} ({land.name}): nobody fought here — the land stays unclaimed", events)
        piles = [list(entry["piles"][0]), list(entry["piles"][1])]
        effects = active_effects(state, slot, piles)
        # passive abilities that work now pay their costs; all-lands ones reach the lands fought later
        round_effects = state["effects"]
        working = {(src, key[0]) for _, src, _, key in effects if key[1]}
        for seat in (0, 1):
            for n, rec in enumerate(piles[seat]):
                creature = CREATURES[rec["id"]]
                for ai, ability in enumerate(creature.abilities):
                    if ability.activated or (rec["id"], ai) not in working:
                        continue
                    if ability.costs:
                        piles[seat][n] = rec = pay_costs(rec, ability)
                    if any(e.scope == "all_lands" for e in ability.effects):
                        round_effects = round_effects + [
                            {"src": rec["id"], "seat": seat, "ability": ai, "effect": ei, "land": None}
                            for ei, e in enumerate(ability.effects) if e.scope == "all_lands" and e.kind != "damage"]
        fought = entry.copy()
        fought["piles"] = piles
        state["slots"], state["effects"] = _with(state["slots"], slot, fought), round_effects
        for src_seat, src, effect, (ai, passive) in effects:
            if passive and effect.kind == "damage":
                self._deal_damage(state, src_seat, src, effect, slot, None, events)
        piles = [list(p) for p in state["slots"][slot]["piles"]]
        powers = strengths(state, slot, piles, effects)
        totals = [sum(p for _, p in powers[s]) for s in (0, 1)]
        parts = []
        for seat in (0, 1):
            scored = []
            for rec, (b, p) in zip(piles[seat], powers[seat]):
                rec = rec.copy()
                rec["base"], rec["power"] = b, p
                scored.append(rec)
            piles[seat] = scored
            listed = " + ".join([f"{CREATURES[r['id']].name} {r['power']}" for r in scored]) or "nobody"
            parts.append(f"{players[seat]} {totals[seat]} ({listed})")
        return self._claim(state, slot, totals, piles, f"Land {slot + 1} ({land.name}): {parts[0]} vs {parts[1]}",
                           events)

    def _claim(self, state: State, slot: int, totals: list[int], piles: list, text: str,
               events: list) -> tuple[State, list]:
        """Rules, Combat 3–5: the highest total claims the land into its land pile; a tie leaves it in play."""
        land = LANDS[state["slots"][slot]["land"]]
        winner = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else None
        if winner is not None and not piles[winner] and not state["options"]["empty_side_claims"]:
            text += f" — {self.players(state)[winner]} has no creature here, so the land stays unclaimed"
            winner = None
        elif winner is None:
            if piles[0] or piles[1]:
                text += " — a tie, the land stays unclaimed"
        else:
            text += f" — {self.players(state)[winner]} claims {land.name}"
        fought = state["slots"][slot].copy()
        fought["piles"], fought["fought"], fought["winner"] = piles, True, winner
        new = state                         # the move's own copy (see _start_combat)
        new["slots"] = _with(state["slots"], slot, fought)
        new["battles"] = state["battles"] + [
            {"round": state["round"], "slot": slot, "land": land.id, "totals": totals, "winner": winner}]
        if winner is not None:
            claimed = _with(state["claimed"], winner, state["claimed"][winner] + [land.id])
            new["claimed"] = claimed
        events.append(event("battle_result", text, winner=winner, outcome="tie" if winner is None else "win",
                            zones=[LAND_ZONES[0][slot], LAND_ZONES[1][slot]], slot=slot, land=land.id,
                            totals=totals, sides=[len(piles[0]), len(piles[1])]))
        return self._enter_battle(new, slot + 1, events)

    # -- round end
    def _round_end(self, state: State, events: list) -> tuple[State, list]:
        """Rules, Round End steps 1 and 2 (step 3 is each player's choice, see _recover)."""
        players = self.players(state)
        ready = [list(state["ready"][0]), list(state["ready"][1])]
        resting = [{}, {}]
        removed = [list(state["removed"][0]), list(state["removed"][1])]
        for seat in (0, 1):
            # step 1: one Rest counter off every resting pile; piles reaching 0 are ready
            back = []
            for cid, n in state["resting"][seat].items():
                if n > 1:
                    resting[seat][cid] = n - 1
                else:
                    ready[seat].append(cid)
                    back.append(name(cid))
            if state["resting"][seat]:
                events.append(event("round_end", f"Round end 1: {players[seat]}'s resting piles lose a Rest counter"
                                    + (f"; ready again: {', '.join(back)}" if back else ""), seat=seat, step=1))
        for seat in (0, 1):
            # step 2: pull back; Base Power 0 or less adds a Rest counter; sacrificed creatures leave the game
            lines = []
            for entry in state["slots"]:
                if entry is None:
                    continue
                for rec in entry["piles"][seat]:
                    cid = rec["id"]
                    rest = rec["rest"]
                    why = []
                    if rec["base"] is not None and rec["base"] <= 0:
                        rest += 1
                        why.append("Base Power 0: +1")
                    if rec["sac"]:
                        removed[seat].append(cid)
                        lines.append(f"{name(cid)} is sacrificed and leaves the game")
                    elif rest > 0:
                        resting[seat][cid] = rest
                        lines.append(f"{name(cid)} rests with {rest} Rest counter{'s' if rest > 1 else ''}"
                                     + (f" ({', '.join(why)})" if why else ""))
                    else:
                        ready[seat].append(cid)
                        lines.append(f"{name(cid)} is ready")
            if lines:
                events.append(event("round_end", f"Round end 2: {players[seat]} pulls back: " + "; ".join(lines),
                                    seat=seat, step=2))
        slots = [None if s is None or s["winner"] is not None
                 else dict(s, piles=[[], []], fought=False) for s in state["slots"]]
        new = state.copy()
        new["ready"] = ready
        new["resting"] = resting
        new["removed"] = removed
        new["slots"] = slots
        new["battle"] = None
        new["effects"] = []
        if new["land_deck"] == 0 and all(s is None for s in slots):
            return self._game_over(new, events, None, ALL_CLAIMED)
        if new["land_deck"] == 0:
            # docs/rulings/territory.md, "Lands nobody can claim": rounds without a claim end the game
            claimed_now = any(b["winner"] is not None for b in state["battles"] if b["round"] == state["round"])
            stalled = 0 if claimed_now else new.get("stalled", 0) + 1
            new["stalled"] = stalled
            limit = new["options"]["stalled_rounds"]
            if limit and stalled >= limit:
                return self._game_over(new, events, None, f"the land deck is empty and no land was claimed in "
                                                          f"{stalled} round{'s' if stalled > 1 else ''} in a row")
        done = [not (new["claimed"][s] and resting[s]) for s in (0, 1)]
        new.update(phase="recover", done=done)
        if all(done):
            return self._next_round(new, events)
        return new, events

    def _recover(self, state: State, action: Action) -> tuple[State, list]:
        """Rules, Round End step 3: each land in the player's pile removes a Rest counter from a creature."""
        seat, uses = action["seat"], action.get("uses")
        players = self.players(state)
        if state["phase"] != "recover":
            raise IllegalAction("Rest counters are removed by lands at the end of a round")
        if state["done"][seat]:
            raise IllegalAction(f"{players[seat]} has already used their lands this round")
        if not isinstance(uses, list):
            raise IllegalAction("say which land removes a counter from which creature: a list of [land, creature]")
        claimed = state["claimed"][seat]
        resting = dict(state["resting"][seat])
        ready = list(state["ready"][seat])
        used: set = set()
        lines = []
        for use in uses:
            if not (isinstance(use, (list, tuple)) and len(use) == 2 and isinstance(use[0], int)):
                raise IllegalAction(f"{use!r} is not a [land number, creature] pair")
            i, cid = use
            if not 0 <= i < len(claimed):
                raise IllegalAction(f"{players[seat]} holds {len(claimed)} lands; there is no land {i + 1} in the pile")
            if i in used:
                raise IllegalAction(f"{LANDS[claimed[i]].name} (land {i + 1} of the pile) was already used this round")
            used.add(i)
            if cid not in resting:
                where = "ready" if cid in ready else "not resting"
                raise IllegalAction(f"{name(cid)} is {where}: {LANDS[claimed[i]].name} can only remove Rest counters "
                                    "from a resting creature")
            k = LANDS[claimed[i]].recovery_for(CREATURES[cid])
            left = resting[cid] - k
            if left <= 0:
                lines.append(f"{LANDS[claimed[i]].name} removes {resting.pop(cid)} from {name(cid)}: ready")
                ready.append(cid)
            else:
                resting[cid] = left
                lines.append(f"{LANDS[claimed[i]].name} removes {k} from {name(cid)}: {left} left")
        new_resting = _with(state["resting"], seat, resting)
        new_ready = _with(state["ready"], seat, ready)
        done = _with(state["done"], seat, True)
        new = state.copy()
        new["resting"], new["ready"], new["done"] = new_resting, new_ready, done
        text = (f"Round end 3: {players[seat]}'s lands: " + "; ".join(lines)) if lines else \
            f"Round end 3: {players[seat]} removes no Rest counters"
        events = [event("recovered", text, seat=seat, step=3, uses=[list(u) for u in uses])]
        if all(done):
            return self._next_round(new, events)
        return new, events

    def _next_round(self, state: State, events: list) -> tuple[State, list]:
        new = state.copy()
        new["round"] = state["round"] + 1
        return self._start_deal(new, events)

    # -- the end
    def _game_over(self, state: State, events: list, winner: int | None, reason: str) -> tuple[State, list]:
        players = self.players(state)
        counts = [len(state["claimed"][0]), len(state["claimed"][1])]
        if winner is None and counts[0] != counts[1]:
            winner = 0 if counts[0] > counts[1] else 1
        if winner is None:
            text = f"The game ends in a draw, {counts[0]} lands each: {reason}"
        else:
            text = f"{players[winner]} wins with {counts[winner]} lands to {counts[1 - winner]}: {reason}"
        new = state.copy()
        new["phase"], new["winner"], new["reason"], new["done"] = "over", winner, reason, [True, True]
        events.append(event("game_over", text, winner=winner, lands=counts))
        return new, events

    def _end_early(self, state: State, action: Action) -> tuple[State, list]:
        seat = action["seat"]
        players = self.players(state)
        if state["phase"] == "register":
            raise IllegalAction("the game has not started")
        leader = self.early_end_leader(state)
        if leader is None:
            need = state["options"]["lands_per_player"] + 1
            if not state["options"]["early_end"]:
                raise IllegalAction("the early end is switched off for this game")
            raise IllegalAction(f"the game can end early once a player holds {need} lands (50 % + 1); "
                                f"now {len(state['claimed'][0])}–{len(state['claimed'][1])}")
        if state["agree_end"][seat]:
            raise IllegalAction(f"{players[seat]} already agreed; waiting for {players[1 - seat]}")
        agree = _with(state["agree_end"], seat, True)
        new = state.copy()
        new["agree_end"] = agree
        events = [event("end_early", f"{players[seat]} agrees to end the game early with {players[leader]} "
                                     f"the winner", seat=seat)]
        if all(agree):
            return self._game_over(new, events, leader, f"both agreed to end early, {players[leader]} holding "
                                                        f"{len(state['claimed'][leader])} lands (50 % + 1)")
        return new, events

    def _forfeit(self, state: State, action: Action) -> tuple[State, list]:
        seat = action["seat"]
        players = self.players(state)
        events = [event("forfeit", f"{players[seat]} forfeits", seat=seat)]
        return self._game_over(state, events, 1 - seat, f"{players[seat]} forfeited")

    def _adjust(self, state: State, action: Action) -> tuple[State, list]:
        name_, delta, seat = action.get("counter"), action.get("delta"), action.get("seat")
        if isinstance(delta, bool) or not isinstance(delta, int):
            raise IllegalAction("an adjustment needs a whole-number delta")
        if name_ == "land_deck":
            value = max(0, state["land_deck"] + delta)
            new = state.copy()
            new["land_deck"] = value
            events = [event("adjusted", f"Land deck corrected to {value} lands", counter=name_, value=value)]
            if state["phase"] == "deal" and value == 0:
                # nothing more to deal: fight over the lands in play, or end if there are none
                if all(s is None for s in state["slots"]):
                    return self._game_over(new, events, None, ALL_CLAIMED)
                return self._start_deploy(new, events)
            return new, events
        if isinstance(name_, str) and name_.startswith("rest."):
            cid = name_[5:]
            if seat not in (0, 1) or self.owner(state, cid) != seat:
                raise IllegalAction(f"{name(cid)} is not {self.players(state)[seat] if seat in (0, 1) else 'a seat'}'s creature")
            at = self.where(state, seat, cid)
            if at[0] not in ("ready", "resting"):
                raise IllegalAction(f"only ready and resting creatures' Rest counters can be corrected; "
                                    f"{name(cid)} is {at[0]}")
            n = max(0, (at[1] if at[0] == "resting" else 0) + delta)
            resting = list(state["resting"])
            resting[seat] = {c: v for c, v in resting[seat].items() if c != cid}
            ready = list(state["ready"])
            ready[seat] = [c for c in ready[seat] if c != cid]
            if n:
                resting[seat][cid] = n
            else:
                ready[seat].append(cid)
            return dict(state, resting=resting, ready=ready), [
                event("adjusted", f"{name(cid)}'s Rest counters corrected to {n}" + ("" if n else ": ready"),
                      seat=seat, counter=name_, value=n)]
        raise IllegalAction("Territory can adjust 'land_deck' and 'rest.<creature id>' counters, "
                            f"not {name_!r}")

    MOVES = {
        "register": _register, "unregister": _unregister, "done": _done, "deal": _deal, "deploy": _deploy,
        "undeploy": _undeploy, "activate": _activate, "recover": _recover, "end_early": _end_early,
        "forfeit": _forfeit, "adjust": _adjust, "show": _show,
    }

    def result(self, state: State) -> dict:
        counts = [len(state["claimed"][0]), len(state["claimed"][1])]
        if state["phase"] != "over":
            return {"winner": None, "reason": "the game is not over", "lands": counts}
        return {"winner": state["winner"], "reason": state["reason"], "lands": counts, "rounds": state["round"]}

    def summary(self, state: State) -> dict:
        return {"game": self.name, "over": self.is_over(state), "players": self.players(state),
                "round": state["round"], "lands": [len(c) for c in state["claimed"]], "claimed": state["claimed"],
                "battles": state["battles"], "land_deck": state["land_deck"],
                "removed": state["removed"], "winner": state["winner"],
                "result": self.result(state) if self.is_over(state) else None}

    def bench_playout(self, seed: int, on_apply=None) -> int:
        """One random game with the sample decks; counts the rounds completed."""
        state = self.playout({"decks": "samples"}, seed, on_apply=on_apply)
        return state["round"] if state["reason"] == ALL_CLAIMED else state["round"] - 1


class _Activated(dict):
    """Per creature id, its activated abilities as usable() and may_activate() ask after every move of
    combat: (index, ability, reaches every land, picks an enemy), worked out on the first look.  A card
    id's definition never changes while the program runs (catalogue.register refuses another one), so
    neither does this."""

    def __missing__(self, creature_id: str) -> tuple:
        found = self[creature_id] = tuple(
            (ai, ability, any(e.scope == "all_lands" for e in ability.effects), ability.needs_target)
            for ai, ability in enumerate(CREATURES[creature_id].abilities) if ability.activated)
        return found


class _AllLandsActivated(dict):
    """Per creature id, the entries of :data:`_ACTIVATED` that reach every land."""

    def __missing__(self, creature_id: str) -> tuple:
        found = self[creature_id] = tuple(a for a in _ACTIVATED[creature_id] if a[2])
        return found


class _Passive(dict):
    """Per land id, what dealing it says of its passive (" — Lush: …", or nothing), worked out on the first
    deal (a card id's definition never changes while the program runs, as for :data:`_ACTIVATED`)."""

    def __missing__(self, land_id: str) -> str:
        passive = LANDS[land_id].passive_text()
        found = self[land_id] = f" — {passive}" if passive else ""
        return found


class _Uses(dict):
    """Per (creature id, ability index), what using that ability says after "… uses ": its name, its costs
    and its effects, worked out on the first use."""

    def __missing__(self, key: tuple) -> str:
        ability = CREATURES[key[0]].abilities[key[1]]
        cost_text = ", ".join(c.text() for c in ability.costs)
        found = self[key] = (ability.name + (f" ({cost_text})" if cost_text else "") + ": "
                             + "; ".join(e.text() for e in ability.effects))
        return found


_ACTIVATED = _Activated()
_ALL_LANDS_ACTIVATED = _AllLandsActivated()
_PASSIVE = _Passive()
_USES = _Uses()

RULES = TerritoryRules()


def _card_field(action: Action, key: str) -> str | None:
    """``action[key]``, a card id ("creature", "land", "target"), or None when the action has none; anything
    but a string is refused in words before the move reads it (the move that reads a card field asks here)."""
    value = action.get(key)
    if value is None and key not in action or isinstance(value, str):
        return value
    raise IllegalAction(f"{key!r} must be a card id such as 'territory.ash', not {value!r}")


def _with(items: list, i: int, value) -> list:
    """A copy of ``items`` (one entry per seat, or per land) with entry ``i`` set to ``value``."""
    out = list(items)
    out[i] = value
    return out


def _with_pile(slots: list, slot: int, seat: int, pile: list) -> list:
    """A copy of ``slots`` in which ``seat``'s pile at land ``slot`` is ``pile``."""
    entry = slots[slot].copy()
    piles = list(entry["piles"])
    piles[seat] = pile
    entry["piles"] = piles
    slots = list(slots)
    slots[slot] = entry
    return slots
