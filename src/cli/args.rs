//! The command line's definition: every subcommand, argument and flag, as clap derives them. The doc comments on
//! them are the help text that `racksmith --help` and `racksmith COMMAND --help` print, written for the user.

use clap::{Parser, Subcommand, ValueEnum};
use racksmith::export;
use std::path::PathBuf;

/// Design GPU clusters rack by rack.
#[derive(Parser)]
#[command(name = "racksmith", version = racksmith::about::version_text(), about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Open the app, render until the design is laid out and analysed, write a PNG of the window here and exit.
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
    /// Design file to open (default: the built-in sample).
    pub file: Option<PathBuf>,
    /// A parts file (such as the app's user-catalog.ron, see Catalog > Parts…) whose parts join the built-in ones,
    /// for `catalog`, `new`, `size`, `swap` and `import-fabric`.
    #[arg(long, global = true, value_name = "PATH")]
    pub catalog: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Analyse a design and print the report.
    Analyze {
        /// Design file (.ron).
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Compare two designs side by side: GPUs, cost, TCO, $/GPU-hour, all-reduce, latency, power.
    Compare {
        /// Design A (.ron).
        a: PathBuf,
        /// Design B (.ron).
        b: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
        format: CompareFormat,
        /// Where to write html or csv; "-" or nothing writes to standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// As built against as designed: compare the fabric a cluster reports (the text `ibnetdiscover` writes, a folder
    /// of LLDP neighbours or a NetBox cable CSV) with the design's cables. Exit status 0 when they agree, 1 when
    /// anything differs, 2 on an error.
    #[command(group(clap::ArgGroup::new("source").required(true)))]
    DiffFabric {
        /// Design file (.ron).
        design: PathBuf,
        #[command(flatten)]
        source: FabricSourceArgs,
        /// Output format: text (a table by class), json (arrays `missing`, `extra`, `miswired`, `slow`,
        /// `unknown_devices`, `missing_devices`), csv (one row per difference) or html (a page for review).
        #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
        format: CompareFormat,
        /// Where to write; "-" or nothing writes to standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Turn a discovered fabric (ibnetdiscover, LLDP or a NetBox cable CSV) into a design: switches and NICs from
    /// the catalog by their reported model or speed, hosts as servers, racks one per leaf group (or from the
    /// mapping file's third column), links at their discovered rate.
    #[command(group(clap::ArgGroup::new("source").required(true)))]
    ImportFabric {
        #[command(flatten)]
        source: FabricSourceArgs,
        /// Where to write the design; "-" or nothing writes it to standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Failure what-ifs: the impact of removing a device (by name) or, with no --remove, the N-1 sweep of
    /// single points of failure.
    Whatif {
        /// Design file (.ron).
        file: PathBuf,
        /// Name of a device to remove.
        #[arg(long)]
        remove: Option<String>,
        /// Number of a link to remove (as in the design file).
        #[arg(long)]
        remove_link: Option<u64>,
        /// Name of a rack that loses one of its A/B power feeds.
        #[arg(long)]
        lose_feed: Option<String>,
        /// Name of a site lost whole (a regional outage).
        #[arg(long)]
        lose_site: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Export a design for review or for other tools: html, svg, png, bom-csv, cabling-csv, pull-list, slurm, slurm-yaml,
    /// dot, json, drawio, netbox (a folder), nccl-expect. Text formats go to standard output without -o (or with
    /// -o -).
    Export {
        /// Design file (.ron).
        file: PathBuf,
        /// Output format.
        #[arg(long, value_parser = export_format)]
        format: export::Format,
        /// Where to write; "-" or nothing writes text formats to standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Picture for svg and png: the rack elevations or the fabric.
        #[arg(long, value_parser = export_view, default_value = "racks")]
        view: export::View,
        /// Traffic pattern whose routed load colours the fabric's links (default: the first routed pattern); the
        /// report's names ("all-to-all", "all-reduce, flat ring", ...) are accepted too.
        #[arg(long, value_enum)]
        pattern: Option<PatternArg>,
    },
    /// Make a design from a template: `racksmith new superpod-h100 --su 4 -o pod.ron`. `racksmith new --list`
    /// lists the templates; `racksmith new TEMPLATE --help` documents one.
    #[command(disable_help_flag = true)]
    New {
        /// Template name.
        template: Option<String>,
        /// List the templates and their options.
        #[arg(long)]
        list: bool,
        /// Print help: every template with its options, or with TEMPLATE that template's.
        #[arg(long, short = 'h')]
        help: bool,
        /// Where to write the design; without it the design goes to standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// The template's options, as --name value pairs (and --help).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        options: Vec<String>,
    },
    /// Answer a classic planning question with its derivation: `racksmith scenario serve-100k`,
    /// `racksmith scenario --list`; inputs as --name value, the design with -o.
    #[command(disable_help_flag = true)]
    Scenario {
        /// Scenario name.
        name: Option<String>,
        /// List the scenarios and their inputs.
        #[arg(long)]
        list: bool,
        /// Print help: every scenario with its inputs (as --list).
        #[arg(long, short = 'h')]
        help: bool,
        /// Where to write the scenario's design.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// The scenario's inputs, as --name value pairs.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        inputs: Vec<String>,
    },
    /// Size a design from a requirement: the smallest that serves a request rate under a p99 target, or that
    /// finishes a training job in time.
    Size {
        #[command(subcommand)]
        what: SizeWhat,
    },
    /// Replace a part everywhere in a design (every GPU slot, NIC slot, device and cable that uses it), or say
    /// why it does not fit.
    Swap {
        /// Design file (.ron).
        file: PathBuf,
        /// Part to replace.
        #[arg(long)]
        from: String,
        /// Part to put in its place (from the design, the built-in catalog or --catalog).
        #[arg(long)]
        to: String,
        /// Where to write the result (default: standard output).
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Check a design file and list its problems.
    Validate {
        /// Design file (.ron).
        file: PathBuf,
    },
    /// List the parts catalog: the built-in parts, with those of --catalog when given.
    Catalog {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(subcommand)]
        action: Option<CatalogAction>,
    },
    /// Write a built-in sample design to a file (or list the samples).
    Sample {
        /// Sample name; omit to list them.
        name: Option<String>,
        /// Where to write it.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Write the man pages (DIR/man) and the bash, zsh and fish completions (DIR/completions) made from this
    /// command line; the Debian package's build runs it (assets/linux/build-deb.sh).
    #[command(hide = true)]
    GenerateAssets {
        /// Folder to write into, created when missing.
        dir: PathBuf,
    },
}

#[derive(Subcommand)]
pub enum CatalogAction {
    /// Read NetBox devicetype-library YAML files as parts, saying what looks wrong in each; writes the parts as a
    /// RON catalog (to standard output without -o).
    ImportNetbox {
        /// Device type files (.yaml).
        files: Vec<PathBuf>,
        /// Where to write the parts.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Import every file as this kind (server, switch or storage) instead of the kind its data says.
        #[arg(long)]
        kind: Option<racksmith::catalog::netbox::ImportKind>,
    },
}

/// Where a discovered fabric comes from (exactly one source), and the mapping file: shared by `diff-fabric` and
/// `import-fabric`.
/// The commands that flatten it declare the group `source` that makes exactly one of the three required.
#[derive(clap::Args)]
#[group(skip)]
pub struct FabricSourceArgs {
    /// The fabric as `ibnetdiscover` reported it (`racksmith export DESIGN --format ibnetdiscover` writes what
    /// a design's fabric should report).
    #[arg(long, group = "source", value_name = "FILE")]
    pub ibnetdiscover: Option<PathBuf>,
    /// A folder of `lldpcli show neighbors -f json` outputs, one per host or switch, each named after the
    /// device that wrote it (`leaf-01.json`): the Ethernet cables as LLDP sees them.
    #[arg(long, group = "source", value_name = "FOLDER")]
    pub lldp: Option<PathBuf>,
    /// A NetBox cable CSV (the columns its cable import takes, side_a_device, side_a_name, side_b_device,
    /// side_b_name, or its cable list's export, Device A, Termination A, ...): the InfiniBand and Ethernet
    /// cables as NetBox records them.
    #[arg(long, group = "source", value_name = "FILE")]
    pub netbox_cables: Option<PathBuf>,
    /// A mapping file for nodes whose names do not follow the design's: CSV lines `discovered,design[,rack]`,
    /// the discovered name being a node description, a host, a node GUID or a device name, and the optional
    /// rack the one the device goes in when the fabric is imported.
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
}

/// The GPUs and replicas a service runs on, shared by `size serving` and `size budget`.
#[derive(clap::Args)]
pub struct ReplicaArgs {
    /// Planned utilisation of each replica, in (0, 1).
    #[arg(long, default_value_t = racksmith::templates::sizing::SERVING_DEFAULTS.utilisation, allow_negative_numbers = true)]
    pub utilisation: f64,
    /// GPU model (racksmith new leaf-spine --help lists them).
    #[arg(long, default_value_t = racksmith::templates::sizing::SERVING_DEFAULTS.gpu.to_string())]
    pub gpu: String,
    /// Requests per second one replica sustains at full load, measured (your benchmark of the model); without
    /// it, the rate is estimated from the GPU's memory bandwidth and --model-params (docs/analysis.md, "Serving:
    /// the replica's rate").
    #[arg(long, allow_negative_numbers = true)]
    pub replica_rps: Option<f64>,
    /// Parameters of the served model, e.g. 70e9, for the estimate of a replica's rate.
    #[arg(long, default_value_t = racksmith::templates::sizing::SERVING_DEFAULTS.model.parameters, allow_negative_numbers = true)]
    pub model_params: f64,
    /// Bytes per weight of the served model: 2 for BF16 or FP16, 1 for FP8.
    #[arg(long, default_value_t = racksmith::templates::sizing::SERVING_DEFAULTS.model.bytes_per_parameter, allow_negative_numbers = true)]
    pub bytes_per_param: f64,
    /// Tokens generated per request.
    #[arg(long, default_value_t = racksmith::templates::sizing::SERVING_DEFAULTS.model.tokens_per_request, allow_negative_numbers = true)]
    pub tokens_per_request: f64,
    /// Sequences a replica decodes together (each pass over the weights yields a token for each).
    #[arg(long, default_value_t = racksmith::templates::sizing::SERVING_DEFAULTS.model.batch, allow_negative_numbers = true)]
    pub batch: f64,
    /// GPUs per replica.
    #[arg(long, default_value_t = racksmith::templates::sizing::SERVING_DEFAULTS.gpus_per_replica, allow_negative_numbers = true)]
    pub gpus_per_replica: u32,
}

impl ReplicaArgs {
    /// The served model (the shared defaults where not given), for the replica rate's estimate.
    pub fn model(&self) -> Option<racksmith::templates::sizing::ServedModel> {
        Some(racksmith::templates::sizing::ServedModel {
            parameters: self.model_params,
            bytes_per_parameter: self.bytes_per_param,
            tokens_per_request: self.tokens_per_request,
            batch: self.batch,
        })
    }
}

#[derive(Subcommand)]
pub enum SizeWhat {
    /// The smallest design that serves --requests-per-s under --p99-ms at --utilisation.
    Serving {
        /// Requests per second to serve.
        #[arg(long, default_value_t = racksmith::templates::sizing::SERVING_DEFAULTS.requests_per_s, allow_negative_numbers = true)]
        requests_per_s: f64,
        /// p99 latency target of a whole request (all its tokens), milliseconds.
        #[arg(long, default_value_t = racksmith::templates::sizing::SERVING_DEFAULTS.p99_ms, allow_negative_numbers = true)]
        p99_ms: f64,
        #[command(flatten)]
        replicas: ReplicaArgs,
        /// Where to write the design.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// What a yearly budget buys owned, on demand, and with 1- and 3-year cloud commitments (GPUs, req/s), and the
    /// owned design that fits it.
    Budget {
        /// Budget per year, USD, e.g. 1.2e6.
        #[arg(long, allow_negative_numbers = true)]
        usd_per_year: f64,
        /// p99 latency target of a whole request, milliseconds: the replicas run at the lower of --utilisation and
        /// the most that keeps the p99 under it (1e7: no target).
        #[arg(long, default_value_t = racksmith::templates::sizing::SERVING_DEFAULTS.p99_ms, allow_negative_numbers = true)]
        p99_ms: f64,
        #[command(flatten)]
        replicas: ReplicaArgs,
        /// Where to write the owned design.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// The smallest design that trains --params on --tokens within --days, for each GPU model given.
    Training {
        /// Model parameters, e.g. 13e9.
        #[arg(long, allow_negative_numbers = true)]
        params: f64,
        /// Training tokens, e.g. 300e9.
        #[arg(long, allow_negative_numbers = true)]
        tokens: f64,
        /// Days the job may take.
        #[arg(long, allow_negative_numbers = true)]
        days: f64,
        /// GPU models, comma-separated; several are compared side by side.
        #[arg(long, default_value = "h100-sxm", value_delimiter = ',')]
        gpu: Vec<String>,
        /// Model FLOPs utilisation.
        #[arg(long, default_value_t = 0.4, allow_negative_numbers = true)]
        mfu: f64,
        /// Tensor-parallel degree (default: the analysis chooses and says why).
        #[arg(long)]
        tp: Option<u32>,
        /// Pipeline-parallel degree (default: the analysis chooses and says why).
        #[arg(long)]
        pp: Option<u32>,
        /// Where to write the design (one GPU model only).
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

/// `export --pattern`: a traffic pattern by a short name, or by the report's name as earlier versions took it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PatternArg {
    /// All-reduce as one flat ring over every GPU.
    #[value(alias = "all-reduce, flat ring")]
    FlatRing,
    /// All-reduce with one ring per rail.
    #[value(alias = "all-reduce, hierarchical (one ring per rail)")]
    RailRings,
    /// Every GPU sending to every GPU in the other servers.
    AllToAll,
    /// Each GPU reading from the storage it can reach.
    #[value(alias = "storage read")]
    StorageRead,
    /// Serving requests and responses through the fabric's top.
    #[value(alias = "inference serving")]
    Inference,
}

impl From<PatternArg> for racksmith::analysis::pattern::Pattern {
    fn from(p: PatternArg) -> Self {
        use racksmith::analysis::pattern::Pattern;
        match p {
            PatternArg::FlatRing => Pattern::FlatRing,
            PatternArg::RailRings => Pattern::RailRings,
            PatternArg::AllToAll => Pattern::AllToAll,
            PatternArg::StorageRead => Pattern::StorageRead,
            PatternArg::Inference => Pattern::Inference,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum CompareFormat {
    Text,
    Json,
    Html,
    Csv,
}

/// `export --format`: a format by its name; the error lists the names there are.
fn export_format(name: &str) -> Result<export::Format, String> {
    export::Format::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = export::Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format \"{name}\"; one of: {}", names.join(", "))
    })
}

/// `export --view`: the rack elevations or the fabric.
fn export_view(name: &str) -> Result<export::View, String> {
    export::View::from_name(name).ok_or_else(|| format!("unknown view \"{name}\"; racks or fabric"))
}
