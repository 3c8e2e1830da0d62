"""Scene 11 · stub."""
from scenes.style import ExhibitScene


class PrefetchRing(ExhibitScene):
    scene_id = "data-prefetch"

    def construct(self) -> None:
        pass
