"""Stable JSON for build artifacts, and loading "package.module:name" references."""

from __future__ import annotations

import dataclasses
import importlib
import json


def load_ref(ref: str):
    """The object a catalogue reference like "models.ring_vs_tree:ring_vs_tree" names."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def to_json(obj) -> bytes:
    """Stable JSON: sorted keys, numpy converted, a trailing newline."""

    def default(o):
        if hasattr(o, "tolist"):  # numpy arrays and scalars
            return o.tolist()
        if dataclasses.is_dataclass(o):  # product entities ($gpu.h100) as their fields
            return dataclasses.asdict(o)
        raise TypeError(f"not JSON-serialisable: {type(o).__name__}")

    return (json.dumps(obj, sort_keys=True, indent=1, default=default, allow_nan=False) + "\n").encode()
