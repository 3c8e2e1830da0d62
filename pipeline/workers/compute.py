"""The compute stage, run in a worker: model -> build/data/<id>.json and .csv.

The model returns an Exhibit (models/exhibit.py), which has already checked
itself (parameters by @model; summary, series, table and the rest finite and
well-formed by Exhibit and Table), so nothing is checked twice here: this stage
adds the scene id and the parameters, serialises it, and writes the JSON (the
single hand-off to figures, animation and page) and the CSV of the numbers
table, both atomically.
"""

from __future__ import annotations

import csv
import io

from models.exhibit import ClaimError, ContractError, Exhibit, ParamError
from pipeline import paths
from pipeline.engine import atomic
from pipeline.jsonio import load_ref, to_json


class ModelError(Exception):
    """A model refused its inputs, broke the contract or a claim: one line, scene named."""

    expected = True  # the build prints its one line, no traceback


def table_csv(table: dict) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([f"{c['name']} ({c['unit']})" if c["unit"] not in ("text", "count", "1") else c["name"]
                for c in table["columns"]])
    w.writerows(table["rows"])
    return buf.getvalue().encode()


def run_model(scene_id: str, model_ref: str, params: dict) -> dict:
    """The model's output as the JSON-ready dict every reader sees."""
    try:
        result = load_ref(model_ref)(**params)
    except (ParamError, ContractError, ClaimError) as e:
        raise ModelError(f"{scene_id}: {model_ref}: {e}") from None
    if not isinstance(result, Exhibit):
        raise ModelError(f"{scene_id}: {model_ref} returned {type(result).__name__}, expected an Exhibit")
    return {"scene": scene_id, "params": params, **result.to_dict()}


def compute(scene_id: str, model_ref: str, params: dict) -> dict[str, str]:
    data = run_model(scene_id, model_ref, params)
    try:
        blob = to_json(data)  # proves it serialises before anything is written
        table = table_csv(data["table"])
    except (TypeError, ValueError, KeyError) as e:
        raise ModelError(f"{scene_id}: {model_ref}: output does not serialise: {e}") from None
    # both staged, then renamed together: never a new JSON beside an old CSV
    hashes = atomic.commit({paths.data_json(scene_id): blob, paths.data_csv(scene_id): table})
    return {paths.rel(p): h for p, h in hashes.items()}
