"""Swiss pairings by maximum weight matching, each pairing with the sentence that explains it.

A round's pairings are one maximum-cardinality, maximum-weight matching
(:func:`networkx.max_weight_matching`) on a graph whose nodes are the active
players — plus a ``BYE`` node when their number is odd — and whose edge
weights encode the customary priorities, strictly in this order:

1. **No rematch where avoidable.**  An edge between two players who have met
   costs ``REMATCH``, more than every other term of the whole round together,
   so the matching holds a rematch only when no perfect matching avoids it
   (and then as few as possible).
2. **Never a second bye while someone has none.**  Only players without a
   bye are joined to ``BYE`` (when everyone has had one, those with the
   fewest): a hard rule, not a weight.
3. **The bye to the lowest-ranked player** among those: the bye edge of the
   player ranked *k*-th from the bottom costs *k* ``BYE_STEP``\\ s.
4. **Within the score group**: an edge between players *d* score groups apart
   costs *d*² ``GROUP_STEP``\\ s, so two single pair-downs cost less than one
   across two groups ("strongly prefer equal scores, then adjacent").
5. A seeded random number below ``NOISE`` on every edge decides the rest, so
   the same state and seed give the same pairings, and another seed others.

Each unit is larger than everything below it can add up to in a round, so the
order is exact, not a matter of tuning (all weights are integers, which
networkx then handles exactly).

That whole-round matching costs seconds at 128 players, so a round is first
paired the customary way, score group by score group (:func:`_by_groups`):
the bye to the lowest-ranked player without one; each group from the top,
with the players paired down into it; an odd group sends its lowest-ranked
player down.  A group that pairs off in the seeded order without a rematch
needs no matching (:func:`_pool_in_order`); one that does not is decided by
networkx's matching on that group (:func:`_pool_matching`); and when a group
cannot be paired without a rematch at all, the whole round is matched at once
(:func:`_whole_round`) — so a rematch is only ever paired when the matching of
the whole round could not avoid it.  Tables go to the pairings in rank order
(table 1 the top pairing), then moved as little as possible so nobody sits
at the table they had last round whenever any assignment allows it
(:func:`assign_tables`, an assignment solved by networkx's matching).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from companion.words import counted


BYE = "BYE"
NOISE = 16
TABLE_BAND = 4            # tables each side of its rank a pairing may move to, before the exact solve


@dataclass(frozen=True)
class Candidate:
    """What pairing needs to know of an active player."""
    id: str
    name: str
    points: int
    rank: int                    # 0 = top of the standings
    opponents: frozenset[str]
    byes: int
    last_table: int | None = None


@dataclass(frozen=True)
class Pairing:
    table: int | None            # None for the bye
    a: str
    b: str | None                # None: ``a`` has the bye
    why: str

    def as_dict(self) -> dict:
        return {"table": self.table, "a": self.a, "b": self.b, "why": self.why}


def pair_round(players: list[Candidate], seed: int, round_number: int) -> list[Pairing]:
    """The pairings of a round for ``players`` (the active ones), deterministic in ``seed`` and the round."""
    if not players:
        return []
    by_id = {p.id: p for p in players}
    ordered = sorted(players, key=lambda p: p.rank)
    weigh = _Weights(ordered, seed, round_number)
    bye_eligible: list[Candidate] = []
    if len(players) % 2:
        fewest = min(p.byes for p in players)
        bye_eligible = [p for p in ordered if p.byes == fewest]
    # Fast path, score group by score group; when it cannot avoid every rematch, the whole round at once.
    matching = _by_groups(weigh, bye_eligible)
    if matching is None:
        matching = _whole_round(weigh, bye_eligible, by_id, len(players))
    bye_player = next((v if u == BYE else u for u, v in matching if BYE in (u, v)), None)
    pairs: list[tuple[str, str]] = []
    for u, v in matching:
        if BYE not in (u, v):
            p, q = sorted((by_id[u], by_id[v]), key=lambda c: c.rank)
            pairs.append((p.id, q.id))
    if 2 * len(pairs) + (bye_player is not None) != len(players):
        raise AssertionError("pairing left a player out")       # cannot happen: the last graph is complete

    group = weigh.group
    remaining_by_group: dict[int, int] = {}
    for p in players:
        if p.id != bye_player:
            remaining_by_group[group[p.id]] = remaining_by_group.get(group[p.id], 0) + 1
    pairs.sort(key=lambda pq: (-(by_id[pq[0]].points + by_id[pq[1]].points), by_id[pq[0]].rank))
    tables = assign_tables([(by_id[a], by_id[b]) for a, b in pairs])
    came_down: dict[int, int] = {}                  # players paired down into each group from above
    for a, b in pairs:
        if group[a] < group[b]:
            came_down[group[b]] = came_down.get(group[b], 0) + 1
    out = [Pairing(t, a, b, _why(by_id[a], by_id[b], remaining_by_group, came_down, group, players, bye_player))
           for t, (a, b) in zip(tables, pairs)]
    if bye_player is not None:
        out.append(Pairing(None, bye_player, None, _why_bye(by_id[bye_player], bye_eligible)))
    return out


def _whole_round(weigh: "_Weights", bye_eligible: list[Candidate], by_id: dict, n: int) -> set:
    """One matching of the whole round: first on a sparse graph (a few partners in the own and the next
    group), then — when that is not perfect, holds a rematch or cannot give the bye to the lowest-ranked —
    on the complete graph, whose optimum is the exact order of priorities of the module's docstring."""
    matching = _match(weigh.sparse_edges(), bye_eligible, weigh)
    bye_player = next((v if u == BYE else u for u, v in matching if BYE in (u, v)), None)
    rematches = sum(1 for u, v in matching if BYE not in (u, v) and v in by_id[u].opponents)
    if 2 * len(matching) < n + n % 2 or rematches or (bye_eligible and bye_player != bye_eligible[-1].id):
        matching = _match(weigh.all_edges(), bye_eligible, weigh)
    return matching


def _by_groups(weigh: "_Weights", bye_eligible: list[Candidate]) -> set | None:
    """The customary Swiss procedure, as small matchings: the bye to the lowest-ranked without one,
    then each score group from the top, with the players paired down into it; an odd group sends its
    lowest-ranked player that can go (a ``DOWN`` node) to the next.  Rematch edges are left out; None
    when a group cannot be paired without one (then the whole round is matched at once)."""
    bye = bye_eligible[-1].id if bye_eligible else None
    groups: dict[int, list[Candidate]] = {}
    for p in weigh.ordered:
        if p.id != bye:
            groups.setdefault(weigh.group[p.id], []).append(p)
    matching = {(BYE, bye)} if bye else set()
    floaters: list[Candidate] = []
    keys = sorted(groups)
    for i, g in enumerate(keys):
        pool = floaters + groups[g]
        last = i == len(keys) - 1
        found = _pool_in_order(weigh, pool, g, down=len(pool) % 2 == 1 and not last)
        if found is None:
            found = _pool_matching(weigh, pool, g, down=len(pool) % 2 == 1 and not last, sparse=True)
        if found is None:
            found = _pool_matching(weigh, pool, g, down=len(pool) % 2 == 1 and not last, sparse=False)
        if found is None:
            return None
        floaters = [weigh.by_id[v if u == "DOWN" else u] for u, v in found if "DOWN" in (u, v)]
        matching |= {(u, v) for u, v in found if "DOWN" not in (u, v)}
    return matching if not floaters else None


def _pool_in_order(weigh: "_Weights", pool: list[Candidate], g: int, down: bool) -> set | None:
    """The pool paired without a matching when nothing needs deciding: the lowest-ranked goes down
    (if the pool is odd), each player paired down into it meets the highest-ranked player of the group
    they have not met, and the rest pair off in the seeded shuffle's order.  That is one of the
    matchings of greatest weight (only the noise may differ, and the noise only stands for chance);
    None as soon as it would need a rematch — then networkx's matching decides."""
    rest = list(pool)
    found = set()
    if down:
        found.add(("DOWN", rest.pop().id))
    natives = [p for p in rest if weigh.group[p.id] == g]
    for f in [p for p in rest if weigh.group[p.id] != g]:
        partner = next((q for q in natives if q.id not in f.opponents), None)
        if partner is None:
            return None
        natives.remove(partner)
        found.add((f.id, partner.id))
    if len(natives) % 2:
        return None
    native_ids = {p.id for p in natives}
    order = [p for p in weigh.shuffled if p.id in native_ids]
    for p, q in zip(order[::2], order[1::2]):
        if q.id in p.opponents:
            return None
        found.add((p.id, q.id))
    return found


def _pool_matching(weigh: "_Weights", pool: list[Candidate], g: int, down: bool, sparse: bool) -> set | None:
    import networkx as nx                 # here, not at the top: every `companion` command imports this module's parser
    if len(pool) < 2 and not down:
        return None if pool else set()
    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in pool)
    size = len(pool) + 1
    rank_step = NOISE * (size // 2 + 1)
    unit = rank_step * (size + 1)
    top = unit * (size // 2 + 1) * (4 * (len(weigh.levels) + 1) ** 2 + 1)
    natives = [p for p in pool if weigh.group[p.id] == g]
    floating = [p for p in pool if weigh.group[p.id] != g]
    if sparse and len(natives) > 2 * SPARSE_PARTNERS + 1:
        # a ring in the seeded shuffle's order, each player joined to the next few: a perfect matching
        # exists in it unless rematches cut it; the complete pool is the fallback
        native_ids = {p.id for p in natives}
        ring = [p for p in weigh.shuffled if p.id in native_ids]
        pairs = [(ring[k], ring[(k + d) % len(ring)]) for k in range(len(ring))
                 for d in range(1, SPARSE_PARTNERS + 1)]
    else:
        pairs = [(p, q) for i, p in enumerate(natives) for q in natives[i + 1:]]
    pairs += [(f, q) for i, f in enumerate(floating) for q in floating[i + 1:] + natives]
    # a list, never a set: networkx breaks ties by the order edges were added, and a set's order
    # changes from one process to the next (string hashing), which would change the pairings
    for p, q in pairs:
        if q.id not in p.opponents:
            cost = (weigh.group[p.id] - weigh.group[q.id]) ** 2 * unit + weigh.noise(p, q)
            graph.add_edge(p.id, q.id, weight=top - cost)
    if down:
        graph.add_node("DOWN")
        for from_bottom, p in enumerate(reversed(pool)):
            d = g - weigh.group[p.id]
            graph.add_edge("DOWN", p.id, weight=top - (2 * d + 1) * unit - from_bottom * rank_step)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(found) != graph.number_of_nodes():
        return None
    return found


SPARSE_PARTNERS = 3          # partners on each side in the own group's shuffled ring, and in the next group


class _Weights:
    """The integer weights of the module's docstring, for one round."""

    def __init__(self, ordered: list[Candidate], seed: int, round_number: int):
        self.ordered = ordered
        self.by_id = {p.id: p for p in ordered}
        levels = sorted({p.points for p in ordered}, reverse=True)
        self.group = {p.id: levels.index(p.points) for p in ordered}
        self.levels = levels
        n = len(ordered)
        half = n // 2 + 1
        self.group_step = NOISE * half
        max_distance = max(len(levels) - 1, 1)
        self.bye_step = self.group_step * (half * max_distance ** 2 + 1) + 1
        self.rematch = self.bye_step * (n + 1) + 1
        self.base = self.rematch * (half + 1)           # every weight positive
        shuffled = list(ordered)
        random.Random(f"{seed}:{round_number}").shuffle(shuffled)
        self.position = {p.id: i for i, p in enumerate(shuffled)}
        self.shuffled = shuffled

    def noise(self, p: Candidate, q: Candidate) -> int:
        """A number below NOISE, fixed by the seeded shuffle: decides between otherwise equal partners."""
        i, j = sorted((self.position[p.id], self.position[q.id]))
        return ((i + 1) * 2654435761 + (j + 1) * 40503 + i * j) % NOISE

    def weight(self, p: Candidate, q: Candidate) -> int:
        cost = (self.group[p.id] - self.group[q.id]) ** 2 * self.group_step + self.noise(p, q)
        if q.id in p.opponents:
            cost += self.rematch
        return self.base - cost

    def all_edges(self):
        for i, p in enumerate(self.ordered):
            for q in self.ordered[i + 1:]:
                yield p.id, q.id, self.weight(p, q)

    def sparse_edges(self):
        by_group: dict[int, list[Candidate]] = {}
        for p in self.shuffled:
            by_group.setdefault(self.group[p.id], []).append(p)
        seen = set()
        for g, members in by_group.items():
            below = by_group.get(g + 1, [])
            for k, p in enumerate(members):
                ring = [members[(k + d) % len(members)] for d in range(1, SPARSE_PARTNERS + 1)]
                for q in ring + below[:SPARSE_PARTNERS]:
                    key = (min(p.id, q.id), max(p.id, q.id))
                    if q.id != p.id and key not in seen:
                        seen.add(key)
                        yield p.id, q.id, self.weight(p, q)


def _match(edges, bye_eligible: list[Candidate], weigh: _Weights) -> set:
    import networkx as nx                 # here, not at the top: every `companion` command imports this module's parser
    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in weigh.ordered)
    graph.add_weighted_edges_from(edges)
    if bye_eligible:
        graph.add_node(BYE)
        for from_bottom, p in enumerate(reversed(bye_eligible)):
            graph.add_edge(BYE, p.id, weight=weigh.base - from_bottom * weigh.bye_step)
    return nx.max_weight_matching(graph, maxcardinality=True)


def assign_tables(pairs: list[tuple[Candidate, Candidate]]) -> list[int]:
    """Tables 1…k to ``pairs`` (already in rank order), so nobody sits again at last round's table.

    An assignment problem, solved exactly as a maximum weight matching
    (networkx) between pairings and tables: a pairing at a table where one of
    its players sat last round costs more than every other term together, so
    the fewest players possible sit again where they sat (none whenever some
    assignment manages it — three tables and six players included); among
    those assignments, the one closest to rank order (table 1 the top
    pairing: the least total distance |pairing − table|).

    Most rounds need no matching: rank order already moves everybody, or
    swapping a pairing with its nearest neighbour that can take its table does
    (:func:`_swap_nearest`).  Otherwise a band graph (each pairing and the
    tables within ``TABLE_BAND`` of it) is solved, which is quick for hundreds
    of tables; only if that band cannot seat everyone away from their last
    table is the complete graph solved, which is exact.
    """
    n = len(pairs)
    last = [{q.last_table for q in pair} for pair in pairs]
    swapped = _swap_nearest(last)
    if not any(swapped[i] in last[i] for i in range(n)):
        return swapped

    def solve(band: int | None) -> list[int]:
        import networkx as nx                 # here, not at the top: every `companion` command imports this module's parser
        repeat = n * n + 1                          # more than the largest total distance
        graph = nx.Graph()
        for i in range(n):
            near = range(1, n + 1) if band is None else range(max(1, i + 1 - band), min(n, i + 1 + band) + 1)
            for t in near:
                graph.add_edge(("p", i), ("t", t), weight=repeat * (t not in last[i]) + n - abs(i + 1 - t))
        tables = [0] * n
        for u, v in nx.max_weight_matching(graph, maxcardinality=True):
            (_, i), (_, t) = (u, v) if u[0] == "p" else (v, u)
            tables[i] = t
        return tables

    tables = solve(TABLE_BAND) if n > TABLE_BAND * 2 + 1 else solve(None)
    if any(tables[i] in last[i] for i in range(n)) and n > TABLE_BAND * 2 + 1:
        tables = solve(None)
    return tables


def _swap_nearest(last: list[set]) -> list[int]:
    """Rank order, each pairing at its last table swapped with the nearest that can take it (may fail)."""
    tables = list(range(1, len(last) + 1))
    for i in range(len(last)):
        if tables[i] not in last[i]:
            continue
        for j in sorted(range(len(last)), key=lambda j: (abs(j - i), j < i)):
            if j != i and tables[j] not in last[i] and tables[i] not in last[j]:
                tables[i], tables[j] = tables[j], tables[i]
                break
    return tables


def _pts(points: int) -> str:
    return counted(points, "point")


def _why(p: Candidate, q: Candidate, remaining: dict[int, int], came_down: dict[int, int],
         group: dict[str, int], players: list[Candidate], bye_player: str | None) -> str:
    if q.id in p.opponents:
        return (f"{p.name} and {q.name} meet again: no pairing of this round avoids every rematch, "
                f"and this one needs the fewest")
    if p.points == q.points:
        return f"{p.name} and {q.name} both have {_pts(p.points)}"
    # a pair-down: say why the higher player could not stay in their group
    size = remaining.get(group[p.id], 0)
    joined = came_down.get(group[p.id], 0)
    if (size + joined) % 2 and joined:
        reason = (f"the player{'s' if joined > 1 else ''} paired down into the {_pts(p.points)} group "
                  f"left it with an odd number")
    elif size % 2:
        reason = f"the {_pts(p.points)} group has an odd number of players ({size})"
    else:
        unplayed = [c for c in players if c.points == p.points and c.id not in (p.id, bye_player)
                    and c.id not in p.opponents]
        reason = ("every other player on the same score has already played them" if not unplayed else
                  "keeping the group together would have meant a rematch elsewhere")
    return f"{p.name} paired down from {_pts(p.points)} to {q.name} ({_pts(q.points)}) because {reason}"


def _why_bye(p: Candidate, eligible: list[Candidate]) -> str:
    lowest = eligible[-1].id == p.id
    if p.byes == 0:
        base = "lowest-ranked player without a bye" if lowest else \
            "the lowest-ranked players without a bye could not be left out without a rematch"
    else:
        base = "every player has had a bye; lowest-ranked of those with the fewest" if lowest else \
            "every player has had a bye; the lower-ranked could not be left out without a rematch"
    return f"bye for {p.name} ({_pts(p.points)}): {base}"
