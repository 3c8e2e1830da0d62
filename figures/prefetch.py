"""Figures for scene 11 (stub)."""


def idle_vs_workers(data, theme):
    raise NotImplementedError
