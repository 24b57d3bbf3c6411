"""Printable match slips and standings (PDF, with fpdf2), to print and cut.

Slips: four to an A4 page, with dashed cut lines; each names the event, the
round, the table and both players with their points, and has boxes for the
games won, drawn, and both signatures — the paper fallback for a table that
is offline or has no companion (the organiser then types the result in, and
it is marked as hand-entered).  Standings: the table of the TV page, as many
pages as it takes.  DejaVu Sans is used when it is installed (Debian's
fonts-dejavu-core, there on Raspberry Pi OS) so every name prints; without it
fpdf2's core font prints the characters Latin-1 has and "?" for the rest.
"""
from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from companion.event import moves, standings
from companion.event.pages import game_title

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


class _Pdf(FPDF):
    def __init__(self):
        super().__init__(orientation="P", unit="mm", format="A4")
        self.set_auto_page_break(False)
        self.set_margins(10, 10, 10)
        regular, bold = DEJAVU / "DejaVuSans.ttf", DEJAVU / "DejaVuSans-Bold.ttf"
        if regular.exists() and bold.exists():
            self.add_font("DejaVu", "", str(regular))
            self.add_font("DejaVu", "B", str(bold))
            self.family_name, self.unicode = "DejaVu", True
        else:
            self.family_name, self.unicode = "Helvetica", False

    def font(self, size: float, bold: bool = False) -> None:
        self.set_font(self.family_name, "B" if bold else "", size)

    def text_of(self, text: str) -> str:
        return text if self.unicode else text.encode("latin-1", "replace").decode("latin-1")


def _slip(pdf: _Pdf, state: dict, rnd: dict, p: dict, points: dict, names: dict, x: float, y: float,
          w: float) -> None:
    """One slip in a 190 × 69 mm band: event, round and table, both players, boxes, signatures."""
    pdf.set_xy(x + 2, y + 4)
    pdf.font(9)
    pdf.cell(w - 4, 4, pdf.text_of(f"{state['name']} · {game_title(state['game'])} · {moves.FORMATS[state['format']]}"))
    pdf.set_xy(x + 2, y + 9)
    pdf.font(16, True)
    pdf.cell(w - 4, 8, pdf.text_of(f"Round {rnd['number']} · Table {p['table']}"))
    won = "Games won" if state["format"] == "bo3" else "Won (1/0)"
    boxes, signature = x + w - 78, x + w - 50
    for i, pid in enumerate((p["a"], p["b"])):
        top = y + 20 + i * 15
        pdf.set_xy(x + 2, top)
        pdf.font(13, True)
        pdf.cell(boxes - x - 6, 6, pdf.text_of(names[pid]))
        pdf.set_xy(x + 2, top + 6)
        pdf.font(8)
        pdf.cell(boxes - x - 6, 4, pdf.text_of(f"{points[pid]} points before this round"))
        pdf.set_xy(boxes, top - 1)
        pdf.cell(22, 3, won)
        pdf.rect(boxes, top + 2, 16, 9)
        pdf.set_xy(signature, top - 1)
        pdf.cell(46, 3, "Signature")
        pdf.line(signature, top + 11, signature + 46, top + 11)
    pdf.set_xy(boxes, y + 50)
    pdf.cell(22, 3, "Games drawn")
    pdf.rect(boxes, y + 53, 16, 9)
    pdf.set_xy(x + 2, y + 57)
    pdf.font(8)
    pdf.cell(boxes - x - 6, 4, pdf.text_of("Both players sign. A table's own result needs no slip."))


def slips_pdf(state: dict) -> bytes:
    """The current round's match slips, four to a page (no slip for the bye)."""
    if not state["rounds"]:
        raise moves.EventError("no round has started: there are no slips to print")
    rnd = state["rounds"][-1]
    rows = standings.compute(state)
    points = {r.id: r.points for r in rows}
    names = {p["id"]: p["name"] for p in state["players"]}
    pdf = _Pdf()
    matches = sorted((p for p in rnd["pairings"] if p["b"] is not None), key=lambda p: p["table"])
    w, h = 190, 277 / 4
    for i, p in enumerate(matches):
        if i % 4 == 0:
            pdf.add_page()
            pdf.set_dash_pattern(dash=2, gap=2)
            for k in range(1, 4):
                pdf.line(5, 10 + k * h, 205, 10 + k * h)
            pdf.set_dash_pattern()
        _slip(pdf, state, rnd, p, points, names, 10, 10 + (i % 4) * h, w)
    byes = [names[p["a"]] for p in rnd["pairings"] if p["b"] is None]
    if byes and matches:
        pdf.set_xy(10, 287)
        pdf.font(8)
        pdf.cell(190, 4, pdf.text_of(f"Bye this round: {', '.join(byes)}"))
    return bytes(pdf.output())


def standings_pdf(state: dict) -> bytes:
    """The standings with their tiebreakers, 40 players to a page."""
    pdf = _Pdf()
    rows = standings.compute(state)
    cols = [("#", 10, "R"), ("Player", 78, "L"), ("Points", 18, "R"), ("W–L–D", 22, "R"),
            ("OMW%", 20, "R"), ("GW%", 20, "R"), ("OGW%", 20, "R")]
    title = (f"{state['name']} — standings after round {moves.current_round(state)}"
             + (" (final)" if moves.is_over(state) else ""))
    for start in range(0, max(len(rows), 1), 40):
        pdf.add_page()
        pdf.font(16, True)
        pdf.cell(190, 10, pdf.text_of(title), new_x="LMARGIN", new_y="NEXT")
        pdf.font(10, True)
        for name, width, align in cols:
            pdf.cell(width, 7, name, border="B", align=align)
        pdf.ln()
        pdf.font(10)
        for r in rows[start:start + 40]:
            values = [str(r.rank), r.name + (" (dropped)" if r.dropped else ""), str(r.points), r.record,
                      f"{float(r.omw) * 100:.2f}", f"{float(r.gw) * 100:.2f}", f"{float(r.ogw) * 100:.2f}"]
            for (name, width, align), value in zip(cols, values):
                pdf.cell(width, 6, pdf.text_of(value), align=align)
            pdf.ln()
        pdf.set_xy(10, 285)
        pdf.font(7)
        pdf.cell(190, 4, "Tiebreakers: Magic: The Gathering Tournament Rules, Appendix C (33% floor; byes "
                         "left out of opponents' percentages).")
    return bytes(pdf.output())
