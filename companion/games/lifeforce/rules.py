"""The rules engine of Lifeforce Battle.

The rules are the author's (``shared/rules/000_…``) with the agreed rulings
(``shared/RULINGS.md``, "Lifeforce Battle") and this project's own
(``docs/rulings/lifeforce.md``).

What the companion knows
------------------------
Each player's deck list (setup option ``decks``: 50 card ids per seat), every
card scanned onto the table, and the counts that follow from them: cards in the
deck, in the hand, in the discard pile, in the graveyard and in play.  Because
every card that reaches a discard pile or a graveyard was scanned on its way
there, the companion knows *which* cards lie in those piles (until a discard
pile is shuffled back into the deck), so it refuses a card that cannot be in a
hand.  It never needs to know a hand.  For every seat, always::

    deck + hand + discard + graveyard + in play == 50

A game, as a state machine::

    setup ──first_attacker──► attack ──done──► counter ──done──► resolve ──resolve──┐
      (mulligans)               ▲                                                   │
                                ├──────────── stalemate: both draw to 5 ◄───────────┤
                                │                                                   │
                                └── call / check ◄── call (battle won, both draw) ◄─┘
    any phase ──forfeit / cannot_support / out of cards──► over

State (plain data): ``options`` (players, decks), ``deckmask`` (per seat, the
deck as a bitmask over the catalogue, see :data:`BIT`), ``phase``, ``starter``
(who began the battle and attacks first in each of its duels), ``turn`` (the
seat placing cards now), ``hand`` and ``deck`` (counts), ``discard``,
``graveyard`` and ``table`` (bitmasks per seat), ``duels`` (the duels of the
current battle: animal, declared mode and support per seat), ``battle``
(number), ``battles`` (results so far), ``battle_winner`` (who calls or checks),
``mulliganed``, ``winner`` and ``reason``.  In solo play (setup option
``solo_seat``) also ``solo``: the companion's own hand, its holder slots and
its pending decision (:mod:`.solo`) — the one hand the companion knows, and
never shows.
"""
from __future__ import annotations

from itertools import compress
from operator import not_
from typing import Iterator

from companion.cards import CatalogueError, user_dir as players_card_dir
from companion.engine import Action, EngineError, IllegalAction, Option, Rng, Rules, State, event, hidden_event
from companion.games.lifeforce import solo
from companion.games.lifeforce.animals import (ANIMALS, BIT, FACING, FIGHTS, GAME, LABEL, LIFESPAN, LOWEST, NAME,
                                               RANGED, SUPPORT, SUPPORTS_WITH, Animal, own_cards, register)
from companion.games.lifeforce.decks import DECK_SIZE, HAND_SIZE, sample_decks, validate_deck
from companion.games.lifeforce.table import BUILDING, LifeforceTable, zone_id
from companion.games.lifeforce.view import LifeforceView
from companion.words import counted

# the places a player's 50 cards can be; only the hand may be corrected by touch
MODES = ("low", "max")
ATTACKER_ZONE = (zone_id(0, "attacker"), zone_id(1, "attacker"))
SUPPORT_ZONE = (zone_id(0, "support"), zone_id(1, "support"))
BATTLE_ZONES = (ATTACKER_ZONE[0], SUPPORT_ZONE[0], ATTACKER_ZONE[1], SUPPORT_ZONE[1])   # where a battle is fought



def new_duel() -> dict:
    """One duel of a battle: per seat the animal, its declared mode, its support and the support's
    total; "strength" and "stalemate_pair" are added when the duel is resolved."""
    return {"animal": [None, None], "mode": [None, None], "support": [[], []], "total": [0, 0]}


class LifeforceRules(LifeforceTable, LifeforceView, Rules):
    name = GAME
    title = "Lifeforce Battle"
    rules_file = "000_3735ad8447c84471.txt"
    bench_unit = "games"
    options = (
        Option("decks", "Decks", None,
               help="Each player's 50 card ids [North's, South's]; empty: the two sample decks"),
        Option("solo_seat", "Companion plays", None, choices=(None, 0, 1),
               help="The companion plays this seat with cards nobody sees: draw for it, tap them on its hand pad"),
        Option("solo_strength", "Companion's strength", "normal", choices=("easy", "normal", "strong"),
               help="Easy answers at once, normal thinks a moment, strong thinks longest and plays best"),
    )

    @staticmethod
    def validate_deck(card_ids) -> list[str]:
        """See :func:`companion.games.lifeforce.decks.validate_deck` (for the deck screen, which
        knows the player's own cards too)."""
        try:
            register(own_cards(players_card_dir()))
        except (CatalogueError, ValueError) as exc:
            return [str(exc)]
        return validate_deck(card_ids)

    # ---- setup ---------------------------------------------------------------
    def normalise_options(self, options: dict | None) -> dict:
        """Defaults filled in, plus ``own_cards``: the values of the player's own cards that the
        decks use (``<data dir>/cards/lifeforce.json``), kept in the options so that the game's
        record replays on a machine without that file."""
        options = dict(options or {})
        own = options.pop("own_cards", None)
        merged = super().normalise_options(options)
        if not merged.get("decks"):
            merged["decks"] = sample_decks()
        if own is None:
            try:
                mine = own_cards(players_card_dir())
            except CatalogueError as exc:
                raise IllegalAction(f"your own Lifeforce cards cannot be used: {exc}") from None
            decks = merged["decks"]
            used = {c for deck in decks for c in deck} if isinstance(decks, (list, tuple)) else set()
            own = {card_id: entry for card_id, entry in mine.items() if card_id in used}
        merged["own_cards"] = own
        return merged

    def setup(self, options: dict, seed: int) -> State:
        options = self.normalise_options(options)
        players = options["players"]
        decks = options["decks"]
        try:
            register(options["own_cards"])
        except ValueError as exc:
            raise IllegalAction(f"the game's own cards cannot be used: {exc}") from None
        if not isinstance(decks, (list, tuple)) or len(decks) != 2:
            raise IllegalAction("the option 'decks' needs two lists of 50 card ids, North's and South's")
        problems = []
        masks = []
        for seat in (0, 1):
            wrong = validate_deck(decks[seat])
            if wrong:
                problems.append(f"{players[seat]}'s deck: " + "; ".join(wrong))
            else:
                masks.append(_deck_tables(decks[seat])[1][-1])     # the whole deck's bits
        if problems:
            raise IllegalAction(" — ".join(problems))
        if options["solo_seat"] not in (None, 0, 1) or isinstance(options["solo_seat"], bool):
            raise IllegalAction("solo_seat must be 0, 1 or empty")
        if options["solo_strength"] not in ("easy", "normal", "strong"):
            raise IllegalAction("solo_strength must be easy, normal or strong")
        state = {
            "game": GAME, "rng": seed, "options": options, "deckmask": masks,
            "phase": "setup", "starter": None, "turn": None, "mulliganed": [False, False],
            "hand": [HAND_SIZE, HAND_SIZE], "deck": [DECK_SIZE - HAND_SIZE] * 2,
            "discard": [0, 0], "graveyard": [0, 0], "table": [0, 0],
            "duels": [], "battle": 0, "battles": [], "battle_winner": None,
            "winner": None, "reason": None,
        }
        if options["solo_seat"] is not None:
            state["solo"] = solo.new_solo(options["solo_seat"])
        return state

    # ---- what may happen -----------------------------------------------------
    def _available(self, state: State, seat: int) -> list[str]:
        """Cards of ``seat``'s deck that may be in the hand: not in play, not known in a pile."""
        return list(_not_out(state, seat))

    def legal_actions(self, state: State) -> list[Action]:
        actions = self._legal_actions(state)
        if "solo" not in state:
            return actions
        # the companion's seat acts only through its hand pad, its decisions and the cards it decided on
        seat = state["solo"]["seat"]
        undecided = solo.undecided_at_setup(state)
        actions = [a for a in actions if not (a["type"] == "first_attacker" and undecided)
                   and (a.get("seat") != seat or a["type"] in ("forfeit", "resolve", "first_attacker"))]
        return actions + solo.legal_actions(state)

    def _legal_actions(self, state: State) -> list[Action]:
        phase = state["phase"]
        if phase == "over":
            return []
        forfeits = [{"type": "forfeit", "seat": s} for s in (0, 1)]
        if phase == "setup":
            return ([{"type": "mulligan", "seat": s} for s in (0, 1) if not state["mulliganed"][s]]
                    + [{"type": "first_attacker", "seat": s} for s in (0, 1)] + forfeits)
        if phase == "resolve":
            return [{"type": "resolve", "seat": s} for s in (0, 1)] + forfeits
        if phase == "call":
            s = state["battle_winner"]
            return [{"type": "call", "seat": s}, {"type": "check", "seat": s}] + forfeits
        seat = state["turn"]
        duel = state["duels"][-1]
        animal, support = duel["animal"][seat], duel["support"][seat]
        actions = []
        if state["hand"][seat] > 0:
            available = self._available(state, seat)
            if animal is None:
                actions += [{"type": "play_animal", "seat": seat, "card": c} for c in available]
            actions += [{"type": "support", "seat": seat, "card": c} for c in available]
        if animal is not None:
            if ANIMALS[animal].has_range:
                actions += [{"type": "declare", "seat": seat, "mode": m} for m in MODES]
            if self._support_problem(state, seat) is None:
                actions.append({"type": "done", "seat": seat})
        actions += [{"type": "withdraw", "seat": seat, "card": c}
                    for c in ([animal] if animal else []) + support]
        if not self._can_support(state, seat):
            actions.append({"type": "cannot_support", "seat": seat})
        return actions + forfeits

    @staticmethod
    def _can_support(state: State, seat: int) -> bool:
        """Whether ``seat`` can still make a supported attack or counterattack in this duel.

        Any two cards make one: the card with the lower lifespan, declared low if it has a range,
        attacks, and the other supports it with its maximum lifespan, which is at least as much
        (RULINGS.md: support counts maximum lifespans).  So it comes down to two cards at hand —
        the hand plus what the player has already put into this duel and may take back.
        """
        duel = state["duels"][-1] if state["duels"] else None
        placed = (duel["animal"][seat] is not None) + len(duel["support"][seat]) if duel else 0
        return state["hand"][seat] + placed >= 2

    def random_action(self, state: State, rng: Rng) -> Action:
        """A legal action from a simple random player (uniform sampling would forfeit at once).

        It places a random animal, declares at random, adds random support until
        the lifespan is reached, and when its hand runs out first it takes the
        animal back (or, one time in four, declares it cannot support).  One
        forfeit in 5,000 decisions.  All choices come from one draw of ``rng``.
        """
        if "solo" in state:
            return self._solo_random_action(state, rng)
        # rng.draw(), written out (a call costs a tenth of this function): Rng's 64-bit LCG step
        rng.state = r = (rng.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        r >>= 16
        if r % 5000 == 0:
            return {"type": "forfeit", "seat": (r >> 20) & 1}
        r //= 5000
        phase = state["phase"]
        if phase in BUILDING:               # most decisions: the seat placing cards
            seat = state["turn"]
            duel = state["duels"][-1]
            animal = duel["animal"][seat]
            if animal is None:
                support = duel["support"][seat]
                if support:                 # rebuilding after running out: see _rebuild
                    return self._rebuild(state, seat, support)
                kind = "play_animal"
            else:
                mode = duel["mode"][seat]
                if mode is None and animal in RANGED:
                    return {"type": "declare", "seat": seat, "mode": "low" if duel["support"][seat] else MODES[r & 1]}
                if duel["total"][seat] >= LIFESPAN[animal][mode]:
                    return {"type": "done", "seat": seat}
                if state["hand"][seat] <= 0:
                    if r % 4 or self._can_support(state, seat):
                        return {"type": "withdraw", "seat": seat, "card": animal}
                    return {"type": "cannot_support", "seat": seat}
                kind = "support"
            # A random card that may be in the hand, drawn from r: rejection sampling first, cheap
            # while much of the deck is available (written out here: half of all decisions come here).
            deck = state["options"]["decks"][seat]
            out = state["graveyard"][seat] | state["discard"][seat] | state["table"][seat]
            n = len(deck)
            for _ in range(8):
                if not r:                   # r is spent: its tries would all be the deck's first card
                    break
                card = deck[r % n]
                if not BIT[card] & out:
                    return {"type": kind, "seat": seat, "card": card}
                r //= n
            # none found: the (r mod k)-th of the k cards that may be, in deck order (r is 0 by then
            # for a 50-card deck: the first of them, which is the deck's first card when that may be)
            available = state["deckmask"][seat] & ~out
            if not available:
                raise EngineError(f"no card of seat {seat}'s deck may be in the hand")
            return {"type": kind, "seat": seat,
                    "card": _nth_available(deck, available, r % available.bit_count() if r else 0)}
        if phase == "resolve":
            return {"type": "resolve", "seat": r & 1}
        if phase == "call":
            return {"type": "call" if r & 1 else "check", "seat": state["battle_winner"]}
        if phase == "setup":
            if r % 10 < 2 and not state["mulliganed"][r % 10]:
                return {"type": "mulligan", "seat": r % 10}
            return {"type": "first_attacker", "seat": (r >> 8) & 1}
        raise EngineError(f"{self.name}: no action in a game that is over")

    def _solo_random_action(self, state: State, rng: Rng) -> Action:
        """:meth:`random_action` in solo play: the person draws for the companion first and plays
        the cards it decided on; otherwise the random player's action, for the person's seat or
        one the companion's seat may make at the table (it never looks at the companion's holder)."""
        own = solo.legal_actions(state)
        if own:
            return own[rng.randrange(len(own))]
        seat = state["solo"]["seat"]
        table = solo.at_table(state)
        for _ in range(100):
            action = self.random_action(table, rng)
            if action.get("seat") != seat or action["type"] in ("forfeit", "resolve", "first_attacker"):
                return action
        return self.random_action(table, rng)

    @staticmethod
    def _rebuild(state: State, seat: int, support: list[str]) -> Action:
        """The random player's way out when its hand ran out short of the lifespan (it took its
        animal back, its support still lies there): the card with the lowest lifespan of all it
        holds for this duel attacks, said low, and the others support it — the supported play
        that always exists with two cards (:meth:`_can_support`); "holds" as far as the companion
        knows, which never sees a hand: any card of the deck not yet elsewhere.  First it takes that card back
        if it lies among the support.  Without this the player wanders between animals and a game
        lasts thousands of actions."""
        lowest = min(support, key=LOWEST.__getitem__)
        in_hand = _lowest_available(state, seat)
        if in_hand is None or LOWEST[lowest] < LOWEST[in_hand]:
            return {"type": "withdraw", "seat": seat, "card": lowest}
        return {"type": "play_animal", "seat": seat, "card": in_hand}

    # ---- applying ------------------------------------------------------------
    UNSEATED = frozenset({"identify"})

    def _solo_hand(self, state: State, action: Action) -> tuple[State, list]:
        return solo.hand(state, action)

    def _solo_decide(self, state: State, action: Action) -> tuple[State, list]:
        return solo.decide(self, state, action)

    def _who(self, state: State, seat: int) -> str:
        return state["options"]["players"][seat]

    def _expect_builder(self, state: State, seat: int, doing: str) -> None:
        """Only the seat placing cards now may ``doing``; otherwise say whose turn it is."""
        phase = state["phase"]
        if phase in BUILDING and state["turn"] == seat:
            return
        if phase == "setup":
            raise IllegalAction(f"before {doing}, choose who attacks first "
                                "(and take a new hand first if you want one)")
        if phase == "resolve":
            raise IllegalAction(f"both animals are in place: resolve the duel before {doing}")
        if phase == "call":
            winner = self._who(state, state["battle_winner"])
            raise IllegalAction(f"{winner} won the battle and must call or check before {doing}")
        builder = self._who(state, state["turn"])
        role = "attack" if phase == "attack" else "counterattack"
        told = solo.instruction(state) if (state.get("solo") or {}).get("seat") == state["turn"] else None
        if told:                                 # the companion builds: the person places its cards
            raise IllegalAction(f"it is {builder}'s {role}: {self._who(state, seat)} waits. {told}")
        raise IllegalAction(f"it is {builder}'s {role}: {self._who(state, seat)} waits until {builder} "
                            "presses done")

    def _check_card(self, state: State, seat: int, card: str) -> Animal:
        """``card`` may come from ``seat``'s hand: it is in their deck and not in a known pile."""
        beast = ANIMALS.get(card) if isinstance(card, str) else None
        if beast is None:
            raise IllegalAction(f"{card!r} is not a Lifeforce Battle card")
        bit = BIT[card]
        who = self._who(state, seat)
        if not bit & state["deckmask"][seat]:
            other = 1 - seat
            where = (f" (it is {self._who(state, other)}'s card)" if bit & state["deckmask"][other] else "")
            raise IllegalAction(f"{beast.name} is not in {who}'s deck{where}")
        if bit & state["graveyard"][seat]:
            raise IllegalAction(f"{beast.name} is in {who}'s graveyard: graveyard cards are out of play")
        if bit & state["discard"][seat]:
            raise IllegalAction(f"{beast.name} is cooling down in {who}'s discard pile until {who}'s deck runs out")
        if bit & state["table"][seat]:
            raise IllegalAction(f"{beast.name} is already on the battle stage")
        if state["hand"][seat] <= 0:
            raise IllegalAction(f"{who} has no card left in hand (every card drawn is on the table)")
        return beast                        # (what _place lets through)

    @staticmethod
    def _with_side(state: State, seat: int, **changes) -> State:
        """A new state whose current duel has ``changes`` (animal, mode, support, total) for ``seat``."""
        duel = state["duels"][-1].copy()
        for key, value in changes.items():
            pair = duel[key].copy()
            pair[seat] = value
            duel[key] = pair
        return _with_duel(state, duel)

    @staticmethod
    def _status(state: State, seat: int) -> str:
        """"support 14 of 20" for the seat placing cards."""
        duel = state["duels"][-1]
        return _status(duel["animal"][seat], duel["mode"][seat], duel["total"][seat])

    def _support_problem(self, state: State, seat: int) -> str | None:
        """Why ``seat``'s animal and support cannot stand yet, or None."""
        duel = state["duels"][-1]
        animal = duel["animal"][seat]
        if animal is None:
            return "place an animal on the attacker pad first"
        beast = ANIMALS[animal]
        mode = duel["mode"][seat]
        if mode is None and beast.lifespan_low is not None:
            return (f"{beast.name} has a lifespan range: say low ({beast.lifespan_low}) "
                    f"or max ({beast.lifespan_max}) first")
        need = LIFESPAN[animal][mode]
        have = duel["total"][seat]
        if have < need:
            return (f"support {have} < lifespan {need} ({beast.name}): add support cards "
                    f"or declare that you cannot support")
        return None

    def _place(self, state: State, action: Action) -> tuple[State, list]:
        """``play_animal`` and ``support``: ``seat`` puts a card from the hand on its attacker pad
        (the duel's animal) or its support pad.  The card must be able to come from that hand: a
        card of their deck, in no known pile, not in play, and the hand not empty
        (:meth:`_check_card` says why not).  The new state shares all but what changes: the hand
        and table of the seat, the current duel.  (One handler, written out: half of a random
        game's actions are one or the other.)"""
        seat, card = action["seat"], action.get("card")
        if "solo" in state and seat == state["solo"]["seat"]:
            return solo.place(self, state, action)      # from the companion's holder
        support = action["type"] == "support"
        phase = state["phase"]
        if state["turn"] != seat or phase not in BUILDING:
            self._expect_builder(state, seat, "adding support" if support else "playing an animal")
        duels = state["duels"]
        duel = duels[-1]
        if not support and duel["animal"][seat] is not None:
            raise IllegalAction(f"{self._who(state, seat)} already plays {ANIMALS[duel['animal'][seat]].name}: take "
                                "it back first to change the animal (support cards go on the support pad)")
        try:
            bit = BIT[card]
        except (KeyError, TypeError):                   # not a card id (or not even hashable)
            bit = 0
        hand, table = state["hand"], state["table"]
        left, mine = hand[seat] - 1, table[seat]
        if left < 0 or not bit & state["deckmask"][seat] or bit & (state["graveyard"][seat] | state["discard"][seat] | mine):
            self._check_card(state, seat, card)         # says why not
        new = state.copy()
        # the per-seat pairs written out rather than copied and set
        if seat:
            new["hand"], new["table"] = [hand[0], left], [table[0], mine | bit]
        else:
            new["hand"], new["table"] = [left, hand[1]], [mine | bit, table[1]]
        duels = new["duels"] = duels.copy()
        changed = duels[-1] = duel.copy()
        players = state["options"]["players"]
        if support:
            cards, total = duel["support"], duel["total"]
            have = total[seat] + SUPPORT[card]
            if seat:
                changed["support"], changed["total"] = [cards[0], [*cards[1], card]], [total[0], have]
            else:
                changed["support"], changed["total"] = [[*cards[0], card], cards[1]], [have, total[1]]
            animal, mode = duel["animal"][seat], duel["mode"][seat]
            if animal is not None and (mode is not None or animal not in RANGED):      # _status, in one string
                text = f"{players[seat]}{SUPPORTS_WITH[card]}support {have} of {LIFESPAN[animal][mode]}"
            else:
                text = f"{players[seat]}{SUPPORTS_WITH[card]}" + _status(animal, mode, have)
            # the dict event() makes, written out: the most frequent move of all
            return new, [{"seat": seat, "zone": SUPPORT_ZONE[seat], "card": card, "type": "support", "text": text}]
        animal = changed["animal"] = duel["animal"].copy()
        animal[seat] = card
        if duel["mode"][seat] is not None:              # (a duel's mode is None while its animal is)
            mode = changed["mode"] = duel["mode"].copy()
            mode[seat] = None
        text = (f"{players[seat]} {'attacks' if phase == 'attack' else 'counters'} with {LABEL[card]}: say low or max"
                if card in RANGED else f"{players[seat]} {'attacks' if phase == 'attack' else 'counters'} with {LABEL[card]}")
        # the dict event() makes, written out: this is one of the most frequent moves
        return new, [{"seat": seat, "zone": ATTACKER_ZONE[seat], "card": card, "type": "animal", "text": text}]

    def _declare(self, state: State, action: Action) -> tuple[State, list]:
        if "solo" in state:
            solo.refuse_direct(state, action)           # the companion decides that itself
        seat, mode = action["seat"], action.get("mode")
        self._expect_builder(state, seat, "declaring low or max")
        if mode not in MODES:
            raise IllegalAction(f"say 'low' or 'max', not {mode!r}")
        animal = state["duels"][-1]["animal"][seat]
        if animal is None:
            raise IllegalAction("place the animal before saying low or max")
        beast = ANIMALS[animal]
        if not beast.has_range:
            raise IllegalAction(f"{beast.name} has a single lifespan ({beast.lifespan_max} years): "
                                "nothing to declare")
        new = self._with_side(state, seat, mode=mode)
        text = (f"{self._who(state, seat)} says {mode}: {beast.name} fights with {beast.lifespan(mode)} years; "
                + self._status(new, seat))
        return new, [event("declare", text, seat=seat, zone=ATTACKER_ZONE[seat], mode=mode, card=animal)]

    def _withdraw(self, state: State, action: Action) -> tuple[State, list]:
        if "solo" in state:
            solo.refuse_direct(state, action)           # the companion decides that itself
        seat, card = action["seat"], action.get("card")
        self._expect_builder(state, seat, "taking cards back")
        duel = state["duels"][-1]
        if card == duel["animal"][seat]:
            new = self._with_side(state, seat, animal=None, mode=None)
            place = "attacker"
        elif card in duel["support"][seat]:
            new = self._with_side(state, seat, support=[c for c in duel["support"][seat] if c != card],
                                  total=duel["total"][seat] - ANIMALS[card].lifespan_max)
            place = "support"
        else:
            known = isinstance(card, str) and card in ANIMALS
            raise IllegalAction(f"{ANIMALS[card].name if known else repr(card)} is not among the cards "
                                f"{self._who(state, seat)} is placing now")
        _return_to_hand(new, seat, BIT[card])
        text = f"{self._who(state, seat)} takes {ANIMALS[card].name} back into hand; " + self._status(new, seat)
        return new, [event("withdraw", text, seat=seat, zone=zone_id(seat, place), card=card)]

    def _done(self, state: State, action: Action) -> tuple[State, list]:
        if "solo" in state:
            solo.refuse_direct(state, action)           # the companion decides that itself
        seat = action["seat"]
        phase = state["phase"]
        if state["turn"] != seat or phase not in BUILDING:
            self._expect_builder(state, seat, "pressing done")
        duel = state["duels"][-1]
        animal, mode = duel["animal"][seat], duel["mode"][seat]
        need = LIFESPAN[animal].get(mode) if animal is not None else None
        have = duel["total"][seat]
        if need is None or have < need or (mode is None and animal in RANGED):
            raise IllegalAction(self._support_problem(state, seat))
        name = NAME[animal]
        players = state["options"]["players"]
        who = players[seat]
        new = state.copy()
        if phase == "attack":
            new["phase"], new["turn"] = "counter", 1 - seat
            text = (f"{who}'s attack stands: {name} {need}, support {have} ≥ {need}. "
                    f"{players[1 - seat]} counters now")
        else:
            new["phase"], new["turn"] = "resolve", None
            text = f"{who}'s counterattack stands: {name} {need}, support {have} ≥ {need}. Resolve the duel"
        # about the seat's animal and its support: those zones' event (their notes; the feed leaves them in sight)
        return new, [{"seat": seat, "type": "done", "text": text, "zones": [ATTACKER_ZONE[seat], SUPPORT_ZONE[seat]]}]

    def _resolve(self, state: State, action: Action) -> tuple[State, list]:
        if state["phase"] != "resolve":
            raise IllegalAction("a duel is resolved once both animals and their support stand")
        players = state["options"]["players"]
        battle = state["battle"]
        duels = state["duels"].copy()
        duel = duels[-1]
        (a, b), (mode_a, mode_b) = duel["animal"], duel["mode"]
        # The duel's effective strengths (:func:`~.animals.strengths`, by table: FACING says who is
        # doubled and whether the colours are a Purple/Green stalemate pair), then the battle's sums.
        # RULINGS.md: the battle is won by the higher sum of effective strengths over all its duels;
        # equal sums, or a Purple/Green pair in the last duel, mean another stalemate duel.
        d0, d1, pg = FACING[ANIMALS[a].colour, ANIMALS[b].colour]
        s0, s1 = LIFESPAN[a][mode_a], LIFESPAN[b][mode_b]
        if d0:
            s0 *= 2
        if d1:
            s1 *= 2
        last = duels[-1] = duel.copy()
        last["strength"], last["stalemate_pair"] = [s0, s1], pg
        duel_text = f"{players[0]}'s {FIGHTS[a][mode_a][d0]} against {players[1]}'s {FIGHTS[b][mode_b][d1]}"
        n = len(duels)
        t0, t1 = s0, s1
        if n > 1:
            for earlier in duels[:-1]:
                e0, e1 = earlier["strength"]
                t0 += e0
                t1 += e1
        totals = [t0, t1]
        pg_stalemate = pg
        winner = None if pg or t0 == t1 else (0 if t0 > t1 else 1)
        # the dicts event() makes, written out: a random game resolves ~34 duels
        events = [{"battle": battle, "duel": n, "strength": [s0, s1], "totals": totals, "type": "duel",
                   "zones": [*ATTACKER_ZONE], "text": f"Battle {battle}, duel {n}: {duel_text}"}]
        new = state.copy()
        if winner is None:
            if pg_stalemate:
                why = "Purple and Green cannot battle each other"
            elif n == 1:
                why = f"equal strengths {totals[0]}"
            else:
                why = f"equal sums {totals[0]} over {n} duels"
            starter = players[state["starter"]]
            events.append(event("stalemate", f"Stalemate ({why}): all cards stay on the battle stage, both draw "
                                             f"to {HAND_SIZE} and {starter} attacks again in duel {n + 1}",
                                battle=battle, duel=n, totals=totals, zones=list(BATTLE_ZONES)))
            new["duels"] = duels + [new_duel()]
            new["phase"], new["turn"] = "attack", state["starter"]
            if _draw_both(new, events):
                _check_out_of_cards(new, events)
            return new, events

        loser = 1 - winner
        lost, kept = state["table"][loser], state["table"][winner]
        to_graveyard, to_discard = lost.bit_count(), kept.bit_count()
        graveyard, discard = state["graveyard"].copy(), state["discard"].copy()
        graveyard[loser] |= lost
        discard[winner] |= kept
        new["graveyard"], new["discard"], new["table"], new["duels"] = graveyard, discard, [0, 0], []
        new["battle_winner"], new["phase"], new["turn"] = winner, "call", winner
        how = (f"{players[winner]} wins battle {battle}, {totals[winner]} to {totals[loser]}" if n == 1 else
               f"{players[0]} {totals[0]} – {players[1]} {totals[1]} over {n} duels: "
               f"{players[winner]} wins battle {battle}")
        moved = (f"{players[loser]}'s " + ("1 card goes" if to_graveyard == 1 else f"{to_graveyard} cards go")
                 + f" to the graveyard, {players[winner]}'s {to_discard} to the discard pile")
        events.append({"winner": winner, "outcome": "win", "battle": battle, "totals": totals,
                       "zones": [*BATTLE_ZONES], "type": "battle_result", "text": f"{how}. {moved}"})
        new["battles"] = [*state["battles"], {
            "battle": battle, "starter": state["starter"], "winner": winner, "totals": totals,
            "duels": duels, "to_graveyard": to_graveyard, "to_discard": to_discard}]
        if not (_draw_both(new, events) and _check_out_of_cards(new, events)):
            events.append({"seat": winner, "type": "call_or_check",
                           "text": f"{players[winner]}: call to attack next, or check to let {players[loser]} "
                                   "attack"})
        return new, events

    def _call(self, state: State, action: Action) -> tuple[State, list]:
        if "solo" in state:
            solo.refuse_direct(state, action)           # the companion decides that itself
        seat, kind = action["seat"], action["type"]
        if state["phase"] != "call":
            raise IllegalAction("'call' and 'check' are for the winner of a battle, once it is decided")
        if seat != state["battle_winner"]:
            raise IllegalAction(f"{self._who(state, state['battle_winner'])} won the battle and chooses "
                                "who attacks next")
        starter = seat if kind == "call" else 1 - seat
        battle = state["battle"] + 1
        new = state.copy()
        new["phase"], new["starter"], new["turn"], new["battle"] = "attack", starter, starter, battle
        new["duels"], new["battle_winner"] = [new_duel()], None
        players = state["options"]["players"]
        text = f"{players[seat]} {'calls' if kind == 'call' else 'checks'}: {players[starter]} attacks first in battle {battle}"
        return new, [{"seat": seat, "starter": starter, "type": kind, "text": text}]

    def _mulligan(self, state: State, action: Action) -> tuple[State, list]:
        if "solo" in state:
            solo.refuse_direct(state, action)           # the companion decides that itself
        seat = action["seat"]
        who = self._who(state, seat)
        if state["phase"] != "setup":
            raise IllegalAction("a new starting hand can be taken only before the first attack")
        if state["mulliganed"][seat]:
            raise IllegalAction(f"{who} has already exchanged the starting hand once")
        mulliganed = list(state["mulliganed"])
        mulliganed[seat] = True
        other = self._who(state, 1 - seat)
        return dict(state, mulliganed=mulliganed), [event(
            "mulligan", f"{who} takes a new hand of {HAND_SIZE}: {other} shuffles {who}'s old hand back "
                        f"into {who}'s deck", seat=seat)]

    def _first_attacker(self, state: State, action: Action) -> tuple[State, list]:
        seat = action["seat"]
        if state["phase"] != "setup":
            raise IllegalAction("who attacks first is chosen once, before the first battle")
        if solo.undecided_at_setup(state):
            who = self._who(state, state["solo"]["seat"])
            if solo.missing(state):
                n = solo.missing(state)
                raise IllegalAction(f"before choosing who attacks first, draw {n} for {who}: tap each face down "
                                    f"on {who}'s hand pad")
            raise IllegalAction(f"{who} is still deciding whether to keep its starting hand")
        new = dict(state, phase="attack", starter=seat, turn=seat, battle=1, duels=[new_duel()])
        return new, [event("first_attacker", f"{self._who(state, seat)} attacks first", seat=seat)]

    def _cannot_support(self, state: State, action: Action) -> tuple[State, list]:
        if "solo" in state:
            solo.refuse_direct(state, action)           # the companion decides that itself
        seat = action["seat"]
        self._expect_builder(state, seat, "declaring that no attack can be supported")
        role = "an attack" if state["phase"] == "attack" else "a counterattack"
        if self._can_support(state, seat):
            raise IllegalAction(f"{self._who(state, seat)} can support {role}: with two cards the one with the "
                                "lower lifespan (said low) attacks and the other supports it, since support "
                                "counts maximum lifespans")
        return self._end(state, 1 - seat, f"{self._who(state, seat)} cannot support {role}")

    def _forfeit(self, state: State, action: Action) -> tuple[State, list]:
        seat = action["seat"]
        return self._end(state, 1 - seat, f"{self._who(state, seat)} forfeits")

    def _end(self, state: State, winner: int | None, reason: str) -> tuple[State, list]:
        new = dict(state, phase="over", turn=None, winner=winner, reason=reason)
        return new, [_game_over_event(state["options"]["players"], winner, reason)]

    def _identify(self, state: State, action: Action) -> tuple[State, list]:
        """A card on the deck-check pad: whose deck it belongs to and where it is now."""
        card = action.get("card")
        beast = ANIMALS.get(card) if isinstance(card, str) else None
        if beast is None:
            raise IllegalAction(f"{card!r} is not a Lifeforce Battle card")
        bit = BIT[card]
        owners = [s for s in (0, 1) if bit & state["deckmask"][s]]
        if solo.is_secret(state, card):
            companion = state["solo"]
            who = self._who(state, companion["seat"])
            where = (f"from slot {companion['slots'].index(card) + 1} of {who}'s holder"
                     if card in companion["slots"] else f"from {who}'s deck")
            text = f"That card is {who}'s, {where}: put it back face down"
            return state, [hidden_event("identify", f"{beast.label()}: {text}", text, [0, 1], card=card,
                                        owners=owners)]
        if not owners:
            return state, [event("identify", f"{beast.label()} is in neither player's deck", card=card)]
        parts = []
        for s in owners:
            who = self._who(state, s)
            if bit & state["graveyard"][s]:
                where = f"in {who}'s graveyard"
            elif bit & state["discard"][s]:
                where = f"in {who}'s discard pile"
            elif bit & state["table"][s]:
                where = "on the battle stage"
            else:
                where = f"in {who}'s deck or hand"
            parts.append(f"{who}'s card, {where}")
        return state, [event("identify", f"{beast.label()}: " + "; ".join(parts), card=card, owners=owners)]

    def _adjust(self, state: State, action: Action) -> tuple[State, list]:
        """Correct a hand count: cards move between the deck and the hand, so the 50 still add up."""
        if "solo" in state:
            solo.refuse_direct(state, action)           # the companion decides that itself
        seat, name, delta = action["seat"], action.get("counter"), action.get("delta")
        if name not in ("hand", f"hand.{seat}") or not isinstance(delta, int) or isinstance(delta, bool):
            raise IllegalAction(f"only a hand count can be corrected (counter 'hand.{seat}', a whole delta), "
                                f"not {name!r} by {delta!r}")
        who = self._who(state, seat)
        hand, deck = state["hand"][seat] + delta, state["deck"][seat] - delta
        if hand < 0:
            raise IllegalAction(f"{who} holds {counted(state['hand'][seat], 'card')}; the hand cannot go below 0")
        if deck < 0:
            raise IllegalAction(f"{who}'s deck holds {counted(state['deck'][seat], 'card')}; there are no more to draw")
        new = dict(state, hand=_set(state["hand"], seat, hand), deck=_set(state["deck"], seat, deck))
        return new, [event("adjusted", f"{who}'s hand corrected to {hand} (deck {deck})", seat=seat,
                           counter=f"hand.{seat}", value=hand)]

    MOVES = {
        "play_animal": _place, "declare": _declare, "support": _place, "withdraw": _withdraw,
        "done": _done, "resolve": _resolve, "call": _call, "check": _call, "mulligan": _mulligan,
        "first_attacker": _first_attacker, "cannot_support": _cannot_support, "forfeit": _forfeit,
        "identify": _identify, "adjust": _adjust, "solo_hand": _solo_hand, "solo_decide": _solo_decide,
    }

    # ---- the end -------------------------------------------------------------
    def result(self, state: State) -> dict:
        if state["phase"] != "over":
            return {"winner": None, "reason": "the game is not over"}
        return {"winner": state["winner"], "reason": state["reason"], "battles": len(state["battles"]),
                "graveyard": [state["graveyard"][s].bit_count() for s in (0, 1)]}

    def counts(self, state: State, seat: int) -> dict:
        """Where ``seat``'s 50 cards are: deck, hand, discard, graveyard, in_play."""
        return {"deck": state["deck"][seat], "hand": state["hand"][seat],
                "discard": state["discard"][seat].bit_count(), "graveyard": state["graveyard"][seat].bit_count(),
                "in_play": state["table"][seat].bit_count()}

    def summary(self, state: State) -> dict:
        return {"game": self.name, "over": self.is_over(state), "players": state["options"]["players"],
                "winner": state["winner"], "reason": state["reason"], "battles": state["battles"],
                "counts": [self.counts(state, s) for s in (0, 1)],
                "result": self.result(state) if self.is_over(state) else None}

def _status(animal: str | None, mode: str | None, have: int) -> str:
    """"support 14 of 20": a seat's support ``have`` against its ``animal`` declared ``mode``."""
    if animal is None:
        return f"support {have}, no animal yet"
    if mode is None and animal in RANGED:
        beast = ANIMALS[animal]
        return f"support {have}; say low ({beast.lifespan_low}) or max ({beast.lifespan_max})"
    return f"support {have} of {LIFESPAN[animal][mode]}"


def _not_out(state: State, seat: int) -> Iterator[str]:
    """The cards of ``seat``'s deck, in deck order, that may be in the hand: not in play, not known
    in a pile.  (The filter runs in C, map over map: the random player asks this late in a game,
    when it runs over most of a 50-card deck.)"""
    out = state["graveyard"][seat] | state["discard"][seat] | state["table"][seat]
    deck = state["options"]["decks"][seat]
    return compress(deck, map(not_, map(out.__and__, map(BIT.__getitem__, deck))))


def _lowest_available(state: State, seat: int) -> str | None:
    """The card with the lowest lifespan that may be in ``seat``'s hand (None if none may); the
    first in deck order of those with that lifespan, as ``min`` over the deck would give."""
    out = state["graveyard"][seat] | state["discard"][seat] | state["table"][seat]
    for card, bit in _deck_tables(state["options"]["decks"][seat])[2]:
        if not bit & out:
            return card
    return None


# Per deck list object (a game's options keep theirs for the whole game; a few games' worth): what
# the random player asks of it, worked out once — the bitmask of each prefix of the deck (``[i]``: its
# first i cards), and its (card, bit) pairs by lowest lifespan, deck order among equals.  A new list
# with the same cards (every game of the sample decks has its own) finds them by its cards.
_DECK_TABLES: dict[int, tuple[list[str], list[int], list[tuple[str, int]]]] = {}
_TABLES_BY_CARDS: dict[tuple[str, ...], tuple[list[int], list[tuple[str, int]]]] = {}


def _deck_tables(deck: list[str]) -> tuple[list[str], list[int], list[tuple[str, int]]]:
    found = _DECK_TABLES.get(id(deck))
    if found is not None and found[0] is deck:           # held here, so its id is not reused
        return found
    if len(_DECK_TABLES) >= 16:
        _DECK_TABLES.clear()
    cards = tuple(deck)
    tables = _TABLES_BY_CARDS.get(cards)
    if tables is None:
        if len(_TABLES_BY_CARDS) >= 16:
            _TABLES_BY_CARDS.clear()
        prefix = [0]
        for card in deck:
            prefix.append(prefix[-1] | BIT[card])
        by_lowest = [(card, BIT[card]) for card in sorted(deck, key=LOWEST.__getitem__)]
        tables = _TABLES_BY_CARDS[cards] = (prefix, by_lowest)
    found = _DECK_TABLES[id(deck)] = (deck, *tables)
    return found


def _nth_available(deck: list[str], available: int, j: int) -> str:
    """The ``j``-th card (from 0) of ``deck`` whose bit is in ``available`` (which holds more than
    ``j`` of them), in deck order: a binary search for the shortest prefix of the deck that holds
    ``j + 1`` of them."""
    prefix = _deck_tables(deck)[1]
    lo, hi = 1, len(deck)
    if j:
        while lo < hi:
            mid = (lo + hi) >> 1
            if (prefix[mid] & available).bit_count() > j:
                hi = mid
            else:
                lo = mid + 1
    else:                                   # the first: the shortest prefix that holds any
        while lo < hi:
            mid = (lo + hi) >> 1
            if prefix[mid] & available:
                hi = mid
            else:
                lo = mid + 1
    return deck[lo - 1]


def _set(values: list, seat: int, value) -> list:
    out = values.copy()
    out[seat] = value
    return out


def _with_duel(state: State, duel: dict) -> State:
    """A new state whose current duel is ``duel``; everything else is shared with ``state``."""
    duels = state["duels"].copy()
    duels[-1] = duel
    new = state.copy()
    new["duels"] = duels
    return new


def _return_to_hand(new: State, seat: int, bit: int) -> None:
    hand, table = new["hand"].copy(), new["table"].copy()
    hand[seat] += 1
    table[seat] &= ~bit
    new["hand"], new["table"] = hand, table


def _draw_both(new: State, events: list) -> bool:
    """Both players draw up to 5; an empty deck takes the shuffled discard pile first.  False when
    both decks held enough (the common case: both hands are full, so nobody has run out of cards
    and :func:`_check_out_of_cards` need not look)."""
    hand, deck = new["hand"], new["deck"]
    h0, h1 = hand
    if HAND_SIZE - h0 <= deck[0] and HAND_SIZE - h1 <= deck[1]:      # the common case: both decks hold enough
        new["hand"] = [max(h0, HAND_SIZE), max(h1, HAND_SIZE)]
        new["deck"] = [deck[0] - max(HAND_SIZE - h0, 0), deck[1] - max(HAND_SIZE - h1, 0)]
        return False
    players = new["options"]["players"]
    hand, deck, discard = hand.copy(), deck.copy(), new["discard"].copy()
    for s in (0, 1):
        need = HAND_SIZE - hand[s]
        while need > 0:
            if deck[s] == 0:
                if not discard[s]:
                    break
                n = discard[s].bit_count()
                events.append(event("reshuffle", f"{players[s]}'s deck is empty: {players[1 - s]} shuffles "
                                                 f"{players[s]}'s discard pile ({counted(n, 'card')}) into a new deck",
                                    seat=s, cards=n))
                deck[s], discard[s] = n, 0
            take = min(need, deck[s])
            deck[s] -= take
            hand[s] += take
            need -= take
    new["hand"], new["deck"], new["discard"] = hand, deck, discard
    return True


def _check_out_of_cards(new: State, events: list) -> bool:
    """After drawing: a player with every card in the graveyard, or too few cards to make any
    supported play (an animal and at least one support card), loses.  True when the game ended."""
    hand = new["hand"]
    if hand[0] >= 2 and hand[1] >= 2:       # the common case: a card in hand is not in the graveyard
        return False
    players = new["options"]["players"]
    out = []
    for s in (0, 1):
        if new["graveyard"][s].bit_count() == DECK_SIZE:
            out.append((s, f"all {DECK_SIZE} of {players[s]}'s cards are in the graveyard"))
        elif new["hand"][s] < 2:
            left = new["hand"][s]
            out.append((s, f"{players[s]} has run out of cards ({left} left: an attack needs an animal "
                           f"and support)"))
    if not out:
        return False
    if len(out) == 2:
        winner, reason = None, "both players ran out of cards"
    else:
        winner, reason = 1 - out[0][0], out[0][1]
    new.update(phase="over", turn=None, winner=winner, reason=reason)
    events.append(_game_over_event(players, winner, reason))
    return True


def _game_over_event(players: list, winner: int | None, reason: str) -> dict:
    text = f"{players[winner]} wins the game: {reason}" if winner is not None else f"The game is a draw: {reason}"
    return event("game_over", text, winner=winner, reason=reason)


RULES = LifeforceRules()
