//! What a NetBox device type is (server, switch or storage), from its data: the built-in part of the same
//! model, its bays, its model name, its interfaces and its maker.

use super::{Bay, DeviceType, ImportKind};
use crate::catalog::{Catalog, Part, PartKind};

/// Lower-case alphanumeric words of a model name ("NVIDIA DGX A100 640GB" -> nvidia, dgx, a100, 640gb).
pub(super) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The built-in part a device type describes: the one whose id's words appear, whole and in order, among the
/// model's words (`QM9700` is `qm9700`, `NVIDIA DGX A100 640GB` is `dgx-a100`, but `PowerEdge T420` is not `t4`).
/// The longest such id wins.
pub(super) fn catalog_match<'a>(catalog: &'a Catalog, model: &str) -> Option<(&'a str, &'a Part)> {
    let model = words(model);
    catalog
        .parts
        .iter()
        .filter(|(id, _)| {
            let id = words(id.as_str());
            !id.is_empty() && model.windows(id.len()).any(|w| w == id.as_slice())
        })
        .max_by_key(|(id, _)| id.as_str().len())
        .map(|(id, p)| (id.as_str(), p))
}

/// Interface names that are a device's management or console port rather than a data port.
pub(super) fn management_name(name: &str) -> bool {
    let n = name.to_lowercase();
    [
        "mgmt",
        "management",
        "bmc",
        "ipmi",
        "ilo",
        "idrac",
        "xcc",
        "fnm",
        "console",
    ]
    .iter()
    .any(|p| n.starts_with(p))
}

/// Makers whose rack equipment is storage.
const STORAGE_MAKERS: [&str; 9] = [
    "netapp",
    "pure storage",
    "ddn",
    "datadirect networks",
    "hitachi vantara",
    "vast data",
    "infinidat",
    "nimble storage",
    "qumulo",
];

/// A Supermicro-style GPU server model word: digits then G and a letter (`421GE`, `4029GP`, `8125GS`).
pub(super) fn gpu_server_word(w: &str) -> bool {
    let digits = w.chars().take_while(char::is_ascii_digit).count();
    let rest: Vec<char> = w.chars().skip(digits).collect();
    (3..=4).contains(&digits)
        && rest.len() == 2
        && rest.first() == Some(&'g')
        && rest.get(1).is_some_and(char::is_ascii_alphabetic)
}

/// What the data says the device is, with the evidence; None with what was looked at when it does not say.
pub(super) fn kind_from_data(
    dt: &DeviceType,
    data_ports: usize,
    catalog_kind: Option<&PartKind>,
) -> Result<(ImportKind, String), String> {
    let model = words(&dt.model);
    let bays: Vec<String> = dt
        .module_bays
        .iter()
        .chain(&dt.device_bays)
        .map(Bay::text)
        .collect();
    let maker = dt.manufacturer.to_lowercase();
    match catalog_kind {
        Some(PartKind::Server(_)) => {
            return Ok((
                ImportKind::Server,
                "the built-in part of this model is a server".into(),
            ));
        }
        Some(PartKind::Switch(_)) => {
            return Ok((
                ImportKind::Switch,
                "the built-in part of this model is a switch".into(),
            ));
        }
        Some(PartKind::Storage(_)) => {
            return Ok((
                ImportKind::Storage,
                "the built-in part of this model is storage".into(),
            ));
        }
        _ => {}
    }
    if bays.iter().any(|b| b.contains("gpu")) {
        return Ok((ImportKind::Server, "it has GPU bays".into()));
    }
    if model.iter().any(|w| w == "dgx" || w == "hgx") || model.iter().any(|w| gpu_server_word(w)) {
        return Ok((
            ImportKind::Server,
            format!("\"{}\" names a GPU server", dt.model),
        ));
    }
    if dt
        .interfaces
        .iter()
        .any(|i| i.kind.starts_with("infiniband-"))
    {
        return Ok((ImportKind::Switch, "it has InfiniBand interfaces".into()));
    }
    if data_ports >= 16 {
        return Ok((
            ImportKind::Switch,
            format!("it has {data_ports} data ports"),
        ));
    }
    if STORAGE_MAKERS.iter().any(|m| maker == *m) {
        return Ok((
            ImportKind::Storage,
            format!("{} makes storage", dt.manufacturer),
        ));
    }
    if model.iter().any(|w| w == "storage" || w == "emc") {
        return Ok((
            ImportKind::Storage,
            format!("\"{}\" names storage", dt.model),
        ));
    }
    if model.iter().any(|w| w == "switch") {
        return Ok((
            ImportKind::Switch,
            format!("\"{}\" names a switch", dt.model),
        ));
    }
    let server_ports = dt.interfaces.iter().any(|i| {
        let n = i.name.to_lowercase();
        ["bmc", "ipmi", "ilo", "idrac", "xcc"]
            .iter()
            .any(|p| n.starts_with(p))
    });
    let server_words = [
        "poweredge",
        "proliant",
        "thinksystem",
        "superserver",
        "sys",
        "as",
    ];
    let server_bays = bays
        .iter()
        .any(|b| b.contains("pci") || b.contains("cpu") || b.contains("dimm"));
    if server_ports || model.iter().any(|w| server_words.contains(&w.as_str())) || server_bays {
        return Ok((
            ImportKind::Server,
            "it has a BMC port, PCIe or CPU bays, or a server model name".into(),
        ));
    }
    let drive_bays = bays
        .iter()
        .filter(|b| {
            ["slot", "drive", "disk", "bay"]
                .iter()
                .any(|w| b.contains(w))
        })
        .count();
    if drive_bays >= 12 && data_ports == 0 {
        return Ok((
            ImportKind::Storage,
            format!("a disk enclosure: {drive_bays} drive slots and no data ports"),
        ));
    }
    if data_ports >= 4 {
        return Ok((
            ImportKind::Switch,
            format!("it has {data_ports} data ports and no server hint"),
        ));
    }
    Err(format!(
        "{data_ports} data ports, no GPU, CPU or PCIe bays, no BMC port, a maker ({}) not known for one kind",
        dt.manufacturer
    ))
}
