"""Cluster scheduling: job-trace statistics, scheduler defaults (Slurm, Kueue), MIG profiles, straggler studies.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import Constant  # noqa: F401  (used by the scenes' blocks below)
from models.units import GiB, MiB

CONSTANTS = {
    # >>> constants: gang-scheduling
    # Kueue waitForPodsReady and its requeuing strategy: the documented defaults
    "kueue_pods_ready_timeout": Constant(
        30 * 60, "s", "kueue-wait-for-pods-ready", scope="",
        label="Kueue waitForPodsReady timeout (default)",
        note="waitForPodsReady.timeout, 'defaulting to 30 minutes'",
    ),
    "kueue_backoff_base": Constant(
        60, "s", "kueue-wait-for-pods-ready", scope="",
        label="Kueue requeuingStrategy backoffBaseSeconds (default)",
        note="the first requeue delay; each further one doubles",
    ),
    "kueue_backoff_max": Constant(
        3600, "s", "kueue-wait-for-pods-ready", scope="",
        label="Kueue requeuingStrategy backoffMaxSeconds (default)",
    ),
    "kueue_backoff_jitter": Constant(
        0.0001, "1", "kueue-requeue-code", scope="",
        label="Kueue requeue backoff jitter (fraction of the delay)",
        note="wait.Backoff{Factor: 2, Jitter: 0.0001} in pkg/workload",
    ),
    # Philly (Jeon et al., ATC '19), Fig. 2: run-time CDF per GPU-count bucket. The public
    # figure gives curves, not tables: values read off the curves (estimate, about ±30%).
    "philly_run_median_1gpu": Constant(
        20 * 60, "s", "philly2019", scope="",
        label="median run time of 1-GPU jobs, Philly (estimate read off Fig. 2, 15-30 min)",
    ),
    "philly_run_median_2_4gpu": Constant(
        40 * 60, "s", "philly2019", scope="",
        label="median run time of 2-4-GPU jobs, Philly (estimate read off Fig. 2, 30-60 min)",
    ),
    "philly_run_median_5_8gpu": Constant(
        150 * 60, "s", "philly2019", scope="",
        label="median run time of 5-8-GPU jobs, Philly (estimate read off Fig. 2, 100-200 min)",
    ),
    "philly_run_median_gt8gpu": Constant(
        120 * 60, "s", "philly2019", scope="",
        label="median run time of >8-GPU jobs, Philly (estimate read off Fig. 2, 100-200 min)",
    ),
    "philly_run_p90_1gpu": Constant(
        400 * 60, "s", "philly2019", scope="",
        label="90th-percentile run time of 1-GPU jobs, Philly (estimate read off Fig. 2, 300-500 min)",
    ),
    "philly_run_p90_2_4gpu": Constant(
        4000 * 60, "s", "philly2019", scope="",
        label="90th-percentile run time of 2-4-GPU jobs, Philly (estimate read off Fig. 2, 3,000-5,000 min)",
    ),
    "philly_run_p90_5_8gpu": Constant(
        6000 * 60, "s", "philly2019", scope="",
        label="90th-percentile run time of 5-8-GPU jobs, Philly (estimate read off Fig. 2, 4,000-8,000 min)",
    ),
    "philly_run_p90_gt8gpu": Constant(
        2500 * 60, "s", "philly2019", scope="",
        label="90th-percentile run time of >8-GPU jobs, Philly (estimate read off Fig. 2, 2,000-3,000 min)",
    ),
    "philly_run_axis_max": Constant(
        1e4 * 60, "s", "philly2019", scope="",
        label="longest run time on Philly's Fig. 2 axis (10^4 min)",
    ),
    # kube-scheduler's per-pod backoff after a failed scheduling attempt: the documented defaults
    "kube_pod_initial_backoff": Constant(
        1, "s", "kube-scheduler-config", scope="",
        label="kube-scheduler podInitialBackoffSeconds (default)",
        note="KubeSchedulerConfiguration v1: 'If specified, it must be greater than 0. If this value is null, "
             "the default value (1s) will be used.'",
    ),
    "kube_pod_max_backoff": Constant(
        10, "s", "kube-scheduler-config", scope="",
        label="kube-scheduler podMaxBackoffSeconds (default)",
        note="KubeSchedulerConfiguration v1: 'If this value is null, the default value (10s) will be used.'",
    ),
    # <<< constants: gang-scheduling
    # >>> constants: topology-packing
    "llama3_rack_gpus": Constant(
        16, "1", "llama3-network", scope="per rack",
        label="GPUs per rack under one top-of-rack switch in Meta's Llama 3 cluster",
        note="two 8-GPU servers per rack on one Minipack2 ToR (§3.3.1, Network topology)",
    ),
    "llama3_gradient_reduce_bytes": Constant(
        4, "B", "llama3-numerics", scope="",
        label="bytes per gradient element in Llama 3's data-parallel reduce-scatter (FP32)",
        note="§3.3.2, Numerical stability: gradients are reduce-scattered in FP32 across the"
             " data-parallel workers in FSDP",
    ),
    "bf16_bytes": Constant(
        2, "B", "kalamkar2019", scope="",
        label="bytes per BF16 element",
        note="bfloat16: 1 sign, 8 exponent and 7 mantissa bits; Llama 3 trains in BF16 (Table 4)",
    ),
    "llama3_gpu_network_rate": Constant(
        400e9 / 8, "B/s", "llama3-network", "per direction", "per GPU",  # 400 Gb/s in bytes (base.PER_DIRECTION)
        label="network bandwidth per GPU in Meta's Llama 3 clusters (400 Gb/s)",
        note="§3.3.1 Network: both the RoCE and the InfiniBand clusters 'leverage 400 Gbps interconnects"
             " between GPUs'",
    ),
    # <<< constants: topology-packing
    # >>> constants: stragglers
    "bytedance_straggler_affected_jobs": Constant(
        0.425, "%", "lin2025-stragglers", scope="per job",
        label="share of training jobs slowed by stragglers by at least 10% (S ≥ 1.1)",
        note="3,079 Megatron-LM pretraining jobs of ≥ 128 GPUs, Jan–May 2024, what-if analysis",
    ),
    "bytedance_straggler_affected_slowdown": Constant(
        1.1, "1", "lin2025-stragglers", scope="per job",
        label="slowdown S (actual / straggler-free step time) above which the study counts a job as affected",
    ),
    "bytedance_straggler_waste_median": Constant(
        0.078, "%", "lin2025-stragglers", scope="per job",
        label="median share of a job's GPU-hours wasted to stragglers (1 − 1/S)",
        note="the study also reports P90 21.3% and P99 45.0%",
    ),
    "bytedance_straggler_waste_cluster": Constant(
        0.104, "%", "lin2025-stragglers", scope="per cluster",
        label="share of the cluster's GPU-hours wasted to stragglers",
    ),
    # NeMo's straggler-detection callback (NVIDIA's resiliency extension) as NeMo's recipes configure it
    "nemo_straggler_relative_threshold": Constant(
        0.7, "1", "nemo-straggler-callback", scope="",
        label="NeMo straggler callback: relative GPU performance threshold (default)",
        note="straggler_det_callback(gpu_relative_perf_threshold=0.7): a rank whose score (best rank's "
             "time / its time) falls below it is a straggler",
    ),
    "nemo_straggler_report_interval": Constant(
        300, "s", "nemo-straggler-callback", scope="",
        label="NeMo straggler callback: report interval (default)",
        note="straggler_det_callback(straggler_report_time_interval=300): scores computed every 300 s",
    ),
    # <<< constants: stragglers
    # >>> constants: mig-vs-timeslicing
    # H100 80GB (SXM5) in MIG mode. The user guide's H100 table gives each profile's share of the 7 compute
    # slices (fraction of SMs, x/7) and of the 8 memory slices (fraction of memory, y/8) and the instances
    # available; the SM count of each profile is what the driver reports (nvidia-smi mig -lgip) on GH100.
    "h100_sms": Constant(
        132, "1", "nvidia-hopper-sm-count", scope="per GPU", label="SMs of the H100 SXM5",
    ),
    "h100_mig_compute_slices": Constant(
        7, "1", "nvidia-mig-h100-profiles", scope="per GPU", label="MIG compute slices of the H100 80GB",
        note="the guide's fractions of SMs are sevenths (1/7 … 7/7)",
    ),
    "h100_mig_memory_slices": Constant(
        8, "1", "nvidia-mig-h100-profiles", scope="per GPU", label="MIG memory slices of the H100 80GB",
        note="the guide's fractions of memory are eighths (1/8 … full); the placement diagram numbers them 0-7",
    ),
    "h100_mig_max_instances": Constant(
        7, "1", "nvidia-mig-supported-gpus", scope="per GPU", label="most MIG instances on one H100 80GB",
    ),
    "h100_mig_1g10gb_compute_slices": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 1g.10gb instance (H100 80GB)", note="fraction of SMs 1/7",
    ),
    "h100_mig_1g10gb_memory_slices": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 1g.10gb instance (H100 80GB)", note="fraction of memory 1/8",
    ),
    "h100_mig_1g10gb_sms": Constant(
        16, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 1g.10gb instance (H100 80GB)",
    ),
    "h100_mig_1g10gb_max_instances": Constant(
        7, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 1g.10gb instances on one H100 80GB",
    ),
    "h100_mig_1g10gb_me_compute_slices": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 1g.10gb+me instance (H100 80GB)", note="fraction of SMs 1/7",
    ),
    "h100_mig_1g10gb_me_memory_slices": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 1g.10gb+me instance (H100 80GB)", note="fraction of memory 1/8",
    ),
    "h100_mig_1g10gb_me_sms": Constant(
        16, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 1g.10gb+me instance (H100 80GB)",
    ),
    "h100_mig_1g10gb_me_max_instances": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 1g.10gb+me instances on one H100 80GB",
    ),
    "h100_mig_1g20gb_compute_slices": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 1g.20gb instance (H100 80GB)", note="fraction of SMs 1/7",
    ),
    "h100_mig_1g20gb_memory_slices": Constant(
        2, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 1g.20gb instance (H100 80GB)", note="fraction of memory 2/8",
    ),
    "h100_mig_1g20gb_sms": Constant(
        26, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 1g.20gb instance (H100 80GB)",
    ),
    "h100_mig_1g20gb_max_instances": Constant(
        4, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 1g.20gb instances on one H100 80GB",
    ),
    "h100_mig_2g20gb_compute_slices": Constant(
        2, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 2g.20gb instance (H100 80GB)", note="fraction of SMs 2/7",
    ),
    "h100_mig_2g20gb_memory_slices": Constant(
        2, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 2g.20gb instance (H100 80GB)", note="fraction of memory 2/8",
    ),
    "h100_mig_2g20gb_sms": Constant(
        32, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 2g.20gb instance (H100 80GB)",
    ),
    "h100_mig_2g20gb_max_instances": Constant(
        3, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 2g.20gb instances on one H100 80GB",
    ),
    "h100_mig_3g40gb_compute_slices": Constant(
        3, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 3g.40gb instance (H100 80GB)", note="fraction of SMs 3/7",
    ),
    "h100_mig_3g40gb_memory_slices": Constant(
        4, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 3g.40gb instance (H100 80GB)", note="fraction of memory 4/8",
    ),
    "h100_mig_3g40gb_sms": Constant(
        60, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 3g.40gb instance (H100 80GB)",
    ),
    "h100_mig_3g40gb_max_instances": Constant(
        2, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 3g.40gb instances on one H100 80GB",
    ),
    "h100_mig_4g40gb_compute_slices": Constant(
        4, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 4g.40gb instance (H100 80GB)", note="fraction of SMs 4/7",
    ),
    "h100_mig_4g40gb_memory_slices": Constant(
        4, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 4g.40gb instance (H100 80GB)", note="fraction of memory 4/8",
    ),
    "h100_mig_4g40gb_sms": Constant(
        64, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 4g.40gb instance (H100 80GB)",
    ),
    "h100_mig_4g40gb_max_instances": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 4g.40gb instances on one H100 80GB",
    ),
    "h100_mig_7g80gb_compute_slices": Constant(
        7, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="compute slices of a MIG 7g.80gb instance (H100 80GB)", note="fraction of SMs 7/7",
    ),
    "h100_mig_7g80gb_memory_slices": Constant(
        8, "1", "nvidia-mig-h100-profiles", scope="per GPU instance",
        label="memory slices of a MIG 7g.80gb instance (H100 80GB)", note="fraction of memory 8/8",
    ),
    "h100_mig_7g80gb_sms": Constant(
        132, "1", "nvidia-smi-mig-lgip-gh100", scope="per GPU instance",
        label="SMs of a MIG 7g.80gb instance (H100 80GB)",
    ),
    "h100_mig_7g80gb_max_instances": Constant(
        1, "1", "nvidia-mig-h100-profiles", scope="per GPU",
        label="most MIG 7g.80gb instances on one H100 80GB",
    ),
    # The memory the driver reports, not the datasheet's "80 GB": NVIDIA's own nvidia-smi output for an
    # H100 80GB HBM3 (MIG user guide, Getting Started, MIG with CUDA MPS) shows 81559MiB in all; the same
    # page shows what one small CUDA process holds there, context and data together
    "h100_reported_memory": Constant(
        81559 * MiB, "B", "nvidia-mig-getting-started", scope="per GPU",
        label="H100 80GB HBM3 memory, as nvidia-smi reports it",
        note="'87MiB /  81559MiB'; 81559 MiB is 85.5×10⁹ bytes, 361 MiB short of 80 GiB",
    ),
    # what CUDA can allocate is a little less than nvidia-smi's total (the driver keeps some for itself); no
    # NVIDIA document gives it for an H100 80GB, so a user's PyTorch error on one (second-hand)
    "h100_cuda_visible_memory": Constant(
        79.11 * GiB, "B", "vllm-issue-27508-h100", scope="per GPU",
        label="H100 80GB HBM3 memory as CUDA sees it (PyTorch's 'total capacity')",
        note="'GPU 0 has a total capacity of 79.11 GiB' on an H100 80GB HBM3 whose nvidia-smi reads 81559MiB;"
             " 79.11 GiB is 84.94×10⁹ bytes, 550 MiB less than nvidia-smi's",
    ),
    # a third party's nvidia-smi mig -lgip on H100 SXM5 80GB nodes (second-hand: cluster documentation, not
    # NVIDIA's): the same SM counts as the GH100 listings above, and each profile's memory in GiB
    "h100_mig_1g10gb_reported_memory": Constant(
        9.75 * GiB, "B", "stackhpc-mig-lgip-h100", scope="per GPU instance",
        label="memory of a MIG 1g.10gb instance on an H100 80GB, as nvidia-smi mig -lgip reports it",
        note="Memory column 9.75 (GiB), SM column 16; 7g.80gb: 79.25 GiB, 132 SMs",
    ),
    "cuda_sample_process_memory": Constant(
        326 * MiB, "B", "nvidia-mig-getting-started", scope="",
        label="GPU memory of one small CUDA process (the BlackScholes sample) on an H100",
        note="the process list's 'GPU Memory Usage': its CUDA context and its own buffers together",
    ),
    # <<< constants: mig-vs-timeslicing
    # >>> constants: placement-tax
    # The explainer video's claims, audited on the case-study page (each is a claim, not a fact).
    "video_job_nodes": Constant(16, "1", "placement-tax-video", scope="per job",
                                label="nodes in the video's training job (claim)"),
    "video_node_gpus": Constant(4, "1", "placement-tax-video", scope="per node",
                                label="GPUs per node in the video's failure claim (claim)"),
    "video_placement_loss": Constant(0.43, "1", "placement-tax-video", scope="per job",
                                     label="training throughput lost by spreading the job (claim)"),
    "video_comm_share": Constant(0.60, "1", "placement-tax-video", scope="per step",
                                 label="share of step time communication 'can consume' (claim)"),
    "video_nvlink_per_gpu": Constant(1.8e12, "B/s", "placement-tax-video", "bidirectional", "per GPU",
                                     label="NVLink bandwidth per GPU in an NVL72 (claim)"),
    "video_nvl72_aggregate": Constant(130e12, "B/s", "placement-tax-video", "bidirectional", "aggregate",
                                      label="NVL72 aggregate NVLink bandwidth (claim)"),
    "video_ib_rate": Constant(400e9 / 8, "B/s", "placement-tax-video", "per direction", "per port",
                              label="InfiniBand rate the job steps out to (claim: 400 Gb/s)"),
    "video_bandwidth_ratio": Constant(18, "1", "placement-tax-video", scope="per GPU",
                                      label="per-GPU bandwidth cut from NVLink to InfiniBand (claim)"),
    "video_serving_gain_low": Constant(3.9, "1", "placement-tax-video", scope="per GPU",
                                       label="serving throughput gain of NVL72, low end (claim, citing SemiAnalysis)"),
    "video_serving_gain_high": Constant(
        4.4, "1", "placement-tax-video", scope="per GPU",
        label="serving throughput gain of NVL72, high end (claim, citing SemiAnalysis)",
    ),
    # the benchmark the serving claim cites, read in the original (blog, and its pull request's headline numbers)
    "inferencex_r1_iso_interactivity": Constant(
        125, "1", "semianalysis-inferencex-gb200-b200-r1", scope="per stream",
        label="tokens/s per user (interactivity) where GB200 NVL72's lead over B200 peaks"
              " (DeepSeek-R1 0528 FP4, 1k in / 1k out)"),
    "inferencex_r1_gb200_at_iso": Constant(4130, "1", "semianalysis-inferencex-gb200-b200-r1", scope="per GPU",
                                           label="GB200 NVL72 tokens/s per GPU at that interactivity"),
    "inferencex_r1_b200_at_iso": Constant(941, "1", "semianalysis-inferencex-gb200-b200-r1", scope="per GPU",
                                          label="B200 tokens/s per GPU at that interactivity"),
    "inferencex_r1_gb200_peak": Constant(14659, "1", "semianalysis-inferencex-pr381", scope="per GPU",
                                         label="GB200 NVL72 peak tokens/s per GPU (narrow EP = 4, DP attention)"),
    "inferencex_r1_b200_peak": Constant(12515, "1", "semianalysis-inferencex-pr381", scope="per GPU",
                                        label="B200 peak tokens/s per GPU (narrow EP = 4, DP attention)"),
    "inferencex_r1_b200_wins_above": Constant(
        250, "1", "semianalysis-inferencex-pr381", scope="per stream",
        label="tokens/s per user (interactivity) above which B200 wins back (small batches fit one NVLink island)"),
    "semianalysis_gb300_tco_per_gpu_hour": Constant(
        2.65, "USD/h", "semianalysis-inferencex-gb300-gb200", scope="per GPU",
        label="GB300 NVL72 total cost of ownership per GPU-hour (SemiAnalysis AI Cloud TCO Model)",
        note="the publisher's own figure as its benchmark post quotes it ('$2.65 vs $2.21/GPU/hr per the SemiAnalysis"
             " AI Cloud TCO Model'); the paid model itself was not read"),
    "semianalysis_gb200_tco_per_gpu_hour": Constant(
        2.21, "USD/h", "semianalysis-inferencex-gb300-gb200", scope="per GPU",
        label="GB200 NVL72 total cost of ownership per GPU-hour (SemiAnalysis AI Cloud TCO Model)",
        note="the other side of the same sentence: GB300's $2.65 is 'a 20% per-GPU TCO premium' over it; the"
             " paid model itself was not read"),
    # Blackwell rent (the money claim's GPU-hours valued at what renting them costs): CoreWeave's on-demand list
    # prices as a third party transcribed the pricing page on 2026-09-20 (second-hand; the page itself not read)
    "coreweave_gb200_on_demand_price": Constant(
        42.00, "USD/h", "coreweave-pricing-2026", scope="per node",
        label="CoreWeave GB200 NVL72 on-demand price, one 4-GPU instance, North America (as of 2026-09-20)",
        note="second-hand: a third party's transcript of coreweave.com/pricing; committed use up to 60% less"),
    "coreweave_gb200_instance_gpus": Constant(
        4, "1", "coreweave-pricing-2026", scope="per node",
        label="GPUs in one CoreWeave GB200 NVL72 instance (as of 2026-09-20)"),
    "coreweave_hgx_b200_instance_gpus": Constant(
        8, "1", "coreweave-pricing-2026", scope="per node",
        label="GPUs in one CoreWeave HGX B200 instance (as of 2026-09-20)"),
    "coreweave_hgx_b200_on_demand_price": Constant(
        68.80, "USD/h", "coreweave-pricing-2026", scope="per node",
        label="CoreWeave HGX B200 on-demand price, one 8-GPU instance (as of 2026-09-20)",
        note="second-hand, as the GB200 price; GB300 NVL72 is 'Contact sales' on the same page"),
    "video_node_mtbf": Constant(490 * 86400.0, "s", "placement-tax-video", scope="per node",
                                label="MTBF of a 4-GPU node (claim, 'Meta's field data')"),
    "video_rack_nodes": Constant(18, "1", "placement-tax-video", scope="per rack",
                                 label="nodes in series in one rack (claim)"),
    "video_rack_mtbf": Constant(27 * 86400.0, "s", "placement-tax-video", scope="per rack",
                                label="interval between interruptions of one rack (claim)"),
    "video_spare_gain": Constant(0.27, "1", "placement-tax-video", scope="per rack",
                                 label="usable capacity gained by 16-node slices with 2 hot spares (claim)"),
    "video_slice_nodes": Constant(16, "1", "placement-tax-video", scope="per rack",
                                  label="nodes a slice's job uses, with hot spares (claim)"),
    "video_hot_spares": Constant(2, "1", "placement-tax-video", scope="per rack",
                                 label="hot spares per slice (claim)"),
    "video_groot_gpus": Constant(512, "1", "placement-tax-video", scope="per job",
                                 label="GB300 GPUs in the GR00T-N 1.7 pre-training run (claim)"),
    "video_groot_step_spread": Constant(1.59, "s", "placement-tax-video", scope="per step",
                                        label="GR00T-N 1.7 step time before rack-aware placement (claim)"),
    "video_groot_step_packed": Constant(1.39, "s", "placement-tax-video", scope="per step",
                                        label="GR00T-N 1.7 step time with rack-aware placement (claim)"),
    "video_groot_gain": Constant(0.144, "1", "placement-tax-video", scope="per job",
                                 label="gain claimed for rack-aware placement (claim)"),
    "video_money_gpus": Constant(10_000, "1", "placement-tax-video", scope="per cluster",
                                 label="GPUs in the video's money example (claim)"),
    "video_money_per_hour": Constant(16_000.0, "USD/h", "placement-tax-video", scope="per cluster",
                                     label="value of the placement gain per hour (claim)"),
    "video_money_per_day": Constant(400_000.0, "USD", "placement-tax-video", scope="per cluster",
                                    label="value of the placement gain per day (claim)"),
    "video_switch_chips": Constant(18, "1", "placement-tax-video", scope="per rack",
                                   label="NVLink switch chips in one NVL72 (claim)"),
    # <<< constants: placement-tax
}
