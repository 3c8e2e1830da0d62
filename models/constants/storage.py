"""Storage and checkpointing: the storage fabric, checkpoint sizes, restart costs.

Each entry: value in SI base units, unit, source key (sources.py), direction, scope."""

from __future__ import annotations

from models.constants.base import PER_DIRECTION, UNSTATED, Constant
from models.units import GB, MB, MINUTE, TB, US, GiB

CONSTANTS = {
    # --- checkpointing and reliability (daly-checkpoint, Daly's formula) ---------
    "llama3_storage_sustained_bw": Constant(
        2 * TB, "B/s", "llama3", UNSTATED, "aggregate",
        label="Tectonic storage fabric, sustained throughput (Llama 3)",
        note="240 PB on 7,500 SSD servers; 2 TB/s sustained, 7 TB/s peak (§3.3.1). The report gives the"
             " storage system's throughput without saying whether it counts reads, writes or both together;"
             " the models use it as the checkpoint write rate (and checkpoint-recovery as the read rate too)."
             " If it is reads and writes combined, the write rate is lower and δ longer",
    ),
    "llama3_storage_peak_bw": Constant(
        7 * TB, "B/s", "llama3", UNSTATED, "aggregate",
        label="Tectonic storage fabric, peak throughput (Llama 3)",
        note="§3.3.1 gives the peak without saying whether it counts reads, writes or both together",
    ),
    "llama3_checkpoint_per_gpu_min": Constant(
        1 * MB, "B", "llama3", scope="per GPU",
        label="smallest per-GPU checkpoint in the Llama 3 run",
    ),
    "llama3_checkpoint_per_gpu_max": Constant(
        4 * GB, "B", "llama3", scope="per GPU",
        label="largest per-GPU checkpoint in the Llama 3 run",
    ),
    "daly_example_restart": Constant(
        10 * MINUTE, "s", "daly2006", scope="per restart",
        label="restart time R in Daly's worked examples",
        note="Figs. 3-5 use R = 10 min; used here as a stated assumption, not a measurement",
    ),
    # >>> constants: gpudirect-storage
    "nvme_read_latency_qd1": Constant(
        92 * US, "s", "micron-9200-datasheet", scope="per drive",
        label="NVMe read latency at queue depth 1, typical (estimate, 92-150 us)",
        note="the Micron 9200's datasheet gives 92-150 us to media; the DGX H100 guide does not name its"
             " drives, so the low end is taken as an estimate for a data-center TLC drive",
    ),
    "dgx2_sysmem_to_gpu_bw": Constant(
        50 * GB, "B/s", "nvidia-gds-blog-2019", PER_DIRECTION, "per node",
        label="DGX-2: CPU system memory to GPUs, the limit NVIDIA states",
    ),
    "dgx2_storage_to_gpu_bw": Constant(
        200 * GB, "B/s", "nvidia-gds-blog-2019", PER_DIRECTION, "per node",
        label="DGX-2: host memory, local drives and NICs combined to GPUs, upper limit (\"nearly 200 GB/s\")",
    ),
    "cufile_poll_mode_max_size": Constant(
        4096, "B", "nvidia-gds-config-guide", scope="per request",
        label="cuFile's poll_mode_max_size_kb default: larger reads block (sleep) until done, even in poll mode",
    ),
    "kvikio_gds_threshold": Constant(
        1048576, "B", "kvikio-runtime-settings", scope="per request",
        label="KvikIO's default GDS threshold: smaller reads go through POSIX",
    ),
    "gdsio_nvme_cpuonly_read": Constant(
        3.227660 * GiB, "B/s", "nvidia-gds-nvme-test", PER_DIRECTION, "per drive",
        label="gdsio read into host memory only (CPUONLY), one NVMe drive, 4 threads, 1 MiB IOs",
    ),
    "gdsio_nvme_cpu_gpu_read": Constant(
        3.135021 * GiB, "B/s", "nvidia-gds-nvme-test", PER_DIRECTION, "per drive",
        label="gdsio read through a host bounce buffer into the GPU (CPU_GPU), same drive and settings",
    ),
    "uncached_test_kswapd_threads": Constant(
        32, "1", "axboe-rwf-uncached-writes", scope="per node",
        label="kswapd threads running at full steam in Axboe's buffered-write test (one per NUMA node)",
    ),
    "uncached_test_buffered_rate": Constant(
        115 * GB, "B/s", "axboe-rwf-uncached-writes", PER_DIRECTION, "per node",
        label="buffered writes through a full page cache in the same test, settled rate (about)",
        note="a write test: clean pages of a read are cheaper to reclaim than dirty ones, so the"
             " per-page reclaim time derived from it is an estimate",
    ),
    "uncached_test_buffered_read_peak": Constant(
        158067 * MB, "B/s", "axboe-dontcache-read-patch", PER_DIRECTION, "per node",
        label="buffered reads from 32 drives, 64 KiB, before the page cache fills (peak second)",
    ),
    "uncached_test_buffered_read_settled": Constant(
        95552 * MB, "B/s", "axboe-dontcache-read-patch", PER_DIRECTION, "per node",
        label="the same buffered reads once the page cache is full (12th second, settled)",
    ),
    "uncached_read_test_kswapd_cores": Constant(
        28, "1", "axboe-dontcache-read-patch", scope="per node",
        label="cores the 32 kswapd threads burned during those settled buffered reads (about)",
    ),
    "uncached_read_test_app_cores": Constant(
        31.99, "1", "axboe-dontcache-read-patch", scope="per node",
        label="cores the reading test app used during those settled buffered reads (top's 3199 %CPU)",
    ),
    "uncached_read_test_io_size": Constant(
        65536, "B", "axboe-dontcache-read-patch", scope="per request",
        label="the block size of those reads ('Reading bs 65536')",
    ),
    "uncached_read_test_dontcache_rate": Constant(
        155 * GB, "B/s", "axboe-dontcache-read-patch", PER_DIRECTION, "per node",
        label="the same reads with RWF_DONTCACHE, pages dropped after each copy, no kswapd (about)",
    ),
    "uncached_read_test_dontcache_app_cores": Constant(
        31.80, "1", "axboe-dontcache-read-patch", scope="per node",
        label="cores the test app used in the RWF_DONTCACHE run (top's 3180 %CPU)",
    ),
    "uncached_read_test_kswapd_threads": Constant(
        32, "1", "axboe-dontcache-read-patch", scope="per node",
        label="kswapd threads during those settled buffered reads ('32 kswapd threads'), one per NUMA node",
    ),
    "linux_lru_add_batch": Constant(
        31, "1", "linux-mm-swap", scope="",
        label="folios a CPU queues (PAGEVEC_SIZE) before it adds them to an LRU, the lock taken once a batch",
        note="15 before a 2024 change ('increase PAGEVEC_SIZE from 15 to 31'); the lock is the lruvec's,"
             " one per memory cgroup per NUMA node",
    ),
    "linux_lru_isolate_batch": Constant(
        32, "1", "linux-mm-vmscan", scope="",
        label="folios reclaim isolates from an LRU list per lock hold (SWAP_CLUSTER_MAX)",
        note="shrink_inactive_list takes the lock once to isolate them and once more to put back those"
             " it did not free",
    ),
    "xeon_snc4_nodes_per_socket": Constant(
        4, "1", "supermicro-x13ddw-manual", scope="per CPU",
        label="NUMA nodes a socket splits into with sub-NUMA clustering at SNC4 ('4-clusters'), a BIOS option",
        note="a Supermicro X13 board's BIOS option, which 'depends on your system configuration and the"
             " processor'; whether a DGX H100's BIOS offers it is not checked",
    ),
    # <<< constants: gpudirect-storage
    # >>> constants: data-prefetch
    "aws_s3_small_get_median_latency": Constant(
        30e-3, "s", "aws-s3-performance", scope="per request",
        label="median latency of a small S3 GET (estimate)",
        note="AWS gives no number, only 'median latencies are often in the tens of milliseconds' for"
             " requests under 512 KB; 30 ms is an estimate inside that range (10-90 ms)",
    ),
    "aws_s3_small_request_bytes": Constant(
        512e3, "B", "aws-s3-performance", scope="per request",
        label="largest request AWS calls small (tens-of-milliseconds median latency)",
    ),
    "tail_at_scale_leaf_p50": Constant(
        1e-3, "s", "dean2013", scope="per request",
        label="median latency of one leaf request in Google's fan-out service",
    ),
    "tail_at_scale_leaf_p95": Constant(
        5e-3, "s", "dean2013", scope="per request",
        label="95th-percentile latency of one leaf request in Google's fan-out service",
    ),
    "tail_at_scale_leaf_p99": Constant(
        10e-3, "s", "dean2013", scope="per request",
        label="99th-percentile latency of one leaf request in Google's fan-out service",
    ),
    "zstd_decompression_speed": Constant(
        1.7e9, "B/s", "zstd-benchmark", PER_DIRECTION, "per worker",
        label="zstd level 1 decompression speed, one core",
        note="decompressed (output) bytes per second, one stream; Core i7-9700K at 4.9 GHz, Silesia corpus, lzbench",
    ),
    "llama3_vocabulary_tokens": Constant(
        128e3, "1", "llama3-tokenizer", scope="per job",
        label="vocabulary of the Llama 3 tokenizer (128K tokens)",
    ),
    "aws_s3_get_requests_per_prefix": Constant(
        5500, "Hz", "aws-s3-request-rate", scope="aggregate",
        label="GET/HEAD requests per second one partitioned S3 prefix serves (all clients together)",
        note="'at least' that many; above it, or while S3 scales to a new rate, it answers 503 Slow Down",
    ),
    "llama3_image_tokens": Constant(
        256, "1", "llama3-vision",
        label="patch tokens per image in Llama 3's image encoder (16 x 16 patches of a 224 x 224 image)",
        note="seen only in secondary summaries of §7.2.1, not read in the original",
    ),
    "laion400m_part_bytes": Constant(
        4408913793032, "B", "laion400m-hf-part", scope="aggregate",
        label="bytes of one stored part of LAION-400M (images with captions)",
    ),
    "laion400m_part_pairs": Constant(
        69875384, "1", "laion400m-hf-part", scope="aggregate",
        label="image-text pairs in that part",
    ),
    "aws_s3_connection_throughput": Constant(
        85e6, "B/s", "aws-s3-parallel-requests", PER_DIRECTION, "per request",
        label="throughput of one S3 GET request on its own connection, EC2 in the same Region"
              " (the low end of AWS's 85-90 MB/s)",
        note="AWS: 'make one concurrent request for each 85-90 MB/s of desired network throughput'",
    ),
    "boto3_legacy_max_attempts": Constant(
        5, "1", "boto3-retries", scope="per request",
        label="Boto3's default (legacy) retry mode: attempts per request, the first one included",
    ),
    # botocore's standard retry mode (the AWS SDK for Python), read in its source: delay = rand(0, 1) · min(2^i, 20) s
    "botocore_backoff_base": Constant(
        1.0, "s", "botocore-retry-standard", scope="per request",
        label="AWS SDK (botocore) standard retry mode: the first full-jitter backoff window",
        note="ExponentialBackoff: rand(0, 1) * min(2 ** attempt, _MAX_BACKOFF), attempt 0 first: a window of 1 s",
    ),
    "botocore_backoff_cap": Constant(
        20.0, "s", "botocore-retry-standard", scope="per request",
        label="AWS SDK (botocore) standard retry mode: the largest backoff window",
        note="_MAX_BACKOFF = 20 in botocore/retries/standard.py",
    ),
    "aws_s3_get_retry_after": Constant(
        2.0, "s", "aws-s3-performance", scope="per request",
        label="AWS's advice for latency-sensitive S3 reads: retry a GET that has not answered after this long",
        note="Timeouts and Retries for Latency-Sensitive Applications",
    ),
    # <<< constants: data-prefetch
    # >>> constants: checkpoint-recovery
    # The Llama 3 report's Table 5: unexpected interruptions in the 54-day snapshot, by component.
    # Each label gives the component as printed and the table's category. They sum to the 419 of
    # llama3_unexpected_interruptions (workload.py); tests/test_checkpoint_recovery.py checks that.
    "llama3_interruptions_faulty_gpu": Constant(
        148, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: faulty GPU (GPU)",
    ),
    "llama3_interruptions_gpu_hbm3": Constant(
        72, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: GPU HBM3 memory (GPU)",
    ),
    "llama3_interruptions_software_bug": Constant(
        54, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: software bug (dependency)",
    ),
    "llama3_interruptions_network_switch_cable": Constant(
        35, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: network switch/cable (network)",
    ),
    "llama3_interruptions_host_maintenance": Constant(
        32, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: host maintenance (unplanned maintenance)",
    ),
    "llama3_interruptions_gpu_sram": Constant(
        19, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: GPU SRAM memory (GPU)",
    ),
    "llama3_interruptions_gpu_system_processor": Constant(
        17, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: GPU system processor (GPU)",
    ),
    "llama3_interruptions_nic": Constant(
        7, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: NIC (host)",
    ),
    "llama3_interruptions_nccl_watchdog": Constant(
        7, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: NCCL watchdog timeouts (unknown)",
    ),
    "llama3_interruptions_silent_data_corruption": Constant(
        6, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: silent data corruption (GPU)",
    ),
    "llama3_interruptions_gpu_thermal": Constant(
        6, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: GPU thermal interface + sensor (GPU)",
    ),
    "llama3_interruptions_ssd": Constant(
        3, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: SSD (host)",
    ),
    "llama3_interruptions_power_supply": Constant(
        3, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: power supply (host)",
    ),
    "llama3_interruptions_server_chassis": Constant(
        2, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: server chassis (host)",
    ),
    "llama3_interruptions_io_expansion_board": Constant(
        2, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: IO expansion board (host)",
    ),
    "llama3_interruptions_dependency": Constant(
        2, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: dependency (dependency)",
    ),
    "llama3_interruptions_cpu": Constant(
        2, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: CPU (host)",
    ),
    "llama3_interruptions_system_memory": Constant(
        2, "1", "llama3", scope="per job",
        label="unexpected interruptions in the Llama 3 snapshot: system memory (host)",
    ),
    "llama3_planned_interruptions": Constant(
        47, "1", "llama3",
        label="planned interruptions in the 54-day snapshot (automated maintenance)",
    ),
    "llama3_hardware_share": Constant(
        0.78, "1", "llama3", scope="per job",
        label="share of unexpected interruptions attributed to confirmed or suspected hardware issues",
        note="'approximately 78%' (§3.3.4): the report rounds; the table gives no per-row confirmed/suspected split",
    ),
    "llama3_gpu_share": Constant(
        0.587, "1", "llama3", scope="per job",
        label="share of unexpected interruptions the report's text gives to GPU issues",
        note="58.7% as printed; with the table's 148 faulty-GPU interruptions the GPU rows are 64.0%"
             " (58.7% and the row's printed 30.1% both fit 126): tests/test_checkpoint_recovery.py",
    ),
    "pytorch_nccl_default_timeout": Constant(
        10 * MINUTE, "s", "pytorch-nccl-timeout", scope="per job",
        label="PyTorch ProcessGroupNCCL default collective timeout",
        note="how long a job waits on a hung collective before the watchdog aborts it, unless configured",
    ),
    "lustre_mds_file_create_rate": Constant(
        27e3, "1", "dell-lustre-mdtest", scope="per server",
        label="Lustre metadata server, file creates per second (mdtest, 240 threads)",
        note="'over 27K OPS with 240 concurrent threads' on one MDS; the slowest file operation measured",
    ),
    "lustre_mds_file_stat_rate": Constant(
        500e3, "1", "dell-lustre-mdtest", scope="per server",
        label="Lustre metadata server, file stats per second (mdtest, 240 threads)",
        note="'more than 500K OPS with 240 concurrent threads'; the fastest file operation measured",
    ),
    "flashrecovery_restore_time": Constant(
        150.0, "s", "flashrecovery2025", scope="per job",
        label="FlashRecovery: training restored on a 4,800-device cluster in",
    ),
    "flashrecovery_devices": Constant(
        4800, "1", "flashrecovery2025", scope="per job",
        label="devices in FlashRecovery's restore measurement",
    ),
    "byterobust_ettr": Constant(
        0.97, "1", "byterobust2025", scope="per job",
        label="ByteRobust: effective training time ratio of a three-month job on 9,600 GPUs",
    ),
    "megascale_init_tcpstore_time": Constant(
        1047.0, "s", "megascale2024", scope="per job",
        label="MegaScale: training-job initialization on 2,048 GPUs with PyTorch's default TCPStore",
        note="§3.5 as the issue #32 review read it (NSDI '24); the original PDF was not reachable from"
             " this project's tools, so the value is second-hand here and the page says so",
    ),
    "megascale_init_redis_time": Constant(
        361.0, "s", "megascale2024", scope="per job",
        label="MegaScale: the same initialization with Redis in place of TCPStore",
        note="§3.5, second-hand as above",
    ),
    "megascale_init_measured_gpus": Constant(
        2048, "1", "megascale2024", scope="per job",
        label="GPUs in MegaScale's initialization measurements (TCPStore, Redis, optimized)",
    ),
    "megascale_init_fast_time": Constant(
        30.0, "s", "megascale2024", scope="per job",
        label="MegaScale: initialization after its optimizations, on more than 10,000 GPUs, under",
        note="§3.5 'under 30 s' (second-hand as above); an upper bound, used as the value",
    ),
    "megascale_init_fast_small_time": Constant(
        5.0, "s", "megascale2024", scope="per job",
        label="MegaScale: initialization after its optimizations, on 2,048 GPUs, under",
        note="§3.5 'under 5 s' (second-hand as above); the low end of the page's set-up sweep",
    ),
    "megascale_init_fast_gpus": Constant(
        10000, "1", "megascale2024", scope="per job",
        label="GPUs in MegaScale's optimized-initialization figure, more than",
    ),
    "pytorch_libuv_store_init_time": Constant(
        100.0, "s", "pytorch-libuv-tcpstore", scope="per job",
        label="PyTorch's libuv TCPStore backend (the default since 2.4): store initialization at 98,304 ranks,"
              " completed in",
        note="Performance Benchmark, text under Figure 1 (the legacy backend timed out at that scale, over 30"
             " min); store connection only, not process-group creation",
    ),
    "pytorch_libuv_store_init_ranks": Constant(
        98304, "1", "pytorch-libuv-tcpstore", scope="per job",
        label="ranks in that libuv TCPStore initialization benchmark",
    ),
    "pytorch_libuv_store_design_ranks": Constant(
        1024, "1", "pytorch-libuv-tcpstore", scope="",
        label="jobs the libuv TCPStore backend was built for: more than this many ranks",
        note="Introduction: 'for jobs of more than 1,024 ranks'",
    ),
    # <<< constants: checkpoint-recovery
}
