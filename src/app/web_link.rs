//! File > Copy link: the design, compressed, in the fragment of a link to the web build (`io::share`), copied to
//! the clipboard. In the browser the link is the page's own address (and the address bar shows it); on the desktop
//! it points at `RACKSMITH_WEB_URL` (where the web build is hosted) or, without it, is a `racksmith:#d=…` link that
//! `racksmith LINK` opens. A design too large for a link says so and offers the file instead.

use super::RacksmithApp;

/// The base of links made on the desktop when `RACKSMITH_WEB_URL` is not set.
#[cfg(not(target_arch = "wasm32"))]
pub const DESKTOP_LINK_BASE: &str = "racksmith:";

/// Where a link made here points (before its fragment).
fn link_base() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        super::web::page_url().unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::env::var("RACKSMITH_WEB_URL").unwrap_or_else(|_| DESKTOP_LINK_BASE.to_string())
    }
}

impl RacksmithApp {
    /// Makes the design's link and puts it on the clipboard (after the frame), or says why it cannot.
    pub(super) fn copy_link(&mut self) {
        let base = link_base();
        match crate::io::share::link(&base, &self.doc.design) {
            Ok(link) => {
                #[cfg(target_arch = "wasm32")]
                super::web::show_link(&link);
                // A racksmith: link opens only in a Racksmith installed on the machine that opens it: say so,
                // rather than let it be sent to someone whose browser cannot open it.
                let who = if base.starts_with("http://") || base.starts_with("https://") {
                    "whoever opens it sees this design; nothing is sent to a server".to_string()
                } else {
                    "a racksmith: link, which opens only where Racksmith is installed (`racksmith LINK`), not in \
                     a browser; set RACKSMITH_WEB_URL to where the web build is hosted to copy links anyone can open"
                        .to_string()
                };
                self.ui.status.info(format!(
                    "Copied a link to {} ({} characters): {who}",
                    self.doc.design.name,
                    link.len()
                ));
                self.last_link = Some(link.clone());
                self.link_to_copy = Some(link);
            }
            Err(e @ crate::io::share::ShareError::TooLarge { .. }) => {
                self.ui.windows.error = Some(format!(
                    "No link copied: {e}.\nUse File > Save as… and share the file instead."
                ));
                self.ui
                    .status
                    .refuse("Too large for a link: share the file");
            }
            Err(e) => {
                self.ui.windows.error = Some(format!("No link copied: {e}"));
                self.ui.status.refuse("No link copied");
            }
        }
    }

    /// The last link made by File > Copy link (tests).
    pub fn last_link(&self) -> Option<&str> {
        self.last_link.as_deref()
    }
}
