"""The scenario's derived quantities: one name, one convention, one function each.

Several scenes quote the same derived number (the step time, the checkpoint a GPU writes, the
rate from host memory to a GPU). Each is computed here, from the inputs the catalogue gives the
scene, by one function with its convention stated and sourced. A scene that quotes one publishes
it under its name in its exhibit's `records["scenario_facts"]` (`published`), and
`contradictions` compares the built scenes: two scenes carrying the same named quantity
(a published fact, or a summary value under a fact's name) with different values is a defect.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from models import training
from models.lib import checkpoint

# the records key a scene publishes its facts under
RECORD = "scenario_facts"
# two values of one fact agree when they differ by less than this, relatively: the same
# arithmetic in a different order, never a different convention (those differ by percent)
AGREEMENT = 1e-9


@dataclass(frozen=True)
class Fact:
    """A derived quantity's unit, its convention in a sentence, and the source of the convention."""

    unit: str
    convention: str
    source: str


FACTS: dict[str, Fact] = {
    "model_flops_per_token": Fact(
        "FLOP", "6·N + 12·L·H·Q·T: the weights' matmuls plus attention's scores and weighted values over the"
        " full context, forward and backward (PaLM Appendix B; torchtitan computes MFU with it)", "palm2022"),
    "attention_share": Fact(
        "1", "the attention term 12·L·H·Q·T as a share of the model FLOPs per token", "palm2022"),
    "achieved_flops_per_gpu": Fact(
        "FLOP/s", "achieved model FLOP/s per GPU as the Llama 3 report prints it (Table 4, 400 TFLOP/s),"
        " not MFU × peak: the table's 41% MFU × 989.5 TFLOP/s is about 406, so the 400 is itself rounded"
        " (400 / 989.5 = 40.4%)", "llama3-parallelism"),
    "step_time": Fact(
        "s", "model FLOPs of one global batch / (GPUs × achieved model FLOP/s per GPU)", "torchtitan"),
    "checkpoint_bytes": Fact(
        "B", "what one checkpoint holds: 16-bit weights and mixed-precision Adam state, (2 + 12) bytes per"
        " parameter", "zero2020"),
    "checkpoint_bytes_per_gpu": Fact(
        "B", "the checkpoint spread evenly over the job's GPUs: each GPU writes its shard of the optimizer"
        " state and, with the weights written once per model-parallel shard, its share of the weights",
        "zero2020"),
    "host_to_gpu_rate": Fact(
        "B/s", "PCIe x16 payload rate per direction: the data rate after line coding, times the share of"
        " each TLP that is payload at the maximum payload size, with DLLP acknowledgements", "pcie-base-5"),
    "ddr5_per_socket": Fact(
        "B/s", "DDR5 peak per CPU socket: channels × transfer rate × 8 bytes, at the rate the server's DIMM"
        " population runs (two DIMMs per channel on a DGX H100: 4,400 MT/s)", "intel-xeon-8480-ark"),
    "restart_for_reported": Fact(
        "s", "the longest restart time R for which the useful share at the optimum checkpoint interval still"
        " reaches the report's effective training time, each planned stop of the failure record costing one R"
        " too: E₀·e^(−R/M)·(1 − P·R/W) = E_r (Daly's model; the planned stops of §3.3.4, Table 5)", "llama3"),
    "restart_for_reported_unplanned": Fact(
        "s", "the same limit with the planned stops left out (costing nothing): R = M·ln(E₀/E_r), the"
        " useful share at the optimum interval E₀·e^(−R/M) of Daly's model alone", "daly2006"),
    "decode_bandwidth_efficiency": Fact(
        "1", "share of peak HBM bandwidth a decode step achieves: Databricks' MBU measured at batch 1 on two"
        " H100s, assumed for larger batches and more GPUs (and, on the roofline, for the FLOP/s roof too)",
        "databricks-inference-2023"),
}


class UnknownFact(KeyError):
    """A scene published a quantity the registry does not define."""


def published(**values: float) -> dict[str, float]:
    """The facts a scene quotes, checked against the registry: {name: value} for `records`."""
    unknown = sorted(set(values) - set(FACTS))
    if unknown:
        raise UnknownFact(f"not in models/scenario_facts.py FACTS: {', '.join(unknown)}")
    out = {name: float(v) for name, v in values.items()}
    for name, v in out.items():
        if not math.isfinite(v):
            raise ValueError(f"scenario fact {name} is {v}, not a finite number")
    return out


# --- the quantities ------------------------------------------------------------------------------


def training_step(model_params: float, tokens_per_step: float, gpus: float, flops_per_gpu: float,
                  layers: int, attention_dim: int, context: int,
                  flops_per_param_token: float = training.DENSE_FLOPS_PER_PARAM_TOKEN) -> dict[str, float]:
    """The step's FLOPs per token, attention's share of them, the achieved FLOP/s and the step time."""
    per_token = training.model_flops_per_token(model_params, layers, attention_dim, context, flops_per_param_token)
    return {
        "model_flops_per_token": per_token,
        "attention_share": training.attention_flops_per_token(layers, context, attention_dim) / per_token,
        "achieved_flops_per_gpu": float(flops_per_gpu),
        "step_time": per_token * tokens_per_step / (gpus * flops_per_gpu),
    }


def checkpoint_state(model_params: float, weight_bytes: float, optimizer_bytes: float,
                     gpus: float) -> dict[str, float]:
    """The checkpoint's bytes and each GPU's share of them."""
    total = model_params * (weight_bytes + optimizer_bytes)
    return {"checkpoint_bytes": total, "checkpoint_bytes_per_gpu": total / gpus}


def restart_limits(reported_efficiency: float, delta: float, mtbf: float, planned_interruptions: float,
                   observation_window: float) -> dict[str, float]:
    """The restart time R the reported effective training time allows, with the record's planned stops at
    one R each and without them (models/lib/checkpoint.py)."""
    planned_rate = float(planned_interruptions) / float(observation_window)
    return {"restart_for_reported": checkpoint.restart_for_efficiency_with_planned(reported_efficiency, delta,
                                                                                    mtbf, planned_rate),
            "restart_for_reported_unplanned": checkpoint.restart_for_efficiency(reported_efficiency, delta, mtbf)}


def pcie_payload_efficiency(max_payload: float, tlp_overhead: float, dllp_bytes: float = 0.0,
                            tlps_per_dllp: float = 1.0) -> float:
    """Share of the link's bytes that are payload: P / (P + TLP overhead + DLLP bytes per TLP)."""
    return max_payload / (max_payload + tlp_overhead + dllp_bytes / tlps_per_dllp)


def pcie_payload_rate(transfer_rate: float, lanes: int, encoding: float, max_payload: float,
                      tlp_overhead: float, dllp_bytes: float = 0.0, tlps_per_dllp: float = 1.0) -> float:
    """Payload bytes per second, per direction, of a PCIe link: lanes × rate × coding / 8 × efficiency."""
    data_rate = transfer_rate * lanes * encoding / 8.0
    return data_rate * pcie_payload_efficiency(max_payload, tlp_overhead, dllp_bytes, tlps_per_dllp)


def ddr_per_socket(channels: int, transfer_rate: float, bytes_per_transfer: float = 8.0) -> float:
    """Peak DRAM bandwidth of one socket, reads and writes together."""
    return channels * transfer_rate * bytes_per_transfer


# --- the check -----------------------------------------------------------------------------------


def carried(data: Mapping) -> dict[str, float]:
    """The named quantities one scene's data carries: its published facts, and summary values under a
    fact's name (a scene that prints a fact without publishing it is held to it too)."""
    summary = data.get("summary") or {}
    found = {k: float(v) for k, v in summary.items()
             if k in FACTS and isinstance(v, (int, float)) and not isinstance(v, bool)}
    found.update({k: float(v) for k, v in ((data.get("records") or {}).get(RECORD) or {}).items()})
    return found


def contradictions(data_by_scene: Mapping[str, Mapping]) -> list[str]:
    """One message per fact that two scenes carry with different values (empty: one fact, one value)."""
    seen: dict[str, dict[str, float]] = {}
    for scene, data in sorted(data_by_scene.items()):
        for name, value in carried(data).items():
            seen.setdefault(name, {})[scene] = value
    problems = []
    for name, by_scene in sorted(seen.items()):
        values = list(by_scene.values())
        if any(not math.isclose(v, values[0], rel_tol=AGREEMENT) for v in values):
            listed = ", ".join(f"{scene} {value:.6g}" for scene, value in by_scene.items())
            problems.append(f"{name} ({FACTS[name].unit}) has different values in different scenes: {listed}"
                            if name in FACTS else f"{name} has different values: {listed}")
    return problems
