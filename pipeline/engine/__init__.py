"""The build engine: plan tasks from the stage registry, judge them against the cache, run the misses
in a process pool, record and verify, then hand over to the site step. It knows task kinds only
through pipeline/stages/ (engine/registry.py) and imports no feature module."""
