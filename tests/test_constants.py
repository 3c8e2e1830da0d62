"""The constants table: one entry per fact, each with a source and honest tags."""

from __future__ import annotations

import ast
from pathlib import Path

from models.constants import BIDIRECTIONAL, CONSTANTS, NO_DIRECTION, PER_DIRECTION, SCOPES, SOURCES

TABLE = Path(__file__).resolve().parent.parent / "models" / "constants.py"


def _literal_keys(name: str) -> list[str]:
    tree = ast.parse(TABLE.read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == name:
            return [k.value for k in node.value.keys]
    raise AssertionError(f"{name} not found in {TABLE}")


def test_no_constant_or_source_is_defined_twice():
    # a dict literal silently keeps the last of two equal keys: catch it in the source
    for table in ("SOURCES", "CONSTANTS"):
        keys = _literal_keys(table)
        dupes = sorted({k for k in keys if keys.count(k) > 1})
        assert not dupes, f"models/constants.py: {table} defines {dupes} more than once"


def test_every_constant_cites_a_known_source_and_has_valid_tags():
    for name, c in CONSTANTS.items():
        assert c.source in SOURCES, f"{name}: source {c.source!r} is not in SOURCES"
        assert c.direction in (PER_DIRECTION, BIDIRECTIONAL, NO_DIRECTION), name
        assert c.scope in SCOPES, f"{name}: scope {c.scope!r} not one of {SCOPES}"
        assert c.label, f"{name}: needs a label for the pages"


def test_every_bandwidth_says_its_direction_and_scope():
    for name, c in CONSTANTS.items():
        if c.unit == "B/s":
            assert c.direction in (PER_DIRECTION, BIDIRECTIONAL), f"{name}: bandwidth without direction"
            assert c.scope, f"{name}: bandwidth without scope"


def test_every_source_is_a_full_citation():
    for key, s in SOURCES.items():
        assert s.title and s.publisher and 1900 < s.year < 2100, key
        assert s.url.startswith("https://"), f"{key}: cite a stable https URL or DOI"
