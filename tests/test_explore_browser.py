"""Explore panels in a real browser: one page load per check, every panel.

Keyboard moves a slider and the figure and numbers become the JSON's values; axe passes with the
panel open; nothing is fetched from another host; the URL state round-trips; the theme toggle
swaps the figure for the other scheme's at the same setting; without JavaScript the fallback
table shows.
"""

from __future__ import annotations

import json

import pytest
from browser import SERIOUS, _axe, _is_local, ready, waivers

from pipeline.catalogue import load
from pipeline.workers import explore

pytestmark = pytest.mark.browser
PANELS = sorted(s.id for s in load().built if s.explore)


def _data(scene_id: str) -> dict:
    return json.loads(explore.explore_json(scene_id).read_text(encoding="utf-8"))


def _state(page) -> dict:
    return page.evaluate("""() => {
      const d = document.querySelector('details.w06-explore');
      const svg = d.querySelector('.w06-explore-figure svg');
      const geo = {};
      svg.querySelectorAll('[id^="w06-x-"]').forEach(g => {
        geo[g.id.slice(6)] = {hidden: g.getAttribute('visibility') === 'hidden',
                              d: [...g.querySelectorAll('path')].map(p => p.getAttribute('d')),
                              xy: [...g.querySelectorAll('use[x]')]
                                    .map(u => [u.getAttribute('x'), u.getAttribute('y')])};
      });
      return {values: [...d.querySelectorAll('.w06-explore-readouts dd')].map(e => e.textContent),
              inputs: [...d.querySelectorAll('input[type=range]')]
                        .map(i => [+i.value, i.getAttribute('aria-valuetext')]),
              scheme: svg.getAttribute('data-scheme'), geo,
              live: !!d.querySelector('[aria-live=polite] .w06-explore-readouts'),
              fallbackHidden: d.querySelector('.w06-explore-fallback').hidden};
    }""")


def _expect(data: dict, idx: list[int], state: dict) -> None:
    """The page shows exactly the JSON's cell at these slider indices."""
    cell = _cell(data, idx)
    assert [i for i, _ in state["inputs"]] == idx
    assert [t for _, t in state["inputs"]] == [s["stops"][i] for s, i in zip(data["sliders"], idx, strict=True)]
    assert state["values"] == cell["v"]
    for tag, geo in data["frames"][cell["f"]].items():
        shown = state["geo"][tag]
        assert shown["hidden"] == bool(geo.get("hidden")), tag
        if "d" in geo:
            assert shown["d"] == geo["d"], f"path data of {tag}"
    for tag, xy in cell["m"].items():
        assert state["geo"][tag]["xy"] == [xy], f"mark {tag}"


@pytest.mark.parametrize("scene_id", PANELS)
def test_keyboard_url_theme_and_axe(site_url, chromium, scene_id):
    data = _data(scene_id)
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    url = site_url + f"scenes/{scene_id}/"
    page.goto(url, wait_until="load")
    ready(page)
    assert not any("explore" in r for r in requests), "the panel's script or data loaded before it was opened"
    page.locator("details.w06-explore summary").first.click()
    page.wait_for_selector(".w06-explore-figure svg[data-cell]")

    defaults = [s["default"] for s in data["sliders"]]
    state = _state(page)
    assert state["live"] and state["fallbackHidden"] and state["scheme"] == "light"
    _expect(data, defaults, state)

    # the keyboard: the first slider one step, the last one to its end
    inputs = page.locator("details.w06-explore input[type=range]")
    inputs.nth(0).focus()
    step = "ArrowLeft" if defaults[0] == len(data["sliders"][0]["stops"]) - 1 else "ArrowRight"
    page.keyboard.press(step)
    idx = [defaults[0] + (1 if step == "ArrowRight" else -1), *defaults[1:]]
    if len(defaults) > 1:
        inputs.nth(len(defaults) - 1).focus()
        page.keyboard.press("End")
        idx[-1] = len(data["sliders"][-1]["stops"]) - 1
    assert _cell(data, idx)["v"] != _cell(data, defaults)["v"], "the keys must reach a setting with other numbers"
    _expect(data, idx, _state(page))

    # axe with the panel open, on the panel (the whole page has its own scan in test_browser.py)
    waived = waivers()
    found = _axe().run(page, context="details.w06-explore").response["violations"]
    bad = [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
           for v in found if v.get("impact") in SERIOUS and v["id"] not in waived]
    assert not bad, bad

    # the theme toggle: the dark figure, at the same setting
    page.locator("label[title='Switch to dark mode']").first.click()
    page.wait_for_selector(".w06-explore-figure svg[data-scheme=dark]")
    _expect(data, idx, _state(page))

    # the URL round-trips: a fresh page at this address opens the panel at this setting
    shared = page.url
    assert "explore=" in shared
    other = ctx.new_page()
    other.on("request", lambda r: requests.append(r.url))
    other.goto(shared, wait_until="load")
    other.wait_for_selector(".w06-explore-figure svg[data-cell]")
    assert other.locator("details.w06-explore").first.get_attribute("open") is not None
    _expect(data, idx, _state(other))

    # on a phone every readout's label and value stay on screen (long labels once pushed the values out of view)
    other.set_viewport_size({"width": 390, "height": 900})
    other.wait_for_timeout(100)
    outside = other.evaluate("""() => {
      const w = document.documentElement.clientWidth;
      return [...document.querySelectorAll('details.w06-explore .w06-explore-readouts > *')]
        .filter(e => e.getBoundingClientRect().right > w + 0.5).map(e => e.textContent.slice(0, 40));
    }""")
    assert not outside, f"readouts past the right edge at 390 px: {outside}"

    off_host = sorted({r for r in requests if not _is_local(r)})
    assert not off_host, f"requests to another host: {off_host}"
    assert not errors, errors
    ctx.close()


def _cell(data: dict, idx: list[int]) -> dict:
    cell = data["cells"]
    for i in idx:
        cell = cell[i]
    return cell


@pytest.mark.parametrize("scene_id", PANELS)
def test_without_javascript_the_table_shows(site_url, chromium, scene_id):
    data = _data(scene_id)
    ctx = chromium.new_context(java_script_enabled=False)
    page = ctx.new_page()
    page.goto(site_url + f"scenes/{scene_id}/", wait_until="load")
    page.locator("details.w06-explore summary").first.click()
    table = page.locator("details.w06-explore .w06-explore-fallback table")
    assert table.is_visible()
    assert table.locator("tbody tr").count() == len(data["sliders"][0]["stops"])
    assert page.locator(".w06-figure img").count() >= 2, "the static figure (light and dark) is on the page"
    assert page.locator(".w06-explore-figure").count() == 0, "no script ran"
    ctx.close()
