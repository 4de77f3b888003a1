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
//! Each cable appears from both ends; the reader keeps it once, at the lower rate when the ends disagree. What else
//! ibnetdiscover writes is read past: comments, `Non-Chassis Nodes`, `Chassis N (guid ...)` and `Hostname:` lines of
//! its grouped output (`-g`), `[ext N]` after a port, `s= w= v=` after a rate (`-f`). A rate it cannot name
//! (`??x???`), or a port line from an old version that gives none, reads as unknown: never slow. Reading is one pass
//! over the lines, with an error naming the line for a node or port line it cannot read; time and memory follow the
//! file's size.
//!
//! Also here: LLDP neighbours as lldpd writes them ([`read_lldp`]), a NetBox cable CSV ([`read_netbox_cables`]) and
//! the mapping file that names discovered nodes as the design does ([`read_map`], [`NameMap`]), each one pass with
//! the file and line of what it cannot read.

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
    /// Lanes (the `4` of `4xNDR`); 0 when not reported.
    pub width: u8,
    /// Speed per lane by name: `SDR`, `DDR`, `QDR`, `FDR10`, `FDR`, `EDR`, `HDR`, `NDR`, `XDR`; empty when not
    /// reported.
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
/// NDR 100, XDR 200 Gb/s per lane; Mellanox's FDR10 10.3 Gb/s, between QDR and FDR).
pub const SPEEDS: [&str; 9] = [
    "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR",
];

/// The lines of a record before its node line.
const HEADERS: [&str; 6] = [
    "vendid=",
    "devid=",
    "sysimgguid=",
    "switchguid=",
    "caguid=",
    "routerguid=",
];

/// Lines of ibnetdiscover's grouped output (`-g`) that carry nothing a cable needs.
const GROUPING: [&str; 3] = ["Non-Chassis Nodes", "Chassis ", "Hostname:"];

/// Reads the text `ibnetdiscover` writes; `file` names it in errors.
pub fn read_ibnetdiscover(text: &str, file: &Path) -> Result<Discovered, FabricError> {
    let err = |line: usize, why: String| FabricError {
        file: file.display().to_string(),
        line,
        why,
    };
    let mut out = Discovered::default();
    // Each cable by its ends, to the index of its entry: the second end's line may give a lower rate.
    let mut seen: std::collections::HashMap<(End, End), usize> = Default::default();
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
        if line.starts_with('#')
            || HEADERS.iter().any(|h| line.starts_with(h))
            || GROUPING.iter().any(|h| line.starts_with(h))
        {
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
            let Some((_, comment)) = rest.split_once('#') else {
                return Err(err(
                    n,
                    "a port line ends with a comment: # \"name\" lid N 4xNDR".into(),
                ));
            };
            // The last token that reads as a rate; none (an old version's line) leaves it unknown.
            let (width, speed) = comment
                .split_whitespace()
                .rev()
                .find_map(rate)
                .unwrap_or((0, String::new()));
            let (a, b) = order((from, port), (to.to_string(), to_port));
            match seen.get(&(a.clone(), b.clone())) {
                Some(&i) => {
                    if let Some(c) = out.cables.get_mut(i)
                        && rank(width, &speed) < rank(c.width, &c.speed)
                    {
                        c.width = width;
                        c.speed = speed;
                    }
                }
                None => {
                    seen.insert((a.clone(), b.clone()), out.cables.len());
                    out.cables.push(Cable {
                        a,
                        b,
                        width,
                        speed,
                        line: n,
                    });
                }
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

/// `4xNDR` -> (4, "NDR"); ibnetdiscover's `??` width and `???` speed (values it cannot name) read as 0 and "".
fn rate(token: &str) -> Option<(u8, String)> {
    let (w, s) = token.split_once('x')?;
    let width: u8 = match w {
        "??" => 0,
        _ => w.parse().ok()?,
    };
    match s {
        "???" => Some((width, String::new())),
        _ => SPEEDS.contains(&s).then(|| (width, s.to_string())),
    }
}

/// A known rate's place, slowest first, for keeping the lower of two reports; an unknown one ranks above all.
fn rank(width: u8, speed: &str) -> (usize, u8) {
    match SPEEDS.iter().position(|x| *x == speed) {
        Some(i) if width > 0 => (i, width),
        _ => (usize::MAX, u8::MAX),
    }
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
    /// The neighbour's port: its port id when that is an interface name (subtype `ifname`), else its description
    /// (PortDescr, usually the interface name) when not blank, else its port id.
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
        // The port id when it is the interface name (subtype ifname), else the description when it says something
        // (lldpd sends the interface name there when the id is a MAC), else the id whatever it is.
        let id = port.and_then(|p| p.get("id")).map(|i| match i {
            Value::Array(a) => a.first().unwrap_or(&Value::Null),
            other => other,
        });
        let id_type = id.and_then(|i| value(i.get("type")));
        let id_value = id.and_then(|i| value(i.get("value").or(Some(i))));
        let descr = port
            .and_then(|p| value(p.get("descr")))
            .filter(|d| !d.trim().is_empty());
        let remote_port = match id_type.as_deref() {
            Some("ifname") => id_value.clone().or(descr),
            _ => descr.or(id_value),
        }
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

/// A mapping file (`--map`): discovered names or GUIDs to the design's device names, for nodes whose descriptions
/// do not follow the design's names, with an optional rack for `import-fabric`. One entry a line, as CSV:
/// `discovered,design[,rack]`; `#` starts a comment; a first line `discovered,design[,rack]` is a header.
#[derive(Debug, Clone, Default)]
pub struct NameMap {
    /// Design name by discovered name (a node description, a host, an LLDP system name, a NetBox device).
    names: std::collections::HashMap<String, String>,
    /// Design name by GUID, normalised ([`guid_key`]).
    guids: std::collections::HashMap<String, String>,
    /// Rack by design name, from the third column.
    racks: std::collections::HashMap<String, String>,
}

/// A GUID as a map key: lower case, without the `S-`/`H-`/`R-` of ibnetdiscover's names, a `0x` or leading zeros;
/// `None` for text that is not a GUID (16 hex digits at most, at least 6 so a short host name is never one).
pub fn guid_key(text: &str) -> Option<String> {
    let t = text.trim().to_ascii_lowercase();
    let t = ["s-", "h-", "r-"]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(&t);
    let t = t.strip_prefix("0x").unwrap_or(t);
    let hex = t.trim_start_matches('0');
    (t.len() >= 6 && t.len() <= 16 && t.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| if hex.is_empty() { "0" } else { hex }.to_string())
}

impl NameMap {
    /// How many entries it has.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The design name for a discovered name, if the map gives one.
    pub fn name(&self, discovered: &str) -> Option<&str> {
        self.names.get(discovered).map(String::as_str)
    }

    /// The design name for a node GUID (in any of the forms [`guid_key`] reads), if the map gives one.
    pub fn guid(&self, guid: &str) -> Option<&str> {
        guid_key(guid)
            .and_then(|k| self.guids.get(&k))
            .map(String::as_str)
    }

    /// The rack the map puts a design device in, by its design name.
    pub fn rack(&self, design_name: &str) -> Option<&str> {
        self.racks.get(design_name).map(String::as_str)
    }

    /// A name as the map renames it, or as it is.
    pub fn rename<'a>(&'a self, discovered: &'a str) -> &'a str {
        self.name(discovered).unwrap_or(discovered)
    }

    /// Renames the nodes of an ibnetdiscover fabric: a node whose GUID or whole description the map names takes the
    /// design name (an HCA keeps its `mlx5_N`/`HCA-N` when the design name has none); else an HCA whose host (the
    /// description's first word) the map names takes it for the host. A managed switch's `MF0;NAME:MODEL/U1` is
    /// looked up by NAME too.
    pub fn apply(&self, found: &mut Discovered) {
        if self.is_empty() {
            return;
        }
        for node in found.nodes.values_mut() {
            let managed = node
                .description
                .strip_prefix("MF0;")
                .map(|r| r.split(':').next().unwrap_or(r));
            let (host, adapter) = match node.description.split_once(' ') {
                Some((h, a)) if !node.switch => (h, Some(a)),
                _ => (node.description.as_str(), None),
            };
            let whole = self
                .guid(&node.guid)
                .or_else(|| self.name(&node.description))
                .or_else(|| managed.and_then(|m| self.name(m)));
            let renamed = match (whole, adapter) {
                (Some(n), Some(a)) if !n.contains(' ') => format!("{n} {a}"),
                (Some(n), _) => n.to_string(),
                (None, Some(a)) => match self.name(host) {
                    Some(n) => format!("{n} {a}"),
                    None => continue,
                },
                (None, None) => continue,
            };
            node.description = renamed;
        }
    }
}

/// Reads a mapping file ([`NameMap`]); `file` names it in errors. One pass; a line that is not two or three
/// non-empty fields, or that maps a name twice, is refused with its line.
pub fn read_map(text: &str, file: &Path) -> Result<NameMap, FabricError> {
    let err = |line: usize, why: String| FabricError {
        file: file.display().to_string(),
        line,
        why,
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut out = NameMap::default();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            err(line, format!("not CSV: {e}"))
        })?;
        let line = record.position().map_or(i + 1, |p| p.line() as usize);
        let fields: Vec<&str> = record.iter().collect();
        if fields.iter().all(|f| f.is_empty()) {
            continue;
        }
        if i == 0
            && fields
                .first()
                .is_some_and(|f| f.eq_ignore_ascii_case("discovered"))
            && fields
                .get(1)
                .is_some_and(|f| f.eq_ignore_ascii_case("design"))
        {
            continue;
        }
        let (discovered, design, rack) = match fields.as_slice() {
            [d, n] => (*d, *n, None),
            [d, n, r] => (*d, *n, (!r.is_empty()).then_some(*r)),
            _ => {
                return Err(err(
                    line,
                    format!(
                        "{} fields; a mapping line is discovered,design or discovered,design,rack",
                        fields.len()
                    ),
                ));
            }
        };
        if discovered.is_empty() || design.is_empty() {
            return Err(err(
                line,
                "a mapping line needs both the discovered name (or GUID) and the design name"
                    .into(),
            ));
        }
        // A name that reads as a GUID is kept as both: a host may be called `cafe01`.
        match out.names.entry(discovered.to_string()) {
            std::collections::hash_map::Entry::Occupied(_) => {
                return Err(err(line, format!("{discovered:?} is mapped twice")));
            }
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(design.to_string());
            }
        }
        if let Some(k) = guid_key(discovered) {
            out.guids.insert(k, design.to_string());
        }
        if let Some(r) = rack {
            out.racks.insert(design.to_string(), r.to_string());
        }
    }
    Ok(out)
}

/// One cable of a NetBox cable CSV: both ends by device and interface name, with the line it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetboxCable {
    /// Side A's device.
    pub a_device: String,
    /// Side A's interface, as NetBox names it.
    pub a_name: String,
    /// Side B's device.
    pub b_device: String,
    /// Side B's interface.
    pub b_name: String,
    /// The line of its row, 1-based.
    pub line: usize,
}

/// The columns a NetBox cable CSV may name each field by: the bulk import's (`side_a_device`, as Racksmith's
/// `export --format netbox` writes them) and the cable list's export (`Device A`, `Termination A`; NetBox 3.2 and
/// older: `Side A`).
const NETBOX_COLUMNS: [(&str, &[&str]); 6] = [
    ("side_a_device", &["side_a_device", "device a", "side a"]),
    ("side_a_name", &["side_a_name", "termination a"]),
    ("side_b_device", &["side_b_device", "device b", "side b"]),
    ("side_b_name", &["side_b_name", "termination b"]),
    ("side_a_type", &["side_a_type"]),
    ("side_b_type", &["side_b_type"]),
];

/// Reads a NetBox cable CSV (the bulk import's columns, or the cable list's export), keeping the cables between
/// two interfaces (`dcim.interface`, or no type column): front and rear ports, console and power cables are not
/// the fabric. `file` names it in errors. One pass; a row without a device or interface on a side, or with several
/// terminations on one side (a breakout, which NetBox lists comma-separated), is refused with its line. A cell
/// that starts with `'` and then a formula character (as spreadsheets and Racksmith's own export neutralise it)
/// is read without the `'`.
pub fn read_netbox_cables(text: &str, file: &Path) -> Result<Vec<NetboxCable>, FabricError> {
    let err = |line: usize, why: String| FabricError {
        file: file.display().to_string(),
        line,
        why,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| err(1, format!("not CSV: {e}")))?
        .clone();
    let column = |key: &str| -> Option<usize> {
        let names = NETBOX_COLUMNS.iter().find(|(k, _)| *k == key)?.1;
        headers
            .iter()
            .position(|h| names.iter().any(|n| h.eq_ignore_ascii_case(n)))
    };
    let need = |key: &str| {
        column(key).ok_or_else(|| {
            err(
                1,
                format!(
                    "no {key} column: a NetBox cable CSV has side_a_device, side_a_name, side_b_device, \
                     side_b_name (or the cable list's Device A, Termination A, Device B, Termination B)"
                ),
            )
        })
    };
    let (ad, an, bd, bn) = (
        need("side_a_device")?,
        need("side_a_name")?,
        need("side_b_device")?,
        need("side_b_name")?,
    );
    let (at, bt) = (column("side_a_type"), column("side_b_type"));
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            err(line, format!("not CSV: {e}"))
        })?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        if record.iter().all(str::is_empty) {
            continue;
        }
        let cell = |i: usize| unneutralise(record.get(i).unwrap_or(""));
        let interface = |t: Option<usize>| {
            t.is_none_or(|i| {
                let kind = cell(i);
                kind.is_empty() || kind.eq_ignore_ascii_case("dcim.interface")
            })
        };
        if !interface(at) || !interface(bt) {
            continue;
        }
        let fields = [cell(ad), cell(an), cell(bd), cell(bn)];
        if let Some(i) = fields.iter().position(|f| f.is_empty()) {
            let names = [
                "side A's device",
                "side A's interface",
                "side B's device",
                "side B's interface",
            ];
            return Err(err(
                line,
                format!("{} is empty", names.get(i).copied().unwrap_or("a field")),
            ));
        }
        if fields.iter().any(|f| f.contains(',')) {
            return Err(err(
                line,
                "several terminations on one side (a breakout cable) are not read; list one cable per row"
                    .into(),
            ));
        }
        let [a_device, a_name, b_device, b_name] = fields.map(str::to_string);
        out.push(NetboxCable {
            a_device,
            a_name,
            b_device,
            b_name,
            line,
        });
    }
    Ok(out)
}

/// A CSV cell with a spreadsheet's formula neutralisation undone: `'=x` is `=x`.
fn unneutralise(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest)
            if rest
                .chars()
                .next()
                .is_some_and(|c| matches!(c, '=' | '+' | '-' | '@')) =>
        {
            rest
        }
        _ => cell,
    }
}
