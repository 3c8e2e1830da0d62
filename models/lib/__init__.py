"""Maths that several scenes share, with no `@model`: a scene's model (models/<scene id>.py) calls
these by name. Each module holds one topic (collective times, Young/Daly, series reliability,
placement and rings, cost rates, the node's graph, searches); none of them reads the catalogue."""
