"""Shared helpers: where the rules core's test data lives in the clone."""

import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
CORE_DATA = REPO / "crates" / "oware-core" / "tests" / "data"


@pytest.fixture(scope="session")
def core_data() -> pathlib.Path:
    assert CORE_DATA.is_dir(), f"missing {CORE_DATA}"
    return CORE_DATA


def read_cases(path: pathlib.Path):
    """Blocks of `key value` lines separated by blank lines ('#' comments)."""
    cases, cur = [], []
    for line in path.read_text().splitlines() + [""]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                cases.append(cur)
                cur = []
            continue
        key, _, value = line.partition(" ")
        cur.append((key, value.strip()))
    return cases
