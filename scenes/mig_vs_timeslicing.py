from scenes.style import ExhibitScene


class MigVsTimeSlicing(ExhibitScene):
    def construct(self):
        pass
