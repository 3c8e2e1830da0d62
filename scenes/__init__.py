"""Manim scenes, one module per scene (`scenes/<scene id>.py`), and what they share: `style.py`
(ExhibitScene, beats, the frame check, text helpers), `server_parts.py` and `fabric.py` (drawn
parts). Colours and sizes come from `design/`."""
