"""A file under its size cap cannot make the companion build millions of objects (issue 24): JSON
inputs are counted before they are parsed, and a record that would make too many values is one
sentence, in a small multiple of its size in memory."""
import json

from hypothesis import given, settings, strategies as st

from companion import validate
from companion.cli import main
from companion.filebench import measured
from companion.records import MAX_BYTES, MAX_NODES

HEAD = '{"format": "tabletop-companion-record", "version": 1, "game": "sams", "seed": 1, "actions": [], '

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=6),
    max_leaves=40)


def values_and_keys(doc) -> int:
    count, stack = 0, [doc]
    while stack:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            count += len(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


@settings(max_examples=100, deadline=None)
@given(json_values, st.sampled_from([None, 1]), st.booleans())
def test_the_count_before_parsing_is_never_below_what_parsing_makes(doc, indent, ascii_only):
    """The bound holds for any JSON text: strings full of commas, colons, brackets and escapes too."""
    text = json.dumps(doc, indent=indent, ensure_ascii=ascii_only)
    assert validate.count_nodes(text) >= values_and_keys(json.loads(text))


def test_a_20_mb_record_of_empty_lists_is_refused_in_one_sentence_within_200_mb(tmp_path):
    """Before issue 24: 6.6 million `[]` in `summary` took 1 GB and 28 s before any check."""
    path = tmp_path / "hostile.json"
    filler = "[],"
    count = (MAX_BYTES - len(HEAD) - 20) // len(filler)
    path.write_text(HEAD + '"summary": [' + filler * (count - 1) + "[]]}")
    assert MAX_BYTES - 100_000 < path.stat().st_size <= MAX_BYTES
    done = measured(["replay", str(path)])           # the child's own peak RSS (see companion.filebench)
    assert done["exit"] == 2 and not done["traceback"], done
    assert done["said"].endswith(f"more than the {MAX_NODES:,} this kind of file may hold")
    assert done["peak_mb"] < 200, done


def test_a_record_just_under_the_count_still_replays(tmp_path, capsys):
    """The cap is on what parsing would make, not on the file's look: a summary of many values
    below it is read (and ignored by replay, as always)."""
    path = tmp_path / "big-summary.json"
    path.write_text(HEAD + '"summary": [' + ",".join(["0"] * (MAX_NODES - 100)) + "]}")
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["over"] is False


def test_a_card_file_with_too_many_values_is_one_sentence(tmp_path, capsys):
    path = tmp_path / "cards.json"
    path.write_text('{"cards": [' + ",".join(['{"a": []}'] * 300_000) + "]}")
    assert main(["price", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"companion price: {path}: holds up to") and len(err.strip().splitlines()) == 1


def test_depth_is_counted_without_recursion_and_stops_past_the_limit():
    deep = 1
    for _ in range(100_000):
        deep = [deep]
    assert validate.depth(deep) == validate.MAX_DEPTH + 1
    assert [validate.depth(d) for d in (1, [], [1], [[]], {"a": [{"b": 2}]})] == [0, 0, 1, 1, 3]
