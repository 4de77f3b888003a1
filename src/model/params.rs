//! Design parameters: the traffic to analyse, the service level, and the prices and facility figures for cost.
//! Defaults are planning values, each documented with its public source in docs/analysis.md ("Inputs").

use serde::{Deserialize, Serialize};

/// Inputs the analysis needs beyond the hardware.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    /// Traffic patterns to analyse.
    pub traffic: Traffic,
    /// Inference serving, when the design is sized for a request rate.
    pub serving: Option<Serving>,
    /// A training job, when the design is sized for one.
    pub training: Option<Training>,
    /// Planned utilisation of GPUs and links (0-1), the target every model uses: link queueing, the serving plan,
    /// energy and GPU-hours. Default 0.7. Never clamped: a value outside (0, 1) is reported by the
    /// `utilisation-target` finding, and at 1 or more the queueing model reports saturation instead of a latency.
    pub utilisation_target: f64,
    /// Electricity price, USD per kWh.
    pub electricity_usd_per_kwh: f64,
    /// Power usage effectiveness of the facility (facility power / IT power); for liquid-cooled racks too unless
    /// `pue_liquid` is set.
    pub pue: f64,
    /// PUE for liquid-cooled racks, when it differs from `pue` (direct liquid cooling needs fewer fans and chillers;
    /// docs/analysis.md, "Cooling"). Sites may set their own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pue_liquid: Option<f64>,
    /// Straight-line depreciation period in years; also the TCO horizon.
    pub depreciation_years: f64,
    /// Share of capex recovered by resale at the end of the depreciation period (0-1).
    pub residual_fraction: f64,
    /// Colocation price per kW of IT power provisioned per month, USD.
    pub colocation_usd_per_kw_month: f64,
    /// Yearly support and maintenance as a share of capex (0-1).
    pub support_fraction_per_year: f64,
    /// Cloud price to compare against, USD per GPU-hour; None uses the catalog price of the design's main GPU.
    pub cloud_usd_per_gpu_hour: Option<f64>,
    /// Most heat an air-cooled rack can shed, kW (docs/analysis.md, "Cooling"). Default 45: room air's practical
    /// limit is about 40 kW, and NVIDIA's DGX SuperPOD H100 reference runs 40.8 kW racks on air with containment.
    pub air_cooled_limit_kw: f64,
    /// Temperature rise of the air through an air-cooled rack, K. Default 12.
    pub air_delta_t_c: f64,
    /// Temperature rise of the coolant through a liquid-cooled rack, K. Default 10.
    pub liquid_delta_t_c: f64,
    /// Spares bought with the design, by BOM category ("Network", "Cables and optics", ...): added to the BOM and
    /// the capex and shown separately. Empty by default.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub spares: std::collections::BTreeMap<String, Spares>,
    /// Availability the service must meet (an SLA such as 0.999), when the design has sites.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub availability_target: Option<f64>,
    /// Discount of a 1-year cloud commitment off the on-demand price (0-1). Default 0.35.
    pub reserved_1y_discount: f64,
    /// Discount of a 3-year cloud commitment off the on-demand price (0-1). Default 0.55.
    pub reserved_3y_discount: f64,
    /// Failure rates by part class for the failures and checkpoints model of a training job; written only when
    /// they differ from the calibrated defaults.
    #[serde(skip_serializing_if = "FailureRates::is_default")]
    pub failure_rates: FailureRates,
}

/// Interruptions of a training job per part-year, by the class of part that causes them (docs/analysis.md,
/// "Failures and checkpoints"). The defaults are Meta's counts of the 419 unexpected and 47 planned interruptions
/// of Llama 3 405B pre-training over 54 days on 16,384 H100 in 2,048 servers (The Llama 3 Herd of Models, 2024,
/// §3.3.4 and Table 5), over that exposure (2,423.93 GPU-years, 302.99 server-years, one 400G NIC per GPU);
/// network cables and switches are Alibaba HPN's measured rates (SIGCOMM 2024, §2.3), which give Llama 3's 35
/// switch and cable interruptions on a fabric of about 35,000 links.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FailureRates {
    /// GPU faults other than memory, per GPU-year: faulty GPU 148, SRAM 19, GPU system processor 17, silent data
    /// corruption 6, thermal 6 = 196 over 2,423.93 GPU-years = 0.0809.
    pub gpu_per_year: f64,
    /// GPU memory (HBM) faults, per GPU-year: 72 / 2,423.93 = 0.0297.
    pub gpu_memory_per_year: f64,
    /// Host faults, per server-year: unplanned host maintenance 32, SSD 3, chassis 2, IO board 2, CPU 2, DRAM 2 =
    /// 43 / 302.99 = 0.142.
    pub host_per_year: f64,
    /// Power supply faults, per server-year: 3 / 302.99 = 0.0099.
    pub power_supply_per_year: f64,
    /// Software faults, per server-year (they grow with the job's size): software bug 54, NCCL watchdog 7,
    /// dependency 2 = 63 / 302.99 = 0.208.
    pub software_per_year: f64,
    /// NIC faults, per NIC-year: 7 / 2,423.93 = 0.0029.
    pub nic_per_year: f64,
    /// Cable and transceiver faults, per cable-year: HPN's 0.057% of NIC-ToR links a month x 12 = 0.00684.
    pub link_per_year: f64,
    /// Switch crashes, per switch-year: HPN's 0.051% of ToR switches a month x 12 = 0.00612.
    pub switch_per_year: f64,
    /// Planned interruptions (maintenance), per server-year: 47 / 302.99 = 0.155. Each costs a restart, no lost
    /// work (a checkpoint is taken first).
    pub planned_per_year: f64,
    /// The band's low end as a multiple of the rates: 0.62, Meta's RSC-2 (2.34 failures per 1,000 node-days)
    /// against Llama 3's 3.79 (Kokolis et al., HPCA 2025).
    pub band_low: f64,
    /// The band's high end: 1.72, Meta's RSC-1 (6.50 per 1,000 node-days) against Llama 3's 3.79.
    pub band_high: f64,
}

/// GPU-years of the Llama 3 snapshot the default rates are counted over: 16,384 GPUs x 54 days / 365.
pub const LLAMA3_GPU_YEARS: f64 = 16_384.0 * 54.0 / 365.0;
/// Server-years of the same snapshot: 2,048 servers x 54 days / 365.
pub const LLAMA3_SERVER_YEARS: f64 = 2_048.0 * 54.0 / 365.0;

impl Default for FailureRates {
    fn default() -> Self {
        Self {
            gpu_per_year: 196.0 / LLAMA3_GPU_YEARS,
            gpu_memory_per_year: 72.0 / LLAMA3_GPU_YEARS,
            host_per_year: 43.0 / LLAMA3_SERVER_YEARS,
            power_supply_per_year: 3.0 / LLAMA3_SERVER_YEARS,
            software_per_year: 63.0 / LLAMA3_SERVER_YEARS,
            nic_per_year: 7.0 / LLAMA3_GPU_YEARS,
            link_per_year: 0.00057 * 12.0,
            switch_per_year: 0.00051 * 12.0,
            planned_per_year: 47.0 / LLAMA3_SERVER_YEARS,
            band_low: 2.34 / 3.79,
            band_high: 6.50 / 3.79,
        }
    }
}

impl FailureRates {
    /// Whether these are the calibrated defaults (a design file then leaves them out).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// A spares policy for one BOM category.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Spares {
    /// This percentage of the quantity, rounded up.
    Percent(f64),
    /// One spare for every N installed, rounded up.
    OnePer(u32),
}

impl Spares {
    /// Spares for an installed quantity: ceil(q x pct / 100) or ceil(q / N).
    pub fn for_quantity(self, q: u64) -> u64 {
        match self {
            Spares::Percent(p) if p > 0.0 && p.is_finite() => {
                (q as f64 * p / 100.0 - 1e-9).ceil().max(0.0) as u64
            }
            Spares::OnePer(n) if n > 0 => q.div_ceil(u64::from(n)),
            _ => 0,
        }
    }
}

impl Default for Params {
    fn default() -> Self {
        Self {
            traffic: Traffic::default(),
            serving: None,
            training: None,
            utilisation_target: 0.7,
            electricity_usd_per_kwh: 0.10,
            pue: 1.2,
            pue_liquid: None,
            depreciation_years: 3.0,
            residual_fraction: 0.30,
            colocation_usd_per_kw_month: 200.0,
            support_fraction_per_year: 0.0,
            cloud_usd_per_gpu_hour: None,
            air_cooled_limit_kw: 45.0,
            air_delta_t_c: 12.0,
            liquid_delta_t_c: 10.0,
            spares: std::collections::BTreeMap::new(),
            availability_target: None,
            reserved_1y_discount: 0.35,
            reserved_3y_discount: 0.55,
            failure_rates: FailureRates::default(),
        }
    }
}

/// The traffic the bandwidth, latency and collective analysis is run for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Traffic {
    /// All-reduce message size over all GPUs, bytes.
    pub allreduce_bytes: f64,
    /// Storage read rate each GPU needs, GB/s.
    #[serde(alias = "storage_read_gbs_per_gpu")]
    pub storage_read_gbyte_s_per_gpu: f64,
    /// Network bandwidth each GPU should have to the fabric, Gb/s; None uses the GPU's reference ratio.
    pub network_gbps_per_gpu: Option<f64>,
    /// Message size for the point-to-point latency estimate, bytes.
    pub latency_message_bytes: f64,
    /// Share of peak link bandwidth collectives achieve (nccl-tests plans on 0.7-0.8).
    pub link_efficiency: f64,
}

impl Default for Traffic {
    fn default() -> Self {
        Self {
            allreduce_bytes: 1.0e9,
            storage_read_gbyte_s_per_gpu: 1.0,
            network_gbps_per_gpu: None,
            latency_message_bytes: 4096.0,
            link_efficiency: 0.8,
        }
    }
}

/// An inference service the design must carry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Serving {
    /// Offered request rate, requests per second.
    pub request_rate_rps: f64,
    /// Requests per second one replica sustains at full load.
    pub replica_throughput_rps: f64,
    /// Replica throughput by GPU part, requests per second; when the design's main GPU is listed, this wins over
    /// `replica_throughput_rps` (so one service level can be compared across GPU models).
    pub replica_throughput_by_gpu: std::collections::BTreeMap<crate::model::PartId, f64>,
    /// GPUs one replica occupies.
    pub gpus_per_replica: u32,
    /// Latency target at p99, milliseconds.
    pub latency_target_ms: f64,
    /// Bytes a request carries into the cluster (for the serving traffic on the fabric).
    pub request_bytes: f64,
    /// Bytes a response carries out.
    pub response_bytes: f64,
    /// Tokens a request produces, for costs per 1M tokens (0: not set).
    #[serde(skip_serializing_if = "is_zero")]
    pub tokens_per_request: f64,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Default for Serving {
    fn default() -> Self {
        Self {
            request_rate_rps: 100.0,
            replica_throughput_rps: 10.0,
            replica_throughput_by_gpu: std::collections::BTreeMap::new(),
            gpus_per_replica: 1,
            latency_target_ms: 1000.0,
            request_bytes: 4096.0,
            response_bytes: 16384.0,
            tokens_per_request: 0.0,
        }
    }
}

/// A training job the design should run: how long it takes and what it costs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Training {
    /// Parameter count of the model (e.g. 13e9): sets the compute per token (6 FLOPs per parameter per token) and
    /// the model states to place.
    pub parameters: f64,
    /// Tokens to train on.
    pub tokens: f64,
    /// Tokens per optimiser step (global batch).
    pub batch_tokens: f64,
    /// Model FLOPs utilisation: the share of peak dense BF16 throughput the job achieves.
    pub mfu: f64,
    /// Gradient bytes per parameter all-reduced every step (2 for BF16).
    pub gradient_bytes_per_parameter: f64,
    /// Share of the gradient all-reduce hidden behind compute (0-1).
    pub overlap: f64,
    /// Tensor-parallel degree (inside the NVLink domain); 0 lets the analysis choose and say why.
    pub tensor_parallel: u32,
    /// Pipeline-parallel degree; 0 lets the analysis choose.
    pub pipeline_parallel: u32,
    /// Expert-parallel degree for a mixture-of-experts model (1: dense).
    pub expert_parallel: u32,
    /// Microbatches per step in the pipeline; 0: four per pipeline stage.
    pub microbatches: u32,
    /// Model chunks each pipeline stage holds under the interleaved schedule (Narayanan et al., SC 2021, section
    /// 2.2.2): the bubble shrinks to (PP - 1) / (microbatches x this) and the pipeline's sends grow by it. 1 (the
    /// default): the plain 1F1B schedule. At most the layers of a stage count.
    #[serde(skip_serializing_if = "is_one")]
    pub virtual_stages: u32,
    /// Tokens per sequence: adds attention's compute, 12 x layers x hidden x sequence FLOPs per token (Narayanan et
    /// al., SC 2021, equation 3), to the 6 per parameter. 0 (the default): not counted.
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub sequence_length: f64,
    /// Context-parallel degree: each sequence split over this many GPUs, which pass keys and values round a ring
    /// each layer (ring attention). 1 (the default): none.
    #[serde(skip_serializing_if = "is_one")]
    pub context_parallel: u32,
    /// Optimiser state sharded over the data-parallel group (ZeRO / FSDP): gradients are reduce-scattered and
    /// weights all-gathered instead of one all-reduce.
    pub sharded_optimizer: bool,
    /// What `mfu` measures: the whole step (communication inside, as published MFU figures are) or compute only
    /// (communication added on top). Never both.
    pub mfu_scope: MfuScope,
    /// Bytes per parameter a checkpoint writes: 14 by default, mixed-precision Adam's 16 bytes of training state
    /// (ZeRO, Rajbhandari et al. 2019, §3.1: 2 + 2 + 12) without the 2 of gradients.
    #[serde(skip_serializing_if = "is_default_checkpoint_bytes")]
    pub checkpoint_bytes_per_parameter: f64,
    /// Seconds from an interruption to training again (detect, replace, reload the checkpoint): 900 by default,
    /// ByteDance MegaScale's figure (NSDI 2024, §6.3: diagnosis under 10 minutes, training caught up "within 15
    /// minutes from the latest checkpoints").
    #[serde(skip_serializing_if = "is_default_restart")]
    pub restart_s: f64,
    /// Seconds a failed server stays out when no spare is ready to take its place, so the job waits for it: 86,400
    /// (a day) by default, a planning value for a part fitted or a server swapped the next day under a vendor's
    /// replacement service (docs/analysis.md, "Failures and checkpoints"). With a hot spare ready the restart is
    /// `restart_s` alone.
    #[serde(skip_serializing_if = "is_default_repair")]
    pub repair_s: f64,
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

fn is_zero_f64(v: &f64) -> bool {
    *v == 0.0
}

/// Default checkpoint bytes per parameter.
pub const CHECKPOINT_BYTES_PER_PARAMETER: f64 = 14.0;
/// Default restart time, s.
pub const RESTART_S: f64 = 900.0;
/// Default repair time of a failed server with no spare ready, s.
pub const REPAIR_S: f64 = 86_400.0;

fn is_default_checkpoint_bytes(x: &f64) -> bool {
    *x == CHECKPOINT_BYTES_PER_PARAMETER
}

fn is_default_restart(x: &f64) -> bool {
    *x == RESTART_S
}

fn is_default_repair(x: &f64) -> bool {
    *x == REPAIR_S
}

/// What a training job's MFU figure covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MfuScope {
    /// Compute only: the step is compute plus the communication and pipeline bubble not hidden behind it.
    #[default]
    ComputeOnly,
    /// Measured end to end: the step is 6 N B / (peak x MFU); communication is reported, not added.
    EndToEnd,
}

impl Default for Training {
    fn default() -> Self {
        Self {
            parameters: 13.0e9,
            tokens: 300.0e9,
            batch_tokens: 4_194_304.0,
            mfu: 0.4,
            gradient_bytes_per_parameter: 2.0,
            overlap: 0.5,
            tensor_parallel: 0,
            pipeline_parallel: 0,
            expert_parallel: 1,
            microbatches: 0,
            virtual_stages: 1,
            sequence_length: 0.0,
            context_parallel: 1,
            sharded_optimizer: false,
            mfu_scope: MfuScope::ComputeOnly,
            checkpoint_bytes_per_parameter: CHECKPOINT_BYTES_PER_PARAMETER,
            restart_s: RESTART_S,
            repair_s: REPAIR_S,
        }
    }
}

impl Serving {
    /// Requests per second one replica sustains for a GPU part.
    pub fn throughput_for(&self, gpu: Option<&crate::model::PartId>) -> f64 {
        gpu.and_then(|g| self.replica_throughput_by_gpu.get(g))
            .copied()
            .unwrap_or(self.replica_throughput_rps)
    }
}
