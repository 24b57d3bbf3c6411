"""One validator for every file a person hands the companion: records, table profiles, card files.

Each input has one JSON Schema (in the module that owns the format) and every
entry point — ``companion run``, ``doctor``, ``replay``, ``simulate``, the
app — reads it through :func:`load`, so they all accept and refuse the same
files with the same sentence.  The checks are `jsonschema
<https://python-jsonschema.readthedocs.io/>`_ (Draft 2020-12): a schema is
plain data beside the format it describes, and every error carries the path
of the field, which :func:`locate` turns into a line of the file.

Before the schema, :func:`load` bounds what a hostile or damaged file can cost:

* its size (``max_bytes``) and that it is UTF-8 text;
* nesting, at :data:`MAX_DEPTH` levels (a 100,000-deep ``[[[…]]]`` is one
  sentence, not a ``RecursionError``);
* integers of more than 4,300 digits (CPython's own limit on ``int(str)``)
  are caught where the parser meets them;
* how many values (and keys) a JSON text can make, counted *before* it is
  parsed (:func:`count_nodes`, a pass over the text at C speed), so a file
  under its size cap can never make millions of objects: Python spends 50–100
  bytes on each (a 19.9 MB record of 6.6 million ``[]`` took 1 GB when parsed
  whole).  Each format sets its own cap from its largest legitimate file.

Every refusal is an :class:`InputError` (a ``ValueError``) whose message is one
sentence: ``"table.toml, line 7: readers[2].bus: [0] is not of type 'integer'"``.
"""
from __future__ import annotations

import json
import re
import tomllib
from json.decoder import scanstring
from pathlib import Path

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import best_match

MAX_DEPTH = 32
MAX_MESSAGE = 240
#: Values and keys a JSON input may hold unless its format says otherwise.  The largest shipped card
#: file (Lifeforce, 43 KB) counts 4,845; a players' file a hundred times bigger still fits, and at
#: ≤ 100 bytes of Python objects a value this cap is ~50 MB at most.
MAX_NODES = 500_000

_CONTAINERS = (dict, list)           # what json and tomllib make (depth() is on every input's path: no isinstance)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


class InputError(ValueError):
    """A file that cannot be used; the message is one sentence naming file, line and field."""


def _is_integer(_checker, instance) -> bool:
    # JSON Schema counts 1.0 as an integer; our readers want a real int (and never a bool).
    return isinstance(instance, int) and not isinstance(instance, bool)


_Validator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))


def read_text(path: str | Path, max_bytes: int, what: str = "file") -> str:
    """The file's text; refused in one sentence if missing, too big or not UTF-8."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a {what}") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise InputError(f"{path}: larger than {max_bytes:,} bytes, too big for a {what}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{path}, line {line}: byte {data[exc.start]:#04x} is not UTF-8 text; "
                         f"save the file as UTF-8") from None


def count_nodes(text: str) -> int:
    """At least as many as the values and keys parsing ``text`` as JSON would make (an upper bound).

    Strings are blanked first (a ``,`` inside one is not a separator); then
    every value but the outermost follows a ``[``, a ``{``, a ``,`` or (a key's
    value) a ``:``, and every key comes before a ``:``.  All of it runs in C:
    ~0.3 s for 20 MB of brackets, ~1 µs for each string.
    """
    return _structure(_STRING.sub('""', text))


def _structure(text: str) -> int:
    return 1 + text.count(",") + text.count("[") + text.count("{") + 2 * text.count(":")


def parse_json(text: str, source: str, max_nodes: int = MAX_NODES):
    """``text`` parsed; refused in one sentence if it is not JSON, holds more than ``max_nodes``
    values and keys, nests too deep or has an overlong number."""
    # Counted over the raw text first (a looser bound, ~20 ms for 20 MB); strings are blanked only
    # when that bound is over the cap, for blanking costs ~1 µs a string.
    nodes = _structure(text)
    if nodes > max_nodes:
        nodes = count_nodes(text)
    if nodes > max_nodes:
        raise InputError(f"{source}: holds up to {nodes:,} values, more than the {max_nodes:,} this kind of "
                         f"file may hold") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}, line {exc.lineno}: not valid JSON (column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise InputError(f"{source}: nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:                 # CPython's 4,300-digit limit on integers
        raise InputError(f"{source}: a number is too long ({_short(str(exc))})") from None


def parse_toml(text: str, source: str):
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{source}: not valid TOML ({exc})") from None
    except RecursionError:
        raise InputError(f"{source}: nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise InputError(f"{source}: a number is too long ({_short(str(exc))})") from None


def depth(doc) -> int:
    """How deeply ``doc`` nests (a scalar and an empty container are 0, ``[1]`` is 1), counted
    level by level without recursion; stops counting past :data:`MAX_DEPTH`."""
    deepest, level = 0, [doc] if type(doc) in _CONTAINERS else []
    while level and deepest <= MAX_DEPTH:
        children = [child for node in level for child in (node.values() if type(node) is dict else node)]
        if not children:
            break
        deepest += 1
        level = [child for child in children if type(child) in _CONTAINERS]
    return deepest


def check(doc, schema: dict, source: str, text: str | None = None, fmt: str = "json") -> None:
    """Refuse ``doc`` with one sentence if it nests too deep or breaks ``schema``."""
    if depth(doc) > MAX_DEPTH:
        raise InputError(f"{source}: nested more than {MAX_DEPTH} levels deep")
    error = best_match(_Validator(schema).iter_errors(doc))
    if error is None:
        return
    path = list(error.absolute_path)
    line = locate(text, path, fmt) if text is not None else None
    where = f"{source}, line {line}" if line else source
    field = field_name(path)
    message = error.message
    if error.validator == "additionalProperties":
        message = message.replace("Additional properties are not allowed", "unknown keys")
    raise InputError(f"{where}: {field + ': ' if field else ''}{_short(message)}")


def load(path: str | Path, schema: dict, fmt: str = "json", max_bytes: int = 1_000_000, what: str = "file",
         max_nodes: int = MAX_NODES):
    """Read, parse, bound and check one file; returns the document (refusals: :class:`InputError`)."""
    text = read_text(path, max_bytes, what)
    doc = parse_toml(text, str(path)) if fmt == "toml" else parse_json(text, str(path), max_nodes)
    check(doc, schema, str(path), text, fmt)
    return doc, text


def field_name(path) -> str:
    """``["readers", 1, "bus"]`` → ``"readers[1].bus"`` (indices as in the file, from 0)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def locate(text: str | None, path, fmt: str = "json") -> int | None:
    """The line of ``text`` where the value at ``path`` starts (None when it cannot be told)."""
    if text is None:
        return None
    try:
        return _locate_toml(text, path) if fmt == "toml" else _locate_json(text, path)
    except (IndexError, ValueError, RecursionError):
        return None


_WS = re.compile(r"[ \t\n\r]*")


def _locate_json(text: str, path) -> int | None:
    decoder = json.JSONDecoder()
    pos = _WS.match(text, 0).end()
    for key in path:
        opener = text[pos]
        pos = _WS.match(text, pos + 1).end()
        index = 0
        while True:
            if text[pos] in "}]":
                return None
            if opener == "{":
                name, pos = scanstring(text, pos + 1)
                pos = _WS.match(text, pos).end() + 1          # the colon
                pos = _WS.match(text, pos).end()
                if name == key:
                    break
            elif index == key:
                break
            _, pos = decoder.raw_decode(text, pos)
            pos = _WS.match(text, pos).end()
            if text[pos] == ",":
                pos = _WS.match(text, pos + 1).end()
            index += 1
    return text.count("\n", 0, pos) + 1


def _locate_toml(text: str, path) -> int | None:
    """TOML keeps no positions; find the table header of ``path``'s container, then the key under it."""
    lines = text.splitlines()
    start, parts = 0, list(path)
    header_line = None
    # [[array]] n-th entry, or [table.sub] headers
    if len(parts) >= 2 and isinstance(parts[1], int):
        pattern = re.compile(r"^\s*\[\[\s*" + re.escape(str(parts[0])) + r"\s*\]\]")
        hits = [i for i, l in enumerate(lines) if pattern.match(l)]
        if parts[1] < len(hits):
            start = header_line = hits[parts[1]]
            parts = parts[2:]
    elif len(parts) >= 2:
        for cut in range(len(parts) - 1, 0, -1):
            dotted = r"\s*\.\s*".join(re.escape(str(p)) for p in parts[:cut])
            pattern = re.compile(r"^\s*\[\s*" + dotted + r"\s*\]")
            hit = next((i for i, l in enumerate(lines) if pattern.match(l)), None)
            if hit is not None:
                start = header_line = hit
                parts = parts[cut:]
                break
    if parts:
        key = re.compile(r"^\s*[\"']?" + re.escape(str(parts[0])) + r"[\"']?\s*=")
        for i in range(start, len(lines)):
            if lines[i].lstrip().startswith("[") and (header_line is None or i > start):
                break                               # the next table: the key is not in this one
            if key.match(lines[i]):
                return i + 1
    return header_line + 1 if header_line is not None else None


def printable(text: str) -> str:
    """``text`` with every character a terminal or screen would not print as itself (control
    characters, line and paragraph separators) written as an escape, so echoed input stays one line."""
    return "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 1] + "…"
