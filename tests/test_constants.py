"""The constants table: one entry per fact, each with a source and honest tags."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from models.constants import (
    BANDWIDTH_DIRECTIONS,
    BIDIRECTIONAL,
    CONSTANTS,
    DOMAINS,
    ENTITIES,
    NO_DIRECTION,
    PER_DIRECTION,
    SCOPES,
    SHARED,
    SOURCES,
    UNSTATED,
)
from models.constants.products import GPU_FIELDS

PACKAGE = Path(__file__).resolve().parent.parent / "models" / "constants"


def _literal_keys(path: Path, name: str) -> list[str]:
    for node in ast.parse(path.read_text()).body:
        target = getattr(node, "target", None) or (node.targets[0] if isinstance(node, ast.Assign) else None)
        if getattr(target, "id", None) == name and isinstance(node.value, ast.Dict):
            return [k.value for k in node.value.keys]
    raise AssertionError(f"{name} not found in {path}")


def test_no_constant_or_source_is_defined_twice():
    # a dict literal silently keeps the last of two equal keys: catch it in the source
    keys = [k for mod in DOMAINS for k in _literal_keys(Path(mod.__file__), "CONSTANTS")]
    dupes = sorted({k for k in keys if keys.count(k) > 1})
    assert not dupes, f"models/constants: CONSTANTS defines {dupes} more than once"
    src = _literal_keys(PACKAGE / "sources.py", "SOURCES")
    assert len(src) == len(set(src)), "models/constants/sources.py: a source key appears twice"
    assert len(CONSTANTS) == len(keys)


def test_every_constant_cites_a_known_source_and_has_valid_tags():
    for name, c in CONSTANTS.items():
        assert c.source in SOURCES, f"{name}: source {c.source!r} is not in SOURCES"
        assert c.direction in (PER_DIRECTION, BIDIRECTIONAL, SHARED, UNSTATED, NO_DIRECTION), name
        assert c.scope in SCOPES, f"{name}: scope {c.scope!r} not one of {SCOPES}"
        assert c.label, f"{name}: needs a label for the pages"


def test_every_bandwidth_says_its_direction_and_scope():
    for name, c in CONSTANTS.items():
        if c.unit == "B/s":
            assert c.direction in BANDWIDTH_DIRECTIONS, f"{name}: bandwidth without direction"
            assert c.scope, f"{name}: bandwidth without scope"
        else:
            assert c.direction == NO_DIRECTION, f"{name}: only a bandwidth has a direction"


def test_tags_are_ones_a_reader_would_accept():
    """Memory buses are half duplex: their datasheet figure is reads plus writes, shared.
    A count of GPUs in a rack or ports on a switch chip is not 'per node'."""
    for name, c in CONSTANTS.items():
        text = f"{name} {c.label}".lower()
        if c.unit == "B/s" and any(w in text for w in ("hbm", "ddr5", "dram")):
            assert c.direction == SHARED, f"{name}: a memory bandwidth is a shared half-duplex total"
        if c.direction == SHARED:
            assert any(w in text for w in ("hbm", "ddr", "memory", "dram", "storage")), \
                f"{name}: only memory buses and storage systems (reads and writes) share"
        if c.direction == UNSTATED:  # the source gives no direction: the note says what it does give
            assert "without saying" in c.note, f"{name}: say in the note what the source leaves open"
    assert CONSTANTS["nvl72_gpus"].scope == "per rack"
    assert CONSTANTS["nvlink_switch_ports"].scope == "per switch tray"  # 2 chips, 144 ports, 14.4 TB/s


def test_one_place_for_each_fact():
    """Two measured quantities with the same value, unit and scope from one document, or two
    sources naming one document, are one fact written twice. (Counts are left out: two products
    may well both have 18 links.)"""
    seen: dict[tuple, str] = {}
    for name, c in CONSTANTS.items():
        if c.unit == "1":
            continue
        key = (c.value, c.unit, c.scope, SOURCES[c.source].title)
        assert key not in seen, f"{name} repeats {seen[key]}"
        seen[key] = name
    places: dict[tuple, str] = {}
    for key, s in SOURCES.items():  # one document may be cited at several places (sections)
        assert (s.title, s.where) not in places, f"sources {places[s.title, s.where]!r} and {key!r} cite the same place"
        places[s.title, s.where] = key


def test_every_source_is_a_full_citation():
    for key, s in SOURCES.items():
        assert s.title and s.publisher and 1900 < s.year < 2100, key
        # the one exception: the video whose claims the case study audits names no address
        audited = s.url == "" and "claims audited on this page" in s.publisher
        assert s.url.startswith("https://") or audited, f"{key}: cite a stable https URL or DOI"


def test_gpu_entities_read_their_cited_constants():
    for key, gpu in ENTITIES["gpu"].items():
        for f, cname in GPU_FIELDS.items():
            assert getattr(gpu, f) == CONSTANTS[cname.format(key=key)].value, (key, f)


def test_an_entity_checks_itself():
    from models.constants.products import GPU

    with pytest.raises(ValueError, match="hbm_bandwidth must be positive"):
        GPU("x", "X", 1e15, 2e15, 0.0, 8e10)
