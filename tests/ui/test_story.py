"""Issue 14 item 6: the end-of-game summary is told from the game's record (``ui.story.tell``).

The summary keeps of each step's view only the counters its chart draws; told
that way, every game's story must be the one told with whole views (the
History's step-through): the same chart, results, turning points and headline.
"""
import pytest

from companion import games
from companion.engine import Rng
from companion.records import make_record
from ui.story import tell


def random_record(name: str, seed: int) -> dict:
    """A whole game of seeded random legal actions, recorded as the session records it."""
    rules = games.get(name)
    options = rules.normalise_options({})
    state = rules.setup(options, seed)
    rng, actions = Rng(seed), []
    while not rules.is_over(state):
        action = rules.random_action(state, rng)
        state, _events = rules.apply(state, action)
        actions.append(action)
    return make_record(rules, options, seed, actions, state)


def decided(story) -> tuple | None:
    """The action that decided the game, and its battle."""
    found = story.decider()
    return None if found is None else (found[0].n, found[1])


@pytest.mark.parametrize("name", ["sams", "lifeforce", "vitaluna", "territory", "arcmage"])
def test_the_summary_tells_the_same_story_from_the_counters_alone(name):
    record = random_record(name, 5)
    whole, summary = tell(record), tell(record, whole_views=False)
    assert whole.error == summary.error == "" and whole.result is not None
    assert summary.metric and (summary.metric, summary.series) == (whole.metric, whole.series)
    assert summary.battles() == whole.battles() and summary.turning_points() == whole.turning_points()
    assert summary.headline == whole.headline and decided(summary) == decided(whole)
    # the summary keeps no view at all, only the chart's numbers (docs/ui.md, memory)
    assert summary.start_view is None and all(step.view is None for step in summary.steps)
    assert any(set(step.view) > {"counters"} for step in whole.steps)
