"""Lighthouse on the built site, served gzip-compressed as static hosts serve it (a dev tool).

    python tools/lighthouse.py [--site site] [--lighthouse PATH] [--out build/lighthouse] [--runs N] [PAGE ...]

Lighthouse comes from npm (`npm install lighthouse` in a folder outside the repo); it drives
Debian's chromium (CHROME_PATH) with the browser tests' flags, mobile preset. Neither `make` nor
`make test` needs it. Runs each page --runs times (default 5: one run varies by several points)
and prints the median run, one row per page: performance, accessibility, SEO and the main-thread
audits, with every run's performance score; writes each report's JSON to --out.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["", "scenes/daly-checkpoint/", "scenes/rail-fat-tree/"]  # home and the two heaviest scene pages
CHROMIUM = "/usr/bin/chromium"
FLAGS = "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run"
TEXT = (".html", ".css", ".js", ".json", ".svg", ".vtt", ".xml", ".csv", ".txt", ".webmanifest")


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files; text gzip-compressed when the browser accepts it (what GitHub Pages does)."""

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        if (not path.is_file() or path.suffix not in TEXT
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")  # GitHub Pages' header
        self.end_headers()
        return io.BytesIO(body)


def serve(root: Path, port: int = 0) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                             functools.partial(GzipHandler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


AUDITS = ("total-blocking-time", "largest-contentful-paint", "first-contentful-paint", "speed-index",
          "cumulative-layout-shift")


def run(lighthouse: Path, url: str, out: Path) -> dict:
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    cmd = [str(lighthouse), url, "--output=json", f"--output-path={out}", "--quiet",
           f"--chrome-flags={FLAGS}", "--only-categories=performance,accessibility,seo"]
    subprocess.run(cmd, env=env, check=True, timeout=600)
    return json.loads(out.read_text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pages", nargs="*", default=PAGES, help="site-relative pages (default: home and two scenes)")
    ap.add_argument("--site", default=str(ROOT / "site"))
    ap.add_argument("--lighthouse", default=os.environ.get("LIGHTHOUSE", "/work/lh/node_modules/.bin/lighthouse"))
    ap.add_argument("--out", default=str(ROOT / "build" / "lighthouse"))
    ap.add_argument("--port", type=int, default=0, help="serve on this port (match W06_SITE_URL for canonicals)")
    ap.add_argument("--runs", type=int, default=5,
                    help="runs per page; the median run is reported (Lighthouse's advice for its variance)")
    args = ap.parse_args(argv)
    lh = Path(args.lighthouse)
    if not lh.exists():
        print(f"error: {lh}: no lighthouse; `npm install lighthouse` in a folder outside the repo and pass "
              "--lighthouse PATH/node_modules/.bin/lighthouse", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server, base = serve(Path(args.site), args.port)
    try:
        print(f"{'page':28} {'perf':>4} {'a11y':>4} {'seo':>4}  " + "  ".join(a.split('-')[0][:5] + "…"
                                                                      for a in AUDITS))
        for rel in args.pages:
            name = rel.strip("/").replace("/", "-") or "home"
            runs = []
            for i in range(args.runs):
                runs.append(run(lh, base + rel, out / f"{name}.{i}.json"))
            runs.sort(key=lambda r: r["categories"]["performance"]["score"] or 0)
            r = runs[len(runs) // 2]
            (out / f"{name}.json").write_text(json.dumps(r))
            spread = [round(100 * (x["categories"]["performance"]["score"] or 0)) for x in runs]
            cats = {k: round(100 * (v["score"] or 0)) for k, v in r["categories"].items()}
            vals = "  ".join(r["audits"][a]["displayValue"].replace("\xa0", " ") for a in AUDITS)
            print(f"{rel or '(home)':28} {cats['performance']:4} {cats['accessibility']:4} {cats['seo']:4}  {vals}"
                  # the simulated throttle multiplies the main thread's observed times: a busy machine
                  # (low benchmark index, high load) inflates total blocking time, so say how busy it was
                  f"  [benchmarkIndex {r['environment'].get('benchmarkIndex', 0):.0f}, "
                  f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; performance over "
                  f"{len(runs)} runs {spread}]")
            failing = [f"{k}: {a['title']}" for k, a in r["audits"].items()
                       if a.get("score") is not None and a["score"] < 0.9 and a.get("scoreDisplayMode") == "binary"]
            for f in failing:
                print(f"    failing {f}")
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
