"""Helpers that play Lifeforce Battle through the engine's own actions (no shortcuts)."""
from companion.games.lifeforce import RULES, sample_decks
from companion.games.lifeforce.animals import ANIMALS

NORTH, SOUTH = 0, 1


def cid(slug: str) -> str:
    """"great-tit" → "lifeforce.great-tit" (and checks the card exists)."""
    card_id = slug if slug.startswith("lifeforce.") else f"lifeforce.{slug}"
    assert card_id in ANIMALS, card_id
    return card_id


def deck_with(seat: int, *slugs: str) -> list[str]:
    """The sample deck of ``seat`` with the given cards swapped in for cards of the same colour,
    so the deck stays legal (50 distinct cards, colour counts unchanged)."""
    deck = list(sample_decks()[seat])
    wanted = [cid(s) for s in slugs]
    for card in wanted:
        if card in deck:
            continue
        colour = ANIMALS[card].colour
        victim = next(c for c in deck if ANIMALS[c].colour == colour and c not in wanted)
        deck[deck.index(victim)] = card
    return deck


def start(north=(), south=(), first=NORTH, seed=7, players=None):
    """A game past setup: decks are the sample decks with ``north``/``south`` cards swapped in."""
    options = {"decks": [deck_with(NORTH, *north), deck_with(SOUTH, *south)]}
    if players:
        options["players"] = players
    state = RULES.setup(RULES.normalise_options(options), seed)
    state, _ = RULES.apply(state, {"type": "first_attacker", "seat": first})
    return state


def act(state, **action):
    return RULES.apply(state, action)


def place(state, seat, animal, support=(), mode=None, done=True):
    """One side of a duel: the animal, low/max if given, the support cards, then done."""
    events = []
    state, ev = act(state, type="play_animal", seat=seat, card=cid(animal))
    events += ev
    if mode:
        state, ev = act(state, type="declare", seat=seat, mode=mode)
        events += ev
    for s in support:
        state, ev = act(state, type="support", seat=seat, card=cid(s))
        events += ev
    if done:
        state, ev = act(state, type="done", seat=seat)
        events += ev
    return state, events


def duel(state, attack, counter, resolve=True):
    """A whole duel: ``attack``/``counter`` are (animal, [support], mode or None) for the battle's
    starter and the other seat.  Returns (state, events of the resolution)."""
    starter = state["starter"]
    state, _ = place(state, starter, attack[0], attack[1], attack[2] if len(attack) > 2 else None)
    state, _ = place(state, 1 - starter, counter[0], counter[1], counter[2] if len(counter) > 2 else None)
    if not resolve:
        return state, []
    return act(state, type="resolve", seat=starter)


def counts(state, seat):
    return RULES.counts(state, seat)


def accounted(state, seat) -> int:
    c = counts(state, seat)
    return c["deck"] + c["hand"] + c["discard"] + c["graveyard"] + c["in_play"]
