//! Training as it runs (docs/analysis.md, "Training jobs"): tensor, pipeline, data (and expert) parallel degrees,
//! chosen when the design does not give them; per step the tensor-parallel all-reduces inside the NVLink domain, the
//! pipeline's point-to-point sends and its bubble, the expert all-to-alls, and the data-parallel gradient all-reduce
//! (or reduce-scatter and all-gather with a sharded optimiser) over the data-parallel group only, each timed by the
//! NCCL model ([`super::nccl`]).

use super::nccl::{Collective, CommShape};
use serde::Serialize;

/// Bytes of model state per parameter with mixed-precision Adam: BF16 weights and gradients (2 + 2) and FP32 master
/// weights, momentum and variance (12); Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
/// Parameter Models" (SC 2020), section 3.1.
pub const STATE_BYTES_PER_PARAMETER: f64 = 16.0;
/// Share of GPU memory the model states may take; the rest is left to activations and buffers (planning value).
pub const STATE_MEMORY_SHARE: f64 = 0.8;
/// Hidden size over layers of the model shape assumed when only the parameter count is known: d_model / n_layer
/// about 128 (GPT-3 13B: 5,140 / 40; Kaplan et al. 2020 find loss flat over a wide range of this ratio), with
/// N = 12 L h^2 (Kaplan et al., "Scaling Laws for Neural Language Models", 2020, section 2.1).
pub const HIDDEN_PER_LAYER: f64 = 128.0;
/// Point-to-point latency per send, us: NCCL's Simple base latency plus one ring step over NVLink (8.4 + 3.4) or
/// the network (8.4 + 14.0), `src/graph/tuning.cc`.
pub const P2P_NVLINK_US: f64 = 8.4 + 3.4;
/// The same across servers.
pub const P2P_NET_US: f64 = 8.4 + 14.0;

/// The parallel layout of a training job.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Parallelism {
    /// Tensor-parallel degree: the GPUs each layer is split across. When chosen, a power of two inside one server's
    /// NVLink domain (at most 8).
    pub tensor: u32,
    /// Pipeline-parallel degree: the stages the layers are split into. When chosen, the smallest power of two that
    /// fits the model states.
    pub pipeline: u32,
    /// Data-parallel degree: GPUs / (tensor x pipeline), rounded down.
    pub data: u32,
    /// Expert-parallel degree (1: dense).
    pub expert: u32,
    /// Microbatches per step.
    pub microbatches: u32,
    /// Model chunks per stage (the interleaved schedule's v; 1: plain 1F1B), at most the layers of a stage.
    pub virtual_stages: u32,
    /// Context-parallel degree: the GPUs each sequence is split across (1: none).
    pub context: u32,
    /// Transformer layers assumed: round((N / (12 x 128^2))^(1/3)).
    pub layers: u32,
    /// Hidden size assumed: 128 x layers.
    pub hidden: f64,
    /// Model-state bytes per GPU under this layout, GB.
    pub state_gb_per_gpu: f64,
    /// How the degrees were set.
    pub why: String,
}

/// What the job needs from the design and the file.
#[derive(Debug, Clone)]
pub struct Job {
    /// Model parameters, a count (e.g. 13e9); with the bytes per parameter, the model state each GPU holds.
    pub parameters: f64,
    /// Tokens per step.
    pub batch_tokens: f64,
    /// Gradient bytes per parameter.
    pub gradient_bytes: f64,
    /// Given degrees (0: choose).
    pub tensor: u32,
    /// Given pipeline degree (0: choose).
    pub pipeline: u32,
    /// Expert-parallel degree for a mixture-of-experts model, as the design gives it (never chosen; 1: dense).
    pub expert: u32,
    /// Given microbatches (0: 4 per stage).
    pub microbatches: u32,
    /// Model chunks per stage under the interleaved schedule (1 or 0: plain 1F1B).
    pub virtual_stages: u32,
    /// Context-parallel degree (1 or 0: none).
    pub context: u32,
    /// Sharded optimiser state.
    pub sharded: bool,
    /// Memory per GPU, GB.
    pub gpu_memory_gb: f64,
}

/// Communication per step, seconds.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StepComm {
    /// Tensor-parallel all-reduces of the activations: four per layer of a stage, per microbatch.
    pub tensor_s: f64,
    /// Pipeline sends between stages.
    pub pipeline_s: f64,
    /// Expert all-to-alls: four per layer of a stage, per microbatch (0 for a dense model).
    pub expert_s: f64,
    /// Data-parallel gradient collective.
    pub data_s: f64,
    /// Context parallelism's ring attention: keys and values passed round the context-parallel group, CP - 1
    /// sends a layer forward and twice that backward (keys, values and their gradients), per microbatch.
    pub context_s: f64,
}

fn pow2_floor(x: usize) -> usize {
    if x == 0 {
        return 1;
    }
    1 << (usize::BITS - 1 - x.leading_zeros())
}

fn state_gb(job: &Job, tp: usize, pp: usize, dp: usize) -> f64 {
    let per_param = if job.sharded {
        4.0 + 12.0 / dp.max(1) as f64
    } else {
        STATE_BYTES_PER_PARAMETER
    };
    job.parameters * per_param / (tp * pp) as f64 / 1e9
}

/// The layout: the given degrees, or the smallest tensor-parallel degree (a power of two inside one server's NVLink
/// domain, at most 8) whose model states fit, then the smallest pipeline degree that makes them fit.
pub fn layout(job: &Job, shape: &CommShape) -> Parallelism {
    let gpus = shape.ranks.max(1);
    let ppn = (shape.ranks / shape.nodes.max(1)).max(1);
    let tp_max = if shape.nvlink {
        pow2_floor(ppn.min(8))
    } else {
        1
    };
    let budget = job.gpu_memory_gb * STATE_MEMORY_SHARE;
    let fits = |tp: usize, pp: usize| state_gb(job, tp, pp, gpus / (tp * pp)) <= budget;
    let mut why = Vec::new();
    let tp = if job.tensor > 0 {
        why.push(format!("TP {} as given", job.tensor));
        job.tensor as usize
    } else {
        let mut t = 1;
        while t < tp_max && !fits(t, job.pipeline.max(1) as usize) {
            t *= 2;
        }
        why.push(format!(
            "TP {t}: the smallest power of two inside the {tp_max}-GPU NVLink domain whose model states fit"
        ));
        t
    };
    let tp = tp.clamp(1, gpus);
    let pp = if job.pipeline > 0 {
        why.push(format!("PP {} as given", job.pipeline));
        job.pipeline as usize
    } else {
        let mut p = 1;
        while p * 2 * tp <= gpus && !fits(tp, p) {
            p *= 2;
        }
        why.push(if p == 1 {
            "PP 1: no pipeline needed".into()
        } else {
            format!("PP {p}: the smallest power of two that fits the model states")
        });
        p
    };
    let pp = pp.clamp(1, (gpus / tp).max(1));
    let cp = (job.context.max(1) as usize).clamp(1, (gpus / (tp * pp)).max(1));
    if cp > 1 {
        why.push(format!(
            "CP {cp} as given: each sequence split over {cp} GPUs"
        ));
    }
    // Model states are sharded over the data- and context-parallel ranks alike (both hold the same weights).
    let dp = (gpus / (tp * pp * cp)).max(1);
    let state = state_gb(job, tp, pp, dp * cp);
    why.push(format!(
        "{:.1} GB of model states per GPU ({} bytes per parameter{}) against {:.0}% of {:.0} GB",
        state,
        if job.sharded { "4 + 12/DP" } else { "16" },
        if job.sharded {
            ", sharded optimiser"
        } else {
            ""
        },
        STATE_MEMORY_SHARE * 100.0,
        job.gpu_memory_gb
    ));
    if state > budget {
        why.push("the model states do not fit: more GPUs or a sharded optimiser are needed".into());
    }
    if dp * tp * pp * cp < gpus {
        why.push(format!("{} GPUs idle", gpus - dp * tp * pp * cp));
    }
    let layers = layers_of(job.parameters);
    let microbatches = if job.microbatches > 0 {
        job.microbatches
    } else if pp > 1 {
        4 * pp as u32
    } else {
        1
    };
    // A chunk holds at least one layer; without a pipeline there is nothing to interleave.
    let virtual_stages = if pp > 1 {
        let per_stage = (layers as u32 / pp as u32).max(1);
        let v = job.virtual_stages.clamp(1, per_stage);
        if v > 1 {
            why.push(format!(
                "interleaved schedule: {v} model chunks per stage (bubble (PP-1)/(m x {v}))"
            ));
        }
        v
    } else {
        1
    };
    Parallelism {
        tensor: tp as u32,
        pipeline: pp as u32,
        data: dp as u32,
        expert: job.expert.max(1),
        microbatches,
        virtual_stages,
        context: cp as u32,
        layers: layers as u32,
        hidden: HIDDEN_PER_LAYER * layers,
        state_gb_per_gpu: state,
        why: why.join("; "),
    }
}

/// Transformer layers assumed for `parameters`: round((N / (12 x 128^2))^(1/3)), at least 1.
fn layers_of(parameters: f64) -> f64 {
    (parameters / (12.0 * HIDDEN_PER_LAYER * HIDDEN_PER_LAYER))
        .cbrt()
        .round()
        .max(1.0)
}

/// Attention's training FLOPs per token at `sequence` tokens a sequence: 12 x layers x hidden x sequence (the
/// s / (6h) term of Narayanan et al., SC 2021, equation 3, without recomputation: 72 B s l h^2 x s / (6h) over B s
/// tokens), with the layers and hidden size the layout assumes for `parameters`. 0 when the sequence is not given.
pub fn attention_flops_per_token(parameters: f64, sequence: f64) -> f64 {
    let layers = layers_of(parameters);
    12.0 * layers * HIDDEN_PER_LAYER * layers * sequence.max(0.0)
}

/// The communicator of `ranks` GPUs placed `per_node` to a server, sharing each server's rails with the other
/// groups that run at the same time.
fn group(shape: &CommShape, ranks: usize, per_node: usize) -> CommShape {
    let ppn = (shape.ranks / shape.nodes.max(1)).max(1);
    let per_node = per_node.clamp(1, ppn).min(ranks.max(1));
    let mut g = shape.clone();
    g.ranks = ranks.max(1);
    g.nodes = ranks.div_ceil(per_node).max(1);
    g.net_line_gbyte_s_per_node = shape.net_line_gbyte_s_per_node * per_node as f64 / ppn as f64;
    g
}

fn time_s(shape: &CommShape, coll: Collective, bytes: f64) -> f64 {
    if shape.ranks <= 1 || bytes <= 0.0 {
        return 0.0;
    }
    shape
        .pick(coll, bytes, None)
        .map_or(0.0, |e| e.time_us * 1e-6)
}

/// One point-to-point send of `bytes` between two GPUs: over NVLink when `inside` one server, else over the
/// rail share of one GPU, with NCCL's Simple base plus one step as its latency.
fn send_s(shape: &CommShape, inside: bool, bytes: f64) -> f64 {
    let ppn = (shape.ranks / shape.nodes.max(1)).max(1);
    let (lat_us, bw) = if inside {
        (P2P_NVLINK_US, shape.intra_bus_gbyte_s())
    } else {
        (P2P_NET_US, shape.net_bus_gbyte_s() / ppn as f64)
    };
    lat_us * 1e-6 + if bw > 0.0 { bytes / (bw * 1e9) } else { 0.0 }
}

/// Communication per step under a layout (Megatron-LM's schedule: Narayanan et al., "Efficient Large-Scale
/// Language Model Training on GPU Clusters Using Megatron-LM", SC 2021): per transformer layer two all-reduces of
/// the activations forward and two backward inside the tensor-parallel group; per microbatch one send forward and
/// one backward between pipeline stages (each tensor rank sends its 1/TP share); with experts, two all-to-alls
/// forward and two backward per layer; with context parallelism, ring attention's key and value sends per layer;
/// the gradient collective over the data- and context-parallel ranks once per step.
pub fn step_comm(job: &Job, shape: &CommShape, p: &Parallelism) -> StepComm {
    let ppn = (shape.ranks / shape.nodes.max(1)).max(1);
    let (tp, pp, dp) = (p.tensor as usize, p.pipeline as usize, p.data as usize);
    let cp = p.context.max(1) as usize;
    let m = f64::from(p.microbatches.max(1));
    let layers_per_stage = f64::from(p.layers) / pp as f64;
    // Activations of one microbatch in BF16 on one GPU: its tokens (a 1/CP share of the sequence) x hidden x 2.
    let micro_tokens = job.batch_tokens / (dp as f64 * m) / cp as f64;
    let act = micro_tokens * p.hidden * 2.0;
    let tensor_s = if tp > 1 {
        4.0 * layers_per_stage * m * time_s(&group(shape, tp, tp), Collective::AllReduce, act)
    } else {
        0.0
    };
    let pipeline_s = if pp > 1 {
        // The interleaved schedule crosses each stage boundary once per model chunk.
        let per_send = send_s(shape, tp * pp * cp <= ppn, act / tp as f64);
        2.0 * m * f64::from(p.virtual_stages.max(1)) * per_send
    } else {
        0.0
    };
    // Ring attention: each GPU passes its keys and values (2 x tokens x hidden / TP x 2 bytes, as if every head had
    // its own keys; grouped-query attention sends less) CP - 1 times a layer forward, and keys, values and their
    // gradients backward. Counted in full: Megatron overlaps them with the attention of the block in hand, so this
    // is the most they cost.
    let context_s = if cp > 1 {
        let kv = 2.0 * micro_tokens * p.hidden / tp as f64 * 2.0;
        3.0 * (cp - 1) as f64 * layers_per_stage * m * send_s(shape, tp * cp <= ppn, kv)
    } else {
        0.0
    };
    let expert_s = if p.expert > 1 {
        let e = p.expert as usize;
        let per_node = (ppn / (tp * pp).min(ppn)).max(1);
        4.0 * layers_per_stage * m * time_s(&group(shape, e, per_node), Collective::AllToAll, act)
    } else {
        0.0
    };
    let data_s = if dp * cp > 1 {
        let per_node = (ppn / (tp * pp).min(ppn)).max(1);
        let g = group(shape, dp * cp, per_node);
        let bytes = job.parameters * job.gradient_bytes / (tp * pp) as f64;
        if job.sharded {
            time_s(&g, Collective::ReduceScatter, bytes) + time_s(&g, Collective::AllGather, bytes)
        } else {
            time_s(&g, Collective::AllReduce, bytes)
        }
    } else {
        0.0
    };
    StepComm {
        tensor_s,
        pipeline_s,
        expert_s,
        data_s,
        context_s,
    }
}

/// Share of the ideal compute the pipeline idles: (PP - 1) / microbatches under the 1F1B schedule, (PP - 1) /
/// (microbatches x v) under the interleaved schedule with v model chunks per stage (Narayanan et al. 2021, sections
/// 2.2.1 and 2.2.2).
pub fn bubble_share(p: &Parallelism) -> f64 {
    if p.pipeline <= 1 {
        0.0
    } else {
        f64::from(p.pipeline - 1)
            / (f64::from(p.microbatches.max(1)) * f64::from(p.virtual_stages.max(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a100(nodes: usize) -> CommShape {
        crate::analysis::nccl::dgx_a100_shape(nodes)
    }

    fn job() -> Job {
        Job {
            parameters: 13e9,
            batch_tokens: 4_194_304.0,
            gradient_bytes: 2.0,
            tensor: 0,
            pipeline: 0,
            expert: 1,
            microbatches: 0,
            virtual_stages: 1,
            context: 1,
            sharded: false,
            gpu_memory_gb: 80.0,
        }
    }

    #[test]
    fn attention_adds_twelve_layers_hidden_sequence_per_token() {
        // 13B: 40 layers of hidden 5,120. At 4,096 tokens a sequence: 12 x 40 x 5,120 x 4,096 = 10,066,329,600
        // FLOPs a token, 12.9% on top of 6 x 13e9 = 78e9.
        assert!((attention_flops_per_token(13e9, 4096.0) - 10_066_329_600.0).abs() < 1.0);
        assert_eq!(attention_flops_per_token(13e9, 0.0), 0.0);
        // The training step counts it: compute at 1e15 FLOP/s x MFU 0.5 for 1M tokens.
        let t = crate::model::Training {
            parameters: 13e9,
            batch_tokens: 1_048_576.0,
            mfu: 0.5,
            sequence_length: 4096.0,
            ..crate::model::Training::default()
        };
        let tt = crate::analysis::latency::training_time(&t, 8, 1000.0, 80.0, None, 0.0).unwrap();
        let by_hand = (78e9 + 10_066_329_600.0) * 1_048_576.0 / 0.5e15;
        assert!(
            (tt.compute_s_per_step - by_hand).abs() < 1e-6,
            "{}",
            tt.compute_s_per_step
        );
    }

    #[test]
    fn context_parallel_ring_attention_by_hand() {
        // 13B on 15 DGX A100 (120 GPUs), TP 4 chosen, CP 2 given: DP 120 / (4 x 2) = 15, PP 1, one microbatch.
        // Each GPU holds 4,194,304 / 15 / 2 = 139,810.13 tokens; keys and values 2 x 139,810.13 x 5,120 / 4 x 2 B
        // = 715,827,882.7 B a send. TP x CP = 8 GPUs, one server: NVLink at 300 x 0.8 = 240 GB/s, 11.8 us a send:
        // 11.8e-6 + 715,827,882.7 / 240e9 = 0.00299445 s. CP - 1 = 1 send a layer forward, 2 backward, 40 layers:
        // 3 x 40 x 0.00299445 = 0.359334 s.
        let mut j = job();
        j.context = 2;
        let s = a100(15);
        let p = layout(&j, &s);
        assert_eq!((p.tensor, p.pipeline, p.context, p.data), (4, 1, 2, 15));
        assert!(p.why.contains("CP 2"), "{}", p.why);
        let c = step_comm(&j, &s, &p);
        let kv = 2.0 * (4_194_304.0 / 15.0 / 2.0) * 5120.0 / 4.0 * 2.0;
        let send = 11.8e-6 + kv / 240e9;
        assert!((c.context_s - 120.0 * send).abs() < 1e-9, "{}", c.context_s);
        // The gradients are reduced over DP x CP = 30 ranks, as the 30 data-parallel ranks without CP were.
        let plain = step_comm(&job(), &s, &layout(&job(), &s));
        assert!((c.data_s - plain.data_s).abs() < 1e-12);
        assert_eq!(plain.context_s, 0.0);
    }

    #[test]
    fn the_interleaved_schedule_divides_the_bubble_by_its_chunks() {
        // 175B on 64 DGX A100: PP 8, 32 microbatches, 96 layers (round((175e9 / 196,608)^(1/3)) = 96), 12 a stage.
        // 1F1B: bubble 7/32; v = 4: 7 / (32 x 4) = 7/128, and each stage boundary is crossed 4 times as often.
        let mut j = job();
        j.parameters = 175e9;
        let plain = layout(&j, &a100(64));
        assert_eq!(plain.layers, 96);
        j.virtual_stages = 4;
        let p = layout(&j, &a100(64));
        assert_eq!(p.virtual_stages, 4);
        assert!((bubble_share(&p) - 7.0 / 128.0).abs() < 1e-12);
        assert!(p.why.contains("interleaved"), "{}", p.why);
        let (c1, c4) = (
            step_comm(&j, &a100(64), &plain),
            step_comm(&j, &a100(64), &p),
        );
        assert!((c4.pipeline_s - 4.0 * c1.pipeline_s).abs() < 1e-12);
        // A chunk holds at least one layer: v 50 on 12 layers a stage is cut to 12.
        j.virtual_stages = 50;
        assert_eq!(layout(&j, &a100(64)).virtual_stages, 12);
    }

    #[test]
    fn llama3_405b_at_twice_the_gpus_with_and_without_interleaving() {
        // The Llama 3 Herd of Models (2024), Table 4: 405B with TP 8, PP 16, one 8,192-token sequence a
        // microbatch and 16M-token batches: DP 64 (8,192 GPUs) runs 32 microbatches at 430 TFLOP/s per GPU; DP 128
        // (16,384 GPUs) runs 16 and measured 400. Scaling the 8,192-GPU rate by the bubble (rate ~ 1 / (1 +
        // bubble)): 1F1B, 15/32 -> 15/16: 430 x 1.46875 / 1.9375 = 326 TFLOP/s, 18% low (the 329).
        // Interleaved (the paper's schedule; its chunks per stage are not stated, and 4 to 8 of the 8 layers a stage
        // holds bracket it): v 4: 430 x (1 + 15/128) / (1 + 15/64) = 389; v 8: 430 x (1 + 15/256) / (1 + 15/128)
        // = 408; both within 3% of 400.
        let rate = |m: u32, v: u32| {
            let p = Parallelism {
                tensor: 8,
                pipeline: 16,
                data: 1,
                expert: 1,
                microbatches: m,
                virtual_stages: v,
                context: 1,
                layers: 126,
                hidden: 16_384.0,
                state_gb_per_gpu: 0.0,
                why: String::new(),
            };
            1.0 / (1.0 + bubble_share(&p))
        };
        let predicted = |v: u32| 430.0 * rate(16, v) / rate(32, v);
        assert!((predicted(1) - 430.0 * 1.46875 / 1.9375).abs() < 1e-9);
        assert!(predicted(1) / 400.0 < 0.85);
        for (v, by_hand) in [
            (4, 430.0 * (1.0 + 15.0 / 128.0) / (1.0 + 15.0 / 64.0)),
            (8, 430.0 * (1.0 + 15.0 / 256.0) / (1.0 + 15.0 / 128.0)),
        ] {
            assert!((predicted(v) - by_hand).abs() < 1e-9);
            assert!(
                (predicted(v) / 400.0 - 1.0).abs() < 0.03,
                "v {v}: {}",
                predicted(v)
            );
        }
    }

    #[test]
    fn chooses_the_smallest_tensor_degree_that_fits() {
        // 13e9 x 16 B = 208 GB of states; 80 GB x 0.8 = 64 GB per GPU: TP 1 208, TP 2 104, TP 4 52 GB: TP 4.
        // 120 GPUs / 4 = DP 30. Layers round((13e9 / 196,608)^(1/3)) = round(40.4) = 40, hidden 5,120.
        let p = layout(&job(), &a100(15));
        assert_eq!((p.tensor, p.pipeline, p.data), (4, 1, 30));
        assert_eq!(p.layers, 40);
        assert!((p.state_gb_per_gpu - 52.0).abs() < 1e-9);
        assert!(p.why.contains("TP 4"), "{}", p.why);
        // Sharded (ZeRO): 4 + 12/120 = 4.1 B per parameter: 53.3 GB at TP 1, which fits.
        let mut j = job();
        j.sharded = true;
        let p = layout(&j, &a100(15));
        assert_eq!((p.tensor, p.data), (1, 120));
    }

    #[test]
    fn a_175b_model_needs_a_pipeline() {
        // 175e9 x 16 B = 2,800 GB; TP 8 (the whole NVLink domain) leaves 350 GB per GPU, over 64 GB; PP 8 gives
        // 2,800 / 64 = 43.75 GB. 64 servers of 8: DP 512 / 64 = 8; 4 x 8 = 32 microbatches, bubble 7/32.
        let mut j = job();
        j.parameters = 175e9;
        let p = layout(&j, &a100(64));
        assert_eq!(
            (p.tensor, p.pipeline, p.data, p.microbatches),
            (8, 8, 8, 32)
        );
        assert!((p.state_gb_per_gpu - 43.75).abs() < 1e-9);
        assert!((bubble_share(&p) - 7.0 / 32.0).abs() < 1e-12);
        assert!(p.why.contains("PP 8"), "{}", p.why);
        // The stages span servers (TP 8 x PP 8 > 8 per server): each send crosses the network at the rail share
        // of one GPU, 200 x 0.94 / 8 = 23.5 GB/s, carrying 1/8 of the activations.
        let c = step_comm(&j, &a100(64), &p);
        let act = 4_194_304.0 / (8.0 * 32.0) * f64::from(p.layers * 128) * 2.0;
        let send = 22.4e-6 + act / 8.0 / 23.5e9;
        assert!(
            (c.pipeline_s - 64.0 * send).abs() < 1e-9,
            "{}",
            c.pipeline_s
        );
    }

    #[test]
    fn data_parallel_group_by_hand() {
        // TP 4, DP 30 on 15 DGX A100: each DP group has 2 GPUs per server and a quarter of its rails, 200 x 2/8 =
        // 50 GB/s per server. Gradients 13e9 x 2 / 4 = 6.5e9 B. Ring/Simple: bus min(240, 50 x 0.94 = 47) = 47,
        // algbw 47 x 30/58 = 24.31 GB/s; latency (8.4 + 30 x 6 + 28 x 14) x 1.4 = 812.56 us, + launch 3.3 us (AMD);
        // pipeline fill, one round of 8 x 16 x 128 KiB = 16 MiB at algbw: 16777216 / 24.31e9 = 0.000690 s.
        // 6.5e9 / 24.31e9 + 815.86e-6 + 0.000690 = 0.267376 + 0.000816 + 0.000690 = 0.268882 s.
        let s = a100(15);
        let p = layout(&job(), &s);
        let c = step_comm(&job(), &s, &p);
        let algbw = 47e9 * 30.0 / 58.0;
        let expected = (6.5e9 + 16_777_216.0) / algbw + 815.86e-6;
        assert!((c.data_s - expected).abs() < 1e-6, "{}", c.data_s);
        // Tensor parallel: 4 all-reduces x 40 layers x 1 microbatch of 4,194,304 / 30 tokens x 5,120 x 2 B =
        // 1.4317 GB over 4 GPUs in one server (ring/Simple, bus 240: algbw 240 x 4/6 = 160 GB/s, latency 8.4 + 6 x
        // 3.4 = 28.8 us, + launch 3.3 = 32.1 us; fill 16 MiB / 160e9): 160 x (32.1 us + (1.4317e9 + 16777216) /
        // 160e9 s) = 160 x 9.085 ms = 1.4536 s.
        let act = 4_194_304.0 / 30.0 * 5120.0 * 2.0;
        let tp = 160.0 * (32.1e-6 + (act + 16_777_216.0) / 160e9);
        assert!((c.tensor_s - tp).abs() < 1e-6, "{} vs {tp}", c.tensor_s);
        assert_eq!(c.pipeline_s, 0.0);
    }
}
