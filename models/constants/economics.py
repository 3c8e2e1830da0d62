"""FinOps: utilisation accounting, prices and rate cards (each with its date), tariffs, depreciation lives.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)

CONSTANTS = {
    # >>> constants: scene 21
    # <<< constants: scene 21
    # >>> constants: scene 22
    # <<< constants: scene 22
    # >>> constants: scene 23
    # <<< constants: scene 23
    # >>> constants: scene 24
    # Provider notices before a spot/preemptible VM is reclaimed (each provider's own documentation).
    "aws_spot_notice": Constant(
        120, "s", "aws-spot-interruption-notices", scope="per node",
        label="AWS EC2 Spot interruption notice",
        note="issued two minutes before EC2 stops or terminates the instance; emitted on a best-effort basis",
    ),
    "gcp_spot_notice": Constant(
        30, "s", "gcp-spot-vms", scope="per node",
        label="Google Cloud Spot VM preemption notice",
        note="ACPI G2 Soft Off, then G3 Mechanical Off; the shutdown period is best effort and up to 30 s",
    ),
    "azure_spot_notice": Constant(
        30, "s", "azure-scheduled-events", scope="per node",
        label="Azure Spot VM eviction notice (Scheduled Events, Preempt)",
        note="the minimum notice of a Preempt event in Scheduled Events",
    ),
    "gcp_preemptible_max_runtime": Constant(
        86400, "s", "gcp-preemptible-vms", scope="per node",
        label="Google Cloud preemptible VM maximum runtime (24 h)",
        note="preemptible VMs always stop after 24 hours; Spot VMs have no maximum runtime",
    ),
    # Discounts: dated ceilings and ranges as the providers state them, not GPU-specific prices.
    "aws_spot_max_discount": Constant(
        0.90, "%", "aws-spot-pricing", scope="",
        label="AWS Spot discount, up to (as of 2025)",
        note="'a discount of up to 90% off compared to On-Demand pricing'; per-GPU-type discounts are not published",
    ),
    "gcp_spot_min_discount": Constant(
        0.60, "%", "gcp-preemptible-vms", scope="",
        label="Google Cloud Spot/preemptible discount, low end of the published range (as of 2024)",
        note="'a 60-91% discount compared to the price of standard VMs'",
    ),
    "gcp_spot_max_discount": Constant(
        0.91, "%", "gcp-spot-vms", scope="",
        label="Google Cloud Spot discount, up to (as of March 2026)",
    ),
    # The Spot Instance Advisor's frequency-of-interruption bands (share of capacity reclaimed in the
    # trailing month): <5%, 5-10%, 10-15%, 15-20%, >20%. The band of a given GPU type changes monthly.
    "spot_advisor_band_low": Constant(
        0.05, "%", "aws-spot-advisor", scope="",
        label="Spot Instance Advisor: edge of the lowest interruption band (<5% a month)",
    ),
    "spot_advisor_band_high": Constant(
        0.20, "%", "aws-spot-advisor", scope="",
        label="Spot Instance Advisor: edge of the highest interruption band (>20% a month)",
    ),
    # On-demand price of one 8×H100 node. AWS's price page was not read for this build: the value is the list
    # price as third-party copies of AWS's Price List carry it (instances.vantage.sh, March 2026), so the
    # page treats it as an estimate and shows the launch price as the other end of the range.
    "aws_p5_on_demand_price": Constant(
        55.04, "USD/h", "aws-gpu-price-cut-2025", scope="per node",
        label="AWS p5.48xlarge on-demand price, US East (N. Virginia), Linux (as of June 2025, still listed March 2026)",
        note="after AWS's June 2025 reduction of up to 45% on P5 on-demand prices",
    ),
    "aws_p5_on_demand_price_launch": Constant(
        98.32, "USD/h", "nextplatform-p5-2023", scope="per node",
        label="AWS p5.48xlarge on-demand price at launch (as of July 2023; upper end of the estimate)",
    ),
    # <<< constants: scene 24
}
