"""`companion bench engines --against COMMIT`: this checkout and another commit, side by side (issue 26)."""
import subprocess
from pathlib import Path

import pytest

from companion import cli
from companion.bench import AgainstError, bench_against

REPO = Path(__file__).resolve().parents[2]


def _worktrees() -> set[str]:
    """The bench's temporary worktrees (other worktrees of the repository come and go with other work)."""
    listed = subprocess.run(["git", "-C", str(REPO), "worktree", "list", "--porcelain"], capture_output=True,
                            text=True).stdout
    return {line for line in listed.splitlines() if "companion-against-" in line}


def test_against_plays_the_same_seeds_in_both_trees_and_removes_its_worktree():
    before = _worktrees()
    out = bench_against(["HEAD"], seconds=0.05, only="sams", rounds=1)
    sams = out["engines"]["sams"]
    here, there = sams["this checkout"], sams["HEAD"]
    assert here["units"] == there["units"] > 0        # the same seeds: the same games, here and at HEAD
    assert len(here["per_round"]) == len(there["per_round"]) == 1
    assert there["this_checkout_ratio"] == pytest.approx(here["games_per_cpu_second"] / there["games_per_cpu_second"],
                                                         rel=0.01)
    assert [t["label"] for t in out["trees"]] == ["this checkout", "HEAD"]
    assert _worktrees() == before


@pytest.mark.parametrize("ref", ["no-such-commit-j26s", "--output=/tmp/x"])
def test_a_commit_that_cannot_be_found_is_one_sentence(ref, capsys):
    with pytest.raises(AgainstError):
        bench_against([ref], seconds=0.05, only="sams", rounds=1)
    assert cli.main(["bench", "engines", f"--against={ref}", "--game", "sams", "--seconds", "0.05"]) == 2
    assert capsys.readouterr().err == f"companion bench engines: {ref!r} is not a commit of {REPO}\n"
