//! The user catalog file and the catalog commands: load and save the user's parts, save, delete and import parts
//! (NetBox device types), replace a part everywhere in the design, and open the catalog and sizing windows. The
//! window that asks for these is `catalog.rs`.

use super::RacksmithApp;
use super::windows::catalog::CatalogBrowser;
use super::windows::catalog::CatalogWindow;
use crate::catalog::Catalog;
use crate::catalog::user;
use crate::model::PartId;
use std::path::PathBuf;

impl RacksmithApp {
    /// Uses the user catalog at `path` (None: none, for this session only), merged over the built-in catalog. A
    /// file that does not load is reported and left alone.
    pub fn set_user_catalog(&mut self, path: Option<PathBuf>) {
        let st = &mut self.catalogs;
        if st.builtin.parts.is_empty() {
            st.builtin = Catalog::builtin().unwrap_or_default();
        }
        st.load_error = None;
        st.user = match path.as_deref().map(user::load) {
            Some(Ok(c)) => c,
            Some(Err(e)) => {
                let msg = format!(
                    "The user catalog did not load, so it is left as it is and not written over:\n{e}"
                );
                st.load_error = Some(msg.clone());
                self.ui.windows.error = Some(msg);
                Catalog::default()
            }
            None => Catalog::default(),
        };
        st.path = path;
        self.catalog = user::merged(&st.builtin, &st.user);
    }

    /// Writes the user catalog and rebuilds the merged catalog; says why when it cannot.
    fn save_user_catalog(&mut self, done: String) {
        self.catalog = user::merged(&self.catalogs.builtin, &self.catalogs.user);
        let outcome = match (&self.catalogs.load_error, &self.catalogs.path) {
            (Some(_), _) => Err(
                "the user catalog file has errors (see the message when it loaded): fix or move it, then reopen \
                 Racksmith; kept for this session only"
                    .to_string(),
            ),
            (None, None) => Ok(format!("{done} (no user catalog file: for this session only)")),
            (None, Some(p)) => user::save(p, &self.catalogs.user)
                .map(|()| format!("{done}; saved {}", p.display()))
                .map_err(|e| e.to_string()),
        };
        let msg = match outcome {
            Ok(m) => {
                self.ui.status.info(m.clone());
                (false, m)
            }
            Err(e) => {
                self.ui.status.refuse(format!("{done}, but not saved: {e}"));
                (true, format!("{done}, but not saved: {e}"))
            }
        };
        if let Some(w) = self.catalog_browser() {
            w.say(msg.0, msg.1);
        }
    }

    /// The parts catalog window's browser, when the window is open.
    fn catalog_browser(&mut self) -> Option<&mut CatalogBrowser> {
        let w = self.ui.windows.registry.get_mut::<CatalogWindow>()?;
        w.browser()
    }

    /// The parts catalog window's browser, opening the window when closed (to show what was done).
    fn opened_catalog_browser(&mut self) -> Option<&mut CatalogBrowser> {
        let w = self.ui.windows.registry.get_mut::<CatalogWindow>()?;
        Some(w.opened())
    }

    /// Saves a part to the user catalog file, replacing the part it was edited from when it was renamed.
    pub(super) fn save_user_part(
        &mut self,
        id: crate::model::PartId,
        part: crate::catalog::Part,
        replaces: Option<crate::model::PartId>,
    ) {
        if let Some(old) = replaces.filter(|o| *o != id) {
            self.catalogs.user.parts.remove(&old);
        }
        self.catalogs.user.parts.insert(id.clone(), part);
        if let Some(w) = self.catalog_browser() {
            w.select(Some(id.clone()));
        }
        self.save_user_catalog(format!("Saved part {id} to the user catalog"));
    }

    /// Deletes a user part, or reverts an edited built-in part, in the user catalog file.
    pub(super) fn remove_user_part(&mut self, id: &crate::model::PartId) {
        if self.catalogs.user.parts.remove(id).is_none() {
            self.ui
                .status
                .refuse(format!("{id} is not in the user catalog"));
            return;
        }
        let what = if self.catalogs.builtin.parts.contains_key(id) {
            format!("Reverted {id} to the built-in part")
        } else {
            if let Some(w) = self.catalog_browser() {
                w.select(None);
            }
            format!("Deleted {id} from the user catalog")
        };
        self.save_user_catalog(what);
    }

    /// Replaces a part everywhere in the design as one undo step, or says why not.
    pub(super) fn swap(&mut self, from: &str, to: &str) {
        let outcome = crate::edit::swap::plan(&self.doc.design, &self.catalog, from, to);
        let msg = match outcome {
            Ok(swap) => {
                let label = format!("Replace {from} with {to}");
                self.edit(label.clone(), swap.edit);
                if !swap.rehomed.is_empty() && !self.ui.status.is_refusal() {
                    // Say which cables moved: a swap never removes one silently.
                    self.ui.status.text = format!(
                        "{}; {} cables moved to free ports of {to}: {}",
                        self.ui.status.text,
                        swap.rehomed.len(),
                        swap.rehomed.join("; ")
                    );
                }
                (self.ui.status.is_refusal(), self.ui.status.text.clone())
            }
            Err(e) => {
                let m = format!("Not replaced: {e}");
                self.ui.status.refuse(m.clone());
                (true, m)
            }
        };
        if let Some(w) = self.catalog_browser() {
            w.say(msg.0, msg.1);
        }
    }

    /// Imports a NetBox device type as a user part, keeping what the importer noticed in view.
    pub(super) fn import_netbox(
        &mut self,
        path: &std::path::Path,
        kind: Option<crate::catalog::netbox::ImportKind>,
    ) {
        if let Some(w) = self.catalog_browser() {
            w.ask_kind(None);
        }
        match crate::catalog::netbox::import_as(path, &self.catalogs.builtin, kind) {
            Ok(imported) => {
                // A slug that names a built-in part must not silently replace it.
                let id = if self
                    .catalogs
                    .builtin
                    .parts
                    .contains_key(&PartId::new(&imported.id))
                {
                    user::free_id(&self.catalog, &imported.id)
                } else {
                    PartId::new(&imported.id)
                };
                let category = imported.part.kind.category().label();
                self.catalogs.user.parts.insert(id.clone(), imported.part);
                if let Some(w) = self.opened_catalog_browser() {
                    w.imported(id.clone(), imported.warnings.clone());
                }
                let n = imported.warnings.len();
                self.save_user_catalog(format!(
                    "Imported {} as {id}, a {} part because {} ({}: check them before trusting the part)",
                    path.display(),
                    category,
                    imported.kind_reason,
                    crate::analysis::format::count(n, "warning", "warnings")
                ));
            }
            Err(e @ crate::catalog::netbox::ImportError::UnclearKind { .. }) => {
                // The data does not say: the window asks which kind it is.
                let m = format!("Not imported yet: {e}");
                if let Some(w) = self.opened_catalog_browser() {
                    w.say(true, m);
                    w.ask_kind(Some(path.to_path_buf()));
                }
            }
            Err(e) => {
                let m = format!("Not imported: {e}");
                self.ui.status.refuse(m.clone());
                if let Some(w) = self.opened_catalog_browser() {
                    w.say(true, m);
                }
            }
        }
    }
}
