"""Scene 09's figure (in progress)."""


def read_paths(data, theme):
    raise NotImplementedError
