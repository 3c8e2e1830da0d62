"""The stage registry: one module per task kind (compute, figures, media, explore, scenario data and
figures, the presenter kit's deck and overlay). Each declares what the engine needs to plan, key and
run its tasks (see pipeline/engine/registry.py for the fields); adding a task kind is adding a module
here. This file imports nothing: a task's key covers its worker's import closure, never this package.
"""
