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
          w: float, h: float) -> None:
    pdf.set_xy(x + 4, y + 5)
    pdf.font(10)
    pdf.cell(w - 8, 5, pdf.text_of(f"{state['name']} · {state['game']} · {moves.FORMATS[state['format']]}"))
    pdf.set_xy(x + 4, y + 11)
    pdf.font(20, True)
    pdf.cell(w - 8, 10, pdf.text_of(f"Round {rnd['number']} · Table {p['table']}"))
    games = "Games won" if state["format"] == "bo3" else "Won (1 or 0)"
    for i, pid in enumerate((p["a"], p["b"])):
        top = y + 26 + i * 22
        pdf.set_xy(x + 4, top)
        pdf.font(16, True)
        pdf.cell(w - 62, 8, pdf.text_of(names[pid]))
        pdf.font(10)
        pdf.set_xy(x + 4, top + 8)
        pdf.cell(w - 62, 5, pdf.text_of(f"{points[pid]} points before this round"))
        pdf.set_xy(x + w - 56, top)
        pdf.cell(24, 5, games)
        pdf.rect(x + w - 56, top + 5, 16, 10)
        pdf.set_xy(x + w - 36, top)
        pdf.cell(22, 5, "Signature")
        pdf.line(x + w - 36, top + 15, x + w - 6, top + 15)
    pdf.set_xy(x + 4, y + h - 16)
    pdf.font(10)
    pdf.cell(30, 6, "Games drawn")
    pdf.rect(x + 32, y + h - 17, 14, 8)
    pdf.set_xy(x + 52, y + h - 16)
    pdf.cell(w - 56, 6, pdf.text_of("Both players sign; the companion's own result needs no slip."))


def slips_pdf(state: dict) -> bytes:
    """The current round's match slips, four to a page (no slip for the bye)."""
    if not state["rounds"]:
        raise moves.EventError("no round has started: there are no slips to print")
    rnd = state["rounds"][-1]
    rows = standings.compute(state)
    points = {r.id: r.points for r in rows}
    names = {p["id"]: p["name"] for p in state["players"]}
    pdf = _Pdf()
    matches = [p for p in rnd["pairings"] if p["b"] is not None]
    w, h = 190, 277 / 4
    for i, p in enumerate(matches):
        if i % 4 == 0:
            pdf.add_page()
            pdf.set_dash_pattern(dash=2, gap=2)
            for k in range(1, 4):
                pdf.line(5, 10 + k * h, 205, 10 + k * h)
            pdf.set_dash_pattern()
        _slip(pdf, state, rnd, p, points, names, 10, 10 + (i % 4) * h, w, h)
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
