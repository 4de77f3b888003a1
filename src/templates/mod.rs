//! Parametric templates: generators whose result is an ordinary design, laid out in racks with power budgets,
//! cabled, and editable afterwards. `racksmith new TEMPLATE [--option value ...]` and the app's New from template
//! both come here; `list()` says what each takes.
//!
//! - `superpod-h100 --su N` and `superpod-b200 --su N`: NVIDIA's DGX SuperPOD H100 and B200 reference
//!   architectures, 1 to 1,024 scalable units, with the switch and cable counts of NVIDIA's tables.
//! - `leaf-spine --servers N --gpu MODEL --fabric ib|roce --oversubscription R --rails K`: a folded Clos ([`clos`]:
//!   two tiers while every leaf reaches every spine, then pods under non-blocking spines and further tiers) whose
//!   leaves have exactly R:1 oversubscription when the leaves are full.
//! - `nvl72 --racks N`: GB200 NVL72 racks, 72 GPUs in one NVLink domain each, on an NDR leaf-spine.
//! - `inference-row --servers N --gpu MODEL`: PCIe inference servers on an Ethernet leaf-spine, 3:1 by default.

mod clos;
pub mod discovered;
pub mod fixed;
pub mod planning;
pub mod scenarios;
pub mod sizing;
pub mod storage;
pub mod superpod;
mod wiring;

use crate::analysis::Report;
use crate::catalog::Catalog;
use crate::edit::EditError;
use crate::model::Design;
use serde::Serialize;
use std::collections::BTreeMap;
use thiserror::Error;

pub use clos::{ClosPlan, UpperSwitch, clos};
use clos::{Fabric, FabricSpec, leaf_spine};

/// One option a template takes.
#[derive(Debug, Clone, Copy)]
pub struct OptionSpec {
    /// Name, without the leading `--`.
    pub name: &'static str,
    /// What it sets, with its allowed values.
    pub help: &'static str,
    /// Value used when the option is not given.
    pub default: &'static str,
}

/// A template: its name, what it makes and its options.
#[derive(Debug, Clone, Copy)]
pub struct TemplateSpec {
    /// Name on the command line.
    pub name: &'static str,
    /// One line on what it makes.
    pub summary: &'static str,
    /// The options it takes, in the order its help lists them; any other `--name` is refused.
    pub options: &'static [OptionSpec],
}

/// GPU models the generic templates can build servers for, with the server each goes in.
pub const GPU_MODELS: [(&str, &str); 8] = [
    ("h100-sxm", "dgx-h100"),
    ("a100-sxm", "dgx-a100"),
    ("h200-sxm", "hgx-h100-8gpu"),
    ("l40s", "pcie-gpu-4u"),
    ("h100-pcie", "pcie-gpu-4u"),
    ("a100-pcie", "pcie-gpu-4u"),
    ("t4", "pcie-gpu-4u"),
    ("gb200", "gb200-nvl72"),
];

const TEMPLATES: [TemplateSpec; 5] = [
    TemplateSpec {
        name: "superpod-h100",
        summary: "NVIDIA DGX SuperPOD H100 (reference architecture RA-11333, compute fabric table): 32 DGX H100 per \
                  scalable unit less one leaf port for the fabric manager (31 at 1 SU, 63 at 2, 127 at 4), \
                  rail-optimised NDR compute fabric: two tiers up to 8 SU (8 SU: 64 leaves, 32 spines), three from \
                  16 SU (pods of 4 SU under 32 core planes: 128 leaves, 128 spines, 64 cores at 16 SU), four at 512 \
                  and 1,024 SU; storage fabric; racks of four 10.2 kW systems",
        options: &[OptionSpec {
            name: "su",
            help: "scalable units: 1 to 4, a multiple of 8 up to 256, 512 or 1024",
            default: "1",
        }],
    },
    TemplateSpec {
        name: "superpod-b200",
        summary: "NVIDIA DGX SuperPOD B200 (reference architecture RA-11334, larger SuperPOD component counts): 32 \
                  DGX B200 per scalable unit on the same rail-optimised NDR fabric (2 SU: 16 leaves, 8 spines; 8 SU: \
                  64, 32; 16 SU: 128, 128, 64 cores; 64 SU: 512, 512, 256), DGX B200 (10U, 14.3 kW) two per \
                  air-cooled rack",
        options: &[OptionSpec {
            name: "su",
            help: "scalable units: 1 to 4, a multiple of 8 up to 256, 512 or 1024",
            default: "1",
        }],
    },
    TemplateSpec {
        name: "leaf-spine",
        summary: "GPU servers on a leaf-spine fabric with a chosen oversubscription and rail count: two tiers while \
                  every leaf reaches every spine (64 leaves of 64-port switches), then pods of whole rail groups \
                  under non-blocking spines and core planes (the DGX SuperPOD's three-tier shape), a fourth tier \
                  past 64 pods; the oversubscription is the leaves' only",
        options: &[
            OptionSpec {
                name: "servers",
                help: "GPU servers, 1 to 4096",
                default: "16",
            },
            OptionSpec {
                name: "gpu",
                help: "GPU model: h100-sxm, a100-sxm, h200-sxm, l40s, h100-pcie, a100-pcie, t4",
                default: "h100-sxm",
            },
            OptionSpec {
                name: "fabric",
                help: "ib (InfiniBand: QM9700 for 400G NICs, QM8700 for 200G) or roce (Ethernet: SN5600)",
                default: "ib",
            },
            OptionSpec {
                name: "oversubscription",
                help: "leaf downlink to uplink ratio R for R:1, 1 to 8",
                default: "1",
            },
            OptionSpec {
                name: "rails",
                help: "rails K: a server's compute NIC i goes to a leaf of rail i mod K; K divides the NICs per server \
                       (default: one rail per NIC, rail-optimised)",
                default: "all",
            },
        ],
    },
    TemplateSpec {
        name: "nvl72",
        summary: "GB200 NVL72 racks: 72 GPUs in one NVLink domain per liquid-cooled rack (about 132 kW), one 400G \
                  NIC per GPU on an NDR InfiniBand leaf-spine with 8 rails",
        options: &[OptionSpec {
            name: "racks",
            help: "NVL72 racks, 1 to 256 (two tiers to 24 racks, three above, as the DGX SuperPOD GB200 RA's \
                   scalable units of 8 racks grow)",
            default: "1",
        }],
    },
    TemplateSpec {
        name: "inference-row",
        summary: "PCIe GPU inference servers (8 GPUs, 4 NICs each) on an Ethernet leaf-spine, 3:1 oversubscribed",
        options: &[
            OptionSpec {
                name: "servers",
                help: "servers, 1 to 1024 (two tiers to 768 at 3:1, three above)",
                default: "8",
            },
            OptionSpec {
                name: "gpu",
                help: "PCIe GPU model: l40s, h100-pcie, a100-pcie, t4",
                default: "l40s",
            },
            OptionSpec {
                name: "oversubscription",
                help: "leaf downlink to uplink ratio R for R:1, 1 to 8",
                default: "3",
            },
        ],
    },
];

/// The label the app shows for a template option (the command line names it `--name`; a window never shows a flag).
pub fn option_label(name: &str) -> &str {
    match name {
        "su" => "Scalable units",
        "servers" => "Servers",
        "gpu" => "GPU model",
        "fabric" => "Fabric",
        "oversubscription" => "Oversubscription",
        "rails" => "Rails",
        "racks" => "NVL72 racks",
        other => other,
    }
}

/// A template error in the app's words: the option's label instead of its flag.
pub fn error_in_labels(e: &TemplateError) -> String {
    match e {
        TemplateError::BadValue { option, value, why } => {
            format!("{} {value}: {why}", option_label(option))
        }
        other => other.to_string(),
    }
}

/// Every template, in the order `racksmith new --list` shows them.
pub fn list() -> &'static [TemplateSpec] {
    &TEMPLATES
}

/// Why a template could not make a design.
#[derive(Debug, Error)]
pub enum TemplateError {
    /// No template by that name.
    #[error("no template \"{name}\"; templates: {known}")]
    UnknownTemplate {
        /// What was asked for.
        name: String,
        /// The templates there are.
        known: String,
    },
    /// The template does not take that option.
    #[error("{template} takes no option --{option}; it takes: {known}")]
    UnknownOption {
        /// The template (or planning scenario) that was given the unknown option, by its command-line name.
        template: String,
        /// What was given.
        option: String,
        /// Options it takes.
        known: String,
    },
    /// An option's value is not allowed.
    #[error("--{option} {value}: {why}")]
    BadValue {
        /// The option's name without `--`; the app shows its label instead ([`option_label`]).
        option: String,
        /// The value as it was given (text), which the message repeats.
        value: String,
        /// What is allowed.
        why: String,
    },
    /// Building the design failed (a generator defect: it should not happen for allowed options).
    #[error("cannot build the design: {0}")]
    Build(#[from] EditError),
}

/// Options as given, checked against the template's list, with defaults filled in.
struct Opts<'a> {
    template: &'a TemplateSpec,
    values: BTreeMap<&'static str, String>,
}

impl<'a> Opts<'a> {
    fn new(template: &'a TemplateSpec, given: &[(String, String)]) -> Result<Self, TemplateError> {
        let mut values: BTreeMap<&'static str, String> = template
            .options
            .iter()
            .map(|o| (o.name, o.default.to_string()))
            .collect();
        for (k, v) in given {
            let Some(spec) = template.options.iter().find(|o| o.name == k) else {
                return Err(TemplateError::UnknownOption {
                    template: template.name.into(),
                    option: k.clone(),
                    known: template
                        .options
                        .iter()
                        .map(|o| format!("--{}", o.name))
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            };
            values.insert(spec.name, v.clone());
        }
        Ok(Self { template, values })
    }

    fn text(&self, name: &str) -> &str {
        self.values.get(name).map_or("", String::as_str)
    }

    fn bad(&self, name: &str, why: impl Into<String>) -> TemplateError {
        let _ = self.template;
        TemplateError::BadValue {
            option: name.into(),
            value: self.text(name).into(),
            why: why.into(),
        }
    }

    fn count(&self, name: &str, lo: usize, hi: usize) -> Result<usize, TemplateError> {
        match self.text(name).parse::<usize>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(self.bad(name, format!("a whole number from {lo} to {hi}"))),
        }
    }

    fn ratio(&self, name: &str) -> Result<f64, TemplateError> {
        match self.text(name).parse::<f64>() {
            Ok(r) if (1.0..=8.0).contains(&r) => Ok(r),
            _ => Err(self.bad(name, "a ratio from 1 to 8 (R for R:1)")),
        }
    }
}

/// Makes a design from a template and its options (`[("su", "4")]`).
pub fn generate(
    catalog: &Catalog,
    name: &str,
    options: &[(String, String)],
) -> Result<Design, TemplateError> {
    let Some(template) = TEMPLATES.iter().find(|t| t.name == name) else {
        return Err(TemplateError::UnknownTemplate {
            name: name.into(),
            known: TEMPLATES
                .iter()
                .map(|t| t.name)
                .collect::<Vec<_>>()
                .join(", "),
        });
    };
    let opts = Opts::new(template, options)?;
    match template.name {
        "superpod-h100" | "superpod-b200" => {
            let su = opts.count("su", 1, 1024)?;
            if (su > 4 && !su.is_multiple_of(8)) || (su > 256 && su != 512 && su != 1024) {
                return Err(opts.bad(
                    "su",
                    "1 to 4 scalable units (two tiers), a multiple of 8 up to 256 (three tiers, pods of 4 SU), or 512 \
                     or 1024 (a fourth tier of super-core switches above the cores)",
                ));
            }
            let system = if template.name == "superpod-b200" {
                &superpod::DGX_B200
            } else {
                &superpod::DGX_H100
            };
            Ok(superpod::superpod(catalog, su, system)?)
        }
        "leaf-spine" => {
            let servers = opts.count("servers", 1, 4096)?;
            let gpu = opts.text("gpu").to_string();
            let fabric = match opts.text("fabric") {
                "ib" => Fabric::InfiniBand,
                "roce" => Fabric::Roce,
                _ => return Err(opts.bad("fabric", "ib or roce")),
            };
            let r = opts.ratio("oversubscription")?;
            let rails = match opts.text("rails") {
                "all" => None,
                k => Some(
                    k.parse::<usize>()
                        .ok()
                        .filter(|k| *k >= 1)
                        .ok_or_else(|| opts.bad("rails", "a whole number of rails, or all"))?,
                ),
            };
            let spec = FabricSpec {
                servers,
                gpu,
                fabric,
                oversubscription: r,
                rails,
                compact: false,
            };
            leaf_spine(catalog, &spec, &opts)
        }
        "nvl72" => {
            let racks = opts.count("racks", 1, 256)?;
            let spec = FabricSpec {
                servers: racks,
                gpu: "gb200".into(),
                fabric: Fabric::InfiniBand,
                oversubscription: 1.0,
                rails: Some(8),
                compact: false,
            };
            let mut d = leaf_spine(catalog, &spec, &opts)?;
            d.name = format!("GB200 NVL72: {racks} rack(s), {} GPUs", racks * 72);
            d.notes = format!(
                "Generated by `racksmith new nvl72`: each rack is one 72-GPU NVLink domain (liquid-cooled, about \
                 132 kW); its 72 ConnectX-7 NICs go to 8 rails of NDR leaves. In-row CDUs (1,350 kW each) move the \
                 racks' heat to the facility water, one more than the heat needs (N+1). {}",
                d.notes
            );
            Ok(d)
        }
        "inference-row" => {
            let servers = opts.count("servers", 1, 1024)?;
            let gpu = opts.text("gpu").to_string();
            if server_for(&gpu) != Some("pcie-gpu-4u") {
                return Err(opts.bad("gpu", "a PCIe GPU: l40s, h100-pcie, a100-pcie or t4"));
            }
            let spec = FabricSpec {
                servers,
                gpu,
                fabric: Fabric::Roce,
                oversubscription: opts.ratio("oversubscription")?,
                rails: Some(1),
                compact: false,
            };
            let mut d = leaf_spine(catalog, &spec, &opts)?;
            d.name = format!("Inference row: {servers} {} servers", spec.gpu);
            Ok(d)
        }
        other => Err(TemplateError::UnknownTemplate {
            name: other.into(),
            known: String::new(),
        }),
    }
}

/// The most GPUs a sized design is built with (1,024 DGX SuperPOD scalable units hold 262,136): a sizing that
/// needs more says so in the user's terms instead of building it.
pub const MAX_SIZED_GPUS: usize = 262_144;

/// A design of `servers` servers of a GPU model for sizing: the inference row for PCIe GPUs, the leaf-spine
/// otherwise, with the template's defaults, and no cap but [`MAX_SIZED_GPUS`] (the templates' `--servers` ranges
/// are what `racksmith new` promises; sizing grows the same fabric further, adding tiers as it must). The fabric is
/// in proportion to the servers: one leaf and no spine while every NIC fits on one switch, else the fewest leaves
/// the NICs need at the leaf's radix (rail groups as wide as that allows), and storage for the servers.
pub fn servers_design(
    catalog: &Catalog,
    gpu: &str,
    servers: usize,
) -> Result<Design, TemplateError> {
    let name = match server_for(gpu) {
        Some("pcie-gpu-4u") => "inference-row",
        Some(_) => "leaf-spine",
        None => {
            return Err(TemplateError::BadValue {
                option: "gpu".into(),
                value: gpu.into(),
                why: gpu_models_allowed(),
            });
        }
    };
    let Some(template) = TEMPLATES.iter().find(|t| t.name == name) else {
        return Err(TemplateError::UnknownTemplate {
            name: name.into(),
            known: String::new(),
        });
    };
    let opts = Opts::new(template, &[("gpu".into(), gpu.into())])?;
    let spec = FabricSpec {
        servers: servers.max(1),
        gpu: gpu.to_string(),
        fabric: if name == "inference-row" {
            Fabric::Roce
        } else {
            Fabric::InfiniBand
        },
        oversubscription: opts.ratio("oversubscription")?,
        rails: (name == "inference-row").then_some(1),
        compact: true,
    };
    let mut d = leaf_spine(catalog, &spec, &opts)?;
    if name == "inference-row" {
        d.name = format!("Inference row: {servers} {gpu} servers");
    }
    Ok(d)
}

/// The catalog part of a GPU model (the models are part ids, but for `gb200`, the B200 of a GB200 superchip).
pub fn gpu_part(model: &str) -> &str {
    if model == "gb200" { "gb200-gpu" } else { model }
}

/// What a `gpu` option may be, for its error: "one of h100-sxm, a100-sxm, ...".
pub(crate) fn gpu_models_allowed() -> String {
    let names: Vec<&str> = GPU_MODELS.iter().map(|(g, _)| *g).collect();
    format!("one of {}", names.join(", "))
}

/// The server part a GPU model goes in.
pub fn server_for(gpu: &str) -> Option<&'static str> {
    GPU_MODELS.iter().find(|(g, _)| *g == gpu).map(|(_, s)| *s)
}

/// What a template will make, for the CLI's summary and the app's preview.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Preview {
    /// GPUs installed in the generated design (the analysis summary's count).
    pub gpus: usize,
    /// Servers with at least one GPU (the analysis summary's `gpu_servers`).
    pub servers: usize,
    /// Racks in the generated design.
    pub racks: usize,
    /// Switches by tier name (leaf, spine, core, ...).
    pub switches_by_tier: BTreeMap<String, usize>,
    /// Cables by medium.
    pub cables_by_type: BTreeMap<String, usize>,
    /// IT power at maximum draw, kW.
    pub it_kw: f64,
    /// Capital cost, USD.
    pub capex_usd: f64,
}

/// Switch counts by tier as one line, e.g. "64 core, 192 leaf, 128 spine"; "none" when there are none.
pub fn switch_tiers_text(by_tier: &BTreeMap<String, usize>) -> String {
    if by_tier.is_empty() {
        return "none".to_string();
    }
    let tiers: Vec<String> = by_tier.iter().map(|(t, n)| format!("{n} {t}")).collect();
    tiers.join(", ")
}

/// The preview of a design and its analysis.
pub fn preview(design: &Design, report: &Report) -> Preview {
    let mut switches_by_tier: BTreeMap<String, usize> = BTreeMap::new();
    for s in &report.bandwidth.switches {
        // The storage fabric's switches (templates::storage names them) are counted apart from the compute tiers.
        if s.name.starts_with("sleaf-") || s.name.starts_with("storage-") {
            *switches_by_tier.entry("storage".to_string()).or_default() += 1;
            continue;
        }
        let tier = match s.tier {
            1 => "leaf".to_string(),
            2 => "spine".to_string(),
            3 => "core".to_string(),
            t => format!("tier {t}"),
        };
        *switches_by_tier.entry(tier).or_default() += 1;
    }
    let mut cables_by_type: BTreeMap<String, usize> = BTreeMap::new();
    for l in design.links.values() {
        *cables_by_type.entry(l.medium.to_string()).or_default() += 1;
    }
    Preview {
        gpus: report.summary.gpus,
        servers: report.summary.gpu_servers,
        racks: design.racks.len(),
        switches_by_tier,
        cables_by_type,
        it_kw: report.summary.it_power_kw,
        capex_usd: report.summary.capex_usd,
    }
}

/// A template's help: what it makes and each option with its default.
pub fn help(template: &TemplateSpec) -> String {
    let mut s = format!("{}: {}\n\nOptions:\n", template.name, template.summary);
    for o in template.options {
        s.push_str(&format!(
            "  --{:<18} {} (default: {})\n",
            o.name, o.help, o.default
        ));
    }
    s
}
