"""The working tree is the user's: a test run leaves its build/manifest.json and site/ byte for byte
as `make` left them.

The state is taken before the first test (tests/conftest.py: pytest_collection_modifyitems) and
compared here, in the run's last test. The shared build (`preview_site`, which is `make`'s own command) may change the
tree only where `make` would have: when build/ and site/ were up to date (no source newer than the
site, and the build rendered nothing) it must change nothing; and no test after it may change what
it left.
"""

from __future__ import annotations

import os
import time

import pytest
from conftest import SHARED_BUILD, TREE_BEFORE, TREE_UP_TO_DATE
from support import ROOT, changed_files, sources_newer_than, working_tree_state


def listing(changes: list[str]) -> str:
    return "\n".join(changes[:20]) + (f"\n… and {len(changes) - 20} more" if len(changes) > 20 else "")


@pytest.mark.last
def test_the_run_leaves_build_and_site_as_make_left_them(pytestconfig):
    before, now = pytestconfig.stash[TREE_BEFORE], working_tree_state(ROOT)
    shared = pytestconfig.stash.get(SHARED_BUILD, None)
    if shared is None:  # no test built the site: nothing may have changed at all
        assert changed_files(before, now) == [], "the run changed the working tree:\n" + listing(
            changed_files(before, now))
        return
    after_build = shared["tree"]
    assert changed_files(after_build, now) == [], (
        "a test changed the working tree after the shared build:\n" + listing(changed_files(after_build, now)))
    if shared["all_hits"] and pytestconfig.stash[TREE_UP_TO_DATE]:
        assert changed_files(before, after_build) == [], (
            "build/ and site/ were up to date, yet the shared build changed them (a site build that is "
            "not reproducible?):\n" + listing(changed_files(before, after_build)))


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
