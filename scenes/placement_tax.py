"""Scene 25 · the placement tax, a case study (placeholder while the model is checked)."""

from __future__ import annotations

from scenes.style import ExhibitScene


class PlacementTax(ExhibitScene):
    scene_id = "placement-tax"

    def construct(self) -> None:
        with self.beat("placeholder"):
            self.wait(1)
