"""The compute stage, run in a worker: model -> build/data/<id>.json and .csv.

The JSON is the single hand-off to figures, animation and page; the CSV is
the page's numbers table for download. Both are written atomically.
"""

from __future__ import annotations

import csv
import io
import json

from pipeline import atomic, paths
from pipeline.jsonio import load_ref, to_json


def table_csv(table: dict) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([f"{c['name']} ({c['unit']})" if c["unit"] not in ("text", "count", "1") else c["name"]
                for c in table["columns"]])
    w.writerows(table["rows"])
    return buf.getvalue().encode()


def check_table(scene_id: str, data: dict) -> None:
    """The page and the CSV download both need the model's table contract."""
    where = f"{scene_id}: model output"
    table = data.get("table")
    if not isinstance(table, dict) or not {"caption", "columns", "rows"} <= set(table):
        raise ValueError(f"{where}: 'table' must be a dict with caption, columns and rows")
    units = {"B", "s", "B/s", "1", "%", "count", "text"}
    for c in table["columns"]:
        if c.get("unit") not in units:
            raise ValueError(f"{where}: table column {c.get('name')!r}: unit must be one of {sorted(units)}")
    for r in table["rows"]:
        if len(r) != len(table["columns"]):
            raise ValueError(f"{where}: table row {r!r} has {len(r)} cells, expected {len(table['columns'])}")


def compute(scene_id: str, model_ref: str, params: dict) -> dict[str, str]:
    result = load_ref(model_ref)(**params)
    if not isinstance(result, dict):
        raise TypeError(f"{model_ref} returned {type(result).__name__}, expected a dict")
    data = {"scene": scene_id, "params": params, **result}
    blob = to_json(data)  # also proves it is serialisable before anything is written
    data = json.loads(blob)
    check_table(scene_id, data)
    out = {}
    for path, content in ((paths.data_json(scene_id), blob),
                          (paths.data_csv(scene_id), table_csv(data["table"]))):
        atomic.write_bytes(path, content)
        out[paths.rel(path)] = atomic.sha256(content)
    return out
