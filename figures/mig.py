def mig_layouts(data, theme):
    raise NotImplementedError


def latency_distribution(data, theme):
    raise NotImplementedError
