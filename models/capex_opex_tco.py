"""Cluster CapEx vs OpEx: what one GPU-hour of the scenario's cluster costs its owner.

The cost of one GPU-hour is a sum of parts, each a price divided by the hours it buys:

    depreciation  (server + storage + network) / useful life           straight line, no salvage
    financing     depreciation · (annuity factor − 1)                   cost of capital, level annuity
    power         P_node / g · PUE · tariff                             metered energy at the facility
    facility      P_node / g · colocation rate per kW-month / h_month   space, cooling plant, security
    staff         staff cost per GPU-year / h_year
    optics        replacements per GPU-hour · price per replacement

with g GPUs per node and P_node the node's maximum power (hgx-server's `power_budget`). The
parts and their inputs (`cost_parts`, `RATE_PARAMS`) live in models/lib/cost.py, shared with the
other models that price GPU-hours. The network is a fixed share f of the cluster's hardware cost
(Cottier et al. 2024 use f = 19%), so network = (server + storage) · f / (1 − f). Storage is the
Llama 3 cluster's capacity per GPU times a price per byte. Optics replacements per GPU-hour come
from the Llama 3 interruption record (Table 5, "network switch/cable") divided by the GPU-hours of the snapshot:
a floor, since failures that did not stop the job are not in it. The ceiling counts the fabric's
transceivers per GPU (one per optical port end, from the Llama 3 cluster's topology) times an
annual failure rate; the tornado moves the replacements between the two.

Financing: the hardware is paid with capital that costs r a year, repaid as a level annuity over the
useful life (models/lib/cost.py `annuity_factor`); the interest above the straight line is its own part.

Power and facility count the GPU servers' draw only. The rest of the cluster's IT load, its storage
servers, switches and transceivers, is left out of the rate (other models read it) and sized beside it
(`other_it_load`): storage servers (the Llama 3 count) times an assumed draw each, switch ports per GPU
(from the fabric) times an assumed draw per port, transceivers per GPU times an assumed draw each, each
swept low to high; its cost is what power and facility would add if the node drew that much more.

Every part is paid whether the GPU is busy or idle: the cost per *useful* GPU-hour is the total
divided by the utilisation u (the idle tax), an exact 1/u scaling because power is billed here
at the node's maximum draw (an upper bound, stated on the page).

The tornado sweeps each uncertain input between its low and high value with the others held at
the scenario, and ranks the inputs by the swing of the cost per useful GPU-hour.

Money in USD; time in seconds (models/units.py); tariffs in USD per kWh ("USD/kWh") and colocation
rates in USD per kW-month ("USD/kW-month").
"""

from __future__ import annotations

from models.exhibit import Column, Exhibit, Param, Table, check, curves, model
from models.lib.cost import (
    FINANCE_PARAMS,
    RANGE_PARAMS,
    RATE_PARAMS,
    TB,
    YEAR,
    annuity_factor,
    capex_per_gpu,
    cost_parts,
    tco_range,
)
from models.lib.node import power_budget
from models.units import HOUR

HALF = 0.5  # the worked problem's utilisation: half the GPU-hours idle

# the parts of a GPU-hour, bottom of the stack first: (key, reader's name, CapEx?)
PARTS = (
    ("server", "GPU servers", True),
    ("network", "network", True),
    ("storage", "storage", True),
    ("financing", "financing", True),
    ("power", "power", False),
    ("facility", "facility", False),
    ("staff", "staff", False),
    ("optics", "optics", False),
)


def monthly_annuity_factor(rate: float, life_years: float) -> float:
    """Level annuity over straight line with monthly payments in arrears: r·L / (1 − (1 + r/12)^−12L)."""
    return rate * life_years / (1.0 - (1.0 + rate / 12.0) ** (-12.0 * life_years)) if rate else 1.0


def cost_per_useful_hour(total_per_hour, utilisation):
    """The idle tax: every part is paid for idle hours too, so the cost per useful hour is total / u."""
    return total_per_hour / utilisation


def useful_cost(p: dict) -> float:
    """Cost per useful GPU-hour (USD/h) for a dict of the model's inputs."""
    return cost_per_useful_hour(sum(cost_parts(p).values()), p["utilisation"])


# inputs the tornado sweeps: (parameter, reader's name, low parameter, high parameter)
SWEPT = (
    ("node_price", "server price (estimate)", "node_price_low", "node_price_high"),
    ("useful_life", "useful life", "economic_life", "useful_life_high"),
    ("cost_of_capital", "cost of capital", "cost_of_capital_low", "cost_of_capital_high"),
    ("utilisation", "utilisation", "utilisation_low", "utilisation_high"),
    ("colocation", "colocation rate", "colocation_low", "colocation_high"),
    ("network_share", "network share of hardware", "network_share_low", "network_share_high"),
    ("tariff", "electricity tariff", "tariff_low", "tariff_high"),
    ("pue", "PUE", "pue_low", "pue_high"),
    ("staff_per_gpu_year", "staff", "staff_low", "staff_high"),
    ("storage_price_per_tb", "storage price", "storage_price_low", "storage_price_high"),
    ("optics_price", "price of a replacement", "optics_price_low", "optics_price_high"),
    ("network_failures", "optics replacements a year", "network_failures", "optics_failures_high"),
)


# --- optics: the floor from the interruption record, the ceiling from the transceiver count ----------


def optical_ends_per_gpu(aggregation_oversubscription: float, in_rack_optical: bool) -> float:
    """Transceivers per GPU, one per optical port end (a 400G port each end of a link).

    The Llama 3 fabric: each rack's switch has as much uplink as its GPUs have downlink (1:1), so one
    uplink per GPU, two ends; the aggregation layer is oversubscribed 1:o, so 1/o link per GPU, two
    ends. The GPU-to-rack-switch links add two more ends per GPU if they are optical, none if copper."""
    ends = 2.0 * (1.0 + 1.0 / aggregation_oversubscription)
    return ends + (2.0 if in_rack_optical else 0.0)


def optics_ceiling(p: dict) -> dict:
    """Transceivers per GPU (copper in the rack: low; optical: high) and the replacements a year at the
    annual failure rates' ends; the high end in the snapshot's window, as the tornado's high value."""
    per_gpu = {end: optical_ends_per_gpu(p["aggregation_oversubscription"], end == "high") for end in ("low", "high")}
    per_year = {"low": p["gpus"] * per_gpu["low"] * p["transceiver_afr_low"],
                "high": p["gpus"] * per_gpu["high"] * p["transceiver_afr_high"]}
    floor_per_year = p["network_failures"] / p["observation_window"] * YEAR
    check(p["transceiver_afr_low"] <= p["transceiver_afr_high"], "the failure rates are ordered")
    check(per_year["low"] > floor_per_year, "the transceiver count gives more replacements than the interruption floor")
    return {"per_gpu": per_gpu, "per_year": per_year, "floor_per_year": floor_per_year,
            "failures_in_window": per_year["high"] * p["observation_window"] / YEAR}


# --- the IT load outside the GPU servers: sized, left out of the rate ----------------


def switch_ports_per_gpu(aggregation_oversubscription: float) -> float:
    """Switch ports per GPU in the Llama 3 fabric: the GPU's link ends on one rack-switch port, its 1:1
    uplink takes a port at each end, and the aggregation layer's 1/o link per GPU a port at each end."""
    return 1.0 + 2.0 * (1.0 + 1.0 / aggregation_oversubscription)


def other_it_load(p: dict, transceivers_per_gpu: float) -> dict:
    """Watts per GPU the storage servers, switches and transceivers draw, at the assumed, low and high
    draws, and what power and facility would add per GPU-hour if they were billed (the node drawing
    that much more per GPU: the same rates, through `cost_parts`)."""
    ports = switch_ports_per_gpu(p["aggregation_oversubscription"])
    # storage servers per GPU: the GPU's storage over one Llama 3 storage server's capacity, so a cluster of
    # another size keeps the same storage per GPU and the same servers per GPU
    servers_per_gpu = p["storage_bytes_per_gpu"] / (p["storage_capacity"] / p["storage_servers"])
    base = sum(cost_parts(p).values())
    out = {"switch_ports_per_gpu": ports, "storage_servers_per_gpu": servers_per_gpu}
    for end, sfx in (("mid", ""), ("low", "_low"), ("high", "_high")):
        watts = {"storage": servers_per_gpu * p["storage_server_power" + sfx],
                 "switches": ports * p["switch_port_power" + sfx],
                 "transceivers": transceivers_per_gpu * p["transceiver_power" + sfx]}
        w = sum(watts.values())
        dearer = sum(cost_parts(dict(p, node_power=p["node_power"] + w * p["gpus_per_node"])).values())
        out[end] = {"watts": watts, "per_gpu": w, "load_share": w / (p["node_power"] / p["gpus_per_node"]),
                    "per_hour": dearer - base, "increase": dearer / base - 1.0}
    check(out["low"]["per_gpu"] < out["mid"]["per_gpu"] < out["high"]["per_gpu"], "the IT-load ends are ordered")
    check(out["mid"]["watts"]["storage"] > out["mid"]["watts"]["switches"] + out["mid"]["watts"]["transceivers"],
          "the storage servers draw more than the switches and transceivers together")
    check(out["high"]["increase"] < 0.10, "the left-out IT load would add less than a tenth to the cost")
    return out


def storage_server_prices(p: dict) -> dict:
    """What the price per TB implies for one Llama 3 storage server (its capacity over the servers' count),
    at the scenario's price and the sweep's ends: the page shows the scenario's prices the drives, not a
    whole server, and that the high end covers one."""
    per_server = p["storage_capacity"] / p["storage_servers"]
    price = {end: per_server / TB * p[key] for end, key in (("mid", "storage_price_per_tb"),
                                                           ("low", "storage_price_low"),
                                                           ("high", "storage_price_high"))}
    check(price["high"] > 3.0 * price["mid"],
          "the sweep's high end prices a storage server at several times the scenario's price")
    return {"bytes_per_server": per_server, **price}


# --- the stack of parts -------------------------------------------------------------


def stack(p: dict) -> dict:
    """The parts of one GPU-hour at the scenario, their total, CapEx/OpEx split and shares."""
    parts = cost_parts(p)
    total = sum(parts.values())
    # CapEx: the hardware's depreciation and the interest on the capital that bought it
    capex = sum(parts[k] for k, _, is_capex in PARTS if is_capex)
    return {"parts": parts, "total": total, "useful": cost_per_useful_hour(total, p["utilisation"]),
            "capex": capex, "opex": total - capex, "share": {k: v / total for k, v in parts.items()}}


def check_stack(s: dict) -> None:
    parts, total = s["parts"], s["total"]
    ranked = sorted(parts, key=parts.get, reverse=True)
    check(abs(sum(parts.values()) - total) <= 1e-12 * total, "the parts add up to the total")
    check(s["capex"] > s["opex"], "depreciation is more than all the running costs together")
    check(ranked[0] == "server", "the servers' depreciation is the largest part")
    check(parts["facility"] > parts["power"], "the facility costs more than the electricity")
    check(s["share"]["optics"] < 0.01, "optics replacements are under 1% of the cost")
    check(parts["financing"] > parts["power"], "financing the hardware costs more than its electricity")


# --- the tornado ---------------------------------------------------------------------


def tornado(p: dict) -> list[dict]:
    """One input at a time from low to high, the others at the scenario; widest swing first."""
    bars = []
    for key, label, lo, hi in SWEPT:
        ends = [useful_cost(dict(p, **{key: p[end]})) for end in (lo, hi)]
        bars.append({"input": key, "label": label, "low_value": p[lo], "high_value": p[hi],
                     "at_low": ends[0], "at_high": ends[1], "swing": abs(ends[1] - ends[0])})
    bars.sort(key=lambda b: b["swing"], reverse=True)
    check(bars[0]["input"] in ("node_price", "utilisation"),
          "the server price or the utilisation moves the cost most")
    check(bars[-1]["input"] in ("optics_price", "network_failures"), "optics move it least")
    check(next(i for i, b in enumerate(bars) if b["input"] == "cost_of_capital")
          < next(i for i, b in enumerate(bars) if b["input"] == "tariff"),
          "the cost of capital moves the cost more than the electricity tariff")
    check([b["input"] for b in bars[:2]] == ["utilisation", "useful_life"],
          "utilisation moves the cost most, then the useful life")
    return bars


def swept_ranges(p: dict) -> dict:
    """{input: (low, high)} of every input the tornado sweeps, for models/lib/cost.py `tco_range`."""
    return {key: (p[lo], p[hi]) for key, _, lo, hi in SWEPT}


# --- the idle tax and the worked problems -----------------------------------------------


def idle_tax_curve(total: float, utilisations) -> tuple[list, list]:
    """Cost per useful GPU-hour over the swept utilisations (sorted)."""
    u = sorted(utilisations)
    per_useful = [cost_per_useful_hour(total, x) for x in u]
    check(abs(cost_per_useful_hour(total, HALF) * HALF / total - 1.0) < 1e-12,
          "at half utilisation a useful GPU-hour costs twice the full-utilisation rate")
    return u, per_useful


def variant(p: dict, **changes) -> tuple[float, float]:
    """Total and useful cost per GPU-hour with some inputs changed."""
    q = dict(p, **changes)
    t = sum(cost_parts(q).values())
    return t, cost_per_useful_hour(t, q["utilisation"])


def worked_problems(p: dict, useful: float, bars: list[dict]) -> dict:
    """A shorter useful life, half the GPU-hours idle, the dearest power: what each does to the cost."""
    short_total, short_useful = variant(p, useful_life=p["useful_life_low"])
    econ_total, econ_useful = variant(p, useful_life=p["economic_life"])
    plain_total, plain_useful = variant(p, cost_of_capital=0.0)
    _, half_useful = variant(p, utilisation=HALF)
    _, hot_useful = variant(p, pue=p["pue_high"], tariff=p["tariff_high"])
    check(hot_useful - useful < half_useful - useful,
          "the dearest tariff and the worst PUE together cost less than running at half utilisation")
    others = [abs(e - useful) for b in bars if b["input"] not in ("utilisation", "useful_life")
              for e in (b["at_low"], b["at_high"])]
    check(econ_useful - useful > max(others),
          "the economic life moves the cost more than any input but utilisation")
    dearest = max(max(b["at_low"], b["at_high"]) for b in bars)
    check(p["utilisation_low"] == HALF and abs(dearest / half_useful - 1) < 1e-12,
          "the tornado's dearest end is the half-utilisation case")
    return {
        "shorter_life": {"life_years": p["useful_life_low"] / YEAR, "total": short_total, "useful": short_useful,
                         "increase": short_useful / useful - 1.0},
        "economic_life": {"life_years": p["economic_life"] / YEAR, "total": econ_total, "useful": econ_useful,
                          "increase": econ_useful / useful - 1.0},
        "no_financing": {"total": plain_total, "useful": plain_useful, "financing_adds": useful / plain_useful - 1.0},
        "half_idle": {"utilisation": HALF, "useful": half_useful, "ratio": half_useful / useful},
        "dear_power": {"pue": p["pue_high"], "tariff": p["tariff_high"], "useful": hot_useful,
                       "increase": hot_useful / useful - 1.0},
    }


# --- what the page reads -------------------------------------------------------------


def summary_of(p: dict, hw: dict, budget: dict, s: dict, bars: list[dict], optics: dict, other: dict,
               storage_servers: dict) -> dict:
    parts, share, total, useful, capex = s["parts"], s["share"], s["total"], s["useful"], s["capex"]
    storage_bar = next(b for b in bars if b["input"] == "storage_price_per_tb")
    low, high = tco_range(p, swept_ranges(p))
    optics_high = dict(p, network_failures=optics["failures_in_window"])
    optics_dearest = dict(optics_high, optics_price=p["optics_price_high"])  # both ends high at once
    return {
        "capex_per_gpu": hw["total"],
        "server_per_gpu": hw["server"],
        "network_per_gpu": hw["network"],
        "storage_per_gpu": hw["storage"],
        "useful_life_years": p["useful_life"] / YEAR,
        "useful_life_low_years": p["useful_life_low"] / YEAR,
        "useful_life_high_years": p["useful_life_high"] / YEAR,
        "economic_life_years": p["economic_life"] / YEAR,
        "annuity_factor": annuity_factor(p["cost_of_capital"], p["useful_life"] / YEAR),
        # the page's convention is yearly payments in arrears; monthly ones (12·L payments at r/12) for comparison
        "annuity_factor_monthly": monthly_annuity_factor(p["cost_of_capital"], p["useful_life"] / YEAR),
        "depreciation_per_hour": parts["server"] + parts["network"] + parts["storage"],
        "power_per_gpu": budget["power_per_gpu"],
        "gpu_power_share": budget["gpu_share"],
        **{f"{k}_per_hour": v for k, v in parts.items()},
        **{f"{k}_share": v for k, v in share.items()},
        "total_per_hour": total,
        "capex_per_hour": capex,
        "opex_per_hour": s["opex"],
        "capex_share": capex / total,
        "useful_per_hour": useful,
        "idle_tax": useful - total,
        "cluster_per_year": total * (YEAR / HOUR) * p["gpus"],
        "optics_replacements_per_year": optics["floor_per_year"],
        "transceivers_per_gpu_low": optics["per_gpu"]["low"],
        "transceivers_per_gpu_high": optics["per_gpu"]["high"],
        "transceivers_low": optics["per_gpu"]["low"] * p["gpus"],
        "transceivers_high": optics["per_gpu"]["high"] * p["gpus"],
        "optics_replacements_low": optics["per_year"]["low"],
        "optics_replacements_high": optics["per_year"]["high"],
        "optics_share_high": cost_parts(optics_high)["optics"] / sum(cost_parts(optics_high).values()),
        "optics_share_dearest": cost_parts(optics_dearest)["optics"] / sum(cost_parts(optics_dearest).values()),
        "optics_dearest_per_hour": cost_parts(optics_dearest)["optics"],
        "switch_ports_per_gpu": other["switch_ports_per_gpu"],
        "storage_servers_per_gpu": other["storage_servers_per_gpu"],
        **{f"other_it_{k}_per_gpu": v for k, v in other["mid"]["watts"].items()},
        **{f"other_it{sfx}_{key}": other[end][key] for end, sfx in (("mid", ""), ("low", "_low"), ("high", "_high"))
           for key in ("per_gpu", "load_share", "per_hour", "increase")},
        "other_it_cluster_power": other["mid"]["per_gpu"] * p["gpus"],
        "storage_bytes_per_server": storage_servers["bytes_per_server"],
        **{f"storage_server_price{sfx}": storage_servers[end] for end, sfx in (("mid", ""), ("low", "_low"),
                                                                                ("high", "_high"))},
        # a useful GPU-hour with storage at the sweep's high end (a whole server's price), and how much dearer
        "storage_high_useful": storage_bar["at_high"],
        "storage_high_increase": storage_bar["at_high"] / useful - 1.0,
        "tornado_top": bars[0]["label"],
        "tornado_top_swing": bars[0]["swing"],
        "tornado_second": bars[1]["label"],
        "tornado_min": low,
        "tornado_max": high,
    }


def parts_table(s: dict, utilisation: float) -> Table:
    parts, share, total, useful = s["parts"], s["share"], s["total"], s["useful"]
    rows = [[name, parts[k], share[k], "CapEx" if is_capex else "OpEx"] for k, name, is_capex in PARTS]
    rows.append(["total per GPU-hour", total, 1.0, "—"])
    rows.append([f"per useful GPU-hour at {utilisation:.0%} utilisation", useful, useful / total, "—"])
    return Table("The cost of one GPU-hour, part by part",
                 [Column("part", "text"), Column("cost", "USD/h"), Column("share of total", "%"),
                  Column("kind", "text")], rows)


def animation_plan(s: dict, utilisation: float, half_useful: float) -> dict:
    """The stack the scene builds layer by layer, then the idle tax at the scenario and at half."""
    return {
        "layers": [{"key": k, "name": name, "capex": is_capex, "value": s["parts"][k]}
                   for k, name, is_capex in PARTS],
        "total": s["total"],
        "utilisation": utilisation,
        "useful": s["useful"],
        "half_useful": half_useful,
        "half_utilisation": HALF,
    }


def records_of(s: dict, bars: list[dict]) -> dict:
    return {
        "parts": [{"key": k, "name": name, "capex": is_capex, "per_hour": s["parts"][k], "share": s["share"][k]}
                  for k, name, is_capex in PARTS],
        "tornado": bars,
    }


# --- the scene's entry point ---------------------------------------------------

@model(
    **RATE_PARAMS,
    **FINANCE_PARAMS,
    **RANGE_PARAMS,
    economic_life=Param.positive("s", "economic life (stress case: an assumption, shorter than the filings)",
                                 maximum=20 * YEAR),
    aggregation_oversubscription=Param.positive("1", "oversubscription of the fabric's aggregation layer (x:1)"),
    transceiver_afr_low=Param.fraction("transceiver annual failure rate, low (assumption)"),
    transceiver_afr_high=Param.fraction("transceiver annual failure rate, high (assumption)"),
    gpus=Param.integer("count", "GPUs in the cluster"),
    gpus_per_node=Param.integer("count", "GPUs per node", minimum=1, maximum=64),
    useful_life_low=Param.positive("s", "useful life, shortest of the filings", maximum=20 * YEAR),
    gpu_tdp=Param.positive("W", "GPU TDP"),
    cpu_sockets=Param.integer("count", "CPU sockets per node", maximum=8),
    cpu_tdp=Param.positive("W", "CPU TDP"),
    utilisation=Param.positive("1", "utilisation (useful share of GPU-hours)", maximum=1.0),
    utilisation_low=Param.positive("1", "utilisation, low", maximum=1.0),
    utilisation_high=Param.positive("1", "utilisation, high", maximum=1.0),
    utilisation_sweep=Param.numbers("1", "utilisations for the idle-tax curve", above=0.0, maximum=1.0),
    storage_servers=Param.integer("count", "storage servers of the Llama 3 cluster (their draw: left out of the rate)"),
    storage_capacity=Param.positive("B", "capacity those storage servers hold"),
    storage_server_power=Param.positive("W", "draw of one storage server (assumption)"),
    storage_server_power_low=Param.positive("W", "draw of one storage server, low"),
    storage_server_power_high=Param.positive("W", "draw of one storage server, high"),
    switch_port_power=Param.positive("W", "draw per switch port, optics excluded (assumption)"),
    switch_port_power_low=Param.positive("W", "draw per switch port, low"),
    switch_port_power_high=Param.positive("W", "draw per switch port, high"),
    transceiver_power=Param.positive("W", "draw of one 400G transceiver (assumption)"),
    transceiver_power_low=Param.positive("W", "draw of one 400G transceiver, low"),
    transceiver_power_high=Param.positive("W", "draw of one 400G transceiver, high"),
)
def gpu_hour_cost(gpus, gpus_per_node, node_price, node_price_low, node_price_high, useful_life,
                  useful_life_low, useful_life_high, economic_life, cost_of_capital, cost_of_capital_low,
                  cost_of_capital_high, aggregation_oversubscription, transceiver_afr_low, transceiver_afr_high,
                  network_share, network_share_low, network_share_high,
                  storage_bytes_per_gpu, storage_price_per_tb, storage_price_low, storage_price_high,
                  gpu_tdp, cpu_sockets, cpu_tdp, node_power, pue, pue_low, pue_high, tariff, tariff_low,
                  tariff_high, colocation, colocation_low, colocation_high, staff_per_gpu_year, staff_low,
                  staff_high, network_failures, observation_window, optics_price, optics_price_low,
                  optics_price_high, utilisation, utilisation_low, utilisation_high,
                  utilisation_sweep, storage_servers, storage_capacity, storage_server_power, storage_server_power_low,
                  storage_server_power_high, switch_port_power, switch_port_power_low, switch_port_power_high,
                  transceiver_power, transceiver_power_low, transceiver_power_high) -> Exhibit:
    p = dict(locals())
    optics = optics_ceiling(p)
    p["optics_failures_high"] = optics["failures_in_window"]  # the tornado's high end of replacements
    for key, _, lo, hi in SWEPT:
        check(p[lo] <= p[key] <= p[hi], f"the scenario's {key} lies inside its swept range")
    # the node: hgx-server's power budget (GPUs and CPUs must fit inside the system maximum)
    budget = power_budget(p["gpus_per_node"], p["gpu_tdp"], p["cpu_sockets"], p["cpu_tdp"], p["node_power"])
    hw = capex_per_gpu(p["node_price"], p["gpus_per_node"], p["storage_bytes_per_gpu"],
                       p["storage_price_per_tb"], p["network_share"])
    s = stack(p)
    check_stack(s)
    bars = tornado(p)
    u, per_useful = idle_tax_curve(s["total"], p["utilisation_sweep"])
    problems = worked_problems(p, s["useful"], bars)
    other = other_it_load(p, optics["per_gpu"]["low"])
    return Exhibit(summary=summary_of(p, hw, budget, s, bars, optics, other, storage_server_prices(p)),
                   series={**curves("utilisation", u, cost_per_useful=per_useful)},
                   table=parts_table(s, p["utilisation"]),
                   animation=animation_plan(s, p["utilisation"], problems["half_idle"]["useful"]),
                   problems=problems, records=records_of(s, bars))
