//! Racksmith entry point: with no subcommand, the desktop app; subcommands run headless. In the web build
//! (wasm32, `assets/web/build.sh`) it starts the app on the page instead.
//!
//! This file is `main` and `run`, which dispatches each subcommand; the rest of the command line is in [`cli`]: its
//! definition and help text (`cli/args.rs`), what it writes and how it fails (`cli/output.rs`), and the commands
//! that generate a design, `new`, `size` and `scenario` (`cli/generate.rs`).

// The web build has no command line: everything below `main` is the desktop's.
#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

mod cli;

use anyhow::Context as _;
use clap::Parser as _;
use cli::args::{CatalogAction, Cli, Command, CompareFormat, Format};
use cli::generate::{new_design, scenario, size};
use cli::output::{
    EXIT_INVALID, error_chain, is_closed_pipe, out, outln, stdout_result, write_out,
};
use cli::{load_catalog, open_app};
use racksmith::{analysis, catalog::Catalog, export, io, samples};
use std::path::PathBuf;
use std::process::ExitCode;

use racksmith::analysis::text as report_text;

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
            let report = analysis::analyze_ranked(&design);
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&report)?),
                Format::Text => out!("{}", report_text::render(&report)),
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::DiffFabric {
            design,
            source,
            format,
            output,
        }) => cli::fabric::diff_fabric(
            &design,
            &cli::fabric::Source::of(source.ibnetdiscover, source.lldp, source.netbox_cables)?,
            source.map.as_deref(),
            format,
            output.as_deref(),
        ),
        Some(Command::ImportFabric { source, output }) => cli::fabric::import_fabric(
            &load_catalog(user_catalog.as_deref())?,
            &cli::fabric::Source::of(source.ibnetdiscover, source.lldp, source.netbox_cables)?,
            source.map.as_deref(),
            output.as_deref(),
        ),
        Some(Command::Compare {
            a,
            b,
            format,
            output,
        }) => {
            let (da, db) = (io::load(&a)?, io::load(&b)?);
            let (ra, rb) = (analysis::analyze(&da), analysis::analyze(&db));
            let mut c = analysis::compare::compare((&da, &ra), (&db, &rb));
            let file_name =
                |p: &std::path::Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
            (c.a_file, c.b_file) = (file_name(&a), file_name(&b));
            let text = match format {
                CompareFormat::Json => format!("{}\n", serde_json::to_string_pretty(&c)?),
                CompareFormat::Text => analysis::compare::render(&c),
                CompareFormat::Html => export::compare_html(
                    (&da, &ra),
                    (&db, &rb),
                    &c,
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
            let report = analysis::analyze_ranked(&design);
            let options = export::Options {
                view,
                pattern: pattern.map(Into::into),
                date: Some(export::today()),
                source_hash: Some(export::short_hash(&bytes)),
                unsaved: false,
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
            use analysis::whatif::{Failure, impact};
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
                None => {
                    // Progress on the terminal only: redirected output stays clean.
                    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
                    let progress = |done: usize, total: usize| {
                        if terminal {
                            eprint!("\rN-1 sweep: {done}/{total} of the worst analysed in full");
                        }
                        true
                    };
                    let sweep = analysis::whatif::sweep_counted(&design, &before, &progress)
                        .unwrap_or_default();
                    if terminal {
                        eprintln!();
                    }
                    if sweep.analysed < sweep.classes {
                        eprintln!(
                            "note: the N-1 sweep ranked {} classes of single failures in one pass and analysed the \
                             worst {} in full; the others keep their one-pass estimate, marked \"(estimated)\": each \
                             full analysis costs a whole analysis of the design, and the sweep's budget is {} devices \
                             and links analysed, at most {} classes (docs/limits.md); use --remove or --remove-link \
                             for any other part",
                            sweep.classes,
                            sweep.analysed,
                            analysis::whatif::SWEEP_BUDGET,
                            analysis::whatif::SWEEP_LIMIT
                        );
                    }
                    sweep.impacts
                }
            };
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&impacts)?),
                Format::Text => {
                    if impacts.is_empty() {
                        outln!(
                            "No single switch, cable, storage appliance or rack feed loses GPUs, storage, replicas or \
                             bandwidth."
                        );
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
            help,
            output,
            options,
        }) => new_design(
            template,
            list,
            help,
            output,
            &options,
            user_catalog.as_deref(),
        ),
        Some(Command::Size { what }) => size(what, user_catalog.as_deref()),
        Some(Command::Scenario {
            name,
            list,
            help,
            output,
            inputs,
        }) => scenario(name, list || help, output, &inputs, user_catalog.as_deref()),
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
                io::design_to_loadable_string(&design)?.as_bytes(),
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
        Some(Command::GenerateAssets { dir }) => {
            cli::assets::generate_assets(&dir)?;
            Ok(ExitCode::SUCCESS)
        }
        None => open_app(cli.file, cli.screenshot),
    }
}
