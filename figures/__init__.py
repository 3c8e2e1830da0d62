"""Matplotlib figures: f(data, theme) -> Figure, drawn from model output only."""
