"""How long a task may run (the timeout rule).

Every task gets max(600 s, 10 x its recorded cost); a task with no recorded cost yet gets
max(1800 s, 10 x its first-build guess, its stage's COST). Wall-clock, from the moment the task is
handed to a worker. `--timeout SECONDS` or the environment variable W06_TASK_TIMEOUT replaces the
rule with a fixed limit for every task. A task past its limit has its worker's whole process tree
killed (SIGKILL) and is reported with its scene and stage; a fresh worker takes the next task.
mkdocs gets max(600 s, --timeout).
"""

from __future__ import annotations

import os

TIMEOUT_FLOOR = 600.0
TIMEOUT_FACTOR = 10.0
TIMEOUT_UNRECORDED = 1800.0  # floor for a task with no recorded cost yet (first build, new preset)
TIMEOUT_ENV = "W06_TASK_TIMEOUT"
TIMEOUT_RULE = (f"every task may run max({TIMEOUT_FLOOR:.0f} s, {TIMEOUT_FACTOR:.0f} x its recorded cost), "
                f"max({TIMEOUT_UNRECORDED:.0f} s, {TIMEOUT_FACTOR:.0f} x the first-build guess) before a cost "
                "is recorded; "
                f"--timeout SECONDS or {TIMEOUT_ENV}=SECONDS sets one limit for all tasks; "
                "a task past its limit is killed with its process tree and reported")
SITE_TIMEOUT = 600.0  # mkdocs build: this, or a larger --timeout


def task_timeout(task, override: float | None) -> float:
    """The timeout rule (module docstring): the override, else max(floor, factor x cost)."""
    if override:
        return override
    floor = TIMEOUT_FLOOR if task.cost_recorded else TIMEOUT_UNRECORDED
    return max(floor, TIMEOUT_FACTOR * task.cost)


def timeout_override(flag: float | None) -> float | None:
    if flag:
        return flag
    env = os.environ.get(TIMEOUT_ENV, "").strip()
    if not env:
        return None
    try:
        value = float(env)
    except ValueError:
        raise SystemExit(f"error: {TIMEOUT_ENV}={env!r}: expected a number of seconds") from None
    if not value > 0:
        raise SystemExit(f"error: {TIMEOUT_ENV}={env!r}: expected a positive number of seconds")
    return value


