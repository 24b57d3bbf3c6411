"""`ArcmageRules`: the engine contract for the Original Rules Concept.

Actions (every player action has ``"seat"``; ids of cards in play are the
instance ids the view shows, ``"card"`` of a card from hand is its catalogue id):

=================  ============================================================
setup              ``region`` {card} a region into the chapter (face down);
                   ``ready`` when the chapter is complete
any time           ``adjust`` {counter, delta}; ``set_mark`` {card, marked};
                   ``destroy`` {card, to}: corrections and card texts, not
                   listed by ``legal_actions``; ``play`` an event {card};
                   ``spend`` {amount} gold for an upkeep or an ability
unmark phase       ``unassign`` {card}; ``mulligan`` (first turn only)
tactical phase     ``claim`` {claim: advantage|domination|total_domination,
                   domain | choice: vp|effect}
draw phase         ``draw``; ``exhaust`` {discard: "hand" | servant id}
play phases        ``resource`` {card}; ``play`` {card, target?}; ``target``
                   {target}; ``cancel``; ``assign`` {card}; ``unequip``
                   {equipment}; ``give`` {equipment, to}; ``pickup``
                   {equipment, to}
move/attack        ``move`` {card, to}; ``attack`` {attackers: [ids in
                   order]}; then the defender ``block`` {blocker, attacker} /
                   ``unblock`` {blocker} / ``blocks_done``; then the attacker
                   ``split`` {attacker, damage: {blocker id: n}} / ``resolve``
entrance phase     ``enter`` {card, to: front|politics|science|faith}
discard phase      ``discard``; ``discard_region``
phases             ``next`` {to?}; ``end_game`` once a last region fell
=================  ============================================================
"""
from __future__ import annotations

from companion.engine import EngineError, IllegalAction, Option, Rng, Rules, Zone, event, hidden_event
from companion.games.arcmage import cards as arc
from companion.games.arcmage import moves, table as pads
from companion.games.arcmage import skeleton as R
from companion.games.arcmage import view as views
from companion.games.arcmage.cards import CHAPTER_NUMERALS, DOMAIN_LABELS, DOMAINS
from companion.games.arcmage.decks import validate_deck
from companion.games.arcmage.state import PILES, Edit, attack_of, find, find_any, gold_available, is_top

# Random play (tests, benchmark) leans away from moves that waste a game's resources.
RANDOM_WEIGHTS = {"next": 0.6, "exhaust": 0.1, "mulligan": 0.3, "discard_region": 0.05, "cancel": 0.2,
                  "unblock": 0.2, "unequip": 0.2, "spend": 0.1, "enter": 3.0, "resource": 3.0,
                  "attack": 2.0, "block": 2.0, "play": 0.5, "claim": 3.0}
ANY_TIME = {"adjust", "set_mark", "destroy", "spend"}
FACE_DOWN_PADS = ("vault", "region")


def _unnamed(error: IllegalAction, card_id: str, seat: int) -> IllegalAction:
    """``error`` for ``seat``, with a twin that says the same without naming the card (engine: ``hidden_from``)."""
    try:
        label = arc.name(card_id)
    except IllegalAction:
        label = card_id
    text = str(error)
    redacted = text.replace(label, "that card").replace(card_id, "that card")
    return IllegalAction(text, redacted=redacted[:1].upper() + redacted[1:], hidden_from=[1 - seat])
PLAYER_COUNTERS = ("vp", "hp", "hand", "deck", "gold")


class ArcmageRules(Rules):
    name = "arcmage"
    title = "Arcmage Original Rules Concept"
    rules_file = "003_a0c00feded326db1.txt"
    bench_unit = "turns"
    options = (
        Option("vp_target", "Victory points to win", 10,
               help="The first player to reach this many victory points wins (10 in the rules)."),
        Option("mixed_blockers", "Block with the Front and the domains together", False,
               help="Off: against one attack a defender blocks with Front creatures or with top servants, "
                    "not both (rules text, 'Defend'). On: any mix."),
        Option("reassign_cost", "Reassigning equipment costs", "printed", choices=("printed", "free"),
               help="printed: giving equipment to another Front creature costs its printed gold again (the text: "
                    "pick-up \"costs no gold in contrast to reassigning equipment\"); free: only both creatures "
                    "mark, as the Reassign paragraph lists."),
    )

    validate_deck = staticmethod(validate_deck)

    # ---- setup ----------------------------------------------------------------
    def setup(self, options: dict, seed: int) -> dict:
        options = self.normalise_options(options)
        target = options["vp_target"]
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise IllegalAction(f"The victory-point target must be a whole number of at least 1, not {target!r}.")
        if options["reassign_cost"] not in ("printed", "free"):
            raise IllegalAction("Reassigning equipment costs 'printed' (its gold cost again) or is 'free'.")
        return R.new_game(options, seed)

    def result(self, state: dict) -> dict:
        return state["result"]

    # ---- apply ------------------------------------------------------------------
    def dispatch(self, state: dict, action: dict, handler) -> tuple[dict, list]:
        """Every move edits a copy through :class:`~.state.Edit`; setup, a fallen last region and a
        pending target allow only their own moves (and the corrections of :data:`ANY_TIME`)."""
        kind, seat = action["type"], action["seat"]
        if state["phase"] == "setup" and kind not in ("region", "ready", "adjust"):
            raise IllegalAction("First both players put their chapter on their region pad and press Ready.")
        if state["phase"] == "fallen" and kind not in ANY_TIME | {"end_game"}:
            raise IllegalAction("A last region has fallen: apply any effect of this same turn, then end the game.")
        if state["pending"] is not None and kind not in ANY_TIME | {"target", "cancel"}:
            p = state["pending"]
            raise IllegalAction(f"First choose what {arc.name(p['card'])} targets (or cancel it).")
        e = Edit(state)
        events: list = []
        handler(self, e, action, seat, events)
        return e.s, events

    # -- helpers for handlers
    @staticmethod
    def _own_turn(s: dict, seat: int, *phases: str) -> None:
        if s["active"] != seat:
            raise IllegalAction(f"It is {R.who(s, s['active'])}'s turn, not {R.who(s, seat)}'s.")
        if phases and s["phase"] not in phases:
            wanted = " or ".join(sorted({R.PHASE_LABELS[p] for p in phases}))
            raise IllegalAction(f"That is done in the {wanted}; now it is the {R.PHASE_LABELS[s['phase']]}.")

    @staticmethod
    def _no_combat(s: dict) -> None:
        if s["combat"] is not None:
            raise IllegalAction("Finish the combat first (blocks, then resolve).")

    @staticmethod
    def _creature(s: dict, seat: int, card_id, what: str = "That creature") -> tuple[str, int, dict]:
        where = find(s["p"][seat], card_id)
        if where is None:
            raise IllegalAction(f"{what} is not in play for {R.who(s, seat)}.")
        pile, i = where
        return pile, i, s["p"][seat][pile][i]

    @staticmethod
    def _from_hand(e: Edit, seat: int) -> None:
        p = e.p(seat)
        if p["hand"] <= 0:
            raise IllegalAction(f"The companion counts no cards in {R.who(e.s, seat)}'s hand; "
                                "correct the hand counter if that is wrong.")
        p["hand"] -= 1

    # -- setup
    def _do_region(self, e, a, seat, events):
        """Setup: one region card into the chapter, face down; its printed position orders it."""
        s = e.s
        if s["phase"] != "setup":
            raise IllegalAction("Regions go into the chapter before the game starts.")
        card_id = a.get("card")
        c = arc.card(card_id)
        p = s["p"][seat]
        if p["ready"]:
            raise IllegalAction(f"{R.who(s, seat)} already pressed Ready.")
        if c.attrs.get("type") != "region":
            raise IllegalAction(f"{c.name} is not a region: only regions go in the chapter.")
        chapter = [arc.card(r["card"]) for r in p["chapter"]]
        if len(chapter) >= 3:
            raise IllegalAction("The chapter already holds 3 regions, the most allowed.")
        if chapter and chapter[0].attrs.get("faction") != c.attrs.get("faction"):
            raise IllegalAction(f"{c.name} is {arc.faction_label(c.attrs.get('faction'))}; the chapter is "
                                f"{arc.faction_label(chapter[0].attrs.get('faction'))}: regions of one faction only.")
        pos = c.attrs.get("chapter")
        if any(x.attrs.get("chapter") == pos for x in chapter):
            raise IllegalAction(f"The chapter already has a region at position {CHAPTER_NUMERALS.get(pos, pos)}.")
        chapter_list = e.lst(seat, "chapter")
        chapter_list.append({"id": e.new_id(), "card": card_id, "hp": int(c.attrs.get("hp", 0))})
        chapter_list.sort(key=lambda r: arc.card(r["card"]).attrs.get("chapter", 9))
        events.append(hidden_event("chapter", f"{R.who(s, seat)} puts {c.name} "
                                              f"(chapter {CHAPTER_NUMERALS.get(pos, pos)}, {c.attrs.get('hp')} HP) in the chapter.",
                                   f"{R.who(s, seat)} puts a region in the chapter.", [1 - seat], seat=seat))

    def _do_ready(self, e, a, seat, events):
        s = e.s
        if s["phase"] != "setup":
            raise IllegalAction("The game has already started.")
        p = e.p(seat)
        if not p["chapter"]:
            raise IllegalAction("Put 1 to 3 region cards on your region pad first.")
        p["ready"] = True
        if not s["p"][1 - seat]["ready"]:
            events.append(event("ready", f"{R.who(s, seat)} is ready.", seat=seat))
            return
        for n in (0, 1):
            first = s["p"][n]["chapter"][0]
            many = len(s["p"][n]["chapter"])
            events.append(event("region_revealed", f"{R.who(s, n)} reveals {arc.name(first['card'])} "
                                                   f"({first['hp']} HP), {many} region{'' if many == 1 else 's'} "
                                                   "in the chapter.",
                                seat=n, card=first["card"]))
        s["turn"] = 0
        R.begin_turn(e, 0, events)

    # -- phases
    def _do_next(self, e, a, seat, events):
        """Move on to the next phase, or skip optional phases to ``to``."""
        s = e.s
        self._own_turn(s, seat)
        self._no_combat(s)
        phase = s["phase"]
        i = R.PHASES.index(phase)
        target = a.get("to") or (R.PHASES[i + 1] if i + 1 < len(R.PHASES) else "end")
        p = s["p"][seat]
        if phase == "draw" and p["drawn"] == 0 and p["deck"] > 0:
            raise IllegalAction("Draw at least 1 card first (you may draw 1 or 2).")
        if phase == "discard":
            if p["hand"] > R.HAND_LIMIT:
                raise IllegalAction(f"{R.who(s, seat)} has {p['hand']} cards in hand: discard down to {R.HAND_LIMIT} first.")
            if target != "end":
                raise IllegalAction("The Discard phase is the last: the turn ends next.")
            R.end_turn(e, events)
            return
        if target not in R.PHASES or R.PHASES.index(target) <= i:
            raise IllegalAction(f"{target!r} is not a phase after the {R.PHASE_LABELS[phase]}.")
        skipped = [x for x in R.PHASES[i + 1:R.PHASES.index(target)] if x not in R.OPTIONAL]
        if skipped:
            raise IllegalAction(f"The {R.PHASE_LABELS[skipped[0]]} cannot be skipped.")
        R.enter_phase(e, target, events)

    def _do_end_game(self, e, a, seat, events):
        if e.s["phase"] != "fallen":
            raise IllegalAction("No last region has fallen.")
        R.end_fallen(e, events)

    # -- unmark phase
    def _do_mulligan(self, e, a, seat, events):
        """Two cards of the 7 to the grave, the rest shuffled back, draw to 7 again: deck −2."""
        s = e.s
        self._own_turn(s, seat, "unmark")
        p = s["p"][seat]
        if not p["mulligan"]:
            raise IllegalAction("A mulligan is allowed once, in your first turn, before you proceed.")
        if p["hand"] != R.START_HAND or p["deck"] < 2:
            raise IllegalAction(f"A mulligan needs the 7-card starting hand (the companion counts {p['hand']}).")
        p = e.p(seat)
        p["mulligan"] = False
        p["deck"] -= 2
        e.lst(seat, "grave").extend([None, None])
        events.append(event("mulligan", f"{R.who(s, seat)} mulligans: 2 cards to the grave, the rest shuffled "
                                        f"back, draws back up to 7 ({p['deck']} left in the deck).", seat=seat))

    def _do_unassign(self, e, a, seat, events):
        s = e.s
        self._own_turn(s, seat, "unmark")
        pile, i, c = self._creature(s, seat, a.get("card"))
        if not c["assigned"]:
            raise IllegalAction(f"{arc.name(c['card'])} is not assigned.")
        e.replace(seat, pile, i, assigned=False, marked=True, locked=True)
        events.append(event("unassign", f"{R.who(s, seat)} unassigns {arc.name(c['card'])}: it is marked and "
                                        "cannot mark or assign again this turn.", seat=seat, card=c["card"]))

    # -- tactical phase
    def _do_claim(self, e, a, seat, events):
        """Advantage (≥ 2 more points in a domain), Domination (2 won) or Total Domination (3 won)."""
        s = e.s
        self._own_turn(s, seat, "tactical")
        t = R.tactical(s, seat)
        claims = s["p"][seat]["claims"]
        kind = a.get("claim")
        region = arc.name(s["p"][seat]["chapter"][0]["card"])
        if any(c in ("domination", "total_domination") for c in claims):
            raise IllegalAction("Domination replaces every other claim this turn: nothing more can be claimed.")
        if kind == "advantage":
            d = a.get("domain")
            if d not in DOMAINS:
                raise IllegalAction(f"Name a domain to claim: {', '.join(DOMAINS)}.")
            mine, theirs = t["points"][d]
            if d not in t["won"]:
                raise IllegalAction(f"{DOMAIN_LABELS[d]}: {mine} against {theirs}; an advantage needs 2 or more points more.")
            if d in claims:
                raise IllegalAction(f"The {DOMAIN_LABELS[d]} advantage is already claimed.")
            e.p(seat)["claims"] = claims + [d]
            effect = arc.card(s["p"][seat]["chapter"][0]["card"]).attrs.get("advantage", {}).get(d, "see the region card")
            events.append(event("claim", f"{R.who(s, seat)} has {mine} {DOMAIN_LABELS[d]} against {theirs} and claims "
                                         f"the {DOMAIN_LABELS[d]} advantage of {region}: {effect}",
                                seat=seat, claim="advantage", domain=d))
            return
        if kind not in ("domination", "total_domination"):
            raise IllegalAction("Claim 'advantage', 'domination' or 'total_domination'.")
        if claims:
            raise IllegalAction("Advantages were already claimed: Domination would have replaced them.")
        need = 2 if kind == "domination" else 3
        if len(t["won"]) < need:
            raise IllegalAction(f"{'Domination' if need == 2 else 'Total Domination'} needs {need} domains won; "
                                f"{R.who(s, seat)} has won {len(t['won'])}.")
        choice = a.get("choice")
        if choice not in ("vp", "effect"):
            raise IllegalAction("Choose 'vp' (victory points) or 'effect' (the region card's effect).")
        e.p(seat)["claims"] = [kind]
        label = "Domination" if kind == "domination" else "Total Domination"
        if choice == "vp":
            R.gain_vp(e, seat, 1 if kind == "domination" else 3, events, f"claims {label}")
        else:
            effect = arc.card(s["p"][seat]["chapter"][0]["card"]).attrs.get(kind, "see the region card")
            events.append(event("claim", f"{R.who(s, seat)} claims {label} with the effect of {region}: {effect}",
                                seat=seat, claim=kind, choice="effect"))

    # -- draw phase
    def _do_draw(self, e, a, seat, events):
        s = e.s
        self._own_turn(s, seat, "draw")
        p = s["p"][seat]
        allowed = 2 + (1 if p["exhausted"] else 0)
        if p["drawn"] >= allowed:
            raise IllegalAction(f"{R.who(s, seat)} has drawn {p['drawn']}: that is all this turn"
                                + ("" if p["exhausted"] else " (exhaust to draw a third)") + ".")
        if p["deck"] == 0:
            raise IllegalAction("The deck is empty.")
        p = e.p(seat)
        p["deck"] -= 1
        p["hand"] += 1
        p["drawn"] += 1
        events.append(event("draw", f"{R.who(s, seat)} draws a card ({p['hand']} in hand, {p['deck']} in the deck).",
                            seat=seat))

    def _do_exhaust(self, e, a, seat, events):
        """Discard a top servant or a card from hand to draw one more; no vault or movement this turn."""
        s = e.s
        self._own_turn(s, seat, "draw")
        if s["p"][seat]["exhausted"]:
            raise IllegalAction("Exhausting is allowed once a turn.")
        what = a.get("discard")
        if what == "hand":
            self._from_hand(e, seat)
            e.lst(seat, "grave").append(None)
            text = "a card from hand"
        else:
            pile, i, c = self._creature(s, seat, what, "That servant")
            if pile == "front" or not is_top(s["p"][seat], pile, i):
                raise IllegalAction("Exhaust by discarding a top servant of a domain or a card from hand.")
            R.remove_creature(e, seat, pile, i, "grave", events, f"{arc.name(c['card'])} is discarded to exhaust.")
            text = arc.name(c["card"])
        e.p(seat)["exhausted"] = True
        events.append(event("exhaust", f"{R.who(s, seat)} exhausts, discarding {text}: one more draw, but no vault "
                                       "and no movement this turn.", seat=seat))

    # -- gold and cards from hand
    def _do_resource(self, e, a, seat, events):
        """Play phase: one card a turn face down into the vault."""
        s = e.s
        self._own_turn(s, seat, "play1", "play2")
        p = s["p"][seat]
        if p["resourced"]:
            raise IllegalAction("Only one card a turn goes into the vault.")
        if p["exhausted"]:
            raise IllegalAction("After exhausting, no card may go into the vault this turn.")
        card_id = a.get("card")
        card_name = arc.name(card_id)
        if arc.kind(card_id) == "region":
            raise IllegalAction(f"{card_name} is a region: regions stay in the chapter.")
        self._from_hand(e, seat)
        e.lst(seat, "vault").append({"id": e.new_id(), "card": card_id, "marked": False})
        e.p(seat)["resourced"] = True
        events.append(hidden_event("resource", f"{R.who(s, seat)} puts {card_name} face down into the vault.",
                                   f"{R.who(s, seat)} puts a card face down into the vault.", [1 - seat], seat=seat,
                                   zone=f"{seat}.vault"))

    def _do_spend(self, e, a, seat, events):
        """Mark resources for gold a card text asks for (an upkeep, an ability)."""
        amount = a.get("amount")
        if not isinstance(amount, int) or amount < 1:
            raise IllegalAction("Spend a whole number of gold, 1 or more.")
        R.pay(e, seat, amount, "That")
        events.append(event("spend", f"{R.who(e.s, seat)} spends {amount} gold.", seat=seat, amount=amount))

    def _do_play(self, e, a, seat, events):
        """An event (any time), magic, spell or equipment (own play phase) from hand."""
        s = e.s
        card_id = a.get("card")
        c = arc.card(card_id)
        kind = c.attrs.get("type")
        if kind == "creature":
            raise IllegalAction(f"{c.name} is a creature: it enters play in the Entrance phase, on your Front "
                                "pad or on top of a domain pad.")
        if kind == "region":
            raise IllegalAction(f"{c.name} is a region: regions come from the chapter, not from hand.")
        if kind == "event":
            cost = R.printed_cost(card_id, a)
            R.pay(e, seat, cost, c.name)
            self._from_hand(e, seat)
            e.lst(seat, "grave").append(card_id)
            events.append(event("play", f"{R.who(s, seat)} plays the event {c.name} ({cost} gold): "
                                        f"{c.attrs.get('text', '')} It goes to the grave.",
                                seat=seat, card=card_id))
            return
        self._own_turn(s, seat, "play1", "play2")
        self._no_combat(s)
        if kind == "magic":
            domain = c.attrs.get("domain")
            if domain not in DOMAINS:
                raise IllegalAction(f"{c.name} names no domain (politics, science or faith) in the catalogue.")
            need = R.printed_cost(card_id, a)
            worth = sum(x["cost"] for x in s["p"][seat][domain])
            if worth < need:
                raise IllegalAction(f"{c.name} needs creatures worth {need} gold in your "
                                    f"{DOMAIN_LABELS.get(domain, domain)} domain; they are worth {worth}.")
            self._from_hand(e, seat)
            e.lst(seat, "grave").append(card_id)
            events.append(event("play", f"{R.who(s, seat)} plays the magic {c.name} ({DOMAIN_LABELS.get(domain)} "
                                        f"{worth} ≥ {need}): {c.attrs.get('text', '')}", seat=seat, card=card_id))
            return
        cost = R.printed_cost(card_id, a)
        if gold_available(s["p"][seat]) < cost:
            R.pay(e, seat, cost, c.name)                   # raises with the numbers
        self._from_hand(e, seat)
        s["pending"] = {"seat": seat, "card": card_id, "cost": cost}
        if "target" in a:
            self._do_target(e, {"target": a["target"]}, seat, events)
        else:
            events.append(event("choose", f"{R.who(s, seat)} plays {c.name}: choose what it "
                                          f"{'equips' if kind == 'equipment' else 'targets'}.", seat=seat, card=card_id))

    def targets(self, state: dict) -> list[str]:
        """What the pending spell or equipment may go onto."""
        pending = state["pending"]
        if pending is None:
            return []
        seat = pending["seat"]
        c = arc.card(pending["card"])
        out = []
        if c.attrs.get("type") == "equipment":
            sub = c.attrs.get("subtype")
            for x in state["p"][seat]["front"]:
                if not any(eq["subtype"] == sub and sub for eq in x["equip"]):
                    out.append(f"creature:{x['id']}")
            return out
        for n in (0, 1):
            p = state["p"][n]
            for pile in PILES:
                if p[pile]:
                    tops = p[pile] if pile == "front" else p[pile][-1:]
                    out += [f"creature:{x['id']}" for x in tops]
            out += [f"area:{n}:{area}" for area in ("front", "kingdom") + DOMAINS + ("region",)]
        wanted = c.attrs.get("target")            # what the card text says it targets, if the catalogue says
        if wanted == "creature":
            return [t for t in out if t.startswith("creature:")]
        if wanted:
            return [t for t in out if t.endswith(f":{wanted}")]
        return out

    def _do_target(self, e, a, seat, events):
        s = e.s
        pending = s["pending"]
        if pending is None or pending["seat"] != seat:
            raise IllegalAction("Nothing of yours is waiting for a target.")
        target = a.get("target")
        if target not in self.targets(s):
            raise IllegalAction(f"{arc.name(pending['card'])} cannot go onto {target!r}.")
        c = arc.card(pending["card"])
        R.pay(e, seat, pending["cost"], c.name)
        s["pending"] = None
        kind, _, rest = target.partition(":")
        if kind == "creature":
            owner, pile, i = find_any(s, int(rest))
            x = s["p"][owner][pile][i]
            if c.attrs.get("type") == "equipment":
                eq = {"id": e.new_id(), "card": c.id, "atk": int(c.attrs.get("atk", 0)),
                      "def": int(c.attrs.get("defence", 0)), "subtype": c.attrs.get("subtype") or ""}
                e.replace(owner, pile, i, equip=x["equip"] + [eq])
                events.append(event("equip", f"{R.who(s, seat)} equips {arc.name(x['card'])} with {c.name} "
                                             f"(+{eq['atk']}/+{eq['def']}).", seat=seat, card=c.id))
            else:
                sp = {"id": e.new_id(), "card": c.id, "owner": seat}
                e.replace(owner, pile, i, spells=x["spells"] + [sp])
                events.append(event("spell", f"{R.who(s, seat)} casts {c.name} on {arc.name(x['card'])}: "
                                             f"{c.attrs.get('text', '')}", seat=seat, card=c.id))
        else:
            _, owner, area = target.split(":")
            e.lst(seat, "spells").append({"id": e.new_id(), "card": c.id, "on": [int(owner), area]})
            where = "region" if area == "region" else ("Kingdom" if area == "kingdom" else
                                                       "Front" if area == "front" else f"{DOMAIN_LABELS[area]} domain")
            events.append(event("spell", f"{R.who(s, seat)} casts {c.name} on {R.who(s, int(owner))}'s {where}: "
                                         f"{c.attrs.get('text', '')}", seat=seat, card=c.id))

    def _do_cancel(self, e, a, seat, events):
        s = e.s
        pending = s["pending"]
        if pending is None or pending["seat"] != seat:
            raise IllegalAction("Nothing of yours is waiting for a target.")
        s["pending"] = None
        e.p(seat)["hand"] += 1
        events.append(event("cancel", f"{arc.name(pending['card'])} goes back to {R.who(s, seat)}'s hand.", seat=seat))

    # -- marking, assigning and equipment
    def _ready_creature(self, s, seat, card_id, what="That creature", front=False):
        pile, i, c = self._creature(s, seat, card_id, what)
        label = arc.name(c["card"])
        if front and pile != "front":
            raise IllegalAction(f"{label} must be in the Front.")
        if not is_top(s["p"][seat], pile, i):
            raise IllegalAction(f"{label} is under another servant: only the top servant of a domain can act.")
        if c["locked"]:
            raise IllegalAction(f"{label} was unassigned this turn: it cannot mark or assign again until the turn "
                                "ends, even if an effect unmarked it.")
        if c["marked"]:
            raise IllegalAction(f"{label} is marked: a card marks once a turn.")
        if c["assigned"]:
            raise IllegalAction(f"{label} is assigned: assigned creatures cannot mark, attack or defend.")
        return pile, i, c

    def _do_assign(self, e, a, seat, events):
        s = e.s
        self._own_turn(s, seat, "play1", "play2")
        pile, i, c = self._ready_creature(s, seat, a.get("card"))
        ability = arc.card(c["card"]).attrs.get("assign")
        if not ability:
            raise IllegalAction(f"{arc.name(c['card'])} has no assign (A) ability.")
        R.pay(e, seat, int(arc.card(c["card"]).attrs.get("assign_cost", 0)), f"Assigning {arc.name(c['card'])}")
        e.replace(seat, pile, i, assigned=True)
        events.append(event("assign", f"{R.who(s, seat)} assigns {arc.name(c['card'])}: {ability}", seat=seat,
                            card=c["card"]))

    def _equipment(self, s, seat, eq_id):
        for pile in PILES:
            for i, x in enumerate(s["p"][seat][pile]):
                for k, eq in enumerate(x["equip"]):
                    if eq["id"] == eq_id:
                        return pile, i, k, x, eq
        raise IllegalAction("That equipment is not on a creature of yours.")

    def _check_subtype(self, c, eq):
        if eq["subtype"] and any(x["subtype"] == eq["subtype"] for x in c["equip"]):
            raise IllegalAction(f"{arc.name(c['card'])} already carries an Equipment - {eq['subtype']}.")

    def _do_unequip(self, e, a, seat, events):
        """Discard an equipment from an unmarked creature: the creature marks."""
        s = e.s
        self._own_turn(s, seat, "play1", "play2")
        pile, i, k, c, eq = self._equipment(s, seat, a.get("equipment"))
        self._ready_creature(s, seat, c["id"])
        e.replace(seat, pile, i, marked=True, equip=c["equip"][:k] + c["equip"][k + 1:])
        e.lst(seat, "grave").append(eq["card"])
        events.append(event("unequip", f"{arc.name(c['card'])} marks and discards {arc.name(eq['card'])}.", seat=seat))

    def _do_give(self, e, a, seat, events):
        """Reassign equipment between two unmarked, unassigned Front creatures: both mark."""
        s = e.s
        self._own_turn(s, seat, "play1", "play2")
        pile, i, k, giver, eq = self._equipment(s, seat, a.get("equipment"))
        self._ready_creature(s, seat, giver["id"], front=True)
        _, j, taker = self._ready_creature(s, seat, a.get("to"), "The receiving creature", front=True)
        if taker["id"] == giver["id"]:
            raise IllegalAction("Give the equipment to another creature.")
        self._check_subtype(taker, eq)
        cost = 0
        if s.get("reassign_cost", "printed") == "printed":      # docs/rulings/arcmage.md, "Reassigning equipment"
            cost = R.printed_cost(eq["card"], a)
            R.pay(e, seat, cost, f"Reassigning {arc.name(eq['card'])}")
        e.replace(seat, "front", i, marked=True, equip=giver["equip"][:k] + giver["equip"][k + 1:])
        e.replace(seat, "front", j, marked=True, equip=taker["equip"] + [eq])
        events.append(event("give", f"{arc.name(giver['card'])} gives {arc.name(eq['card'])} to "
                                    f"{arc.name(taker['card'])}" + (f" for {cost} gold" if cost else "")
                                    + "; both mark.", seat=seat, cost=cost))

    def _do_pickup(self, e, a, seat, events):
        """An unmarked Front creature picks up one dropped equipment for free, and marks."""
        s = e.s
        self._own_turn(s, seat, "play1", "play2")
        dropped = s["p"][seat]["dropped"]
        k = next((n for n, x in enumerate(dropped) if x["id"] == a.get("equipment")), None)
        if k is None:
            raise IllegalAction("That equipment is not lying dropped in your Front.")
        _, j, taker = self._ready_creature(s, seat, a.get("to"), "The creature picking it up", front=True)
        eq = dropped[k]
        self._check_subtype(taker, eq)
        e.lst(seat, "dropped").pop(k)
        e.replace(seat, "front", j, marked=True, equip=taker["equip"] + [eq])
        events.append(event("pickup", f"{arc.name(taker['card'])} marks and picks up {arc.name(eq['card'])}.", seat=seat))

    # -- move / attack
    def _move_phase_check(self, s, seat, doing):
        self._own_turn(s, seat, "move1", "move2")
        self._no_combat(s)
        p = s["p"][seat]
        other = "attacked" if doing == "moved" else "moved"
        if p[doing]:
            raise IllegalAction(f"{R.who(s, seat)} already {'moved' if doing == 'moved' else 'attacked'} this turn: "
                                "each is done in one Move or Attack phase only.")
        if p[other] == s["phase"]:
            raise IllegalAction("A Move or Attack phase allows a move or an attack, not both.")

    def _do_move(self, e, a, seat, events):
        """Up to one creature a turn between the Kingdom and the Front; it marks."""
        s = e.s
        self._move_phase_check(s, seat, "moved")
        if s["p"][seat]["exhausted"]:
            raise IllegalAction("After exhausting, no movement this turn.")
        pile, i, c = self._ready_creature(s, seat, a.get("card"))
        to = a.get("to")
        if to not in PILES:
            raise IllegalAction("Move to 'front' or to a domain: politics, science or faith.")
        if (pile == "front") == (to == "front"):
            raise IllegalAction("Moves go between the Kingdom and the Front; never between two domains.")
        clash = R.faction_clash(s["p"][seat], to, c["card"]) if to != "front" else None
        if clash:
            raise IllegalAction(clash)
        moved = c.copy()
        moved["marked"] = True
        e.lst(seat, pile).pop(i)
        if to != "front" and c["equip"]:
            e.lst(seat, "dropped").extend(c["equip"])
            moved["equip"] = []
            events.append(event("dropped", f"{arc.name(c['card'])} drops its equipment in the Front.", seat=seat))
        e.lst(seat, to).append(moved)
        e.p(seat)["moved"] = s["phase"]
        events.append(event("move", f"{R.who(s, seat)} moves {arc.name(c['card'])} from {R.PILE_LABELS[pile]} to "
                                    f"{R.PILE_LABELS[to]}.", seat=seat, card=c["card"], to=to))

    def _do_attack(self, e, a, seat, events):
        """Announce attackers from the Front, in the order their combats resolve; they mark."""
        s = e.s
        self._move_phase_check(s, seat, "attacked")
        ids = a.get("attackers")
        if not isinstance(ids, list) or not ids or len(set(ids)) != len(ids):
            raise IllegalAction("Name one or more different attackers from your Front, in order.")
        names = []
        for card_id in ids:
            pile, i, c = self._ready_creature(s, seat, card_id, "An attacker", front=True)
            names.append(R.card_label(c))
        for card_id in ids:
            e.replace(seat, "front", find(s["p"][seat], card_id)[1], marked=True)
        e.p(seat)["attacked"] = s["phase"]
        s["combat"] = {"seat": seat, "attackers": list(ids), "blocks": {}, "split": {}, "step": "block"}
        region = s["p"][1 - seat]["chapter"][0]
        events.append(event("attack", f"{R.who(s, seat)} attacks {arc.name(region['card'])} ({region['hp']} HP) with "
                                      + ", then ".join(names) + f". {R.who(s, 1 - seat)} blocks or lets them through.",
                            seat=seat, attackers=list(ids)))

    def _do_block(self, e, a, seat, events):
        s = e.s
        combat = s["combat"]
        if combat is None or combat["step"] != "block" or seat == combat["seat"]:
            raise IllegalAction("Only the defender blocks, after attackers are announced.")
        attacker = a.get("attacker")
        if attacker not in combat["attackers"]:
            raise IllegalAction("Block one of the announced attackers.")
        blocker = a.get("blocker")
        if any(blocker in bl for bl in combat["blocks"].values()):
            raise IllegalAction("A blocker blocks one attacker only.")
        pile, i, c = self._ready_creature(s, seat, blocker, "That blocker")
        if not s["mixed_blockers"]:
            for b_id in combat["blocks"].get(str(attacker), []):
                other = find(s["p"][seat], b_id)
                if other and (other[0] == "front") != (pile == "front"):
                    raise IllegalAction("Against one attacker, block with Front creatures or with top servants, "
                                        "not both.")
        blocks = dict(combat["blocks"])
        blocks[str(attacker)] = blocks.get(str(attacker), []) + [blocker]
        s["combat"] = dict(combat, blocks=blocks)
        a_pile, a_i, a_c = self._creature(s, combat["seat"], attacker, "That attacker")
        events.append(event("block", f"{R.card_label(c)} blocks {R.card_label(a_c)}"
                                     + (" (a servant: it will not strike back)." if pile != "front" else "."),
                            seat=seat))

    def _do_unblock(self, e, a, seat, events):
        s = e.s
        combat = s["combat"]
        if combat is None or combat["step"] != "block" or seat == combat["seat"]:
            raise IllegalAction("Only the defender changes blocks, before they are done.")
        blocker = a.get("blocker")
        blocks = {k: [b for b in v if b != blocker] for k, v in combat["blocks"].items()}
        if blocks == combat["blocks"]:
            raise IllegalAction("That creature is not blocking.")
        s["combat"] = dict(combat, blocks={k: v for k, v in blocks.items() if v})
        events.append(event("unblock", "Block taken back.", seat=seat))

    def _do_blocks_done(self, e, a, seat, events):
        s = e.s
        combat = s["combat"]
        if combat is None or combat["step"] != "block" or seat == combat["seat"]:
            raise IllegalAction("Only the defender says when blocks are done.")
        s["combat"] = dict(combat, step="damage")
        events.append(event("blocks_done", f"{R.who(s, seat)} is done blocking. {R.who(s, combat['seat'])} splits "
                                           "damage among several blockers if needed, then resolves.", seat=seat))

    def _do_split(self, e, a, seat, events):
        """Share an attacker's ATK among its blockers (RULINGS: the attacking player splits)."""
        s = e.s
        combat = s["combat"]
        if combat is None or combat["step"] != "damage" or seat != combat["seat"]:
            raise IllegalAction("The attacking player splits damage after blocks are done.")
        attacker = a.get("attacker")
        blockers = combat["blocks"].get(str(attacker), [])
        if not blockers:
            raise IllegalAction("That attacker is not blocked.")
        damage = a.get("damage")
        if not isinstance(damage, dict) or set(damage) != {str(b) for b in blockers}:
            raise IllegalAction("Give every blocker of that attacker a share (0 or more).")
        if any(not isinstance(v, int) or v < 0 for v in damage.values()):
            raise IllegalAction("Shares are whole numbers, 0 or more.")
        _, _, c = self._creature(s, seat, attacker, "That attacker")
        atk = max(attack_of(c), 0)
        if sum(damage.values()) != atk:
            raise IllegalAction(f"The shares add up to {sum(damage.values())}; {arc.name(c['card'])} has {atk} ATK to split.")
        split = dict(combat["split"])
        split[str(attacker)] = dict(damage)
        s["combat"] = dict(combat, split=split)
        events.append(event("split", f"{arc.name(c['card'])} splits its {atk} ATK: "
                                     + ", ".join(f"{v}" for v in damage.values()) + ".", seat=seat))

    def _do_resolve(self, e, a, seat, events):
        s = e.s
        combat = s["combat"]
        if combat is None or combat["step"] != "damage" or seat != combat["seat"]:
            raise IllegalAction("The attacking player resolves combat once blocks are done.")
        R.resolve_combat(e, events)

    # -- entrance
    def _do_enter(self, e, a, seat, events):
        """A creature from hand, paid in gold, into the Front or on top of a domain, unmarked."""
        s = e.s
        self._own_turn(s, seat, "entrance")
        card_id = a.get("card")
        c = arc.card(card_id)
        if c.attrs.get("type") != "creature":
            raise IllegalAction(f"{c.name} is not a creature: play it in a Play phase on your play pad.")
        to = a.get("to")
        if to not in PILES:
            raise IllegalAction("A creature enters the Front or a domain: politics, science or faith.")
        clash = R.faction_clash(s["p"][seat], to, card_id) if to != "front" else None
        if clash:
            raise IllegalAction(clash)
        cost = R.printed_cost(card_id, a)
        R.pay(e, seat, cost, c.name)
        self._from_hand(e, seat)
        e.lst(seat, to).append({"id": e.new_id(), "card": card_id, "atk": int(c.attrs.get("atk", 0)),
                                "def": int(c.attrs.get("defence", 0)), "cost": cost if arc.cost(card_id) is None else arc.cost(card_id),
                                "marked": False, "assigned": False, "locked": False, "damage": 0,
                                "equip": [], "spells": []})
        events.append(event("enter", f"{R.who(s, seat)} pays {cost} gold: {c.name} ({c.attrs.get('atk')}/"
                                     f"{c.attrs.get('defence')}) enters {R.PILE_LABELS[to]}.",
                            seat=seat, card=card_id, to=to))

    # -- discard
    def _do_discard(self, e, a, seat, events):
        s = e.s
        self._own_turn(s, seat, "discard")
        p = s["p"][seat]
        if p["hand"] <= R.HAND_LIMIT:
            raise IllegalAction(f"{R.who(s, seat)} has {p['hand']} cards: discarding is only allowed above {R.HAND_LIMIT}.")
        named = a.get("card")
        if named is not None and arc.kind(named) == "region":
            raise IllegalAction(f"{arc.name(named)} is a region: regions are not in the hand.")
        self._from_hand(e, seat)
        e.lst(seat, "grave").append(named)
        events.append(event("discard", f"{R.who(s, seat)} discards a card ({p['hand'] - 1} left).", seat=seat))

    def _do_discard_region(self, e, a, seat, events):
        s = e.s
        self._own_turn(s, seat, "discard")
        if len(s["p"][seat]["chapter"]) < 2:
            raise IllegalAction("The last region cannot be discarded.")
        R.lose_region(e, seat, events, "is discarded")

    # -- manual adjustments
    def _do_adjust(self, e, a, seat, events):
        """±VP, ±HP, hand and deck counts, gold, and ±ATK/DEF/damage of a creature (``card.<id>.atk``)."""
        s = e.s
        counter_id, delta = a.get("counter"), a.get("delta")
        if not isinstance(delta, int) or isinstance(delta, bool) or delta == 0:
            raise IllegalAction("An adjustment is a whole number other than 0.")
        if not isinstance(counter_id, str):
            raise IllegalAction("Say which counter to adjust.")
        parts = counter_id.split(".")
        if parts[0] == "card" and len(parts) == 3 and parts[2] in ("atk", "def", "damage"):
            found = find_any(s, int(parts[1])) if parts[1].isdigit() else None
            if found is None:
                raise IllegalAction("That creature is not in play.")
            owner, pile, i = found
            c = s["p"][owner][pile][i]
            if c[parts[2]] + delta < 0 and parts[2] != "def":
                raise IllegalAction(f"{parts[2].upper()} cannot go below 0.")
            changed = e.replace(owner, pile, i, **{parts[2]: c[parts[2]] + delta})
            events.append(event("adjust", f"{R.who(s, seat)} adjusts {arc.name(c['card'])}: "
                                          f"{parts[2].upper()} {delta:+d} → {R.card_label(changed)}.", seat=seat))
            R.kill_if_dead(e, owner, c["id"], events)
            return
        if len(parts) != 2 or parts[0] not in ("0", "1") or parts[1] not in PLAYER_COUNTERS:
            raise IllegalAction(f"There is no counter {counter_id!r}.")
        owner, what = int(parts[0]), parts[1]
        p = s["p"][owner]
        if what == "vp":
            R.gain_vp(e, owner, delta, events, f"{'gains' if delta > 0 else 'loses'} {abs(delta)} VP (adjusted)")
            return
        if what == "hp":
            if s["phase"] == "setup":
                raise IllegalAction("Regions have no HP to adjust before they are revealed.")
            if not p["chapter"]:
                raise IllegalAction(f"{R.who(s, owner)} has no region left.")
            if delta < 0:
                R.damage_region(e, owner, -delta, events, "An adjustment")
            else:
                chapter = e.lst(owner, "chapter")
                chapter[0] = dict(chapter[0], hp=chapter[0]["hp"] + delta)
                events.append(event("adjust", f"{arc.name(chapter[0]['card'])} of {R.who(s, owner)} gains {delta} HP: "
                                              f"{chapter[0]['hp']} HP.", seat=seat))
            return
        if p[what] + delta < 0:
            raise IllegalAction(f"{R.who(s, owner)}'s {what} is {p[what]}; it cannot go below 0.")
        e.p(owner)[what] = p[what] + delta
        events.append(event("adjust", f"{R.who(s, owner)}'s {what} {delta:+d} → {p[what] + delta}.", seat=seat))

    def _do_set_mark(self, e, a, seat, events):
        """Mark or unmark a creature or a vault resource because a card says so."""
        s = e.s
        marked = bool(a.get("marked"))
        card_id = a.get("card")
        found = find_any(s, card_id)
        if found is not None:
            owner, pile, i = found
            # an unassigned creature stays unable to mark or assign this turn ("the forbidding effect wins")
            e.replace(owner, pile, i, marked=marked)
            label = arc.name(s["p"][owner][pile][i]["card"])
        else:
            vault = s["p"][seat]["vault"]
            k = next((n for n, r in enumerate(vault) if r["id"] == card_id), None)
            if k is None:
                raise IllegalAction("That card is neither a creature in play nor a resource in your vault.")
            e.lst(seat, "vault")[k] = dict(vault[k], marked=marked)
            label = "a resource"
        events.append(event("set_mark", f"{R.who(s, seat)} {'marks' if marked else 'unmarks'} {label}.", seat=seat))

    def _do_destroy(self, e, a, seat, events):
        """A creature leaves play because a card says so: to the grave, hand, deck or out of the game."""
        s = e.s
        to = a.get("to", "grave")
        if to not in ("grave", "hand", "deck", "removed"):
            raise IllegalAction("Send it to 'grave', 'hand', 'deck' or 'removed'.")
        found = find_any(s, a.get("card"))
        if found is None:
            raise IllegalAction("That creature is not in play.")
        owner, pile, i = found
        c = s["p"][owner][pile][i]
        where = {"grave": "the grave", "hand": "its owner's hand", "deck": "its owner's deck",
                 "removed": "out of the game"}[to]
        R.remove_creature(e, owner, pile, i, to, events, f"{arc.name(c['card'])} goes to {where}.")

    # ---- what may happen, what is seen, what the table means ------------------
    def legal_actions(self, state: dict) -> list[dict]:
        """Every legal move, one of each kind first (screens show the first few), each with a
        ``label`` for its button; ``apply`` ignores the label."""
        return [dict(a, label=moves.label(state, a)) for a in moves.interleave(moves.action_groups(self, state))]

    def random_action(self, state: dict, rng: Rng) -> dict:
        """A kind of move first, then one move of that kind (see :mod:`.moves`); without labels."""
        groups = moves.action_groups(self, state)
        if not groups:
            raise EngineError("arcmage: no legal action in a game that is not over")
        groups = moves.placeable(state, groups)
        weights = [RANDOM_WEIGHTS.get(g[0]["type"], 1.0) for g in groups]
        if state["combat"] is None and state["phase"] != "setup":
            weights = [w if g[0]["seat"] == state["active"] else w * 0.1 for g, w in zip(groups, weights)]
        pick = rng.random() * sum(weights)
        for group, weight in zip(groups, weights):
            pick -= weight
            if pick < 0:
                return rng.choice(group)
        return rng.choice(groups[-1])

    def view(self, state: dict, seat: int | None) -> dict:
        return views.view(self, state, seat)

    def zones(self, options: dict) -> list[Zone]:
        return pads.zones(options)

    def interpret(self, state: dict, zone: str, card_id: str, present: bool) -> dict | None:
        """What a card on a pad means.  On the face-down pads (the vault, the chapter) a refusal must not
        name the card (RULINGS, "Hidden information in refusals"), so the action is tried here and any
        refusal gets a redacted twin without the card's name for the other seat and the shared screen."""
        if state["result"] is not None:
            return None
        seat_text, _, kind = zone.partition(".")
        face_down = present and kind in FACE_DOWN_PADS and seat_text in ("0", "1")
        try:
            action = pads.interpret(state, zone, card_id, present)
            if face_down and action is not None:
                self.apply(state, action)
        except IllegalAction as exc:
            if face_down and getattr(exc, "redacted", None) is None:
                raise _unnamed(exc, card_id, int(seat_text)) from None
            raise
        return action

    def scan_for(self, state: dict, action: dict) -> tuple[str, str] | None:
        return pads.scan_for(state, action)

    def confirm_action(self, state: dict, seat: int) -> dict | None:
        """The confirm button: Ready, Done blocking, Resolve, next phase (in the Draw phase
        first the one card that must be drawn), end the game."""
        for action in self._confirmables(state, seat):
            try:
                self.apply(state, action)
            except IllegalAction:
                continue
            return action
        return None

    @staticmethod
    def _confirmables(state: dict, seat: int) -> list[dict]:
        if state["phase"] == "setup":
            return [{"type": "ready", "seat": seat}]
        if state["phase"] == "fallen":
            return [{"type": "end_game", "seat": seat}]
        combat = state["combat"]
        if combat is not None:
            kind = "blocks_done" if combat["step"] == "block" else "resolve"
            return [{"type": kind, "seat": seat}]
        if state["pending"] is not None:
            return []
        return [{"type": "next", "seat": seat}, {"type": "draw", "seat": seat}]   # draw: the one card a turn must

    def summary(self, state: dict) -> dict:
        players = []
        for n in (0, 1):
            p = state["p"][n]
            players.append({"name": state["names"][n], "vp": p["vp"], "regions_left": len(p["chapter"]),
                            "region_hp": p["chapter"][0]["hp"] if p["chapter"] else 0,
                            "deck": p["deck"], "hand": p["hand"], "grave": len(p["grave"])})
        return {"game": self.name, "over": self.is_over(state), "turn": state["turn"], "phase": state["phase"],
                "vp_target": state["vp_target"], "players": players, "battles": list(state["battles"]),
                "result": state["result"]}

    def bench_playout(self, seed: int, on_apply=None) -> int:
        """One random game; returns the turns it completed."""
        state = self.playout(None, seed, on_apply=on_apply)
        return max(state["turn"] - 1, 0) + (1 if self.is_over(state) else 0)


ArcmageRules.MOVES = {
    "region": ArcmageRules._do_region,
    "ready": ArcmageRules._do_ready,
    "next": ArcmageRules._do_next,
    "end_game": ArcmageRules._do_end_game,
    "mulligan": ArcmageRules._do_mulligan,
    "unassign": ArcmageRules._do_unassign,
    "claim": ArcmageRules._do_claim,
    "draw": ArcmageRules._do_draw,
    "exhaust": ArcmageRules._do_exhaust,
    "resource": ArcmageRules._do_resource,
    "spend": ArcmageRules._do_spend,
    "play": ArcmageRules._do_play,
    "target": ArcmageRules._do_target,
    "cancel": ArcmageRules._do_cancel,
    "assign": ArcmageRules._do_assign,
    "unequip": ArcmageRules._do_unequip,
    "give": ArcmageRules._do_give,
    "pickup": ArcmageRules._do_pickup,
    "move": ArcmageRules._do_move,
    "attack": ArcmageRules._do_attack,
    "block": ArcmageRules._do_block,
    "unblock": ArcmageRules._do_unblock,
    "blocks_done": ArcmageRules._do_blocks_done,
    "split": ArcmageRules._do_split,
    "resolve": ArcmageRules._do_resolve,
    "enter": ArcmageRules._do_enter,
    "discard": ArcmageRules._do_discard,
    "discard_region": ArcmageRules._do_discard_region,
    "adjust": ArcmageRules._do_adjust,
    "set_mark": ArcmageRules._do_set_mark,
    "destroy": ArcmageRules._do_destroy,
}

RULES = ArcmageRules()
