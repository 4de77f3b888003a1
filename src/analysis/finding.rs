//! A finding: what is wrong or worth knowing, with its severity, the parts it is about and a suggested fix. The
//! checks that make findings live with their topics (`findings`, `cooling`, `facility`, `sites`); this module is
//! the type they share, below all of them.

use crate::model::{DeviceId, LinkId, RackId};
use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Severity {
    /// The design does not work as drawn.
    Error,
    /// The design works but misses what it is for.
    Warning,
    /// Worth knowing.
    Info,
}

/// One finding.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// Severity.
    pub severity: Severity,
    /// Stable code, e.g. "nic-per-gpu".
    pub code: String,
    /// One line with the numbers.
    pub message: String,
    /// Devices concerned.
    pub devices: Vec<DeviceId>,
    /// Racks concerned.
    pub racks: Vec<RackId>,
    /// Links concerned.
    pub links: Vec<LinkId>,
    /// Suggested fix.
    pub fix: String,
}

impl Finding {
    pub(crate) fn new(severity: Severity, code: &str, message: String, fix: &str) -> Self {
        Self {
            severity,
            code: code.into(),
            message,
            devices: Vec::new(),
            racks: Vec::new(),
            links: Vec::new(),
            fix: fix.into(),
        }
    }
}
