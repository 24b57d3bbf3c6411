"""Territory on the table: its zones, what a scan means, and what each seat may see.

Zones (one pad each in the default profile, ``firmware_config/tables/territory.toml``)::

    0.land1 … 0.land5   North's pile in front of land 1 … 5 (several cards on one pad)
    1.land1 … 1.land5   South's piles
    0.ready, 1.ready    each player's ready pile: scan the deck here before the game
    land_deck           scan each land as it is dealt; it goes to the first empty place

Face-down creatures are hidden from the other seat and from the shared screen
(``view(state, None)``) until their land is fought (or until one is turned
face up to use an ability): not their id, not their name, not their power; only
how many cards lie on the pile, which the table shows anyway.
"""
from __future__ import annotations

from companion.engine import Action, IllegalAction, State, Zone
from companion.words import counted

from .catalogue import CREATURES, FINAL_COST, LANDS, deck_cost, in_game, name


SLOTS = 5                      # Rules, Round Begin: "Deal 5 land cards"
NOT_IN_GAME = ("{} is a card designed for another game: this game was set up without it (start a game with "
               "your cards file to play it)")

def refusal(text: str, redacted: str, seat: int) -> IllegalAction:
    """A refusal of a card that would lie face down or in a hidden pile, known to ``seat`` only.

    ``text`` names the card and is for ``seat`` (the card's owner, or the player whose pad it is); the other
    seat and the shared screen read ``redacted`` instead: the engine's ``rejected`` events are redacted like
    every face-down event (``hidden_from``).
    """
    return IllegalAction(text, redacted=redacted, hidden_from=[1 - seat])


def other_side(label: str, card: str, player: str, owner: int) -> IllegalAction:
    """A creature put on the wrong player's pad: it goes on its owner's side (named to its owner only)."""
    return refusal(f"{label} is {player}'s creature: it goes on {player}'s side",
                   f"{card} is {player}'s creature: it goes on {player}'s side", owner)


def land_zone(seat: int, slot: int) -> str:
    """Zone of ``seat``'s pile in front of land ``slot`` (0-based): "0.land1" … "1.land5"."""
    return f"{seat}.land{slot + 1}"


LAND_ZONES = tuple(tuple(land_zone(seat, slot) for slot in range(SLOTS)) for seat in (0, 1))


def ready_zone(seat: int) -> str:
    return f"{seat}.ready"


LAND_DECK_ZONE = "land_deck"


def zones(options: dict) -> list[Zone]:
    players = (options or {}).get("players", ["North", "South"])
    out = [Zone(land_zone(s, i), f"{players[s]} at land {i + 1}", s, stack=True)
           for s in (0, 1) for i in range(SLOTS)]
    out += [Zone(ready_zone(s), f"{players[s]}'s ready pile", s, stack=True) for s in (0, 1)]
    out.append(Zone(LAND_DECK_ZONE, "Land deck (scan each land as it is dealt)", None))
    return out


def parse_zone(zone: str) -> tuple[str, int | None, int | None]:
    """("land", seat, slot) / ("ready", seat, None) / ("land_deck", None, None)."""
    if zone == LAND_DECK_ZONE:
        return "land_deck", None, None
    seat_text, _, rest = zone.partition(".")
    if seat_text in ("0", "1"):
        seat = int(seat_text)
        if rest == "ready":
            return "ready", seat, None
        if rest.startswith("land") and rest[4:].isdigit() and 1 <= int(rest[4:]) <= SLOTS:
            return "land", seat, int(rest[4:]) - 1
    raise IllegalAction(f"{zone!r} is not a zone of Creature Combat Territory "
                        "(0.land1 … 1.land5, 0.ready, 1.ready, land_deck)")


def interpret(rules, state: State, zone: str, card_id: str, present: bool) -> Action | None:
    kind, seat, slot = parse_zone(zone)
    phase = state["phase"]
    players = rules.players(state)
    if card_id not in CREATURES and card_id not in LANDS:
        raise IllegalAction(f"{card_id} is not a card of the Territory catalogue; add it on the Cards screen")
    if not in_game(state["options"], card_id):
        raise IllegalAction(NOT_IN_GAME.format(name(card_id)))
    if phase == "over":
        return None
    if kind == "land_deck":
        if not present:
            return None
        if card_id in CREATURES:
            raise IllegalAction(f"{name(card_id)} is a creature: deploy it on one of your land pads "
                                "(or scan it on your ready pad before the game)")
        if phase != "deal":
            raise IllegalAction(f"{name(card_id)}: lands are dealt when a round begins and a land's place is empty; "
                                "put it back on the land deck")
        return {"type": "deal", "land": card_id}
    if card_id in LANDS:
        raise IllegalAction(f"{name(card_id)} is a land: scan it on the land-deck pad when you deal it")
    owner = rules.owner(state, card_id)
    # From here the card is a creature on a seat's pad: a ready pile (hidden from the other seat) or a land
    # pile (face down until its land is fought).  A refusal names it only to that seat (rules.refusal).
    label = name(card_id)
    if kind == "ready":
        if not present:
            return None
        mine = f"The card on {players[seat]}'s ready pad"
        if phase == "register":
            if owner == seat:
                return None
            if owner is not None:
                raise refusal(f"{label} is already in {players[owner]}'s deck",
                              f"{mine} is already in {players[owner]}'s deck", owner)
            room = state["options"]["deck_budget"] - deck_cost(state["decks"][seat])
            if FINAL_COST[card_id] > room:
                raise refusal(f"{label} costs {FINAL_COST[card_id]}: {players[seat]}'s deck would cost "
                              f"{state['options']['deck_budget'] - room + FINAL_COST[card_id]}, over the agreed "
                              f"{state['options']['deck_budget']}",
                              f"{mine} would take {players[seat]}'s deck over the agreed budget", seat)
            return {"type": "register", "seat": seat, "creature": card_id}
        if owner is None:
            raise refusal(f"{label} was not registered in either deck; decks are fixed once the game has started",
                          f"{mine} was not registered in either deck; decks are fixed once the game has started",
                          seat)
        if owner != seat:
            raise other_side(label, mine, players[owner], owner)
        at = rules.where(state, seat, card_id)
        if at[0] == "resting":
            raise refusal(f"{label} still has {counted(at[1], 'Rest counter')}: it belongs on the "
                          f"resting pile of {at[1]}, not the ready pile",
                          f"{mine} is resting: it belongs on its resting pile, not the ready pile", seat)
        if at[0] == "removed":
            raise refusal(f"{label} was sacrificed and is out of the game",
                          f"{mine} was sacrificed and is out of the game", seat)
        return None
    # a land pad
    entry = state["slots"][slot]
    here = entry is not None and any(r["id"] == card_id for r in entry["piles"][seat])
    if not present:
        if phase == "deploy" and here:
            return {"type": "undeploy", "seat": seat, "creature": card_id}
        return None                       # lifted to flip, or pulled back at round end
    if here:
        return _turned_up(rules, state, seat, slot, card_id)
    mine = f"The card on {players[seat]}'s pad at land {slot + 1}"
    knows = owner if owner is not None else seat
    if phase != "deploy":
        back = "take it back to your ready pile" if owner == seat else "take it off the pad"
        raise refusal(f"{label}: creatures are deployed in the Deploy phase only; {back}",
                      f"{mine}: creatures are deployed in the Deploy phase only; {back}", knows)
    if entry is None:
        raise refusal(f"no land lies at place {slot + 1} (the land deck is empty): deploy {label} at another land",
                      f"no land lies at place {slot + 1} (the land deck is empty): deploy that card at another land",
                      knows)
    if card_id not in state["ready"][seat]:
        raise rules.not_ready(state, seat, card_id, slot)
    return {"type": "deploy", "seat": seat, "creature": card_id, "slot": slot}


def _turned_up(rules, state: State, seat: int, slot: int, card_id: str) -> Action | None:
    """A deployed creature lifted and put back on its pad: during combat, at a land not revealed yet, and with
    an ability it could use now, that is its owner turning it face up to use the ability (the shared screen
    offers no button for a face-down creature); anything else is a card lifted to flip or to read."""
    if state["phase"] != "combat" or slot <= state["battle"]:
        return None
    rec = next(r for r in state["slots"][slot]["piles"][seat] if r["id"] == card_id)
    if rec["shown"] or not any(r is rec for _, r, _, _, _ in rules.usable(state, seat)):
        return None
    return {"type": "show", "seat": seat, "creature": card_id}


def scan_for(state: State, action: Action) -> tuple[str, str] | None:
    kind = action.get("type")
    if kind == "deploy":
        return land_zone(action["seat"], action["slot"]), action["creature"]
    if kind == "deal":
        return LAND_DECK_ZONE, action["land"]
    if kind == "register":
        return ready_zone(action["seat"]), action["creature"]
    return None


def confirm_action(rules, state: State, seat: int) -> Action | None:
    """The confirm button: done (register, deploy, pass at a land) or accept the proposed recovery."""
    phase = state["phase"]
    if phase in ("register", "deploy", "combat") and not state["done"][seat]:
        if phase == "register" and not state["decks"][seat]:
            return None
        return {"type": "done", "seat": seat}
    if phase == "recover" and not state["done"][seat]:
        return {"type": "recover", "seat": seat, "uses": rules.default_recovery(state, seat)}
    return None




class TerritoryTable:
    """The table part of :class:`~.rules.TerritoryRules`: zones, what a card on a pad means, the button
    (and its proposal for Round End step 3), whose a creature is and where it lies, and where one that may
    not be deployed belongs."""

    @staticmethod
    def owner(state: State, creature_id: str) -> int | None:
        for seat in (0, 1):
            if creature_id in state["decks"][seat]:
                return seat
        return None

    @staticmethod
    def where(state: State, seat: int, creature_id: str) -> tuple:
        """("ready",) / ("deployed", slot) / ("resting", n) / ("removed",) / ("absent",)."""
        if creature_id in state["resting"][seat]:
            return ("resting", state["resting"][seat][creature_id])
        if creature_id in state["ready"][seat]:
            return ("ready",)
        for i, slot in enumerate(state["slots"]):
            if slot is not None and any(r["id"] == creature_id for r in slot["piles"][seat]):
                return ("deployed", i)
        if creature_id in state["removed"][seat]:
            return ("removed",)
        return ("absent",)

    def zones(self, options: dict) -> list[Zone]:
        return zones(options)

    def interpret(self, state: State, zone: str, card_id: str, present: bool) -> Action | None:
        return interpret(self, state, zone, card_id, present)

    def scan_for(self, state: State, action: Action) -> tuple[str, str] | None:
        return scan_for(state, action)

    def confirm_action(self, state: State, seat: int) -> Action | None:
        return confirm_action(self, state, seat)

    def default_recovery(self, state: State, seat: int) -> list[list]:
        """The screen's proposal for Round End step 3: each land takes a counter off the creature
        closest to ready (lands that remove more go first, onto a creature they favour)."""
        resting = dict(state["resting"][seat])
        claimed = state["claimed"][seat]
        order = sorted(range(len(claimed)), key=lambda i: -max((e.amount for e in LANDS[claimed[i]].effects
                                                                 if e.kind == "recovery"), default=1))
        uses = []
        for i in order:
            if not resting:
                break
            land = LANDS[claimed[i]]
            cid = min(resting, key=lambda c: (-min(land.recovery_for(CREATURES[c]), resting[c]), resting[c],
                                              -CREATURES[c].base_power, c))
            uses.append([i, cid])
            left = resting[cid] - land.recovery_for(CREATURES[cid])
            if left <= 0:
                del resting[cid]
            else:
                resting[cid] = left
        return uses

    def not_ready(self, state: State, seat: int, cid: str, slot: int | None = None) -> IllegalAction:
        """Why ``cid`` cannot be deployed by ``seat``, and where it belongs: a refusal whose full sentence names
        the card for ``seat`` only; the other seat and the shared screen read it without the name (it would
        have lain face down)."""
        players = self.players(state)
        owner = self.owner(state, cid)
        card = "The card" + (f" on {players[seat]}'s pad at land {slot + 1}" if slot is not None else "")
        if cid not in CREATURES:
            text = f"{name(cid)} is not a creature" + (": lands go on the land-deck pad" if cid in LANDS else "")
            return IllegalAction(text)          # a land is dealt face up: nothing to hide
        if owner is None:
            return refusal(f"{name(cid)} is not in {players[seat]}'s registered deck",
                           f"{card} is not in {players[seat]}'s registered deck", seat)
        if owner != seat:
            return other_side(name(cid), card, players[owner], owner)
        at = self.where(state, seat, cid)
        if at[0] == "resting":
            return refusal(f"{name(cid)} is resting with {counted(at[1], 'Rest counter')}: it stays "
                           f"on the resting pile of {at[1]} until it is ready",
                           f"{card} is resting: it stays on its resting pile until it is ready", seat)
        if at[0] == "deployed":
            return refusal(f"{name(cid)} is already deployed at land {at[1] + 1}",
                           f"{card} is already deployed at another land", seat)
        return refusal(f"{name(cid)} was removed from the game (sacrificed)",
                       f"{card} was removed from the game (sacrificed)", seat)
