"""A check the fast models' tests share: are random choices spread evenly?"""
import math
from collections import Counter


def uniform_enough(counts: Counter, cells: int) -> bool:
    """Chi-square of ``counts`` against equal frequencies over ``cells`` possible keys (an
    unseen key counts as 0), within its mean plus six standard deviations: the seeds are
    fixed, so this is a bound that a bias of a few per cent breaks, not a p-value."""
    expected, df = sum(counts.values()) / cells, cells - 1
    chi2 = sum((o - expected) ** 2 for o in counts.values()) / expected + (cells - len(counts)) * expected
    return len(counts) <= cells and chi2 < df + 6 * math.sqrt(2 * df)
