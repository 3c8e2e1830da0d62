"""Cluster CapEx vs OpEx: what one GPU-hour of the scenario's cluster costs its owner.

The cost of one GPU-hour is a sum of parts, each a price divided by the hours it buys:

    depreciation  (server + storage + network) / useful life           straight line, no salvage
    power         P_node / g · PUE · tariff                             metered energy at the facility
    facility      P_node / g · colocation rate per kW-month / h_month   space, cooling plant, security
    staff         staff cost per GPU-year / h_year
    optics        replacements per GPU-hour · price per replacement

with g GPUs per node and P_node the node's maximum power (scene 04's `power_budget`). The
network is a fixed share f of the cluster's hardware cost (Cottier et al. 2024 use f = 19%), so
network = (server + storage) · f / (1 − f). Storage is the Llama 3 cluster's capacity per GPU
times a price per byte. Optics replacements per GPU-hour come from the Llama 3 interruption record
(Table 5, "network switch/cable") divided by the GPU-hours of the snapshot.

Every part is paid whether the GPU is busy or idle: the cost per *useful* GPU-hour is the total
divided by the utilisation u (the idle tax), an exact 1/u scaling because power is billed here
at the node's maximum draw (an upper bound, stated on the page).

The tornado sweeps each uncertain input between its low and high value with the others held at
the scenario, and ranks the inputs by the swing of the cost per useful GPU-hour.

Money in USD; time in seconds (models/units.py); tariffs in USD per kWh and colocation rates in
USD per kW-month (units "1", named in the labels).
"""

from __future__ import annotations

from models.exhibit import Column, Exhibit, Param, Table, check, curves, model
from models.lib.node import power_budget
from models.units import DAY, HOUR

YEAR = 365.25 * DAY
MONTH = YEAR / 12
KW = 1e3
TB = 1e12
HALF = 0.5  # the worked problem's utilisation: half the GPU-hours idle

# the parts of a GPU-hour, bottom of the stack first: (key, reader's name, CapEx?)
PARTS = (
    ("server", "GPU servers", True),
    ("network", "network", True),
    ("storage", "storage", True),
    ("power", "power", False),
    ("facility", "facility", False),
    ("staff", "staff", False),
    ("optics", "optics", False),
)


# --- the parts ---------------------------------------------------------------


def straight_line_per_hour(cost: float, useful_life: float) -> float:
    """Straight-line depreciation with no salvage value: cost / (useful life in hours), USD/h."""
    if not useful_life > 0:
        raise ValueError("useful_life must be positive")
    return cost / (useful_life / HOUR)


def network_cost(other_hardware: float, network_share: float) -> float:
    """Network hardware when it is a share f of all hardware: other · f / (1 − f)."""
    if not 0 <= network_share < 1:
        raise ValueError("network_share must be in [0, 1)")
    return other_hardware * network_share / (1.0 - network_share)


def capex_per_gpu(node_price: float, gpus_per_node: int, storage_bytes_per_gpu: float,
                  storage_price_per_tb: float, network_share: float) -> dict:
    """Hardware bought per GPU (USD): its share of a server, of storage and of the network."""
    server = node_price / gpus_per_node
    storage = storage_bytes_per_gpu / TB * storage_price_per_tb
    network = network_cost(server + storage, network_share)
    return {"server": server, "storage": storage, "network": network, "total": server + storage + network}


def power_per_hour(node_power: float, gpus_per_node: int, pue: float, tariff_per_kwh: float) -> float:
    """Energy per GPU-hour at the meter, USD/h: kW per GPU × PUE × USD per kWh."""
    return node_power / gpus_per_node / KW * pue * tariff_per_kwh


def facility_per_hour(node_power: float, gpus_per_node: int, rate_per_kw_month: float) -> float:
    """Colocation or facility rent per GPU-hour, USD/h: kW of IT load × USD per kW-month / hours a month."""
    return node_power / gpus_per_node / KW * rate_per_kw_month / (MONTH / HOUR)


def optics_per_hour(replacements: float, window: float, gpus: int, price: float) -> float:
    """Optics and cable replacements per GPU-hour × their price, USD/h."""
    return replacements / (window / HOUR * gpus) * price


def cost_parts(p: dict) -> dict:
    """USD per GPU-hour of each part (PARTS), from a dict of the model's inputs."""
    hw = capex_per_gpu(p["node_price"], p["gpus_per_node"], p["storage_bytes_per_gpu"],
                       p["storage_price_per_tb"], p["network_share"])
    return {
        "server": straight_line_per_hour(hw["server"], p["useful_life"]),
        "network": straight_line_per_hour(hw["network"], p["useful_life"]),
        "storage": straight_line_per_hour(hw["storage"], p["useful_life"]),
        "power": power_per_hour(p["node_power"], p["gpus_per_node"], p["pue"], p["tariff"]),
        "facility": facility_per_hour(p["node_power"], p["gpus_per_node"], p["colocation"]),
        "staff": p["staff_per_gpu_year"] / (YEAR / HOUR),
        "optics": optics_per_hour(p["network_failures"], p["observation_window"], p["gpus"],
                                  p["optics_price"]),
    }


def cost_per_useful_hour(total_per_hour, utilisation):
    """The idle tax: every part is paid for idle hours too, so the cost per useful hour is total / u."""
    return total_per_hour / utilisation


# --- the scene's entry point ---------------------------------------------------

# inputs the tornado sweeps: (parameter, reader's name, low parameter, high parameter)
SWEPT = (
    ("node_price", "server price (estimate)", "node_price_low", "node_price_high"),
    ("useful_life", "useful life", "useful_life_low", "useful_life_high"),
    ("utilisation", "utilisation", "utilisation_low", "utilisation_high"),
    ("colocation", "colocation rate", "colocation_low", "colocation_high"),
    ("network_share", "network share of hardware", "network_share_low", "network_share_high"),
    ("tariff", "electricity tariff", "tariff_low", "tariff_high"),
    ("pue", "PUE", "pue_low", "pue_high"),
    ("staff_per_gpu_year", "staff", "staff_low", "staff_high"),
    ("storage_price_per_tb", "storage price", "storage_price_low", "storage_price_high"),
    ("optics_price", "price of a replacement", "optics_price_low", "optics_price_high"),
)


# The inputs of one GPU-hour's cost (scene 22); the case study prices its GPU-hours with the same.
RATE_PARAMS = dict(
    node_price=Param.positive("USD", "price of one 8-GPU server (estimate)"),
    useful_life=Param.positive("s", "useful life (straight-line depreciation)", maximum=20 * YEAR),
    network_share=Param.number("1", "network share of cluster hardware cost", minimum=0, maximum=0.9),
    storage_bytes_per_gpu=Param.positive("B", "storage capacity per GPU"),
    storage_price_per_tb=Param.positive("USD", "storage hardware price per TB (assumption)"),
    node_power=Param.positive("W", "node maximum power"),
    pue=Param.number("1", "power usage effectiveness (PUE)", minimum=1.0, maximum=3.0),
    tariff=Param.positive("1", "industrial electricity price (USD per kWh)", maximum=2.0),
    colocation=Param.positive("1", "colocation rate (USD per kW-month)", maximum=5000.0),
    staff_per_gpu_year=Param.number("USD", "operations staff per GPU-year (assumption)", minimum=0),
    network_failures=Param.number("count", "network switch/cable interruptions in the snapshot", minimum=0),
    observation_window=Param.positive("s", "length of the snapshot"),
    optics_price=Param.number("USD", "price of one optics or cable replacement (assumption)", minimum=0),
)


@model(
    **RATE_PARAMS,
    gpus=Param.integer("count", "GPUs in the cluster"),
    gpus_per_node=Param.integer("count", "GPUs per node", minimum=1, maximum=64),
    node_price_low=Param.positive("USD", "server price, low end of the estimate"),
    node_price_high=Param.positive("USD", "server price, high end of the estimate"),
    useful_life_low=Param.positive("s", "useful life, shortest of the filings", maximum=20 * YEAR),
    useful_life_high=Param.positive("s", "useful life, longest of the filings", maximum=20 * YEAR),
    network_share_low=Param.number("1", "network share, low", minimum=0, maximum=0.9),
    network_share_high=Param.number("1", "network share, high", minimum=0, maximum=0.9),
    storage_price_low=Param.positive("USD", "storage price per TB, low"),
    storage_price_high=Param.positive("USD", "storage price per TB, high"),
    gpu_tdp=Param.positive("W", "GPU TDP"),
    cpu_sockets=Param.integer("count", "CPU sockets per node", maximum=8),
    cpu_tdp=Param.positive("W", "CPU TDP"),
    pue_low=Param.number("1", "PUE, low", minimum=1.0, maximum=3.0),
    pue_high=Param.number("1", "PUE, high", minimum=1.0, maximum=3.0),
    tariff_low=Param.positive("1", "electricity price, low (USD per kWh)", maximum=2.0),
    tariff_high=Param.positive("1", "electricity price, high (USD per kWh)", maximum=2.0),
    colocation_low=Param.positive("1", "colocation rate, low (USD per kW-month)", maximum=5000.0),
    colocation_high=Param.positive("1", "colocation rate, high (USD per kW-month)", maximum=5000.0),
    staff_low=Param.number("USD", "staff per GPU-year, low", minimum=0),
    staff_high=Param.number("USD", "staff per GPU-year, high", minimum=0),
    optics_price_low=Param.number("USD", "replacement price, low", minimum=0),
    optics_price_high=Param.number("USD", "replacement price, high", minimum=0),
    utilisation=Param.positive("1", "utilisation (useful share of GPU-hours)", maximum=1.0),
    utilisation_low=Param.positive("1", "utilisation, low", maximum=1.0),
    utilisation_high=Param.positive("1", "utilisation, high", maximum=1.0),
    utilisation_sweep=Param.numbers("1", "utilisations for the idle-tax curve", above=0.0, maximum=1.0),
)
def gpu_hour_cost(gpus, gpus_per_node, node_price, node_price_low, node_price_high, useful_life,
                  useful_life_low, useful_life_high, network_share, network_share_low, network_share_high,
                  storage_bytes_per_gpu, storage_price_per_tb, storage_price_low, storage_price_high,
                  gpu_tdp, cpu_sockets, cpu_tdp, node_power, pue, pue_low, pue_high, tariff, tariff_low,
                  tariff_high, colocation, colocation_low, colocation_high, staff_per_gpu_year, staff_low,
                  staff_high, network_failures, observation_window, optics_price, optics_price_low,
                  optics_price_high, utilisation, utilisation_low, utilisation_high,
                  utilisation_sweep) -> Exhibit:
    p = dict(locals())
    for key, _, lo, hi in SWEPT:
        check(p[lo] <= p[key] <= p[hi], f"the scenario's {key} lies inside its swept range")

    # the node: scene 04's power budget (GPUs and CPUs must fit inside the system maximum)
    budget = power_budget(p["gpus_per_node"], p["gpu_tdp"], p["cpu_sockets"], p["cpu_tdp"], p["node_power"])
    hw = capex_per_gpu(p["node_price"], p["gpus_per_node"], p["storage_bytes_per_gpu"],
                       p["storage_price_per_tb"], p["network_share"])
    parts = cost_parts(p)
    total = sum(parts.values())
    useful = cost_per_useful_hour(total, p["utilisation"])
    capex = parts["server"] + parts["network"] + parts["storage"]
    opex = total - capex
    share = {k: v / total for k, v in parts.items()}
    ranked = sorted(parts, key=parts.get, reverse=True)

    check(abs(sum(parts.values()) - total) <= 1e-12 * total, "the parts add up to the total")
    check(capex > opex, "depreciation is more than all the running costs together")
    check(ranked[0] == "server", "the servers' depreciation is the largest part")
    check(parts["facility"] > parts["power"], "the facility costs more than the electricity")
    check(share["optics"] < 0.01, "optics replacements are under 1% of the cost")

    # the tornado: one input at a time from low to high, the others at the scenario
    bars = []
    for key, label, lo, hi in SWEPT:
        ends = []
        for end in (lo, hi):
            q = dict(p, **{key: p[end]})
            ends.append(cost_per_useful_hour(sum(cost_parts(q).values()), q["utilisation"]))
        bars.append({"input": key, "label": label, "low_value": p[lo], "high_value": p[hi],
                     "at_low": ends[0], "at_high": ends[1], "swing": abs(ends[1] - ends[0])})
    bars.sort(key=lambda b: b["swing"], reverse=True)
    check(bars[0]["input"] in ("node_price", "utilisation"),
          "the server price or the utilisation moves the cost most")
    check(bars[-1]["input"] == "optics_price", "the optics price moves it least")
    tornado_min = min(min(b["at_low"], b["at_high"]) for b in bars)
    tornado_max = max(max(b["at_low"], b["at_high"]) for b in bars)

    # the idle tax
    u = sorted(p["utilisation_sweep"])
    per_useful = [cost_per_useful_hour(total, x) for x in u]
    check(abs(cost_per_useful_hour(total, HALF) * HALF / total - 1.0) < 1e-12,
          "at half utilisation a useful GPU-hour costs twice the full-utilisation rate")

    hours_per_year = YEAR / HOUR
    cluster_per_year = total * hours_per_year * p["gpus"]

    # worked problems
    def variant(**changes):
        q = dict(p, **changes)
        t = sum(cost_parts(q).values())
        return t, cost_per_useful_hour(t, q["utilisation"])

    short_total, short_useful = variant(useful_life=p["useful_life_low"])
    half_total, half_useful = variant(utilisation=HALF)
    hot_total, hot_useful = variant(pue=p["pue_high"], tariff=p["tariff_high"])
    check(hot_useful - useful < half_useful - useful,
          "the dearest tariff and the worst PUE together cost less than running at half utilisation")

    summary = {
        "capex_per_gpu": hw["total"],
        "server_per_gpu": hw["server"],
        "network_per_gpu": hw["network"],
        "storage_per_gpu": hw["storage"],
        "useful_life_years": p["useful_life"] / YEAR,
        "useful_life_low_years": p["useful_life_low"] / YEAR,
        "useful_life_high_years": p["useful_life_high"] / YEAR,
        "power_per_gpu": budget["power_per_gpu"],
        "gpu_power_share": budget["gpu_share"],
        **{f"{k}_per_hour": v for k, v in parts.items()},
        **{f"{k}_share": v for k, v in share.items()},
        "total_per_hour": total,
        "capex_per_hour": capex,
        "opex_per_hour": opex,
        "capex_share": capex / total,
        "useful_per_hour": useful,
        "idle_tax": useful - total,
        "cluster_per_year": cluster_per_year,
        "optics_replacements_per_year": p["network_failures"] / p["observation_window"] * YEAR,
        "tornado_top": bars[0]["label"],
        "tornado_top_swing": bars[0]["swing"],
        "tornado_min": tornado_min,
        "tornado_max": tornado_max,
    }
    series = {
        **curves("utilisation", u, cost_per_useful=per_useful),
    }
    rows = [[name, parts[k], share[k], "CapEx" if is_capex else "OpEx"] for k, name, is_capex in PARTS]
    rows.append(["total per GPU-hour", total, 1.0, "—"])
    rows.append([f"per useful GPU-hour at {p['utilisation']:.0%} utilisation", useful, useful / total, "—"])
    table = Table("The cost of one GPU-hour, part by part",
                  [Column("part", "text"), Column("cost", "USD/h"), Column("share of total", "%"),
                   Column("kind", "text")], rows)
    animation = {
        "layers": [{"key": k, "name": name, "capex": is_capex, "value": parts[k]} for k, name, is_capex in PARTS],
        "total": total,
        "utilisation": p["utilisation"],
        "useful": useful,
        "half_useful": half_useful,
        "half_utilisation": HALF,
    }
    problems = {
        "shorter_life": {"life_years": p["useful_life_low"] / YEAR, "total": short_total, "useful": short_useful,
                         "increase": short_useful / useful - 1.0},
        "half_idle": {"utilisation": HALF, "useful": half_useful, "ratio": half_useful / useful},
        "dear_power": {"pue": p["pue_high"], "tariff": p["tariff_high"], "useful": hot_useful,
                       "increase": hot_useful / useful - 1.0},
    }
    records = {
        "parts": [{"key": k, "name": name, "capex": is_capex, "per_hour": parts[k], "share": share[k]}
                  for k, name, is_capex in PARTS],
        "tornado": bars,
    }
    return Exhibit(summary=summary, series=series, table=table, animation=animation,
                   problems=problems, records=records)
