"""Catalogue strings are plain text: a title, question, alt text, module introduction, run name or
dense-only reason holding markup is refused when the catalogue loads, with the entry and field named.

They land in every page's navigation (which the theme writes unescaped), the cards, the meta tags,
the player's label and the scenario banners, so refusing them at the one door covers every place."""

from __future__ import annotations

import pytest
import yaml

from pipeline.catalogue import CATALOGUE, CatalogueError, load
from pipeline.catalogue_schema import plain_text

MARKUP = "Ring <img src=x onerror=alert(1)> vs tree"


def _scene(raw, sid):
    return next(s for s in raw["scenes"] if s["id"] == sid)


def _first_run(raw):
    return next(iter(raw["scenarios"]["runs"].values()))


def _refused(tmp_path, mutate) -> str:
    raw = yaml.safe_load(CATALOGUE.read_text())
    mutate(raw)
    p = tmp_path / "catalogue.yml"
    p.write_text(yaml.safe_dump(raw, sort_keys=False))
    with pytest.raises(CatalogueError) as e:
        load(p)
    return str(e.value)


@pytest.mark.parametrize("mutate, place", [
    (lambda r: _scene(r, "ring-vs-tree").update(title=MARKUP), ["scene 'ring-vs-tree'", "'title'"]),
    (lambda r: _scene(r, "ring-vs-tree").update(question="Why <b>rings</b>?"), ["scene 'ring-vs-tree'", "'question'"]),
    (lambda r: _scene(r, "ring-vs-tree")["figures"][0].update(alt=MARKUP + " as bars over the message size"),
     ["'ring-vs-tree'", "figures[0]", "'alt'"]),
    (lambda r: _scene(r, "stragglers").update(title="Stragglers &lt;script&gt;"), ["scene 'stragglers'", "'title'"]),
    (lambda r: r["modules"][0].update(title=MARKUP), ["module", "'title'"]),
    (lambda r: r["modules"][0].update(intro="An introduction with <a href=x>a link</a> in it."), ["module", "'intro'"]),
    (lambda r: _first_run(r).update(short="<i>run</i>"), ["scenario", "'short'"]),
    (lambda r: _first_run(r).update(title=MARKUP), ["scenario", "'title'"]),
    (lambda r: r["scenarios"]["dense_only"].update({next(iter(r["scenarios"]["dense_only"])): "dense <!-- only -->"}),
     ["'dense_only'"]),
])
def test_markup_in_a_catalogue_string_is_refused_naming_entry_and_field(tmp_path, mutate, place):
    msg = _refused(tmp_path, mutate)
    assert "must be plain text, not markup" in msg, msg
    for part in place:
        assert part in msg, (part, msg)


def test_plain_text_allows_ampersands_and_comparisons():
    assert plain_text("Silicon & node architecture") is None
    assert plain_text("Is 1 < 2 and 3 > 2?") is None
    assert plain_text("a <b>bold</b> claim") is not None
    assert plain_text("AT&amp;T") is not None


def test_every_catalogue_string_in_use_is_plain_text():
    load(CATALOGUE)  # the real catalogue passes the rule it is held to
