"""The build: catalogue, cache, compute and draw stages, site hooks and macros."""
