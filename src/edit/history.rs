//! Undo and redo stacks of inverse edits. Never persisted.

use super::{Edit, EditError, apply_settled};
use crate::model::Design;

/// Undo/redo history for one document.
#[derive(Debug, Default, Clone)]
pub struct History {
    undo: Vec<(String, Edit)>,
    redo: Vec<(String, Edit)>,
}

impl History {
    /// Applies an edit as one undoable step labelled for the Edit menu, the flagged links re-estimated after it
    /// ([`super::apply_settled`]); clears the redo stack.
    pub fn apply(
        &mut self,
        design: &mut Design,
        label: impl Into<String>,
        edit: Edit,
    ) -> Result<(), EditError> {
        let inverse = apply_settled(edit, design)?;
        self.undo.push((label.into(), inverse));
        self.redo.clear();
        Ok(())
    }

    /// Undoes the last step; returns its label.
    pub fn undo(&mut self, design: &mut Design) -> Option<String> {
        let (label, edit) = self.undo.pop()?;
        match apply_settled(edit, design) {
            Ok(inverse) => {
                self.redo.push((label.clone(), inverse));
                Some(label)
            }
            Err(_) => None,
        }
    }

    /// Redoes the last undone step; returns its label.
    pub fn redo(&mut self, design: &mut Design) -> Option<String> {
        let (label, edit) = self.redo.pop()?;
        match apply_settled(edit, design) {
            Ok(inverse) => {
                self.undo.push((label.clone(), inverse));
                Some(label)
            }
            Err(_) => None,
        }
    }

    /// Label of the step Undo would revert.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|(l, _)| l.as_str())
    }

    /// Label of the step Redo would reapply.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|(l, _)| l.as_str())
    }

    /// Forgets all steps (after opening another document).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}
