"""Where every build artifact lives. The site hooks read the same names."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
DATA = BUILD / "data"
FIGURES = BUILD / "figures"
MEDIA = BUILD / "media"
WORK = BUILD / "work"  # scratch for renders in progress; never read by the site
MANIFEST = BUILD / "manifest.json"
REPORT = BUILD / "report.json"
BENCH = BUILD / "bench.json"
SITE = ROOT / "site"
FONTS = ROOT / "design" / "fonts"


def data_json(scene_id: str) -> Path:
    return DATA / f"{scene_id}.json"


def data_csv(scene_id: str) -> Path:
    return DATA / f"{scene_id}.csv"


def figure_svg(scene_id: str, name: str, theme: str) -> Path:
    return FIGURES / f"{scene_id}-{name}-{theme}.svg"


def media_dir(preset: str) -> Path:
    return MEDIA / preset


def video(scene_id: str, preset: str) -> Path:
    return media_dir(preset) / f"{scene_id}.mp4"


def poster(scene_id: str, preset: str) -> Path:
    return media_dir(preset) / f"{scene_id}.png"


def poster_web(scene_id: str, preset: str) -> Path:
    """The video's poster for the page: WebP, at most 1280 px wide (page weight)."""
    return media_dir(preset) / f"{scene_id}.poster.webp"


def card(scene_id: str, preset: str) -> Path:
    """The home-page and module-page thumbnail."""
    return media_dir(preset) / f"{scene_id}.card.webp"


def captions(scene_id: str, preset: str) -> Path:
    return media_dir(preset) / f"{scene_id}.vtt"


def beats(scene_id: str, preset: str) -> Path:
    return media_dir(preset) / f"{scene_id}.beats.json"


def rel(path: Path) -> str:
    return str(Path(path).relative_to(ROOT))
