"""Manim scenes, one module per scene, and the shared style (style.py, palette.py)."""
