"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

A player who cannot see the opponent's cards cannot search one game tree.
ISMCTS searches the tree of *moves* instead: every iteration deals one
random game consistent with what the player knows (a determinization), walks
the tree choosing among the moves legal in that deal (UCB1, counting how often
each move was available), adds one node, plays the rest of the round out at
random and credits the result to every move on the path.  The move played is
the root's most visited child.

The game model is duck-typed: ``copy()``, ``to_move()``, ``moves()``,
``apply(move)``, ``phase`` ("play" while the search goes on) and a playout
``play_round_randomly()``; ``value(game)`` says what the finished playout is
worth (0–1) to the searching seat.
"""
from __future__ import annotations

import math
import random
import time
from typing import Callable

EXPLORATION = 0.7


class Node:
    __slots__ = ("move", "parent", "seat", "children", "visits", "reward", "available")

    def __init__(self, move, parent, seat):
        self.move, self.parent, self.seat = move, parent, seat
        self.children: dict = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 1


def search(sample: Callable[[random.Random], object], seat: int, value: Callable[[object], float],
           rng: random.Random, iterations: int | None = None, seconds: float | None = None) -> tuple:
    """The move ``seat`` should make, after ``iterations`` deals or ``seconds`` of thinking
    (whichever ends first; at least one iteration).  Same ``rng`` seed and iteration budget,
    same information set: same move."""
    root = Node(None, None, None)
    deadline = None if seconds is None else time.perf_counter() + seconds
    done = 0
    log, sqrt = math.log, math.sqrt
    while True:
        game = sample(rng)
        node = root
        while game.phase == "play":
            moves = game.moves()
            children = node.children
            untried = [m for m in moves if m not in children]
            if untried:
                move = untried[int(rng.random() * len(untried))]
                mover = game.to_move()
                game.apply(move)
                child = node.children[move] = Node(move, node, mover)
                for m in moves:
                    if m in children and m != move:
                        children[m].available += 1
                node = child
                break
            best, best_score = None, -1.0
            for m in moves:
                child = children[m]
                child.available += 1
                score = child.reward / child.visits + EXPLORATION * sqrt(log(child.available) / child.visits)
                if score > best_score:
                    best, best_score = child, score
            game.apply(best.move)
            node = best
        if game.phase == "play":
            game.play_round_randomly()
        result = value(game)
        while node is not None:
            node.visits += 1
            node.reward += result if node.seat == seat else 1.0 - result
            node = node.parent
        done += 1
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if iterations is None and deadline is None:
            break
    return max(root.children.values(), key=lambda c: (c.visits, c.reward)).move
