"""What players and the organiser read: the TV page (in a real Chromium), a player's page, PDFs, the CLI."""
import json
import re
import subprocess

import pytest

from companion import cli
from companion.event import moves, pages, ratings, slips
from tests.event import chromium
from tests.event.helpers import new_event, start, win_all_by_rank

DECK = ["lion", "zebra", "owl"]


def _evening(decks_public="after"):
    state = moves.apply(None, {"type": "create", "name": "Friday <Club>", "game": "sams", "rounds": 2, "seed": 3,
                               "round_minutes": 40, "decks_public": decks_public, "at": 1000.0})
    for name in ("Ann", "<script>alert(1)</script>", "Cid Özdemir", "Dee", "Eve"):
        state = moves.apply(state, {"type": "register", "name": name, "deck": DECK})
    state = win_all_by_rank(moves.apply(state, moves.prepare(state, {"type": "start_round", "at": 1000.0})))
    return moves.apply(state, {**moves.prepare(state, {"type": "start_round"}), "at": 2000.0})


def test_the_tv_page_shows_pairings_standings_and_a_running_timer_in_chromium(tmp_path):
    state = _evening()
    html = pages.tv_page(state, now=2000.0 + 5 * 60)
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Friday &lt;Club&gt;" in html and "Round 2 of 2" in html and ">35:00<" in html
    path = tmp_path / "tv.html"
    path.write_text(html, encoding="utf-8")
    text = re.sub(r"<[^>]+>", " ", chromium.dom(path))
    # the timer is counted down by the page from the round's end (long past here): 00:00
    assert re.search(r"\b00:00\b", text)
    view = pages.public_view(state, now=2000.0)
    for p in view["pairings"]:
        if p["table"] is not None:
            assert re.search(rf"\b{p['table']}\b", text)
    top = view["standings"][0]
    assert top["points"] == 3 and top["name"].split()[0] in text
    assert "lion" not in text                                  # deck lists stay private during the event


def test_a_long_list_turns_pages_on_the_tv_instead_of_shrinking(tmp_path):
    state = start(new_event([f"Player {i}" for i in range(71)], seed=2))      # 35 tables and a bye
    path = tmp_path / "tv.html"
    html = pages.tv_page(state)
    path.write_text(html, encoding="utf-8")
    # As served: page 1 of each list shown, the rest hidden (one Chromium run below sees it turn once).
    assert "id='pair-page'>1/3<" in html and "id='stand-page'>1/5<" in html
    assert re.search(r"<tr data-pair='1' hidden>", html) and not re.search(r"<tr data-pair='0' hidden", html)
    turned = chromium.dom(path, after_ms=13_000)                # exactly one page turn (every 12 s)
    assert "id=\"pair-page\">2/3<" in turned and "id=\"stand-page\">2/5<" in turned
    assert re.search(r'<tr data-pair="0" hidden=""', turned) and not re.search(r'<tr data-pair="1" hidden', turned)


def test_a_players_page_shows_games_ratings_head_to_head_and_public_decks_only_after():
    state = _evening()
    page = pages.player_page([state], "ann")
    assert "Ann" in page and "Ratings" in page and "Head to head" in page
    assert "lion" not in page and "Deck list registered (shown after the event)." in page
    finished = win_all_by_rank(state)
    assert moves.is_over(finished)
    assert "Deck: lion, zebra, owl" in pages.player_page([finished], "Ann")
    never = pages.player_page([win_all_by_rank(_evening("never"))], "Ann")
    assert "lion" not in never


def test_ratings_rise_for_the_winner_and_keep_a_history_across_events():
    one = win_all_by_rank(start(new_event(["Ann", "Bob"], seed=1)))
    winner = next(p["name"] for p in one["players"] if p["id"] == one["rounds"][0]["pairings"][0]["a"])
    loser = ({"Ann", "Bob"} - {winner}).pop()
    table = ratings.rate_events([one, one])["sams"]
    w, l = table[ratings.player_key(winner)], table[ratings.player_key(loser)]
    assert w["games"] == 4 and len(w["history"]) == 4 and w["rating"] > l["rating"]
    assert [h["score"] for h in w["history"]] == [1.0, 1.0, 1.0, 1.0]
    assert w["history"][-1]["rating"] > w["history"][0]["rating"]
    bye = start(new_event(["Ann", "Bob", "Cid"], seed=1))
    assert all(g.b for g in ratings.games_of_event(bye))          # a bye is no game


def test_slips_and_standings_pdfs_read_back_with_every_name(tmp_path):
    state = _evening()
    for name, data in (("slips.pdf", slips.slips_pdf(state)), ("standings.pdf", slips.standings_pdf(state))):
        (tmp_path / name).write_bytes(data)
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / "slips.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "Round 2 · Table 1" in text and "Round 2 · Table 2" in text and "Cid Özdemir" in text
    assert "Bye this round:" in text and "Games won" in text
    assert "Sam's Battle Game" in text and " sams " not in text        # the game as players know it
    table = subprocess.run(["pdftotext", "-layout", str(tmp_path / "standings.pdf"), "-"], capture_output=True,
                           text=True, check=True).stdout
    assert "standings after round 2" in table and "<script>alert(1)</script>" in table


def test_the_organiser_runs_an_event_from_the_command_line(tmp_path, capsys):
    db = str(tmp_path / "events.sqlite3")

    def run(*args):
        code = cli.main(["--data-dir", str(tmp_path), "event", "--db", db, *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    assert run("create", "Friday", "--game", "sams", "--rounds", "3", "--seed", "2")[0] == 0
    deck = tmp_path / "deck.txt"
    deck.write_text("# my deck\nlion\nowl\n", encoding="utf-8")
    for name in ("Ann", "Bob", "Cid"):
        assert run("register", name, "--deck", str(deck))[0] == 0
    code, out, _ = run("pair")
    assert code == 0 and "bye" in out and "lowest-ranked player without a bye" in out
    table = int(re.search(r"table (\d+)", out).group(1))
    code, _, err = run("result", str(table), "3-0")
    assert code == 2 and err == "companion event: 3-0-0 is not the result of a best-of-three match\n"
    code, _, err = run("result", str(table), "two-one")
    assert code == 2 and "is not a score" in err
    assert run("result", str(table), "2-1")[0] == 0
    code, out, _ = run("standings", "--json")
    rows = json.loads(out)
    assert [r["points"] for r in rows] == [3, 3, 0]
    assert run("undo")[0] == 0
    assert [r["points"] for r in json.loads(run("standings", "--json")[1])] == [3, 0, 0]
    code, _, err = run("register", "Dee", "--deck", str(tmp_path / "missing.txt"))
    assert code == 2 and "missing.txt" in err and "Traceback" not in err
    assert run("slips", "-o", str(tmp_path / "s.pdf"))[0] == 0 and (tmp_path / "s.pdf").read_bytes()[:4] == b"%PDF"
    assert run("pages", "--out", str(tmp_path / "pages"))[0] == 0
    assert sorted(p.name for p in (tmp_path / "pages" / "players").iterdir()) == ["p1.html", "p2.html", "p3.html"]
    code, _, err = run("--event", "9", "standings")
    assert code == 2 and "no event #9" in err


def test_the_tv_page_names_the_club_tables_the_organiser_gave_and_keeps_the_numbers():
    from companion.event import moves, pages
    state = moves.apply(None, {"type": "create", "name": "Named", "game": "sams", "format": "bo1", "rounds": 2,
                               "tables": ["oak-corner", "window"]})
    for name in ("Ana", "Ben", "Cy", "Dee", "Eli"):
        state = moves.apply(state, {"type": "register", "name": name})
    state = moves.apply(state, moves.prepare(state, {"type": "start_round"}))
    view = pages.public_view(state)
    assert [(p["table"], p["club_table"]) for p in view["pairings"]] == [(1, "oak-corner"), (2, "window"), (None, None)]
    html = pages.tv_page(state)
    assert "1<div class=club>oak-corner</div>" in html and "2<div class=club>window</div>" in html
    # Without a list of the club's tables the event's numbers are all the room needs.
    plain = moves.apply(None, {"type": "create", "name": "Plain", "game": "sams", "format": "bo1", "rounds": 2})
    for name in ("Ana", "Ben"):
        plain = moves.apply(plain, {"type": "register", "name": name})
    plain = moves.apply(plain, moves.prepare(plain, {"type": "start_round"}))
    assert pages.public_view(plain)["pairings"][0]["club_table"] is None and "class=club" not in pages.tv_page(plain)
