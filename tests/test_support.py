"""tests/support.py's working-tree helpers catch what they name (the working-tree check,
tests/test_working_tree.py, relies on them)."""

from __future__ import annotations

import os
import time

import pytest
from conftest import wait_for_files
from support import changed_files, sources_newer_than, working_tree_state


def make_tree(root):
    (root / "build").mkdir(parents=True)
    (root / "build" / "manifest.json").write_text('{"entries": {}}\n')
    (root / "site" / "scenes").mkdir(parents=True)
    (root / "site" / "index.html").write_text("<p>home</p>")
    (root / "site" / "scenes" / "a.html").write_text("<p>a</p>")
    return working_tree_state(root)


@pytest.mark.parametrize("plant, expected", [
    (lambda r: (r / "site" / "scenes" / "a.html").write_text("<p>b</p>"), "site/scenes/a.html: changed"),
    (lambda r: (r / "site" / "new.html").write_text(""), "site/new.html: added"),
    (lambda r: (r / "site" / "index.html").unlink(), "site/index.html: removed"),
    (lambda r: (r / "build" / "manifest.json").write_text("{}"), "build/manifest.json: changed"),
], ids=["page-changed", "page-added", "page-removed", "manifest-changed"])
def test_a_changed_manifest_or_page_is_caught(tmp_path, plant, expected):
    before = make_tree(tmp_path)
    assert changed_files(before, working_tree_state(tmp_path)) == []
    plant(tmp_path)
    assert changed_files(before, working_tree_state(tmp_path)) == [expected]


def test_a_source_edited_after_the_site_means_it_is_not_up_to_date(tmp_path):
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "index.md"
    page.write_text("# home")
    built = tmp_path / "site" / "index.html"
    built.parent.mkdir()
    built.write_text("<h1>home</h1>")
    past = time.time() - 60
    os.utime(page, (past, past))
    assert sources_newer_than(tmp_path, built) == []
    page.write_text("# home, edited")
    assert sources_newer_than(tmp_path, built) == ["docs/index.md"]
    assert sources_newer_than(tmp_path, tmp_path / "site" / "missing.html") == ["(no site built)"]


def test_the_last_test_waits_for_every_other_worker_and_names_the_missing(tmp_path):
    (tmp_path / "finished-gw0").touch()
    wait_for_files(tmp_path, ["finished-gw0"], timeout=0)  # all there: returns at once
    with pytest.raises(TimeoutError, match=r"finished-gw2"):
        wait_for_files(tmp_path, ["finished-gw0", "finished-gw2"], timeout=0.05, poll=0.01)
