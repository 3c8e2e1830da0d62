"""Cost rates: what one GPU-hour costs its owner, part by part.

The cost of one GPU-hour is a sum of parts, each a price divided by the hours it buys:

    depreciation  (server + storage + network) / useful life           straight line, no salvage
    financing     depreciation · (annuity factor − 1)                   cost of capital on the hardware
    power         P_node / g · PUE · tariff                             metered energy at the facility
    facility      P_node / g · colocation rate per kW-month / h_month   space, cooling plant, security
    staff         staff cost per GPU-year / h_year
    optics        replacements per GPU-hour · price per replacement

with g GPUs per node and P_node the node's maximum power. The network is a fixed share f of the
cluster's hardware cost, so network = (server + storage) · f / (1 − f). `RATE_PARAMS` declares
these inputs once for every model that prices GPU-hours (capex-opex-tco, cost-per-token and the
case study, placement-tax).

Financing: the hardware is paid for with capital that costs r a year. A level annuity repays a
price C over a life of L years at r in equal yearly payments C · r / (1 − (1 + r)^−L); straight-line
depreciation is C / L, so the annuity is the straight line times the annuity factor
A = r·L / (1 − (1 + r)^−L) ≥ 1, and the `financing` part is depreciation · (A − 1). It is the
interest on the capital tied up in the hardware (at 8% over 5.5 years A ≈ 1.27). The rate is an
optional input (`FINANCE_PARAMS`, `cost_of_capital`); a model that does not declare it gets r = 0,
the straight line alone, and a financing part of zero.

`tco_range` gives the low and high cost over the swept ranges of the inputs, one at a time (the
ends of capex-opex-tco's tornado).

Money in USD; time in seconds (models/units.py); tariffs in USD per kWh ("USD/kWh") and colocation
rates in USD per kW-month ("USD/kW-month").
"""

from __future__ import annotations

from models.exhibit import Param
from models.units import DAY, HOUR

YEAR = 365.25 * DAY
MONTH = YEAR / 12
KW = 1e3
TB = 1e12

# The inputs of one GPU-hour's cost (besides the cluster's GPUs and GPUs per node, which each
# model declares with its own name and bounds).
RATE_PARAMS = dict(
    node_price=Param.positive("USD", "price of one 8-GPU server (estimate)"),
    useful_life=Param.positive("s", "useful life (straight-line depreciation)", maximum=20 * YEAR),
    network_share=Param.number("1", "network share of cluster hardware cost", minimum=0, maximum=0.9),
    storage_bytes_per_gpu=Param.positive("B", "storage capacity per GPU"),
    storage_price_per_tb=Param.positive("USD", "storage hardware price per TB (assumption)"),
    node_power=Param.positive("W", "node maximum power"),
    pue=Param.number("1", "power usage effectiveness (PUE)", minimum=1.0, maximum=3.0),
    tariff=Param.positive("USD/kWh", "industrial electricity price", maximum=2.0),
    colocation=Param.positive("USD/kW-month", "colocation rate", maximum=5000.0),
    staff_per_gpu_year=Param.number("USD", "operations staff per GPU-year (assumption)", minimum=0),
    network_failures=Param.number("count", "network switch/cable interruptions in the snapshot", minimum=0),
    observation_window=Param.positive("s", "length of the snapshot"),
    optics_price=Param.number("USD", "price of one optics or cable replacement (assumption)", minimum=0),
)

# Optional: the cost of the capital that buys the hardware (0 or absent: straight-line depreciation only).
FINANCE_PARAMS = dict(
    cost_of_capital=Param.number("%", "cost of capital per year (financing the hardware)", minimum=0, maximum=0.5),
)


# The low and high ends the tornado swings each rate input over, read by both cost scenes
# (capex-opex-tco's tornado, cost-per-token's range of the GPU-hour's rate).
RANGE_PARAMS = dict(
    cost_of_capital_low=Param.number("%", "cost of capital, low", minimum=0, maximum=0.5),
    cost_of_capital_high=Param.number("%", "cost of capital, high", minimum=0, maximum=0.5),
    node_price_low=Param.positive("USD", "server price, low end of the estimate"),
    node_price_high=Param.positive("USD", "server price, high end of the estimate"),
    useful_life_high=Param.positive("s", "useful life, longest of the filings", maximum=20 * YEAR),
    network_share_low=Param.number("1", "network share, low", minimum=0, maximum=0.9),
    network_share_high=Param.number("1", "network share, high", minimum=0, maximum=0.9),
    storage_price_low=Param.positive("USD", "storage price per TB, low"),
    storage_price_high=Param.positive("USD", "storage price per TB, high"),
    pue_low=Param.number("1", "PUE, low", minimum=1.0, maximum=3.0),
    pue_high=Param.number("1", "PUE, high", minimum=1.0, maximum=3.0),
    tariff_low=Param.positive("USD/kWh", "electricity price, low", maximum=2.0),
    tariff_high=Param.positive("USD/kWh", "electricity price, high", maximum=2.0),
    colocation_low=Param.positive("USD/kW-month", "colocation rate, low", maximum=5000.0),
    colocation_high=Param.positive("USD/kW-month", "colocation rate, high", maximum=5000.0),
    staff_low=Param.number("USD", "staff per GPU-year, low", minimum=0),
    staff_high=Param.number("USD", "staff per GPU-year, high", minimum=0),
    optics_price_low=Param.number("USD", "replacement price, low", minimum=0),
    optics_price_high=Param.number("USD", "replacement price, high", minimum=0),
)


def straight_line_per_hour(cost: float, useful_life: float) -> float:
    """Straight-line depreciation with no salvage value: cost / (useful life in hours), USD/h."""
    if not useful_life > 0:
        raise ValueError("useful_life must be positive")
    return cost / (useful_life / HOUR)


def annuity_factor(rate: float, life_years: float) -> float:
    """Level annuity over straight line: r·L / (1 − (1 + r)^−L), payments yearly in arrears; 1 at r = 0.

    The yearly payment that repays a price C with interest r over L years is C·r / (1 − (1 + r)^−L);
    dividing by the straight line's C / L gives the factor (8% over 5.5 years: 1.275)."""
    if not life_years > 0:
        raise ValueError("life_years must be positive")
    if rate < 0:
        raise ValueError("rate must be non-negative")
    if rate == 0:
        return 1.0
    return rate * life_years / (1.0 - (1.0 + rate) ** -life_years)


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
    """USD per GPU-hour of each part, from a dict of the rate's inputs (RATE_PARAMS, `gpus` and
    `gpus_per_node`, optionally FINANCE_PARAMS), in the order depreciation (server, network,
    storage), financing, then the running costs. Without `cost_of_capital` financing is 0."""
    hw = capex_per_gpu(p["node_price"], p["gpus_per_node"], p["storage_bytes_per_gpu"],
                       p["storage_price_per_tb"], p["network_share"])
    depreciation = {key: straight_line_per_hour(hw[key], p["useful_life"]) for key in ("server", "network", "storage")}
    factor = annuity_factor(p.get("cost_of_capital", 0.0), p["useful_life"] / YEAR)
    return {
        **depreciation,
        "financing": sum(depreciation.values()) * (factor - 1.0),
        "power": power_per_hour(p["node_power"], p["gpus_per_node"], p["pue"], p["tariff"]),
        "facility": facility_per_hour(p["node_power"], p["gpus_per_node"], p["colocation"]),
        "staff": p["staff_per_gpu_year"] / (YEAR / HOUR),
        "optics": optics_per_hour(p["network_failures"], p["observation_window"], p["gpus"],
                                  p["optics_price"]),
    }


def tco_range(p: dict, ranges: dict) -> tuple[float, float]:
    """The lowest and highest cost per useful GPU-hour (USD/h) as each input moves across its range.

    tco_range(p, ranges) -> (low, high)
      p       the rate's inputs as for `cost_parts` (RATE_PARAMS, `gpus`, `gpus_per_node`, optionally
              `cost_of_capital`), plus optionally `utilisation` (useful share of GPU-hours; 1 if absent)
      ranges  {input name: (low value, high value)}: any keys of p, `utilisation` and
              `cost_of_capital` included
    One input at a time moves to each end of its range with the others at p (a tornado, not a
    joint worst case), so the result is the span of the tornado's bar ends, and it always contains
    the cost at p. The cost is sum(cost_parts) / utilisation: with no `utilisation` in p or in
    ranges, it is the cost per GPU-hour with every hour used.
    """
    def useful(q: dict) -> float:
        return sum(cost_parts(q).values()) / q.get("utilisation", 1.0)

    ends = [useful(p)]
    for name, (low, high) in sorted(ranges.items()):
        ends += [useful(dict(p, **{name: low})), useful(dict(p, **{name: high}))]
    return min(ends), max(ends)
