"""A random legal game with the actions that made it, for the record and replay tests of every game."""


def random_game(rules, seed: int, options: dict | None = None):
    """``(options, actions, final state)`` of a random legal game of ``rules``."""
    actions = []
    options = rules.normalise_options(options or {})
    final = rules.playout(options, seed, on_apply=lambda _before, action, _after, _events: actions.append(action))
    return options, actions, final
