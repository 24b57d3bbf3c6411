"""`companion price`: Creature Combat Territory's card designer on the command line (issue 5)."""
import json

import pytest

from companion.cards import DATA_DIR
from companion.cli import main


def test_price_explains_every_part_of_the_cost(tmp_path, capsys):
    """RULINGS: Total Cost = 2 × Base Power + ceil(signed sum of biome bonuses / 2) + abilities;
    Star Count = ceil(Final Cost / 10).  Hand-checked: 2×3 + ⌈(3−2)/2⌉ = 7, 1 star."""
    card = tmp_path / "stalker.json"
    card.write_text(json.dumps({"name": "Marsh Stalker", "attrs": {
        "kind": "creature", "species": "Heron", "types": ["bird"], "base_power": 3,
        "biomes": {"swamp": 3, "desert": -2}, "abilities": []}}))
    assert main(["price", str(card)]) == 0
    out = capsys.readouterr().out
    assert "Base power 3 × 2 = 6" in out
    assert "Swamp +3, Desert -2 = +1 → ⌈1 / 2⌉ = 1" in out
    assert "Final cost 7" in out and "Star count ⌈7 / 10⌉ = 1" in out


def test_a_creature_the_engine_cannot_play_is_refused_with_reasons(tmp_path, capsys):
    card = tmp_path / "bad.json"
    card.write_text(json.dumps({"name": "Bad", "attrs": {"kind": "creature", "base_power": 2,
                                                         "biomes": {"lava": 1}, "abilities": []}}))
    assert main(["price", str(card)]) == 2
    assert "biome 'lava' is neither a base biome nor a custom one" in capsys.readouterr().err


def test_the_shipped_catalogue_prices_with_its_custom_biomes(capsys):
    assert main(["price", str(DATA_DIR / "territory" / "cards.json")]) == 0
    assert capsys.readouterr().out.count("Star count") >= 40


@pytest.mark.parametrize("data, words", [
    (b"\xff\xfe", "line 1: byte 0xff is not UTF-8"),
    (b"[" * 100_000, "nested more than 32 levels deep"),
    (b'{"cards": [\n1]}', "line 2: cards[0]: 1 is not of type 'object'"),
    (b'{"cards": [{"attrs": {"base_power": ' + b"9" * 5000 + b"}}]}", "a number is too long"),
])
def test_a_broken_card_file_is_one_sentence(tmp_path, capsys, data, words):
    path = tmp_path / "cards.json"
    path.write_bytes(data)
    assert main(["price", str(path)]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
