//! Racksmith entry point: with no subcommand, the desktop app; subcommands run headless. In the web build
//! (wasm32, `assets/web/build.sh`) it starts the app on the page instead.

// The web build has no command line: everything below `main` is the desktop's.
#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};
use racksmith::{analysis, catalog::Catalog, export, io, samples};
use std::path::PathBuf;
use std::process::ExitCode;

use racksmith::analysis::text as report_text;

/// Writes to standard output like `print!`, but a write that fails (a closed pipe, a full disk) is kept for
/// [`main`] to report instead of panicking; later writes are skipped.
macro_rules! out {
    ($($arg:tt)*) => {
        stdout_write(format_args!($($arg)*), false)
    };
}

/// [`out!`] with a line feed, like `println!`.
macro_rules! outln {
    () => {
        stdout_write(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        stdout_write(format_args!($($arg)*), true)
    };
}

/// The first error writing to standard output, if any.
static STDOUT_ERROR: std::sync::Mutex<Option<std::io::Error>> = std::sync::Mutex::new(None);

/// Writes to standard output, keeping the first error ([`out!`]).
fn stdout_write(args: std::fmt::Arguments<'_>, newline: bool) {
    use std::io::Write as _;
    let Ok(mut failed) = STDOUT_ERROR.lock() else {
        return;
    };
    if failed.is_some() {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let written = stdout.write_fmt(args).and_then(|()| {
        if newline {
            stdout.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    if let Err(e) = written {
        *failed = Some(e);
    }
}

/// Flushes standard output and returns the first error writing to it, if any.
fn stdout_result() -> Result<(), std::io::Error> {
    use std::io::Write as _;
    let flushed = std::io::stdout().lock().flush();
    let kept = STDOUT_ERROR.lock().ok().and_then(|mut e| e.take());
    match kept {
        Some(e) => Err(e),
        None => flushed,
    }
}

/// Whether an error is standard output's reader going away (`racksmith analyze FILE | head`): not a failure of
/// the command, so it ends quietly.
fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Design GPU clusters rack by rack.
#[derive(Parser)]
#[command(name = "racksmith", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Open the app, render until the design is laid out and analysed, write a PNG of the window here and exit.
    #[arg(long, value_name = "PATH")]
    screenshot: Option<PathBuf>,
    /// Design file to open (default: the built-in sample).
    file: Option<PathBuf>,
    /// A parts file (such as the app's user-catalog.ron, see Catalog > Parts…) whose parts join the built-in ones,
    /// for `catalog`, `new`, `size` and `swap`.
    #[arg(long, global = true, value_name = "PATH")]
    catalog: Option<PathBuf>,
}

/// The built-in catalog with the parts of `--catalog`, when given, joined to it.
fn load_catalog(user: Option<&std::path::Path>) -> anyhow::Result<Catalog> {
    let builtin = Catalog::builtin()?;
    Ok(match user {
        Some(p) => {
            // The app treats a missing user catalog as empty (it has not been written yet); a file named on the
            // command line must exist.
            if std::fs::symlink_metadata(p).is_err() {
                anyhow::bail!("--catalog {}: no such file", p.display());
            }
            racksmith::catalog::user::merged(&builtin, &racksmith::catalog::user::load(p)?)
        }
        None => builtin,
    })
}

#[derive(Subcommand)]
enum Command {
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
    /// Export a design for review or for other tools: html, svg, png, bom-csv, cabling-csv, slurm, slurm-yaml,
    /// dot, json. Text formats go to standard output without -o (or with -o -).
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
        /// Traffic pattern whose routed load colours the fabric's links (default: the first routed pattern).
        #[arg(long)]
        pattern: Option<String>,
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
}

#[derive(Subcommand)]
enum CatalogAction {
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

/// The GPUs and replicas a service runs on, shared by `size serving` and `size budget`.
#[derive(clap::Args)]
struct ReplicaArgs {
    /// Planned utilisation of each replica, in (0, 1).
    #[arg(long, default_value_t = 0.7, allow_negative_numbers = true)]
    utilisation: f64,
    /// GPU model (racksmith new leaf-spine --help lists them).
    #[arg(long, default_value = "l40s")]
    gpu: String,
    /// Requests per second one replica sustains at full load (from your benchmark of the model).
    #[arg(long, allow_negative_numbers = true)]
    replica_rps: f64,
    /// GPUs per replica.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    gpus_per_replica: u32,
}

#[derive(Subcommand)]
enum SizeWhat {
    /// The smallest design that serves --requests-per-s under --p99-ms at --utilisation.
    Serving {
        /// Requests per second to serve.
        #[arg(long, allow_negative_numbers = true)]
        requests_per_s: f64,
        /// p99 latency target, milliseconds.
        #[arg(long, allow_negative_numbers = true)]
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

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum CompareFormat {
    Text,
    Json,
    Html,
    Csv,
}

fn export_format(name: &str) -> Result<export::Format, String> {
    export::Format::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = export::Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format \"{name}\"; one of: {}", names.join(", "))
    })
}

fn export_view(name: &str) -> Result<export::View, String> {
    export::View::from_name(name).ok_or_else(|| format!("unknown view \"{name}\"; racks or fabric"))
}

/// Writes bytes to a file atomically, or to standard output for None or "-".
fn write_out(output: Option<&std::path::Path>, bytes: &[u8], text: bool) -> anyhow::Result<()> {
    use std::io::Write as _;
    match output.filter(|p| p.as_os_str() != "-") {
        Some(path) => {
            io::write_atomic(path, bytes)?;
            eprintln!("wrote {} ({} bytes)", path.display(), bytes.len());
        }
        None => {
            if !text {
                anyhow::bail!("this format is binary: give a file with -o");
            }
            std::io::stdout().lock().write_all(bytes)?;
        }
    }
    Ok(())
}

/// The error and its causes, each said once: a cause whose text its parent already includes (an OS error inside
/// "cannot save FILE: ...") is not repeated.
fn error_chain(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// Exit status for unreadable or invalid input.
const EXIT_INVALID: u8 = 2;

#[cfg(target_arch = "wasm32")]
fn main() {
    racksmith::app::web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    let cli = Cli::parse();
    // Standard output is checked like a file: a full disk is an error (exit 2), a closed pipe ends quietly.
    let result = run(cli).and_then(|code| {
        stdout_result()
            .map_err(|e| anyhow::Error::new(e).context("cannot write to standard output"))?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        Err(e) if is_closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_chain(&e));
            ExitCode::from(EXIT_INVALID)
        }
    }
}

/// Runs one subcommand. One function on purpose: a `match` with an arm per subcommand, each arm a few calls into the
/// library, so the whole command line reads in one place (the work is in `racksmith::*`).
fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let user_catalog = cli.catalog;
    match cli.command {
        Some(Command::Analyze { file, format }) => {
            let design = io::load(&file)?;
            let report = analysis::analyze(&design);
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&report)?),
                Format::Text => out!("{}", report_text::render(&report)),
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Compare {
            a,
            b,
            format,
            output,
        }) => {
            let (da, db) = (io::load(&a)?, io::load(&b)?);
            let (ra, rb) = (analysis::analyze(&da), analysis::analyze(&db));
            let c = analysis::compare::compare(&ra, &rb);
            let text = match format {
                CompareFormat::Json => format!("{}\n", serde_json::to_string_pretty(&c)?),
                CompareFormat::Text => analysis::compare::render(&c),
                CompareFormat::Html => export::compare_html(
                    (&da, &ra),
                    (&db, &rb),
                    &export::Options {
                        date: Some(export::today()),
                        ..Default::default()
                    },
                )?,
                CompareFormat::Csv => export::compare_csv(&c)?,
            };
            write_out(output.as_deref(), text.as_bytes(), true)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Export {
            file,
            format,
            output,
            view,
            pattern,
        }) => {
            // Checked (a regular file within the size limit) before a byte is read, like every file a command reads.
            let bytes = io::read_checked(&file, io::MAX_FILE_BYTES, "a design file")?;
            let design = io::load(&file)?;
            let report = analysis::analyze(&design);
            let options = export::Options {
                view,
                pattern,
                date: Some(export::today()),
                source_hash: Some(export::short_hash(&bytes)),
            };
            if let Some(dir) = output
                .as_ref()
                .filter(|p| format.writes_folder() && p.as_os_str() != "-")
            {
                // Several files: -o names the folder, created when missing.
                let dir = dir.clone();
                let files = export::export_files(&design, &report, format, &options)
                    .with_context(|| format!("exporting {}", file.display()))?;
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("creating the folder {}", dir.display()))?;
                for (name, bytes) in files {
                    write_out(Some(&dir.join(name)), &bytes, true)?;
                }
                return Ok(ExitCode::SUCCESS);
            }
            let out = export::export(&design, &report, format, &options)
                .with_context(|| format!("exporting {}", file.display()))?;
            write_out(output.as_deref(), &out, format.is_text())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Whatif {
            file,
            remove,
            remove_link,
            lose_feed,
            lose_site,
            format,
        }) => {
            use analysis::whatif::{Failure, impact, n_minus_one};
            let design = io::load(&file)?;
            let before = analysis::analyze(&design);
            let failure = if let Some(name) = remove {
                let Some(id) = design.device_named(&name) else {
                    anyhow::bail!("{}: no device named \"{name}\"", file.display());
                };
                Some(Failure::Device(id))
            } else if let Some(n) = remove_link {
                let id = racksmith::model::LinkId(n);
                if !design.links.contains_key(&id) {
                    anyhow::bail!("{}: no link {n}", file.display());
                }
                Some(Failure::Link(id))
            } else if let Some(name) = lose_site {
                if !design.sites.contains_key(&name) {
                    let known: Vec<&str> = design.sites.keys().map(String::as_str).collect();
                    anyhow::bail!(
                        "{}: no site named \"{name}\" (sites: {})",
                        file.display(),
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    );
                }
                Some(Failure::Site(name))
            } else if let Some(name) = lose_feed {
                let Some((id, _)) = design.racks.iter().find(|(_, r)| r.name == name) else {
                    anyhow::bail!("{}: no rack named \"{name}\"", file.display());
                };
                Some(Failure::Feed(*id))
            } else {
                None
            };
            let impacts = match failure {
                Some(f) => vec![impact(&design, &before, f)],
                None if std::io::IsTerminal::is_terminal(&std::io::stderr()) => {
                    // Progress on the terminal only: redirected output stays clean.
                    let progress = |done: usize, total: usize| {
                        eprint!("\rN-1 sweep: {done}/{total} candidates analysed");
                        true
                    };
                    let impacts = analysis::whatif::sweep_with(&design, &before, &progress)
                        .unwrap_or_default();
                    eprintln!();
                    impacts
                }
                None => n_minus_one(&design, &before),
            };
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&impacts)?),
                Format::Text => {
                    if impacts.is_empty() {
                        outln!("No single switch or link cuts GPUs or storage off.");
                    }
                    for i in &impacts {
                        outln!("{}", i.summary());
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::New {
            template,
            list,
            output,
            options,
        }) => new_design(template, list, output, &options, user_catalog.as_deref()),
        Some(Command::Size { what }) => size(what, user_catalog.as_deref()),
        Some(Command::Scenario {
            name,
            list,
            output,
            inputs,
        }) => scenario(name, list, output, &inputs, user_catalog.as_deref()),
        Some(Command::Swap {
            file,
            from,
            to,
            output,
        }) => {
            let mut design = io::load(&file)?;
            let catalog = load_catalog(user_catalog.as_deref())?;
            let swap = racksmith::edit::swap::plan(&design, &catalog, &from, &to)
                .with_context(|| format!("{}: swapping {from} for {to}", file.display()))?;
            for r in &swap.rehomed {
                eprintln!("re-homed {r}");
            }
            if !swap.rehomed.is_empty() {
                eprintln!(
                    "{} cables moved to free ports of {to}; none removed",
                    swap.rehomed.len()
                );
            }
            swap.edit.apply(&mut design)?;
            write_out(
                output.as_deref(),
                io::design_to_string(&design)?.as_bytes(),
                true,
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Validate { file }) => {
            let design = io::load(&file)?;
            outln!(
                "{}: valid ({} racks, {} devices, {} GPUs, {} links)",
                file.display(),
                design.racks.len(),
                design.devices.len(),
                design.gpu_count(),
                design.links.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Catalog {
            action:
                Some(CatalogAction::ImportNetbox {
                    files,
                    output,
                    kind,
                }),
            ..
        }) => {
            use racksmith::catalog::netbox::{ImportError, import_files};
            if files.is_empty() {
                anyhow::bail!("catalog import-netbox: give one or more device type files (.yaml)");
            }
            let builtin = Catalog::builtin()?;
            let paths: Vec<&std::path::Path> = files.iter().map(PathBuf::as_path).collect();
            let batch = import_files(&paths, &builtin, kind);
            let mut imported = Catalog::default();
            let mut clean = 0;
            for i in &batch.imported {
                if i.warnings.is_empty() {
                    clean += 1;
                    eprintln!(
                        "imported {} as {} ({})",
                        i.file,
                        i.id,
                        i.part.kind.category().label()
                    );
                } else {
                    eprintln!(
                        "imported {} as {} ({}) with {} warning(s):",
                        i.file,
                        i.id,
                        i.part.kind.category().label(),
                        i.warnings.len()
                    );
                    for w in &i.warnings {
                        eprintln!("  warning: {w}");
                    }
                }
                imported
                    .parts
                    .insert(racksmith::model::PartId::new(&i.id), i.part.clone());
            }
            for e in &batch.refused {
                match e {
                    ImportError::UnclearKind { .. } => {
                        eprintln!("refused {e} (--kind server, switch or storage)")
                    }
                    _ => eprintln!("refused {e}"),
                }
            }
            eprintln!(
                "{} file(s): {clean} imported, {} imported with warnings, {} refused",
                files.len(),
                batch.imported.len() - clean,
                batch.refused.len()
            );
            if !batch.imported.is_empty() {
                let text = racksmith::catalog::user::to_string(&imported)?;
                write_out(output.as_deref(), text.as_bytes(), true)?;
            }
            Ok(if batch.refused.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_INVALID)
            })
        }
        Some(Command::Catalog { format, .. }) => {
            let catalog = load_catalog(user_catalog.as_deref())?;
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&catalog)?),
                Format::Text => out!("{}", report_text::catalog(&catalog)),
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Sample { name, output }) => {
            let Some(name) = name else {
                for s in samples::SAMPLES {
                    outln!("{s}");
                }
                return Ok(ExitCode::SUCCESS);
            };
            let design = samples::sample(&name)?;
            let text = io::design_to_string(&design)?;
            match output {
                Some(path) => io::write_atomic(&path, text.as_bytes())
                    .with_context(|| format!("writing {}", path.display()))?,
                None => out!("{text}"),
            }
            Ok(ExitCode::SUCCESS)
        }
        None => open_app(cli.file, cli.screenshot),
    }
}

/// `racksmith size`: the smallest design that meets a requirement, with why that size.
fn size(what: SizeWhat, user_catalog: Option<&std::path::Path>) -> anyhow::Result<ExitCode> {
    use racksmith::templates::sizing;
    let catalog = load_catalog(user_catalog)?;
    let (results, output) = match what {
        SizeWhat::Serving {
            requests_per_s,
            p99_ms,
            replicas: r,
            output,
        } => {
            let need = sizing::ServingNeed {
                requests_per_s,
                p99_ms,
                utilisation: r.utilisation,
                gpu: r.gpu,
                replica_rps: r.replica_rps,
                gpus_per_replica: r.gpus_per_replica,
            };
            (vec![sizing::serving(&catalog, &need)?], output)
        }
        SizeWhat::Budget {
            usd_per_year,
            replicas: r,
            output,
        } => {
            let need = sizing::BudgetNeed {
                usd_per_year,
                gpu: r.gpu,
                replica_rps: r.replica_rps,
                gpus_per_replica: r.gpus_per_replica,
                utilisation: r.utilisation,
            };
            let (options, owned) = sizing::budget(&catalog, &need)?;
            outln!("${usd_per_year:.0} a year buys ({} GPUs):", need.gpu);
            for o in &options {
                outln!(
                    "  {:<26} {:>6} GPUs  {:>9.1} req/s  ${:.0}/yr{}",
                    o.option,
                    o.gpus,
                    o.requests_per_s,
                    o.usd_per_year,
                    o.usd_per_million_requests
                        .map_or(String::new(), |c| format!("  ${c:.2} per 1M requests"))
                );
            }
            if owned.is_none() {
                outln!("  (one owned server costs more than the budget per year)");
            }
            (owned.into_iter().collect(), output)
        }
        SizeWhat::Training {
            params,
            tokens,
            days,
            gpu,
            mfu,
            tp,
            pp,
            output,
        } => {
            if output.is_some() && gpu.len() > 1 {
                anyhow::bail!("-o writes one design: give one --gpu, or compare without -o");
            }
            let mut out = Vec::new();
            for g in gpu {
                let need = sizing::TrainingNeed {
                    parameters: params,
                    tokens,
                    days,
                    gpu: g,
                    mfu,
                };
                let mut sized = sizing::training(&catalog, &need)?;
                if let Some(t) = sized.design.params.training.as_mut() {
                    t.tensor_parallel = tp.unwrap_or(t.tensor_parallel);
                    t.pipeline_parallel = pp.unwrap_or(t.pipeline_parallel);
                }
                // The parallel layout the job runs with, and why (docs/analysis.md, "Training jobs").
                if let Some(p) = racksmith::analysis::analyze(&sized.design)
                    .latency
                    .training
                    .and_then(|t| t.parallelism)
                {
                    sized.why.push((
                        "parallelism".into(),
                        format!(
                            "TP {} x PP {} x DP {} ({})",
                            p.tensor, p.pipeline, p.data, p.why
                        ),
                    ));
                }
                out.push(sized);
            }
            (out, output)
        }
    };
    for s in &results {
        outln!("{}", s.design.name);
        outln!(
            "  {} servers, {} GPUs ({}), {} racks, {:.1} kW IT, capex ${:.0}, TCO ${:.0}, ${:.2}/GPU-h owned",
            s.servers,
            s.gpus,
            s.gpu,
            s.racks,
            s.it_kw,
            s.capex_usd,
            s.tco_usd,
            s.usd_per_gpu_hour
        );
        let tiers: Vec<String> = s
            .switches_by_tier
            .iter()
            .map(|(t, n)| format!("{n} {t}"))
            .collect();
        outln!(
            "  switches: {}; size set by: {}",
            if tiers.is_empty() {
                "none".to_string()
            } else {
                tiers.join(", ")
            },
            s.limit
        );
        for (k, v) in &s.why {
            outln!("  {k}: {v}");
        }
    }
    if let (Some(path), [one]) = (output, results.as_slice()) {
        io::write_atomic(&path, io::design_to_string(&one.design)?.as_bytes())?;
        eprintln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `racksmith scenario`: a planning question answered with its derivation.
fn scenario(
    name: Option<String>,
    list: bool,
    output: Option<PathBuf>,
    inputs: &[String],
    user_catalog: Option<&std::path::Path>,
) -> anyhow::Result<ExitCode> {
    use racksmith::templates::scenarios;
    let Some(name) = name.filter(|n| !list && n != "--help" && n != "-h") else {
        outln!("Planning questions (racksmith scenario NAME [--input value ...] [-o FILE]):\n");
        for s in scenarios::list() {
            outln!("{}: {}", s.name, s.question);
            for i in s.inputs {
                outln!(
                    "  --{:<22} {} ({} to {}, default {})",
                    i.name,
                    i.label,
                    i.min,
                    i.max,
                    i.default
                );
            }
        }
        return Ok(ExitCode::SUCCESS);
    };
    let mut output = output;
    let pairs = key_values(inputs, "an input such as --mfu", &mut output)?;
    let mut given = Vec::new();
    for (k, v) in pairs {
        let Ok(v) = v.parse::<f64>() else {
            anyhow::bail!("--{k} {v}: a number");
        };
        given.push((k, v));
    }
    let catalog = load_catalog(user_catalog)?;
    let a = scenarios::answer(&catalog, &name, &given)?;
    if let Some(s) = scenarios::find(&name) {
        outln!("{}", s.question);
    }
    outln!("{}", a.headline);
    for (k, v) in &a.derivation {
        outln!("  {k}: {v}");
    }
    if let Some(path) = output {
        io::write_atomic(&path, io::design_to_string(&a.design)?.as_bytes())?;
        eprintln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The `--key value` (or `--key=value`) pairs of a command that takes named inputs, in order, and `-o FILE` /
/// `--output FILE` among them, which sets `output`; `example` names what was expected in the error for a stray word.
fn key_values(
    args: &[String],
    example: &str,
    output: &mut Option<PathBuf>,
) -> anyhow::Result<Vec<(String, String)>> {
    let mut pairs = Vec::new();
    let mut it = args.iter();
    while let Some(key) = it.next() {
        if key == "-o" || key == "--output" {
            *output = it.next().map(PathBuf::from);
            continue;
        }
        let Some(k) = key.strip_prefix("--") else {
            anyhow::bail!("expected {example}, found \"{key}\"");
        };
        let (k, v) = match k.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => {
                let Some(v) = it.next() else {
                    anyhow::bail!("--{k} needs a value");
                };
                (k.to_string(), v.clone())
            }
        };
        pairs.push((k, v));
    }
    Ok(pairs)
}

/// `racksmith new`: a design from a template, with a summary of what it holds on standard error.
fn new_design(
    template: Option<String>,
    list: bool,
    output: Option<PathBuf>,
    options: &[String],
    user_catalog: Option<&std::path::Path>,
) -> anyhow::Result<ExitCode> {
    use racksmith::templates;
    let wants_help = options.iter().any(|o| o == "--help" || o == "-h");
    let Some(name) = template.filter(|t| !list && t != "--help" && t != "-h") else {
        outln!("Templates (racksmith new TEMPLATE [--option value ...] -o FILE):\n");
        for t in templates::list() {
            outln!("{}", templates::help(t));
        }
        return Ok(ExitCode::SUCCESS);
    };
    if wants_help {
        let Some(t) = templates::list().iter().find(|t| t.name == name) else {
            anyhow::bail!("no template \"{name}\"; racksmith new --list shows them");
        };
        out!("{}", templates::help(t));
        return Ok(ExitCode::SUCCESS);
    }
    let mut output = output;
    let pairs = key_values(options, "an option such as --su", &mut output)?;
    let catalog = load_catalog(user_catalog)?;
    let design = templates::generate(&catalog, &name, &pairs)?;
    let report = analysis::analyze(&design);
    let p = templates::preview(&design, &report);
    let tiers: Vec<String> = p
        .switches_by_tier
        .iter()
        .map(|(t, n)| format!("{n} {t}"))
        .collect();
    eprintln!(
        "{}: {} GPUs in {} servers, {} racks, switches: {}, {} cables, {:.1} kW IT, capex ${:.0}",
        design.name,
        p.gpus,
        p.servers,
        p.racks,
        if tiers.is_empty() {
            "none".to_string()
        } else {
            tiers.join(", ")
        },
        design.links.len(),
        p.it_kw,
        p.capex_usd
    );
    let text = io::design_to_string(&design)?;
    write_out(output.as_deref(), text.as_bytes(), true)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(all(feature = "gui", not(target_arch = "wasm32")))]
fn open_app(file: Option<PathBuf>, screenshot: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    racksmith::app::run(file, screenshot)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(any(not(feature = "gui"), target_arch = "wasm32"))]
fn open_app(file: Option<PathBuf>, _screenshot: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    // Built without the GUI: show the analysis of the design in the terminal instead.
    let design = match file {
        Some(f) => io::load(&f)?,
        None => samples::default_design(),
    };
    out!("{}", report_text::render(&analysis::analyze(&design)));
    Ok(ExitCode::SUCCESS)
}
