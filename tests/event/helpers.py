"""Building events through the public moves, as an organiser would."""
from companion.event import moves


def new_event(names, *, fmt="bo3", rounds=5, seed=1, deck=None):
    state = moves.apply(None, {"type": "create", "name": "Club night", "game": "sams", "format": fmt,
                               "rounds": rounds, "seed": seed})
    for name in names:
        state = moves.apply(state, {"type": "register", "name": name, "deck": deck})
    return state


def start(state):
    return moves.apply(state, moves.prepare(state, {"type": "start_round"}))


def table_of(state, a_name, b_name=None):
    ids = {p["name"]: p["id"] for p in state["players"]}
    for p in state["rounds"][-1]["pairings"]:
        if ids[a_name] in (p["a"], p["b"]) and (b_name is None or ids[b_name] in (p["a"], p["b"])):
            return p
    raise AssertionError(f"{a_name} is not paired this round")


def enter(state, games_by_winner):
    """Organiser-entered results: {(winner, loser): [w, l, d]} for every table of the round."""
    ids = {p["name"]: p["id"] for p in state["players"]}
    for (x, y), (wx, wy, d) in games_by_winner.items():
        p = table_of(state, x, y)
        games = [wx, wy, d] if p["a"] == ids[x] else [wy, wx, d]
        state = moves.apply(state, {"type": "report", "round": len(state["rounds"]), "table": p["table"],
                                    "games": games, "source": "organiser"})
    return state


def win_all_by_rank(state, games=(2, 0, 0)):
    """Every match of the round won by its 'a' player (the higher-ranked)."""
    for p in state["rounds"][-1]["pairings"]:
        if p["b"] is not None:
            state = moves.apply(state, {"type": "report", "round": len(state["rounds"]), "table": p["table"],
                                        "games": list(games), "source": "organiser"})
    return state
