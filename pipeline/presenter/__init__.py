"""The presenter kit: per scene, what a speaker drops into a talk (kit.py: the renders; decks.py:
manim-slides decks; subrip.py: SRT captions; vendor/reveal.js: the offline decks' player)."""
