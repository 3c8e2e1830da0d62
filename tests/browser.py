"""A real browser over the built site: Debian's chromium driven by Playwright.

`audit(page, url)` loads one page and returns every problem it finds, each
naming the page and the element: console errors, failed or off-host
requests, broken same-site links and anchors, videos without a loading
poster, captions or duration, images without meaningful alt text, and
serious accessibility violations (axe-core). The site tests and the fixture
tests (which prove each check can fail) share it.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import re
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import yaml

CHROMIUM = "/usr/bin/chromium"
# a browser that cannot reach the network on its own
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--proxy-server=http://127.0.0.1:9",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
]
HOST = "127.0.0.1"
WAIVERS_FILE = Path(__file__).with_name("a11y_waivers.yml")
# axe-core 4.14.1, vendored from the npm registry (MPL-2.0, tests/vendor/README.md): the
# copy bundled by axe-playwright-python is older and misses rules such as
# label-content-name-mismatch on the theme's footer links.
AXE_JS = Path(__file__).with_name("vendor") / "axe.min.js"
AXE_MIN_VERSION = (4, 14)
SERIOUS = {"serious", "critical"}
FILENAME_ALT = re.compile(r"^[\w.-]+\.(svg|png|jpe?g|gif|webp)$", re.I)


SEARCH_INDEX = "search/search_index.json"
# the theme's bundle and site.js start a frame after the page (docs/overrides/partials/theme_start.html)
# and mark <html data-w06-ready> once mounted
READY = "html[data-w06-ready]"


NAVIGATION_MS = 120_000  # a page load's limit, and ready()'s wait for the theme: not Playwright's 30 s default


def ready(page, timeout: float = NAVIGATION_MS) -> None:
    """Start the theme's script as a reader does, with a first interaction (it waits for one,
    docs/overrides/partials/theme_start.html), and wait until it has started on this page.

    The interaction is repeated until the page answers: Chromium can drop input that reaches a
    renderer before its first frame is committed, and on the shared 2-core machine under load a
    page that had loaded (network idle) still never saw the one pointer move (CI of stop 45, at
    60 s). A reader who moves the mouse again starts it; so does this. The page's listeners go
    once it has started, so a repeat does nothing more. The wait ends as soon as it has started."""
    step = 3_000
    waited = 0.0
    x = 1
    while True:
        page.mouse.move(x, x)
        page.mouse.move(x + 1, x + 1)
        x = 1 if x > 20 else x + 2
        try:
            page.wait_for_selector(READY, state="attached", timeout=min(step, timeout - waited))
            return
        except Exception:  # noqa: BLE001 - playwright's TimeoutError; re-raised once the time is up
            waited += step
            if waited >= timeout:
                raise


COMPRESSIBLE = (".html", ".css", ".js", ".json", ".svg", ".vtt", ".xml", ".csv", ".txt")


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzip-compressed for text as every static host serves them,
    so the page-weight check measures what a reader's browser transfers."""

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (not path.is_file() or path.suffix not in COMPRESSIBLE
                or "gzip" not in self.headers.get("Accept-Encoding", "")
                or not self.path.split("?")[0].endswith((path.name, "/"))):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # a browser that has the video metadata it wanted hangs up mid-file: not an error
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


@contextmanager
def serve(root: Path):
    """Serve `root` on 127.0.0.1 at a free port; yields the base URL."""
    handler = functools.partial(_Handler, directory=str(root))
    server = _Server((HOST, 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


_RUNNING: list[object] = []


class PatientBrowser:
    """The launched browser, whose pages wait as long for a navigation as ready() waits for the
    theme: under load on the shared 2-core machine (a CI beside other work) one page's load took
    over 30 s, Playwright's default, with nothing wrong on the page."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **kwargs):
        context = self._browser.new_context(**kwargs)
        context.set_default_navigation_timeout(NAVIGATION_MS)
        return context

    def new_page(self, **kwargs):
        page = self._browser.new_page(**kwargs)
        page.set_default_navigation_timeout(NAVIGATION_MS)
        return page

    def __getattr__(self, name):
        return getattr(self._browser, name)


@contextmanager
def browser():
    """Launch Debian's chromium; fail (never skip) with how to install it.

    One per process: Playwright's sync API cannot start inside another running one, so a second
    call fails the same way whichever test module runs first. Tests take the session fixture.
    """
    from playwright.sync_api import Error, sync_playwright

    if _RUNNING:
        raise RuntimeError("chromium is already running in this process: take the session fixture "
                           "`chromium` (tests/conftest.py) instead of calling browser() again")
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} not found: install it with `apt-get install chromium` "
                           "(or `make browser`); the browser tests never skip")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Error as e:
            raise RuntimeError(f"chromium at {CHROMIUM} did not start ({e}); reinstall it with "
                               "`apt-get install --reinstall chromium`") from None
        _RUNNING.append(b)
        try:
            yield PatientBrowser(b)
        finally:
            _RUNNING.clear()
            b.close()


def waivers() -> dict[str, str]:
    """axe rule id -> reason. The one list of accepted accessibility waivers."""
    if not WAIVERS_FILE.exists():
        return {}
    raw = yaml.safe_load(WAIVERS_FILE.read_text()) or {}
    for rule, reason in raw.items():
        if not isinstance(reason, str) or len(reason) < 20:
            raise ValueError(f"{WAIVERS_FILE.name}: waiver {rule!r} needs a reason")
    return raw


@dataclass
class PageResult:
    url: str
    problems: list[str] = field(default_factory=list)
    bytes: int = 0  # transferred (compressed bodies and headers) before any video plays
    raw_bytes: int = 0  # the same responses uncompressed
    # the search index is one file for the whole site, fetched once and cached: it grows with
    # every page, so it has its own budget instead of counting against each page's
    index_bytes: int = 0  # the search index fetched during the load (it should wait for search)


def _is_local(url: str) -> bool:
    u = urllib.parse.urlparse(url)
    return u.scheme in ("data", "blob", "about") or u.hostname == HOST


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return 0


@functools.lru_cache(maxsize=None)
def _ids(page_url: str) -> frozenset[str]:
    with urllib.request.urlopen(page_url, timeout=10) as r:
        text = r.read().decode("utf-8", "replace")
    return frozenset(re.findall(r'\bid="([^"]+)"', text))


def check_links(result: PageResult, hrefs: list[str], own_ids: set[str]) -> None:
    """Every same-site <a href> resolves, and every #anchor exists on its target."""
    for href in sorted(set(hrefs)):
        u = urllib.parse.urlparse(href)
        if u.scheme in ("mailto", "javascript") or (u.scheme.startswith("http") and not _is_local(href)):
            continue  # off-site citations are links, not requests
        target = href.split("#")[0]
        if not target or target == result.url.split("#")[0]:
            if u.fragment and urllib.parse.unquote(u.fragment) not in own_ids:
                result.problems.append(f"{result.url}: <a href=\"{href}\">: no element with id "
                                       f"\"{u.fragment}\" on the page")
            continue
        status = _status(target)
        if not 200 <= status < 400:
            result.problems.append(f"{result.url}: <a href=\"{href}\">: broken link (HTTP {status})")
        elif u.fragment and target.endswith("/") and urllib.parse.unquote(u.fragment) not in _ids(target):
            result.problems.append(f"{result.url}: <a href=\"{href}\">: no element with id "
                                   f"\"{u.fragment}\" on {target}")


VIDEO_PROBE = """async (v) => {
  const out = {autoplay: v.autoplay || v.hasAttribute('autoplay'), poster: v.poster,
               tracks: [...v.querySelectorAll('track')].map(t => t.src), paused: v.paused};
  v.preload = 'metadata';
  if (!(v.duration > 0)) {
    await new Promise(res => { v.addEventListener('loadedmetadata', res, {once: true});
                               v.addEventListener('error', res, {once: true});
                               setTimeout(res, 10000); v.load(); });
  }
  out.duration = v.duration;
  return out;
}"""


def check_videos(result: PageResult, page) -> None:
    for i, v in enumerate(page.query_selector_all("video")):
        info = v.evaluate(VIDEO_PROBE)
        name = f"<video> #{i + 1}"
        if info["autoplay"] or not info["paused"]:
            result.problems.append(f"{result.url}: {name}: must not autoplay")
        if not info["poster"] or _status(info["poster"]) != 200:
            result.problems.append(f"{result.url}: {name}: poster {info['poster']!r} does not load")
        if not info["tracks"]:
            result.problems.append(f"{result.url}: {name}: no captions <track>")
        for t in info["tracks"]:
            if _status(t) != 200:
                result.problems.append(f"{result.url}: {name}: captions track {t!r} does not load")
        if not (info["duration"] and info["duration"] > 0):
            result.problems.append(f"{result.url}: {name}: duration {info['duration']!r} after metadata")


def check_images(result: PageResult, page) -> None:
    for img in page.query_selector_all("img"):
        src = img.get_attribute("src") or ""
        alt = (img.get_attribute("alt") or "").strip()
        if not alt or FILENAME_ALT.match(alt) or alt.lower() in ("image", "figure", "picture"):
            result.problems.append(f"{result.url}: <img src=\"{src}\">: missing or meaningless alt text "
                                   f"({alt!r})")


@functools.lru_cache(maxsize=1)
def _axe():
    from axe_playwright_python.sync_playwright import Axe

    script = AXE_JS.read_text(encoding="utf-8")
    version = tuple(int(x) for x in re.search(r"axe v(\d+)\.(\d+)", script).groups())
    assert version >= AXE_MIN_VERSION, f"{AXE_JS}: axe-core {version} is older than {AXE_MIN_VERSION}"
    return Axe(axe_script=script)


def check_accessibility(result: PageResult, page) -> None:
    waived = waivers()
    for v in _axe().run(page).response["violations"]:
        if v.get("impact") in SERIOUS and v["id"] not in waived:
            targets = ", ".join(str(n["target"]) for n in v["nodes"][:3])
            result.problems.append(f"{result.url}: axe {v['impact']} {v['id']}: {v['help']} at {targets}")


# each box measured laid out: a box the browser skips until it nears the viewport
# (content-visibility, docs/assets/site.css) reports its placeholder height, not its equation's
MATH_PROBE = """() => [...document.querySelectorAll('.w06-math')].map(b => (b.style.contentVisibility = 'visible', b))
 .map((b, i) => {
  const col = b.closest('article') || document.body;
  const r = b.getBoundingClientRect(), c = col.getBoundingClientRect();
  return {i, sh: b.scrollHeight, ch: b.clientHeight, sw: b.scrollWidth, cw: b.clientWidth,
          right: r.right, colRight: c.right, font: getComputedStyle(b.querySelector('math') || b).fontFamily};
})"""

# Every equation, inline ones too, against every box around it that clips (overflow other than
# visible, or paint containment): the box's content taller than the box, or the equation reaching
# past it. The display-box probe above sees only .w06-math boxes, never an inline equation in a
# table's scrolling box, a card or any other clipping box a page puts it in.
MATH_CLIP_PROBE = """() => {
  const out = [];
  [...document.querySelectorAll('math')].forEach((m, i) => {
    const mr = m.getBoundingClientRect();
    if (!mr.width) return;  // not rendered (a closed panel)
    for (let e = m.parentElement; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      const clips = s.overflowX !== 'visible' || s.overflowY !== 'visible' || /paint|strict|content/.test(s.contain);
      if (!clips || e.clientHeight === 0) continue;
      const r = e.getBoundingClientRect();
      const taller = e.scrollHeight > e.clientHeight + 1;
      const past = mr.top < r.top - 1 || mr.bottom > r.bottom + 1;
      if (taller || past)
        out.push({i, box: e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : ''),
                  sh: e.scrollHeight, ch: e.clientHeight, past, text: (m.textContent || '').slice(0, 40)});
    }
  });
  return out;
}"""


def check_math(result: PageResult, page, fit_width: bool) -> None:
    """No equation box clips its glyphs or sticks out of its column; at desktop width
    (`fit_width`) every equation fits without scrolling; no equation, inline or displayed, is cut
    by any box around it."""
    page.evaluate("document.fonts.ready.then(() => true)")  # measured in the bundled math font
    for m in page.evaluate(MATH_PROBE):
        name = f"equation #{m['i'] + 1}"
        if m["sh"] > m["ch"] + 1:  # 1 px: scrollHeight and clientHeight snap sub-pixels differently
            result.problems.append(f"{result.url}: {name}: clipped vertically "
                                   f"(scrollHeight {m['sh']} > clientHeight {m['ch']})")
        if m["right"] > m["colRight"] + 1:
            result.problems.append(f"{result.url}: {name}: overflows its column by {m['right'] - m['colRight']:.0f}px")
        if fit_width and m["sw"] > m["cw"]:
            result.problems.append(f"{result.url}: {name}: cut off, {m['sw'] - m['cw']}px wider than its box")
    for m in page.evaluate(MATH_CLIP_PROBE):
        how = "reaches past it" if m["past"] else f"scrollHeight {m['sh']} > clientHeight {m['ch']}"
        result.problems.append(f"{result.url}: <math> #{m['i'] + 1} ({m['text']}): clipped by <{m['box']}> ({how})")


def audit(page, url: str, axe: bool = True) -> PageResult:
    """Load `url` in `page` and run every check on it."""
    result = PageResult(url)
    requests: list[str] = []
    responses = []

    def on_console(msg):
        if msg.type == "error":
            result.problems.append(f"{url}: console error: {msg.text}")

    def on_response(resp):
        if resp.status >= 400:
            result.problems.append(f"{url}: request failed: {resp.url} (HTTP {resp.status})")
        responses.append(resp)

    page.on("console", on_console)
    page.on("pageerror", lambda e: result.problems.append(f"{url}: uncaught exception: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    def on_failed(r):
        # a browser cancels a video download once it has the metadata it asked for
        cancelled_media = r.resource_type == "media" and "ERR_ABORTED" in (r.failure or "")
        if _is_local(r.url) and not cancelled_media:
            result.problems.append(f"{url}: request failed: {r.url} ({r.failure})")

    page.on("requestfailed", on_failed)
    page.on("response", on_response)
    page.goto(url, wait_until="networkidle")
    try:
        ready(page)
    except Exception:  # noqa: BLE001 - reported, and the page's other checks still run
        result.problems.append(f"{url}: the theme's script never started (no {READY})")
    for resp in responses:  # all finished: measured before any video is asked to load
        sizes = resp.request.sizes()
        if resp.url.split("?")[0].endswith(SEARCH_INDEX):
            result.index_bytes += sizes["responseBodySize"] + sizes["responseHeadersSize"]
            continue
        result.bytes += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        try:
            result.raw_bytes += len(resp.body())
        except Exception:  # noqa: BLE001 - redirects have no body
            pass

    off_host = sorted({r for r in requests if not _is_local(r)})
    for r in off_host:
        result.problems.append(f"{url}: request to another host: {r}")

    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    own_ids = set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)"))
    check_links(result, hrefs, own_ids)
    check_videos(result, page)
    check_images(result, page)
    check_math(result, page, fit_width=page.viewport_size["width"] >= 1280)
    if axe:
        check_accessibility(result, page)
    page.remove_listener("console", on_console)
    page.remove_listener("response", on_response)
    return result


def pages(site: Path, scenarios: bool = False) -> list[str]:
    """Every page of a built site, as paths relative to its root; the other scenarios' copies under
    scenario/<id>/ (pipeline/scenarios.py) only with `scenarios` (tests/test_scenarios_browser.py
    checks a fixed sample of them)."""
    out = []
    for p in sorted(site.rglob("index.html")):
        rel = p.parent.relative_to(site).as_posix()
        if rel.split("/")[0] == "scenario" and not scenarios:
            continue
        out.append("" if rel == "." else rel + "/")
    return out
