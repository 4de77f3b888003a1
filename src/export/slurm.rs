//! Slurm topology files from the drawn fabric: `topology.conf` for the tree plugin and `topology.yaml` with a tree
//! and a block topology (Slurm 25.05 and later; see docs/exports.md).
//!
//! Grouping rule: Slurm's tree plugin wants each node under exactly one lowest-level switch. In a rail-optimised
//! unit every server touches every rail leaf, so the leaves that share servers (through compute NICs) are joined
//! into one *leaf group* (petgraph's union-find), which becomes one lowest-level switch: in a SuperPOD that is one
//! group per scalable unit. Higher tiers list the groups (or switches) they are cabled to. Storage fabrics are left
//! out (only cables on compute NICs count). GPU servers with no compute cable are listed under an `unconnected`
//! switch so that each appears exactly once; Slurm will not place a job across them and the rest.

use crate::model::{Design, DeviceId};
use crate::topology::{NodeKind, Topology};
use petgraph::unionfind::UnionFind;
use petgraph::visit::EdgeRef;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::hostlist::compress;

/// One switch line of the tree: its name and its children (nodes or switches), and what it stands for.
#[derive(Debug, Clone)]
pub struct TreeSwitch {
    /// Switch name as Slurm sees it.
    pub name: String,
    /// Child node names (lowest level only).
    pub nodes: Vec<String>,
    /// Child switch names.
    pub switches: Vec<String>,
    /// Real switches this line stands for (a leaf group lists its leaves).
    pub stands_for: Vec<String>,
}

/// The scheduler's view: tree switches from the lowest level up, and blocks (leaf groups).
#[derive(Debug, Clone, Default)]
pub struct SlurmTopology {
    /// Switch lines, lowest level first.
    pub switches: Vec<TreeSwitch>,
    /// Blocks for the block plugin: one per leaf group, with its nodes.
    pub blocks: Vec<(String, Vec<String>)>,
}

fn dev_name(design: &Design, id: DeviceId) -> String {
    design
        .devices
        .get(&id)
        .map_or_else(|| id.to_string(), |d| d.name.clone())
}

/// Builds the tree and blocks of a design.
pub fn build(design: &Design) -> SlurmTopology {
    let topo = Topology::build(design);
    let g = &topo.graph;
    // Leaves: switches cabled to a GPU server's compute NIC.
    let mut server_leaves: BTreeMap<DeviceId, BTreeSet<usize>> = BTreeMap::new();
    let mut servers: Vec<DeviceId> = Vec::new();
    for idx in g.node_indices() {
        let Some(node) = g.node_weight(idx) else {
            continue;
        };
        if node.kind != NodeKind::GpuServer {
            continue;
        }
        servers.push(node.device);
        let leaves = server_leaves.entry(node.device).or_default();
        for e in g.edges(idx) {
            let other = if e.source() == idx {
                e.target()
            } else {
                e.source()
            };
            if e.weight().compute_gbps > 0.0
                && g.node_weight(other).map(|n| n.kind) == Some(NodeKind::Switch)
            {
                leaves.insert(other.index());
            }
        }
    }
    let mut uf = UnionFind::<usize>::new(g.node_count());
    for leaves in server_leaves.values() {
        let mut it = leaves.iter();
        if let Some(&first) = it.next() {
            for &l in it {
                uf.union(first, l);
            }
        }
    }
    // Groups keyed by their union-find root, each with its leaves and servers.
    let mut groups: BTreeMap<usize, (BTreeSet<usize>, Vec<DeviceId>)> = BTreeMap::new();
    let mut unconnected = Vec::new();
    for s in &servers {
        match server_leaves.get(s).and_then(|l| l.iter().next()) {
            Some(&leaf) => {
                let e = groups.entry(uf.find(leaf)).or_default();
                e.1.push(*s);
                if let Some(all) = server_leaves.get(s) {
                    e.0.extend(all.iter().copied());
                }
            }
            None => unconnected.push(*s),
        }
    }
    let name_of = |i: usize| {
        g.node_weight(petgraph::graph::NodeIndex::new(i))
            .map_or_else(|| format!("switch{i}"), |n| dev_name(design, n.device))
    };
    // Order groups by their first server's name.
    let mut ordered: Vec<(BTreeSet<usize>, Vec<String>)> = groups
        .into_values()
        .map(|(leaves, devs)| {
            let mut names: Vec<String> = devs.iter().map(|d| dev_name(design, *d)).collect();
            names.sort();
            (leaves, names)
        })
        .collect();
    ordered.sort_by(|a, b| a.1.first().cmp(&b.1.first()));
    let mut out = SlurmTopology::default();
    // Which lowest-level line each leaf switch belongs to.
    let mut line_of_leaf: BTreeMap<usize, String> = BTreeMap::new();
    let width = ordered.len().to_string().len().max(2);
    for (k, (leaves, nodes)) in ordered.iter().enumerate() {
        let leaf_names: Vec<String> = leaves.iter().map(|l| name_of(*l)).collect();
        let name = if leaves.len() == 1 {
            leaf_names.first().cloned().unwrap_or_default()
        } else {
            format!("leafgroup{:0width$}", k + 1)
        };
        for l in leaves {
            line_of_leaf.insert(*l, name.clone());
        }
        out.blocks
            .push((format!("block{:0width$}", k + 1), nodes.clone()));
        out.switches.push(TreeSwitch {
            name,
            nodes: nodes.clone(),
            switches: Vec::new(),
            stands_for: leaf_names,
        });
    }
    if !unconnected.is_empty() {
        let mut names: Vec<String> = unconnected.iter().map(|d| dev_name(design, *d)).collect();
        names.sort();
        out.switches.push(TreeSwitch {
            name: "unconnected".into(),
            nodes: names,
            switches: Vec::new(),
            stands_for: Vec::new(),
        });
    }
    // Higher tiers: each switch above the leaves lists the lines below it that it is cabled to.
    let mut below: BTreeMap<usize, String> = line_of_leaf;
    let max_tier = topo.max_tier();
    for tier in 2..=max_tier.max(1) {
        let mut this_tier: BTreeMap<usize, String> = BTreeMap::new();
        let mut lines: Vec<TreeSwitch> = Vec::new();
        for idx in g.node_indices() {
            let Some(node) = g.node_weight(idx) else {
                continue;
            };
            if node.kind != NodeKind::Switch || topo.tier(node.device) != Some(tier) {
                continue;
            }
            let mut children: BTreeSet<String> = BTreeSet::new();
            for nb in g.neighbors(idx) {
                if let Some(line) = below.get(&nb.index()) {
                    children.insert(line.clone());
                }
            }
            if children.is_empty() {
                continue;
            }
            let name = dev_name(design, node.device);
            this_tier.insert(idx.index(), name.clone());
            lines.push(TreeSwitch {
                name: name.clone(),
                nodes: Vec::new(),
                switches: children.into_iter().collect(),
                stands_for: vec![name],
            });
        }
        lines.sort_by(|a, b| a.name.cmp(&b.name));
        out.switches.extend(lines);
        // Leaves of the tier below keep their line; this tier's switches are now the ones to find.
        below = this_tier;
    }
    out
}

/// Checks every name the files will carry with the Slurm name rule ([`super::escape::slurm_name`]) and that no two
/// switch lines share a name (a device named like a generated leaf group), so no name can add a record, a key or a
/// host: the export is refused with the device's name instead.
fn check_names(t: &SlurmTopology, format: &'static str) -> Result<(), super::ExportError> {
    let refuse = |what: &str, why: String| super::ExportError::Write {
        format,
        message: format!("{what} {why}; rename it in the design to export for Slurm"),
    };
    let mut seen = BTreeSet::new();
    for sw in &t.switches {
        super::escape::slurm_name(&sw.name).map_err(|why| refuse("switch", why))?;
        if !seen.insert(sw.name.as_str()) {
            return Err(refuse(
                "switch",
                format!(
                    "name \"{}\" is used twice",
                    super::escape::terminal(&sw.name)
                ),
            ));
        }
        for n in &sw.nodes {
            super::escape::slurm_name(n).map_err(|why| refuse("GPU server", why))?;
        }
        for n in &sw.stands_for {
            super::escape::slurm_name(n).map_err(|why| refuse("switch", why))?;
        }
    }
    Ok(())
}

/// `topology.conf` for the tree plugin. Refused when a name is not one Slurm can take ([`check_names`]).
pub fn topology_conf(design: &Design) -> Result<String, super::ExportError> {
    let t = build(design);
    check_names(&t, "slurm")?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Slurm topology.conf (TopologyPlugin=topology/tree) for \"{}\", written by Racksmith {}.",
        super::escape::comment_line(&design.name),
        env!("CARGO_PKG_VERSION")
    );
    let _ = writeln!(
        s,
        "# Leaves that share servers (rail-optimised units) are one leaf group: each GPU server appears once, under its group."
    );
    for sw in &t.switches {
        if sw.stands_for.len() > 1 {
            let refs: Vec<&str> = sw.stands_for.iter().map(String::as_str).collect();
            let _ = writeln!(s, "# {} = leaves {}", sw.name, compress(&refs));
        }
        if sw.name == "unconnected" {
            let _ = writeln!(s, "# GPU servers with no cable on a compute NIC:");
        }
        let _ = write!(s, "SwitchName={}", sw.name);
        if !sw.nodes.is_empty() {
            let refs: Vec<&str> = sw.nodes.iter().map(String::as_str).collect();
            let _ = write!(s, " Nodes={}", compress(&refs));
        }
        if !sw.switches.is_empty() {
            let refs: Vec<&str> = sw.switches.iter().map(String::as_str).collect();
            let _ = write!(s, " Switches={}", compress(&refs));
        }
        s.push('\n');
    }
    Ok(s)
}

#[derive(Serialize)]
struct YamlSwitch {
    switch: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    children: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<String>,
}

#[derive(Serialize)]
struct YamlBlock {
    block: String,
    nodes: String,
}

#[derive(Serialize)]
struct YamlTree {
    switches: Vec<YamlSwitch>,
}

#[derive(Serialize)]
struct YamlBlocks {
    block_sizes: Vec<usize>,
    blocks: Vec<YamlBlock>,
}

#[derive(Serialize)]
struct YamlTopology {
    topology: String,
    cluster_default: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    tree: Option<YamlTree>,
    #[serde(skip_serializing_if = "Option::is_none")]
    block: Option<YamlBlocks>,
}

/// `topology.yaml`: the tree (cluster default) and a block topology whose blocks are the leaf groups (scalable
/// units). The base block size is the largest power of two no larger than the smallest block, as the block plugin
/// requires block sizes to be powers of two apart.
pub fn topology_yaml(design: &Design) -> Result<String, super::ExportError> {
    let t = build(design);
    check_names(&t, "slurm-yaml")?;
    let list = |v: &[String]| {
        let refs: Vec<&str> = v.iter().map(String::as_str).collect();
        compress(&refs)
    };
    let switches = t
        .switches
        .iter()
        .map(|sw| YamlSwitch {
            switch: sw.name.clone(),
            children: (!sw.switches.is_empty()).then(|| list(&sw.switches)),
            nodes: (!sw.nodes.is_empty()).then(|| list(&sw.nodes)),
        })
        .collect();
    let smallest = t.blocks.iter().map(|(_, n)| n.len()).min().unwrap_or(0);
    let base = if smallest == 0 {
        0
    } else {
        1usize << (usize::BITS - 1 - smallest.leading_zeros())
    };
    let mut topologies = vec![YamlTopology {
        topology: "tree".into(),
        cluster_default: true,
        tree: Some(YamlTree { switches }),
        block: None,
    }];
    if base > 0 {
        topologies.push(YamlTopology {
            topology: "block".into(),
            cluster_default: false,
            tree: None,
            block: Some(YamlBlocks {
                block_sizes: vec![base],
                blocks: t
                    .blocks
                    .iter()
                    .map(|(name, nodes)| YamlBlock {
                        block: name.clone(),
                        nodes: list(nodes),
                    })
                    .collect(),
            }),
        });
    }
    let body = serde_norway::to_string(&topologies).map_err(|e| super::ExportError::Write {
        format: "slurm-yaml",
        message: e.to_string(),
    })?;
    Ok(format!(
        "# Slurm topology.yaml for \"{}\", written by Racksmith {}. Blocks are leaf groups (scalable units).\n{body}",
        super::escape::comment_line(&design.name),
        env!("CARGO_PKG_VERSION")
    ))
}
