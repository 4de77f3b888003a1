//! The canvas's own state: pan and zoom, the drag in progress, the cable being made, what the last frame drew and
//! where, and which face and views it shows. UI state only: never in the document or the undo history.

use crate::model::{DeviceId, PartId, PortRef};

use crate::app::selection::FitTarget;

/// The canvas panel's state (rack elevations and the fabric view).
#[derive(Default)]
pub struct CanvasState {
    /// Pan and zoom.
    pub view: View,
    /// The drag in progress, previewed until it ends.
    pub drag: CanvasDrag,
    /// Port picked as the first end of a new link.
    pub connect_from: Option<PortRef>,
    /// Device whose ports are offered as the second end.
    pub connect_target: Option<DeviceId>,
    /// A cable just made by dropping a port on a device (to its first compatible free port): the inspector shows
    /// the port taken and offers the others.
    pub cable_choice: Option<CableChoice>,
    /// Whether link lines are hidden.
    pub hide_links: bool,
    /// What the canvas drew in its last frame.
    pub canvas_drawn: CanvasDrawn,
    /// Traffic pattern whose loads colour the links and whose bottleneck the headline shows.
    pub load_pattern: crate::analysis::pattern::Pattern,
    /// Where the rack canvas was drawn last frame, screen space.
    pub canvas_rect: Option<egui::Rect>,
    /// Where the fabric view was drawn last frame, screen space.
    pub fabric_rect: Option<egui::Rect>,
    /// Which face of the racks the canvas shows.
    pub rack_face: RackFace,
    /// Which views the central area shows.
    pub view_mode: ViewMode,
    /// Hide hover tooltips on the canvas (screenshots, where the pointer rests at random).
    pub no_tooltips: bool,
    /// The floor view's own pan, zoom, site and drag.
    pub floor: FloorState,
}

/// The floor view's state: its pan and zoom (its own: the floor is drawn at another scale than the elevations),
/// the site it shows and the rack being dragged.
#[derive(Debug, Default)]
pub struct FloorState {
    /// Pan and zoom; canvas space is the floor at 0.1 point per millimetre.
    pub view: View,
    /// The site shown (a key of the racks' `site`); None: the first site with racks.
    pub site: Option<String>,
    /// The rack being dragged, previewed until it is dropped.
    pub drag: Option<FloorDrag>,
    /// Panning the view (a drag that started off the racks, or with the middle or right button).
    pub panning: bool,
    /// Where the floor view was drawn last frame, screen space.
    pub rect: Option<egui::Rect>,
    /// A fit of the rack canvas asked for while the floor was shown, handed back when the racks are shown again.
    pub racks_fit: Option<FitTarget>,
}

/// A rack being dragged on the floor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloorDrag {
    /// The rack (it stays where it is until it is dropped).
    pub rack: crate::model::RackId,
    /// Where in the rack it was grabbed, from its top-left corner, canvas space.
    pub grab: egui::Vec2,
}

/// What the last frame of the canvas drew (tests check culling and bundling with it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CanvasDrawn {
    /// Links drawn one by one.
    pub links: usize,
    /// Bundles drawn (each the links between a pair of racks, or inside one).
    pub bundles: usize,
}

/// Pan and zoom of the canvas: `pos_in_screen = canvas_origin_in_screen + offset + pos_in_canvas * zoom`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// Translation from the canvas panel's top-left, points.
    pub offset: egui::Vec2,
    /// Screen points per canvas point (1.0 draws a rack unit 14 points high; labels hide below their size).
    pub zoom: f32,
    /// Fit to this target on the next frame.
    pub fit: Option<FitTarget>,
    /// Whether the view still shows what the last fit framed (no pan or zoom since): such a view fits again
    /// when the canvas changes size ("Both" view, a collapsed pane, a resized window).
    pub fitted: Option<FitTarget>,
}

impl Default for View {
    fn default() -> Self {
        Self {
            offset: egui::vec2(20.0, 20.0),
            zoom: 1.0,
            fit: Some(FitTarget::All),
            fitted: None,
        }
    }
}

/// A drag in progress on the canvas; previews only, commits one edit when it ends.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum CanvasDrag {
    /// No drag in progress.
    #[default]
    None,
    /// Panning the view.
    Pan,
    /// Rubber-band selection from a point in screen space.
    BoxSelect {
        /// Where the drag started, screen space.
        start_in_screen: egui::Pos2,
    },
    /// Moving a device; `grab_u` is how many units above its bottom it was grabbed.
    MoveDevice {
        /// The device being moved (it stays where it is until the drag ends).
        device: DeviceId,
        /// Grab offset in rack units from the device's lowest unit.
        grab_u: f32,
    },
}

/// A port dropped on a device and cabled to its first compatible free port; the other compatible ports at the
/// time of the drop, in port order, for changing it.
#[derive(Debug, Clone, PartialEq)]
pub struct CableChoice {
    /// The dragged port.
    pub from: PortRef,
    /// The device it was dropped on.
    pub device: DeviceId,
    /// Names of the device's ports that could take the cable, the first one taken.
    pub ports: Vec<String>,
}

/// Payload of a drag from the parts palette.
#[derive(Debug, Clone, PartialEq)]
pub struct PartDrag(pub PartId);

/// Drag-and-drop payload: a free port being cabled (from the inspector's port list to a device on the canvas).
#[derive(Debug, Clone)]
pub struct PortDrag(pub crate::model::PortRef);

/// Which face of the racks the canvas shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RackFace {
    /// The front: GPU count, ports and power of each device.
    #[default]
    Front,
    /// The rear, where cables land: every port, cabled or free.
    Rear,
}

/// The central area's views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ViewMode {
    /// Rack elevations only.
    #[default]
    Racks,
    /// The logical fabric in tiers only.
    Fabric,
    /// Both, side by side.
    Both,
    /// The floor seen from above: rows, aisles and racks at their places, dragged between places.
    Floor,
}
