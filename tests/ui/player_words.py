"""What a player may never read on the screen (issue 25, "Player words everywhere").

:func:`problems` takes the texts a screen shows now and the words of the
buttons on it, and says which of them speak the code's language instead of
the players': an internal id ("0.white1", "sams.7h"), an underscore
("Like_black"), a bare option key ("solo_seat"), a number whose noun
disagrees with it ("1 cards"), or an instruction naming a control that is not
on the screen ("press Ready" with no Ready button).
"""
from __future__ import annotations

import re

#: a zone or card id: "0.white1", "1.lane3", "sams.7h", "territory.c12"
INTERNAL_ID = re.compile(r"(?<![\w.])(?:[01]\.[a-z]+\d*|(?:sams|lifeforce|vitaluna|territory|arcmage)\.[\w-]+)(?![\w])")
UNDERSCORE = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]")
#: "1 cards", "1 actions", "a cards" — a singular count before a plural noun (words ending in "s"
#: that are singular are listed)
NOUNS = ("card", "action", "creature", "land", "lane", "battle", "round", "point", "turn", "tag", "game",
         "player", "minute", "second", "heart", "region", "servant", "step", "copy", "page", "counter", "VP")
ONE_PLURAL = re.compile(r"(?<![\d.,:–-])\b1 (" + "|".join(n[:-1] + "ies" if n.endswith("y") else n + "s"
                                                        for n in NOUNS) + r")\b")
#: "2 card", "0 creature" — a number other than 1 before a countable singular noun
MANY_SINGULAR = re.compile(r"(?<![\d.,:])\b(?:0|[2-9]|\d\d+) (card|action|creature|land|lane|battle|round|point|"
                           r"turn|tag|game|player|minute|second|heart|life|region|servant)\b(?! (?:of|pile|deck|back|face))")
#: an instruction naming a control: "press Ready", "tap Done", "touch Next round"
INSTRUCTION = re.compile(r"\b(?:press|tap|touch)(?:es)? (?:the )?[\"“']?([A-Z][\w']*|done|ready|next)\b")
SECONDS = re.compile(r"\b\d+(?:\.\d+)? s\b")
#: a line that ends with the word the next line starts with: a chip's "Burn\nburn", "… armour\narmour"
#: (on one line a repeated word can be right: "Mata Mata", "land by land · Land 1")
DOUBLED = re.compile(r"\b([A-Za-z]{3,})[ \t]*\n[ \t]*\1\b", re.IGNORECASE)


def problems(texts: list[str], buttons: list[str], option_keys: frozenset[str] = frozenset()) -> list[str]:
    """Every player-words problem in ``texts``, each as one line naming the text."""
    found = []
    for text in texts:
        for match in INTERNAL_ID.finditer(text):
            found.append(f"internal id {match.group(0)!r} in {text!r}")
        if "(s)" in text:
            found.append(f"a plural left open in {text!r}")
        if UNDERSCORE.search(text):
            found.append(f"underscore in {text!r}")
        for match in ONE_PLURAL.finditer(text):
            found.append(f"plural after 1 in {text!r}")
        for match in MANY_SINGULAR.finditer(text):
            found.append(f"singular after {match.group(0).split()[0]} in {text!r}")
        if text.strip() in option_keys:
            found.append(f"bare option key {text!r}")
        if SECONDS.search(text):
            found.append(f"seconds of thought in {text!r}")
        for match in DOUBLED.finditer(text):
            found.append(f"{match.group(1)!r} twice in a row in {text!r}")
        for match in INSTRUCTION.finditer(text):
            name = match.group(1).lower()
            if name in ("a", "here", "one", "it", "again", "to"):
                continue
            if not any(b.lower() == name or b.lower().startswith((name + " ", name + ":")) for b in buttons):
                found.append(f"{match.group(0)!r} but no such button, in {text!r}")
    return found
