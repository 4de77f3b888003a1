//! What the user has picked out on the canvas (the selection) and what a fit of the view frames: shared by the
//! canvas, the inspector, the analysis pane and the windows, so it sits below all of them (UI state: never saved,
//! never undone).

use crate::model::{Design, DeviceId, LinkId, RackId};
use std::collections::BTreeSet;

/// What is selected on the canvas.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    /// Devices selected by a click, shift-click, box or finding.
    pub devices: BTreeSet<DeviceId>,
    /// Racks selected by a click on their frame or header (delete takes their devices with them).
    pub racks: BTreeSet<RackId>,
    /// Cables selected in the inspector or by a finding.
    pub links: BTreeSet<LinkId>,
}

impl Selection {
    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.devices.is_empty() && self.racks.is_empty() && self.links.is_empty()
    }

    /// The one selected device, if exactly one thing is selected and it is a device.
    pub fn single_device(&self) -> Option<DeviceId> {
        (self.devices.len() == 1 && self.racks.is_empty() && self.links.is_empty())
            .then(|| self.devices.first().copied())
            .flatten()
    }

    /// Drops ids that no longer exist in the design.
    pub fn retain_existing(&mut self, design: &Design) {
        self.devices.retain(|d| design.devices.contains_key(d));
        self.racks.retain(|r| design.racks.contains_key(r));
        self.links.retain(|l| design.links.contains_key(l));
    }
}

/// What a fit request frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FitTarget {
    /// Every rack (a new or opened design, the toolbar's Fit).
    All,
    /// The selection (or everything when nothing is selected).
    Selection,
    /// Pan, at the same zoom, just enough to bring the selection into view (after an edit: the view never
    /// re-zooms under the pointer).
    Reveal,
}
