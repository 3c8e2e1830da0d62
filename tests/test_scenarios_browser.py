"""The browser gate on a fixed sample of the other scenarios' pages.

tests/test_browser.py audits every page of the default scenario; the copies under scenario/<id>/
share its templates and assets, so a fixed sample per scenario covers what differs: the home page,
a page that keeps its explanation, a page whose claims fail, and a scene not modelled for a mixture
of experts (tests/test_scenarios.py reads every page of every scenario without a browser).
"""

from __future__ import annotations

import pytest
from browser import audit

OTHERS = ("deepseek-v3", "llama3-70b")

pytestmark = pytest.mark.browser


SAMPLE = ["", "scenes/ring-vs-tree/", "scenes/nvlink-nvswitch/", "scenes/hbm-roofline/"]


@pytest.fixture(scope="module")
def results(scenario_site, site_url, chromium):
    out = {}
    for sid in OTHERS:
        for rel in SAMPLE:
            page = chromium.new_page()
            out[f"scenario/{sid}/{rel}"] = audit(page, f"{site_url}scenario/{sid}/{rel}")
            page.close()
    return out


def test_sampled_scenario_pages_load_clean(results):
    assert len(results) == len(OTHERS) * len(SAMPLE)
    problems = [p for r in results.values() for p in r.problems]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
    assert all(r.bytes > 0 for r in results.values())  # the pages were really fetched
