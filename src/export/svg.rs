//! One drawing of the design as SVG, shared by the `svg` and `png` exports and the HTML report: rack elevations
//! (front, U numbers, devices labelled, kW against budget, U free, note badges) and the fabric by tier with links
//! coloured by the routed load of one traffic pattern. Every rack is drawn with every device named (installers work
//! from it); in the fabric view, servers with identical attachments are drawn once with a count, so a 16-SU design
//! stays a picture a person can read. Fills come from the one colour table (`Category::rgb`) the app uses, and the
//! legend is generated from it.

use super::escape::xml as escape;
use super::{View, pattern_index};
use crate::analysis::Report;
use crate::model::{Design, Device, DeviceId, LinkId, RackId};
use crate::topology::{NodeKind, Topology};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Nodes of one fabric tier drawn one by one up to this many; above it, interchangeable nodes are grouped.
pub const NODES_DRAWN_SINGLY: usize = 16;

/// A minimal SVG writer: shapes and text with escaped content and rounded coordinates (stable bytes).
pub struct Svg {
    body: String,
    width: f64,
    height: f64,
}

/// Formats a coordinate with at most one decimal, so output is byte-stable across platforms.
fn n(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

impl Svg {
    /// An empty drawing of the given size in px.
    pub fn new(width: f64, height: f64) -> Self {
        Self {
            body: String::new(),
            width,
            height,
        }
    }

    /// A filled rectangle with an outline.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{stroke}"/>"#,
            n(x),
            n(y),
            n(w.max(0.0)),
            n(h.max(0.0))
        );
    }

    /// A rectangle with a tooltip (`<title>`), shown by browsers on hover.
    #[allow(clippy::too_many_arguments)]
    pub fn rect_titled(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: &str,
        stroke: &str,
        title: &str,
    ) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{stroke}"><title>{}</title></rect>"#,
            n(x),
            n(y),
            n(w.max(0.0)),
            n(h.max(0.0)),
            escape(title)
        );
    }

    /// A straight line.
    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{}"/>"#,
            n(x1),
            n(y1),
            n(x2),
            n(y2),
            n(width)
        );
    }

    /// A line with a tooltip.
    #[allow(clippy::too_many_arguments)]
    pub fn line_titled(
        &mut self,
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        stroke: &str,
        width: f64,
        title: &str,
    ) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{}"><title>{}</title></line>"#,
            n(x1),
            n(y1),
            n(x2),
            n(y2),
            n(width),
            escape(title)
        );
    }

    /// A polyline through points.
    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{},{}", n(*x), n(*y)))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="{}"/>"#,
            pts.join(" "),
            n(width)
        );
    }

    /// A circle centred at (`cx`, `cy`) with radius `r`, in px; `title`, when given, is its tooltip (escaped).
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str, title: Option<&str>) {
        match title {
            Some(t) => {
                let _ = writeln!(
                    self.body,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}"><title>{}</title></circle>"#,
                    n(cx),
                    n(cy),
                    n(r),
                    escape(t)
                );
            }
            None => {
                let _ = writeln!(
                    self.body,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}"/>"#,
                    n(cx),
                    n(cy),
                    n(r)
                );
            }
        }
    }

    /// Text; `anchor` is start, middle or end; `size` in px.
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, fill: &str, content: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{}" y="{}" font-size="{}" text-anchor="{anchor}" fill="{fill}">{}</text>"#,
            n(x),
            n(y),
            n(size),
            escape(content)
        );
    }

    /// [`Self::text`] in bold: `anchor` is start, middle or end; `size` in px; the content is escaped.
    pub fn bold(&mut self, x: f64, y: f64, size: f64, anchor: &str, fill: &str, content: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="{anchor}" fill="{fill}">{}</text>"#,
            n(x),
            n(y),
            n(size),
            escape(content)
        );
    }

    /// The finished document. `title` becomes the SVG's accessible title.
    pub fn finish(self, title: &str) -> String {
        format!(
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" "#,
                r#"font-family="Ubuntu, 'DejaVu Sans', Arial, sans-serif" role="img">"#,
                "\n<title>{t}</title>\n",
                r##"<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>"##,
                "\n{body}</svg>\n"
            ),
            w = n(self.width),
            h = n(self.height),
            t = escape(title),
            body = self.body
        )
    }
}

/// Fill colour of a device: its category's fill on the dark canvas (`Category::dark_fill_rgb`, the one colour table
/// the app and every drawing share), behind white text at WCAG AA contrast, so a switch is the same orange on screen
/// and on paper.
pub fn device_fill(design: &Design, device: &Device) -> String {
    let category = design
        .parts
        .get(&device.part)
        .map_or(crate::catalog::Category::Accessory, |p| p.kind.category());
    hex(category.dark_fill_rgb())
}

/// `#rrggbb` of an sRGB colour.
fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The legend of a drawing: each category the design's devices fall in, by the colour name of the one table
/// ("blue server, orange switch, ..."), in palette order.
pub fn legend(design: &Design) -> String {
    let mut seen: Vec<crate::catalog::Category> = Vec::new();
    for d in design.devices.values() {
        if let Some(p) = design.parts.get(&d.part) {
            let c = p.kind.category();
            if !seen.contains(&c) {
                seen.push(c);
            }
        }
    }
    let words: Vec<String> = crate::catalog::Category::ALL
        .into_iter()
        .filter(|c| seen.contains(c))
        .map(|c| format!("{} {}", c.colour_name(), c.label().to_lowercase()))
        .collect();
    if words.is_empty() {
        String::new()
    } else {
        format!("colours: {}", words.join(", "))
    }
}

/// Colour of a link by the share of its capacity the chosen pattern offers it (the app's thresholds).
pub fn load_colour(utilisation: Option<f64>) -> &'static str {
    match utilisation {
        None => "#b8c2cf",
        Some(u) if u <= 0.0 => "#b8c2cf",
        Some(u) if u <= 0.5 => "#3a9a5b",
        Some(u) if u <= 0.8 => "#c9a227",
        Some(u) if u <= 1.0 => "#e07b1f",
        Some(_) => "#d22f27",
    }
}

/// Most characters of the design name drawn in a heading (the whole name stays in the SVG's title): a heading
/// longer than the drawing would run off it, and text layout grows with what is drawn.
const TITLE_CHARS: usize = 80;

/// Shortens text to at most `max` characters, with an ellipsis.
pub fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// Draws the chosen view.
pub fn draw(
    design: &Design,
    report: &Report,
    view: View,
    pattern: Option<crate::analysis::pattern::Pattern>,
) -> Result<String, super::ExportError> {
    Ok(match view {
        View::Racks => racks_svg(design, report),
        View::Fabric => fabric_svg(design, report, pattern_index(report, pattern)?),
    })
}

/// Racks in floor-plan order (row, slot, name).
fn racks_in_order(design: &Design) -> Vec<RackId> {
    let mut ids: Vec<RackId> = design.racks.keys().copied().collect();
    ids.sort_by(|a, b| {
        let key = |id: &RackId| {
            design
                .racks
                .get(id)
                .map(|r| (r.row, r.slot, r.name.clone()))
        };
        key(a).cmp(&key(b)).then(a.cmp(b))
    });
    ids
}

const RACK_W: f64 = 300.0;
const U_PX: f64 = 15.0;
const RACK_GAP: f64 = 40.0;
const RACKS_PER_ROW: usize = 6;

/// The rack elevations: every rack from the front, each device named on it (installers label and mount by these
/// drawings, so no rack is folded into another).
pub fn racks_svg(design: &Design, report: &Report) -> String {
    let racks = racks_in_order(design);
    let tallest = design
        .racks
        .values()
        .map(|r| r.height_u)
        .max()
        .unwrap_or(42);
    let rack_h = f64::from(tallest) * U_PX + 110.0;
    let cols = racks.len().clamp(1, RACKS_PER_ROW);
    let rows = racks.len().div_ceil(RACKS_PER_ROW).max(1);
    let width = (cols as f64 * (RACK_W + RACK_GAP) + RACK_GAP).max(1600.0);
    let height = rows as f64 * (rack_h + RACK_GAP) + 70.0;
    let mut svg = Svg::new(width, height);
    svg.bold(
        RACK_GAP,
        34.0,
        20.0,
        "start",
        "#1a1a1a",
        &format!(
            "{}: rack elevations (front)",
            fit(&design.name, TITLE_CHARS)
        ),
    );
    let legend = legend(design);
    svg.text(
        RACK_GAP,
        56.0,
        13.0,
        "start",
        "#444444",
        &format!(
            "{}{}",
            crate::analysis::format::count(racks.len(), "rack", "racks"),
            if legend.is_empty() {
                String::new()
            } else {
                format!("; {legend}")
            }
        ),
    );
    if racks.is_empty() {
        svg.text(RACK_GAP, 100.0, 14.0, "start", "#444444", "No racks yet.");
    }
    for (i, rack) in racks.iter().enumerate() {
        let x = RACK_GAP + (i % RACKS_PER_ROW) as f64 * (RACK_W + RACK_GAP);
        let y = 80.0 + (i / RACKS_PER_ROW) as f64 * (rack_h + RACK_GAP);
        rack_elevation(&mut svg, design, report, *rack, x, y);
    }
    svg.finish(&format!("{}: rack elevations", design.name))
}

/// One rack's elevation at (x, y), in paint order: the frame and its units, each device with its labels, the
/// footer.
fn rack_elevation(svg: &mut Svg, design: &Design, report: &Report, first: RackId, x: f64, y: f64) {
    let Some(rack) = design.racks.get(&first) else {
        return;
    };
    let top = rack_frame(svg, rack, x, y);
    let mut devices: Vec<(&DeviceId, &Device)> = design
        .devices
        .iter()
        .filter(|(_, d)| d.rack == first)
        .collect();
    devices.sort_by_key(|(id, d)| (d.position_u, **id));
    for (id, d) in devices {
        let Some(part) = design.parts.get(&d.part) else {
            continue;
        };
        if part.height_u == 0 {
            continue;
        }
        rack_device(svg, design, report, (id, d, part), rack.height_u, (x, top));
    }
    rack_footer(svg, report, (first, rack), x, top);
}

/// The gutter each side of a rack's body, where its unit numbers are, px.
const GUTTER: f64 = 26.0;

/// A rack's frame at (x, y): its name (with a badge for its notes), its body and its unit numbers both sides.
/// Returns the top of the body.
fn rack_frame(svg: &mut Svg, rack: &crate::model::Rack, x: f64, y: f64) -> f64 {
    svg.bold(x, y + 16.0, 15.0, "start", "#1a1a1a", &fit(&rack.name, 34));
    if !rack.notes.is_empty() {
        badge(svg, x + RACK_W - 10.0, y + 10.0, &rack.notes);
    }
    let top = y + 28.0;
    let h = f64::from(rack.height_u) * U_PX;
    let gutter = GUTTER;
    svg.rect(x, top, RACK_W, h + 8.0, "#2b2b2b", "#111111");
    svg.rect(
        x + gutter,
        top + 4.0,
        RACK_W - 2.0 * gutter,
        h,
        "#f4f5f7",
        "#999999",
    );
    for u in 1..=rack.height_u {
        let uy = top + 4.0 + (f64::from(rack.height_u - u) + 0.7) * U_PX;
        svg.text(x + 13.0, uy, 8.5, "middle", "#e6e6e6", &u.to_string());
        svg.text(
            x + RACK_W - 13.0,
            uy,
            8.5,
            "middle",
            "#e6e6e6",
            &u.to_string(),
        );
    }
    top
}

/// One device in a rack whose body's top is at `(x, top)`: a box over its units with a tooltip, its name, part and
/// (when three units or taller) what is inside with its draw, and a badge for its notes.
fn rack_device(
    svg: &mut Svg,
    design: &Design,
    report: &Report,
    (id, d, part): (&DeviceId, &Device, &crate::model::part::Part),
    rack_height_u: u16,
    (x, top): (f64, f64),
) {
    let gutter = GUTTER;
    let hu = part.height_u;
    let top_u = d.position_u.saturating_add(hu - 1).min(rack_height_u);
    let dy = top + 4.0 + f64::from(rack_height_u.saturating_sub(top_u)) * U_PX;
    let dh = f64::from(hu) * U_PX - 1.0;
    let fill = device_fill(design, d);
    let fill = fill.as_str();
    let label = format!("{}: {}", d.name, part.name);
    let mut tip = format!("{} ({}), U{}-U{}", d.name, part.name, d.position_u, top_u);
    if !d.gpus.is_empty() {
        let _ = write!(tip, ", {} GPUs", d.gpus.len());
    }
    svg.rect_titled(
        x + gutter + 1.0,
        dy + 0.5,
        RACK_W - 2.0 * gutter - 2.0,
        dh,
        fill,
        "#ffffff",
        &tip,
    );
    if hu >= 3 {
        // Tall devices get three lines: name, part, and what is inside with its draw.
        let name = &d.name;
        let watts = report
            .power
            .devices
            .iter()
            .find(|p| p.device == *id)
            .map_or(part.power_w, |p| p.power_w);
        let mut inside = Vec::new();
        if !d.gpus.is_empty() {
            inside.push(format!("{} GPUs", d.gpus.len()));
        }
        if !d.nics.is_empty() {
            inside.push(format!("{} NICs", d.nics.len()));
        }
        inside.push(format!("{:.1} kW", watts / 1000.0));
        let mid = dy + dh / 2.0;
        svg.bold(
            x + gutter + 6.0,
            mid - 9.0,
            11.5,
            "start",
            "#ffffff",
            &fit(name, 34),
        );
        svg.text(
            x + gutter + 6.0,
            mid + 5.0,
            10.0,
            "start",
            "#e8eef6",
            &fit(&part.name, 40),
        );
        svg.text(
            x + gutter + 6.0,
            mid + 18.0,
            10.0,
            "start",
            "#e8eef6",
            &inside.join(" · "),
        );
    } else {
        let size = if hu >= 2 { 11.0 } else { 9.5 };
        svg.text(
            x + gutter + 6.0,
            dy + dh / 2.0 + size * 0.35,
            size,
            "start",
            "#ffffff",
            &fit(&label, if hu >= 2 { 36 } else { 40 }),
        );
    }
    if !d.notes.is_empty() {
        badge(svg, x + RACK_W - gutter - 9.0, dy + 7.5, &d.notes);
    }
}

/// A rack's footer below its body: the power against the budget, the free units, and the coolant flow of a
/// liquid-cooled rack.
fn rack_footer(
    svg: &mut Svg,
    report: &Report,
    (first, rack): (RackId, &crate::model::Rack),
    x: f64,
    top: f64,
) {
    let h = f64::from(rack.height_u) * U_PX;
    let power = report.power.racks.iter().find(|p| p.rack == first);
    let (kw, budget_kw, u_used) = power.map_or((0.0, rack.power_budget_w / 1000.0, 0), |p| {
        (p.power_w / 1000.0, p.budget_w / 1000.0, p.units_used)
    });
    let over = kw > budget_kw + 1e-9;
    let foot = top + h + 26.0;
    svg.text(
        x,
        foot,
        12.5,
        "start",
        if over { "#b3261e" } else { "#1a1a1a" },
        &format!(
            "{kw:.1} kW of {budget_kw:.1} kW budget{}",
            if over { " (over)" } else { "" }
        ),
    );
    let free = u32::from(rack.height_u).saturating_sub(u_used);
    svg.text(
        x,
        foot + 17.0,
        12.5,
        "start",
        "#1a1a1a",
        &format!("{free} U free of {} U", rack.height_u),
    );
    if rack.cooling == crate::model::Cooling::Liquid {
        let flow = report
            .cooling
            .racks
            .iter()
            .find(|c| c.rack == first)
            .and_then(|c| c.coolant_l_min)
            .unwrap_or(0.0);
        svg.text(
            x + RACK_W,
            foot,
            12.5,
            "end",
            "#1f5f8b",
            &format!("liquid-cooled, {flow:.0} L/min"),
        );
    }
}

/// A note badge: a small amber disc with the note as its tooltip.
fn badge(svg: &mut Svg, cx: f64, cy: f64, note: &str) {
    svg.circle(
        cx,
        cy,
        6.0,
        "#f2b705",
        Some(&format!("Review note: {note}")),
    );
    svg.bold(cx, cy + 3.5, 9.0, "middle", "#1a1a1a", "!");
}

/// A node of the fabric picture: one device, or interchangeable devices drawn once with a count.
#[derive(Debug, Clone)]
pub struct FabricNode {
    /// The devices it stands for (first is the representative).
    pub devices: Vec<DeviceId>,
    /// Label shown in the box.
    pub label: String,
    /// Tier: 0 servers and storage, 1 leaf, 2 spine, 3 core.
    pub tier: u8,
}

/// Tiers of the fabric with interchangeable nodes grouped; and the node each device belongs to.
pub fn fabric_nodes(
    design: &Design,
    topo: &Topology,
) -> (Vec<FabricNode>, BTreeMap<DeviceId, usize>) {
    let mut by_tier: BTreeMap<u8, Vec<DeviceId>> = BTreeMap::new();
    for id in design.devices.keys() {
        let tier = match topo.kind(*id) {
            Some(NodeKind::GpuServer | NodeKind::Server | NodeKind::Storage) => 0,
            Some(NodeKind::Switch) => topo.tier(*id).unwrap_or(1).max(1),
            None => continue,
        };
        by_tier.entry(tier).or_default().push(*id);
    }
    let name = |id: &DeviceId| design.devices.get(id).map_or("", |d| d.name.as_str());
    let mut nodes = Vec::new();
    let mut node_of = BTreeMap::new();
    for (tier, mut ids) in by_tier {
        ids.sort_by(|a, b| name(a).cmp(name(b)).then(a.cmp(b)));
        if ids.len() <= NODES_DRAWN_SINGLY {
            for id in ids {
                node_of.insert(id, nodes.len());
                nodes.push(FabricNode {
                    devices: vec![id],
                    label: name(&id).to_string(),
                    tier,
                });
            }
            continue;
        }
        // Interchangeable: same part, same neighbours (by device), same number of GPUs.
        let groups = super::group_by_key(ids, |id| neighbour_signature(design, topo, id));
        for devs in groups {
            let names: Vec<&str> = devs.iter().map(name).collect();
            let label = if devs.len() > 1 {
                format!("{} ×{}", super::hostlist::compress(&names), devs.len())
            } else {
                names.first().copied().unwrap_or("").to_string()
            };
            for d in &devs {
                node_of.insert(*d, nodes.len());
            }
            nodes.push(FabricNode {
                devices: devs,
                label,
                tier,
            });
        }
    }
    (nodes, node_of)
}

fn neighbour_signature(design: &Design, topo: &Topology, id: DeviceId) -> String {
    let mut s = design
        .devices
        .get(&id)
        .map_or(String::new(), |d| format!("{}|{}|", d.part, d.gpus.len()));
    let Some(&node) = topo.node_of.get(&id) else {
        return s;
    };
    let mut nb: Vec<u64> = topo
        .graph
        .neighbors(node)
        .filter_map(|n| topo.graph.node_weight(n).map(|w| w.device.0))
        .collect();
    nb.sort_unstable();
    for x in nb {
        let _ = write!(s, "{x},");
    }
    s
}

/// Links between two fabric nodes, summed: the bundle drawn as one line.
#[derive(Debug, Clone, Default)]
pub struct Bundle {
    /// Cables in the bundle.
    pub links: Vec<LinkId>,
    /// Summed capacity, Gb/s.
    pub gbps: f64,
    /// Summed routed load of the chosen pattern, Gb/s.
    pub load_gbps: f64,
}

/// Bundles between fabric nodes (a < b).
pub fn bundles(
    design: &Design,
    report: &Report,
    node_of: &BTreeMap<DeviceId, usize>,
    pattern: Option<usize>,
) -> BTreeMap<(usize, usize), Bundle> {
    let loads: BTreeMap<LinkId, f64> = match pattern {
        Some(i) => report
            .bandwidth
            .routing
            .links
            .iter()
            .map(|l| (l.link, l.loads_gbps.get(i).copied().unwrap_or(0.0)))
            .collect(),
        None => BTreeMap::new(),
    };
    let mut out: BTreeMap<(usize, usize), Bundle> = BTreeMap::new();
    for (lid, l) in &design.links {
        let (Some(&a), Some(&b)) = (node_of.get(&l.a.device), node_of.get(&l.b.device)) else {
            continue;
        };
        if a == b {
            continue;
        }
        let e = out.entry((a.min(b), a.max(b))).or_default();
        e.links.push(*lid);
        e.gbps += l.medium.gbps();
        e.load_gbps += loads.get(lid).copied().unwrap_or(0.0);
    }
    out
}

const NODE_W: f64 = 118.0;
const NODE_H: f64 = 34.0;
const NODE_GAP: f64 = 14.0;
const TIER_GAP: f64 = 150.0;

/// The fabric by tier (servers and storage at the bottom), links coloured by the chosen pattern's routed load.
pub fn fabric_svg(design: &Design, report: &Report, pattern: Option<usize>) -> String {
    let topo = Topology::build(design);
    let (nodes, node_of) = fabric_nodes(design, &topo);
    let mut tiers: BTreeMap<u8, Vec<usize>> = BTreeMap::new();
    for (i, nd) in nodes.iter().enumerate() {
        tiers.entry(nd.tier).or_default().push(i);
    }
    let widest = tiers.values().map(Vec::len).max().unwrap_or(1);
    let width = (widest as f64 * (NODE_W + NODE_GAP) + 220.0).max(1600.0);
    let height = tiers.len().max(1) as f64 * TIER_GAP + 170.0;
    let mut svg = Svg::new(width, height);
    let pattern_name = pattern
        .and_then(|i| report.bandwidth.routing.patterns.get(i))
        .map_or("none".to_string(), |p| p.pattern.clone());
    svg.bold(
        40.0,
        34.0,
        20.0,
        "start",
        "#1a1a1a",
        &format!("{}: fabric by tier", fit(&design.name, TITLE_CHARS)),
    );
    svg.text(
        40.0,
        56.0,
        13.0,
        "start",
        "#444444",
        &format!(
            "Link colour: routed load of the {pattern_name} pattern against capacity. Grey idle, green up to 50%, yellow up to 80%, orange up to 100%, red over."
        ),
    );
    let mut pos: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let tier_count = tiers.len();
    for (row, (tier, ids)) in tiers.iter().enumerate() {
        let y = 110.0 + (tier_count - 1 - row) as f64 * TIER_GAP;
        let row_w = ids.len() as f64 * (NODE_W + NODE_GAP) - NODE_GAP;
        let x0 = 180.0 + (width - 220.0 - row_w) / 2.0;
        let label = match tier {
            0 => "Servers, storage".to_string(),
            1 => "Leaf".to_string(),
            2 => "Spine".to_string(),
            3 => "Core".to_string(),
            t => format!("Tier {t}"),
        };
        svg.bold(
            20.0,
            y + NODE_H / 2.0 + 5.0,
            13.0,
            "start",
            "#333333",
            &format!(
                "{label} ({})",
                ids.iter()
                    .map(|i| nodes.get(*i).map_or(0, |n| n.devices.len()))
                    .sum::<usize>()
            ),
        );
        for (k, &i) in ids.iter().enumerate() {
            pos.insert(i, (x0 + k as f64 * (NODE_W + NODE_GAP), y));
        }
    }
    let bundles = bundles(design, report, &node_of, pattern);
    let max_links = bundles
        .values()
        .map(|b| b.links.len())
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    for ((a, b), bundle) in &bundles {
        let (Some(&(ax, ay)), Some(&(bx, by))) = (pos.get(a), pos.get(b)) else {
            continue;
        };
        let (top_y, bottom_y) = if ay < by {
            (ay + NODE_H, by)
        } else {
            (by + NODE_H, ay)
        };
        let (tx, bxx) = if ay < by { (ax, bx) } else { (bx, ax) };
        let util = (pattern.is_some() && bundle.gbps > 0.0).then(|| bundle.load_gbps / bundle.gbps);
        let w = 1.0 + 3.0 * (bundle.links.len() as f64 / max_links).sqrt();
        let title = format!(
            "{}, {:.0} Gb/s{}",
            crate::analysis::format::count(bundle.links.len(), "cable", "cables"),
            bundle.gbps,
            util.map_or(String::new(), |u| format!(
                ", {pattern_name} load {:.0}%",
                u * 100.0
            ))
        );
        svg.line_titled(
            tx + NODE_W / 2.0,
            top_y,
            bxx + NODE_W / 2.0,
            bottom_y,
            load_colour(util),
            w,
            &title,
        );
    }
    for (i, nd) in nodes.iter().enumerate() {
        let (Some(&(x, y)), Some(dev)) = (
            pos.get(&i),
            nd.devices.first().and_then(|d| design.devices.get(d)),
        ) else {
            continue;
        };
        let part = design.parts.get(&dev.part).map_or("", |p| p.name.as_str());
        svg.rect_titled(
            x,
            y,
            NODE_W,
            NODE_H,
            &device_fill(design, dev),
            "#ffffff",
            &format!("{} ({part})", nd.label),
        );
        svg.text(
            x + NODE_W / 2.0,
            y + 14.0,
            10.5,
            "middle",
            "#ffffff",
            &fit(&nd.label, 20),
        );
        svg.text(
            x + NODE_W / 2.0,
            y + 27.0,
            8.5,
            "middle",
            "#e8eef6",
            &fit(part, 24),
        );
        if !dev.notes.is_empty() {
            badge(&mut svg, x + NODE_W - 6.0, y + 6.0, &dev.notes);
        }
    }
    let (links, drawn) = (design.links.len(), bundles.len());
    svg.text(
        40.0,
        height - 24.0,
        12.0,
        "start",
        "#444444",
        &format!("{links} links drawn as {drawn} bundles (cables between the same pair of boxes are one line; width grows with the count)."),
    );
    svg.finish(&format!("{}: fabric", design.name))
}
