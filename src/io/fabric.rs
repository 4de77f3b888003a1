//! A fabric as its own discovery tools report it: the text `ibnetdiscover` writes (infiniband-diags, rdma-core;
//! `man ibnetdiscover`). Records are blocks of `vendid=`/`devid=`/`...guid=` lines, a node line (`Switch` or `Ca`,
//! its port count, its quoted GUID name and `# "description"`), and one line per connected port:
//!
//! ```text
//! Switch  36 "S-0002c90300000100"   # "leaf-01" enhanced port 0 lid 1 lmc 0
//! [1]     "H-0002c90300000202"[1](2c90300000203)   # "dgx-01 mlx5_0" lid 2 4xNDR
//! Ca      1 "H-0002c90300000202"    # "dgx-01 mlx5_0"
//! [1](2c90300000203)  "S-0002c90300000100"[1]   # lid 2 lmc 0 "leaf-01" lid 1 4xNDR
//! ```
//!
//! Each cable appears from both ends; the reader keeps it once. Reading is one pass over the lines, with an error
//! naming the line for a node or port line it cannot read; time and memory follow the file's size.

use std::collections::BTreeMap;
use std::path::Path;

/// A node the fabric reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Its GUID, as the quoted name carries it (`S-0002c9...` or `H-0002c9...`).
    pub guid: String,
    /// A switch (true) or a channel adapter (an HCA: a server's or storage's NIC).
    pub switch: bool,
    /// Its node description: a switch's name (managed NVIDIA switches write `MF0;NAME:MODEL/U1`), an HCA's host
    /// and device (`dgx-01 mlx5_0`).
    pub description: String,
    /// The line of its node record, 1-based.
    pub line: usize,
}

/// One end of a cable: a node's GUID and its port number.
pub type End = (String, u16);

/// A cable the fabric reports, with its ends in order (the lower first) and the rate it trained at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cable {
    /// One end.
    pub a: End,
    /// The other end.
    pub b: End,
    /// Lanes (the `4` of `4xNDR`).
    pub width: u8,
    /// Speed per lane by name: `SDR`, `DDR`, `QDR`, `FDR`, `EDR`, `HDR`, `NDR`, `XDR`.
    pub speed: String,
    /// The line it was read from, 1-based.
    pub line: usize,
}

/// A discovered fabric: its nodes by GUID and its cables.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    /// Nodes by GUID.
    pub nodes: BTreeMap<String, Node>,
    /// Cables, each once.
    pub cables: Vec<Cable>,
}

/// Why a discovery file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{file}, line {line}: {why}")]
pub struct FabricError {
    /// The file.
    pub file: String,
    /// The line, 1-based.
    pub line: usize,
    /// What is wrong, with what was expected.
    pub why: String,
}

/// The speeds InfiniBand links train at, slowest first (IBTA: SDR 2.5, DDR 5, QDR 10, FDR 14, EDR 25, HDR 50,
/// NDR 100, XDR 200 Gb/s per lane).
pub const SPEEDS: [&str; 8] = ["SDR", "DDR", "QDR", "FDR", "EDR", "HDR", "NDR", "XDR"];

/// The lines of a record before its node line.
const HEADERS: [&str; 6] = [
    "vendid=",
    "devid=",
    "sysimgguid=",
    "switchguid=",
    "caguid=",
    "routerguid=",
];

/// Reads the text `ibnetdiscover` writes; `file` names it in errors.
pub fn read_ibnetdiscover(text: &str, file: &Path) -> Result<Discovered, FabricError> {
    let err = |line: usize, why: String| FabricError {
        file: file.display().to_string(),
        line,
        why,
    };
    let mut out = Discovered::default();
    let mut seen: std::collections::HashSet<(End, End)> = Default::default();
    let mut current: Option<String> = None;
    let mut in_router = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            current = None;
            in_router = false;
            continue;
        }
        if line.starts_with('#') || HEADERS.iter().any(|h| line.starts_with(h)) {
            continue;
        }
        if let Some(rest) = line
            .strip_prefix("Switch")
            .map(|r| (true, r))
            .or_else(|| line.strip_prefix("Ca").map(|r| (false, r)))
        {
            let (switch, rest) = rest;
            let (guid, after) = quoted(
                rest.trim_start()
                    .trim_start_matches(|c: char| c.is_ascii_digit()),
            )
            .ok_or_else(|| {
                err(
                    n,
                    "a node line needs its quoted GUID name: Switch 36 \"S-...\" # \"name\"".into(),
                )
            })?;
            let description = after
                .split_once('#')
                .and_then(|(_, c)| quoted(c).map(|(d, _)| d.to_string()))
                .unwrap_or_default();
            current = Some(guid.to_string());
            in_router = false;
            out.nodes.insert(
                guid.to_string(),
                Node {
                    guid: guid.to_string(),
                    switch,
                    description,
                    line: n,
                },
            );
            continue;
        }
        if line.starts_with("Rt") {
            // A router's record: not part of a GPU fabric's design; its port lines are skipped with it.
            current = None;
            in_router = true;
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            if in_router {
                continue;
            }
            let Some(from) = current.clone() else {
                return Err(err(n, "a port line outside a Switch or Ca record".into()));
            };
            let (port, rest) =
                port_number(rest).ok_or_else(|| err(n, "a port line starts with [PORT]".into()))?;
            // An HCA's own port GUID may follow: [1](2c9...).
            let rest = skip_parens(rest);
            let (to, rest) = quoted(rest.trim_start()).ok_or_else(|| {
                err(
                    n,
                    "a port line names the node it reaches, quoted: \"S-...\"[PORT]".into(),
                )
            })?;
            let rest = rest.trim_start();
            let (to_port, rest) =
                rest.strip_prefix('[')
                    .and_then(port_number)
                    .ok_or_else(|| {
                        err(
                            n,
                            "the node a port reaches is followed by its port: \"S-...\"[PORT]"
                                .into(),
                        )
                    })?;
            let comment = rest.split_once('#').map_or("", |(_, c)| c);
            let (width, speed) = comment
                .split_whitespace()
                .rev()
                .find_map(rate)
                .ok_or_else(|| err(n, "a port line ends with its rate, such as 4xNDR".into()))?;
            let (a, b) = order((from, port), (to.to_string(), to_port));
            if seen.insert((a.clone(), b.clone())) {
                out.cables.push(Cable {
                    a,
                    b,
                    width,
                    speed,
                    line: n,
                });
            }
            continue;
        }
        return Err(err(
            n,
            format!(
                "not a line ibnetdiscover writes: {:?}",
                line.chars().take(60).collect::<String>()
            ),
        ));
    }
    Ok(out)
}

/// The text between the first two double quotes, and what follows it.
fn quoted(s: &str) -> Option<(&str, &str)> {
    let start = s.find('"')? + 1;
    let len = s[start..].find('"')?;
    Some((&s[start..start + len], &s[start + len + 1..]))
}

/// `12]...` -> (12, "...").
fn port_number(s: &str) -> Option<(u16, &str)> {
    let (num, rest) = s.split_once(']')?;
    Some((num.trim().parse().ok()?, rest))
}

/// Skips a `(...)` right at the start.
fn skip_parens(s: &str) -> &str {
    match s.strip_prefix('(').and_then(|r| r.split_once(')')) {
        Some((_, rest)) => rest,
        None => s,
    }
}

/// `4xNDR` -> (4, "NDR").
fn rate(token: &str) -> Option<(u8, String)> {
    let (w, s) = token.split_once('x')?;
    let width: u8 = w.parse().ok()?;
    SPEEDS.contains(&s).then(|| (width, s.to_string()))
}

fn order(a: End, b: End) -> (End, End) {
    if a <= b { (a, b) } else { (b, a) }
}

/// One LLDP neighbour a host or switch reports: its own interface, and the neighbour's system name and port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LldpNeighbour {
    /// The local interface (`swp12`, `Ethernet12`, `eth0`).
    pub local_port: String,
    /// The neighbour's system name (LLDP SysName), or its chassis id when it sends no name.
    pub remote_name: String,
    /// The neighbour's port: its description (PortDescr, usually the interface name), else its port id.
    pub remote_port: String,
}

/// Reads what `lldpcli show neighbors -f json` (or `-f json0`) writes (lldpd): `{"lldp": {"interface": ...}}`
/// with the interfaces as one object by name or, for several, a list of one-name objects; or json0's lists of
/// `{"name", "chassis": [...], "port": [...]}`. `file` names it in errors (a JSON error gives its line and
/// column).
pub fn read_lldp(text: &str, file: &Path) -> Result<Vec<LldpNeighbour>, FabricError> {
    use serde_json::Value;
    let err = |line: usize, why: String| FabricError {
        file: file.display().to_string(),
        line,
        why,
    };
    let v: Value = serde_json::from_str(text).map_err(|e| {
        err(
            e.line(),
            format!("column {}: not JSON as lldpcli writes it: {e}", e.column()),
        )
    })?;
    // The first string under a json0 list of {"value": ...} objects, or the string itself.
    fn value(v: Option<&Value>) -> Option<String> {
        match v? {
            Value::String(s) => Some(s.clone()),
            Value::Array(a) => value(a.first()),
            Value::Object(o) => value(o.get("value")),
            _ => None,
        }
    }
    // (interface name, its object), from any of the shapes.
    let mut interfaces: Vec<(String, &Value)> = Vec::new();
    let lldp = v
        .get("lldp")
        .ok_or_else(|| err(1, "no \"lldp\" key: not lldpcli's output".into()))?;
    let tops: Vec<&Value> = match lldp {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    for top in tops {
        let list: Vec<&Value> = match top.get("interface") {
            Some(Value::Array(a)) => a.iter().collect(),
            Some(other) => vec![other],
            None => continue,
        };
        for item in list {
            match item.get("name").and_then(|n| value(Some(n))) {
                // json0: the name is a field.
                Some(name) if item.get("chassis").is_some() => interfaces.push((name, item)),
                // json: one object keyed by the interface name.
                _ => {
                    if let Value::Object(o) = item {
                        for (name, body) in o {
                            interfaces.push((name.clone(), body));
                        }
                    }
                }
            }
        }
    }
    let mut out = Vec::with_capacity(interfaces.len());
    for (local_port, body) in interfaces {
        let chassis = body.get("chassis");
        let chassis = match chassis {
            Some(Value::Array(a)) => a.first(),
            other => other,
        };
        // json keys the chassis by its name; json0 (and json without a name) gives "name" or only "id".
        let remote_name = chassis
            .and_then(|c| value(c.get("name")))
            .or_else(|| match chassis {
                Some(Value::Object(o)) if o.len() == 1 && !o.contains_key("id") => {
                    o.keys().next().cloned()
                }
                _ => None,
            })
            .or_else(|| {
                chassis.and_then(|c| value(c.get("id").and_then(|i| i.get("value").or(Some(i)))))
            })
            .ok_or_else(|| {
                err(
                    1,
                    format!("interface {local_port}: a neighbour with no chassis name or id"),
                )
            })?;
        let port = match body.get("port") {
            Some(Value::Array(a)) => a.first(),
            other => other,
        };
        let remote_port = port
            .and_then(|p| value(p.get("descr")))
            .or_else(|| {
                port.and_then(|p| value(p.get("id").and_then(|i| i.get("value").or(Some(i)))))
            })
            .ok_or_else(|| {
                err(
                    1,
                    format!("interface {local_port}: a neighbour with no port"),
                )
            })?;
        out.push(LldpNeighbour {
            local_port,
            remote_name,
            remote_port,
        });
    }
    Ok(out)
}
