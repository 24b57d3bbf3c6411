"""Issue 14 item 5: the result view headlines the battle that decided, in every game.

Each game is played by the session (seeded random legal actions, the engine's
public API) up to an action that decides several battles at once or ends the
game; that action is then made through the screen, as players would (a card on
a pad or a touch), and the result view it opens is read.
"""
from companion.engine import Rng, redact_event
from ui import harness
from ui.story import decisive

from .driver import do, result_open, table_screen
from .test_tables import start


def begin(app, game, seed):
    """Home → setup → the table by touch, then the same game again with a known shuffle."""
    options = dict(start(app, game).options)
    app.controller.start_game(game, options, seed)
    harness.frames(2)
    assert app.root.current == "table" and app.controller.session.seed == seed


def play_until_decisive_action(app, seed, wanted, max_actions=4000):
    """Random legal actions by the session until the next one's shared events satisfy ``wanted``;
    that one is made through the screen.  Returns its events as the shared screen saw them."""
    session = app.controller.session
    rules, rng = session.rules, Rng(seed)
    for _ in range(max_actions):
        assert not rules.is_over(session.state), "the game ended before the situation came up"
        action = rules.random_action(session.state, rng)
        _state, events = rules.apply(session.state, action)
        public = [redact_event(e, None) for e in events]
        if wanted(public):
            break
        session.act(action)
    else:
        raise AssertionError(f"no such action in {max_actions}")
    screen = table_screen(app)
    screen.result_view.dismiss()
    harness.frames(1)
    do(app, action)
    assert result_open(app)
    return public


def battles(events, kind="battle_result"):
    return [e for e in events if e.get("type") == kind]


def margin(e):
    w = e["winner"]
    return e["attack"][w] - e["defence"][1 - w]


def test_sams_round_headlines_the_round_and_names_the_narrowest_lane_its_winner_won(home):
    app = home
    begin(app, "sams", 7)
    public = play_until_decisive_action(
        app, 7, lambda ev: any(e.get("winner") in (0, 1) for e in battles(ev, "round_result"))
        and not battles(ev, "game_over")
        and len({margin(e) for e in battles(ev) if e["winner"] == battles(ev, "round_result")[0]["winner"]}) > 1)
    view = table_screen(app).result_view
    round_ = battles(public, "round_result")[0]
    won = [e for e in battles(public) if e["winner"] == round_["winner"]]
    narrowest = min(won, key=margin)
    assert view.title == round_["text"]
    assert view.decisive == f"Decided by {narrowest['text']}"
    assert "Decided by " + narrowest["text"] in harness.texts()              # on screen, not only computed


def test_territory_headlines_the_land_fought_for_not_the_last_land_nobody_fought(home):
    """The report: "Territory's result pop-up headlines 'Land 5: nobody fought' instead of the real fight"."""
    app = home
    begin(app, "territory", 5)

    def several_lands_last_unfought(ev):
        lands = battles(ev)
        return len(lands) >= 2 and lands[-1]["sides"] == [0, 0] \
            and any(e["winner"] is not None and all(e["sides"]) for e in lands) \
            and not battles(ev, "game_over")

    public = play_until_decisive_action(app, 5, several_lands_last_unfought)
    view = table_screen(app).result_view
    lands = battles(public)
    assert "nobody fought" in lands[-1]["text"] and view.title != lands[-1]["text"]
    headline = next(e for e in lands if e["text"] == view.title)
    assert headline["winner"] is not None and all(headline["sides"])            # a land won in a fight
    assert lands[-1]["text"] in harness.texts()                                  # the others are still listed


def test_arcmage_several_combats_headline_the_hardest_hit_of_the_side_that_won_more(home):
    app = home
    begin(app, "arcmage", 5)

    def several_combats(ev):
        fights = battles(ev)
        won = [sum(1 for e in fights if e["winner"] == s) for s in (0, 1)]
        return len(fights) >= 2 and won[0] != won[1] and not battles(ev, "game_over")

    public = play_until_decisive_action(app, 5, several_combats)
    view = table_screen(app).result_view
    fights = battles(public)
    won = [sum(1 for e in fights if e["winner"] == s) for s in (0, 1)]
    side = 0 if won[0] > won[1] else 1
    headline = next(e for e in fights if e["text"] == view.title)
    assert headline["winner"] == side
    assert headline.get("damage", 0) == max(e.get("damage", 0) for e in fights if e["winner"] == side)


def check_game_over_names_the_winners_decisive_battle(app, game, seed):
    begin(app, game, seed)
    public = play_until_decisive_action(app, seed, lambda ev: bool(battles(ev, "game_over")))
    session = app.controller.session
    view = table_screen(app).result_view
    winner = session.rules.result(session.state)["winner"]
    assert view.game_over and view.title == view.story.headline
    step, battle = view.story.decider()
    assert battle["winner"] == winner and battle["text"] in view.decisive
    assert view.decisive.startswith("Ahead for good from ") and view.decisive in harness.texts()
    # It is where the winner went ahead for good: never behind or level on the chart after it.
    a, b = view.story.series
    mine, theirs = (a, b) if winner == 0 else (b, a)
    lost_cards = view.story.metric == "Graveyard"
    for n in range(step.n, len(a)):
        assert (mine[n] < theirs[n]) if lost_cards else (mine[n] > theirs[n]), (game, n)
    return public


def test_lifeforce_game_over_names_the_battle_that_put_the_winner_ahead_for_good(home):
    check_game_over_names_the_winners_decisive_battle(home, "lifeforce", 2)


def test_vitaluna_game_over_names_the_battle_that_put_the_winner_ahead_for_good(home):
    check_game_over_names_the_winners_decisive_battle(home, "vitaluna", 1)


def test_a_single_battle_is_its_own_headline(home):
    """Vita Luna decides one battle at a time: the headline is that battle, not the rewards after it."""
    app = home
    begin(app, "vitaluna", 3)
    public = play_until_decisive_action(app, 3, lambda ev: len(battles(ev)) == 1 and not battles(ev, "game_over"))
    view = table_screen(app).result_view
    assert view.title == battles(public)[0]["text"] and view.decisive == ""
    assert decisive(public) is battles(public)[0]


def test_a_tied_round_names_no_decisive_lane(home):
    """A round Sam's players tie was decided by no lane: the view says the tie and nothing more."""
    app = home
    begin(app, "sams", 11)
    public = play_until_decisive_action(
        app, 11, lambda ev: any(e.get("winner") is None for e in battles(ev, "round_result"))
        and any(e.get("winner") in (0, 1) for e in battles(ev)))
    view = table_screen(app).result_view
    assert view.title == battles(public, "round_result")[0]["text"] and view.decisive == ""
    assert not any(t.startswith("Decided by") for t in harness.texts())
