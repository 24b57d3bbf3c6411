"""Players' own cards (<data dir>/cards/<game>.json) as `companion run` loads them."""
import json
import subprocess
import sys

TERRITORY_CARDS = {"game": "territory", "format": 1,
                   "biomes": [{"id": "lava", "name": "Lava", "counts_as": "desert", "why": "hot and dry"}],
                   "cards": [{"id": "territory.marsh-stalker", "name": "Marsh Stalker", "attrs": {
                       "kind": "creature", "species": "Heron", "types": ["bird"], "base_power": 3,
                       "biomes": {"swamp": 3, "lava": -2}, "abilities": [], "cost": 7, "stars": 1}}]}

PROBE = """
import json, sys
from pathlib import Path
from companion import cards, games
cards.use_user_dir(Path(sys.argv[1]))           # what the composition root does first
rules = games.get("territory")
options = rules.normalise_options({})
rules.setup(options, 1)
print(json.dumps({"available": games.available(), "broken": games.broken(),
                  "territory_cards": [c["id"] for c in options["cards"]["cards"]]}))
"""


def test_every_engine_loads_with_a_players_card_dir_and_territory_takes_its_cards(tmp_path):
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "territory.json").write_text(json.dumps(TERRITORY_CARDS))
    out = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["broken"] == {}
    assert result["available"] == ["sams", "lifeforce", "vitaluna", "territory", "arcmage"]
    assert result["territory_cards"] == ["territory.marsh-stalker"]
