"""Scene 09 · GPUDirect Storage versus POSIX bounce buffers (in progress)."""

from scenes.style import ExhibitScene


class BounceVersusDirect(ExhibitScene):
    scene_id = "gpudirect-storage"

    def construct(self) -> None:
        pass
