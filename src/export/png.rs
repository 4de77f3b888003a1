//! Rasterises the export SVG with resvg, at slide size (at least 1600 px wide), with the fonts egui ships
//! embedded (Ubuntu Light for text, Hack for monospace), so the picture is the same on every machine.

use super::ExportError;

/// Width the PNG is scaled up to when the drawing is narrower.
pub const MIN_WIDTH_PX: f32 = 1600.0;
/// Largest side of the PNG; wider drawings are scaled down to fit.
pub const MAX_SIDE_PX: f32 = 16_000.0;

/// Renders SVG text to PNG bytes.
pub fn render(svg: &str) -> Result<Vec<u8>, ExportError> {
    let mut options = resvg::usvg::Options::default();
    let db = options.fontdb_mut();
    db.load_font_data(epaint_default_fonts::UBUNTU_LIGHT.to_vec());
    db.load_font_data(epaint_default_fonts::HACK_REGULAR.to_vec());
    db.set_sans_serif_family("Ubuntu");
    db.set_monospace_family("Hack");
    // Family names in the SVG that are not embedded fall back to Ubuntu.
    db.set_serif_family("Ubuntu");
    let tree = resvg::usvg::Tree::from_str(svg, &options)
        .map_err(|e| ExportError::Render(e.to_string()))?;
    let size = tree.size();
    let mut scale = (MIN_WIDTH_PX / size.width()).max(1.0);
    let longest = size.width().max(size.height()) * scale;
    if longest > MAX_SIDE_PX {
        scale *= MAX_SIDE_PX / longest;
    }
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w.max(1), h.max(1))
        .ok_or_else(|| ExportError::Render(format!("cannot allocate a {w}x{h} picture")))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| ExportError::Render(e.to_string()))
}
