"""The working tree is the user's: a test run leaves its build/manifest.json and site/ byte for byte
as `make` left them.

The state is taken before the first test (tests/conftest.py: pytest_collection_modifyitems) and
compared here, in the run's last test (alone in this file: under `-n 2 --dist loadfile` a file is
one unit of work, and this one is queued last and waits until every other worker has finished).
The shared build (`preview_site`, which is `make`'s own command) may change the tree only where
`make` would have: when build/ and site/ were up to date (no source newer than the site, and the
build rendered nothing) it must change nothing; and no test after it may change what it left.
"""

from __future__ import annotations

import pytest
from conftest import TREE_BEFORE, TREE_UP_TO_DATE, shared_build, wait_for_other_workers
from support import ROOT, changed_files, working_tree_state


def listing(changes: list[str]) -> str:
    return "\n".join(changes[:20]) + (f"\n… and {len(changes) - 20} more" if len(changes) > 20 else "")


@pytest.mark.last
def test_the_run_leaves_build_and_site_as_make_left_them(pytestconfig):
    wait_for_other_workers(pytestconfig)
    before, now = pytestconfig.stash[TREE_BEFORE], working_tree_state(ROOT)
    shared = shared_build(pytestconfig)
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

