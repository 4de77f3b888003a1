//! The one table of keyboard actions: each action's keys, its label in the help window and the command it pushes.
//! The shortcut handler, the help window's shortcut table and the menus' shortcut text are all read from it, so a
//! key is written once.

use super::commands::{AppCommand, DocCommand, FileCommand, UiCommand};
use super::state::FitTarget;
use egui::{Key, KeyboardShortcut, Modifiers};

/// A user action reachable from the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// A new empty design.
    New,
    /// Open a design file.
    Open,
    /// Save under a new name (before Save: Ctrl+Shift+S also matches Ctrl+S).
    SaveAs,
    /// Save.
    Save,
    /// Export the HTML review report.
    ExportHtml,
    /// Redo (before Undo: Ctrl+Shift+Z also matches Ctrl+Z).
    Redo,
    /// Undo.
    Undo,
    /// Duplicate the selection.
    Duplicate,
    /// Copy the selected devices.
    Copy,
    /// Paste into the selected rack.
    Paste,
    /// Delete the selection.
    Delete,
    /// Close the window on top, or clear the selection.
    Escape,
    /// Frame the selection.
    Fit,
}

/// An action's row in the table.
pub struct ActionKeys {
    /// The action.
    pub action: Action,
    /// Its keys, the first the one menus show.
    pub keys: &'static [KeyboardShortcut],
    /// What it does, in the help window's words.
    pub help: &'static str,
    /// Whether it works while a text field has the keyboard (file actions do; editing ones would edit the field's
    /// text instead).
    pub while_typing: bool,
}

const fn key(modifiers: Modifiers, key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(modifiers, key)
}

const CMD_SHIFT: Modifiers = Modifiers::COMMAND.plus(Modifiers::SHIFT);

/// Every keyboard action, in the order keys are matched (a shortcut with Shift before the same one without).
pub const ACTIONS: &[ActionKeys] = &[
    ActionKeys {
        action: Action::New,
        keys: &[key(Modifiers::COMMAND, Key::N)],
        help: "New design",
        while_typing: true,
    },
    ActionKeys {
        action: Action::Open,
        keys: &[key(Modifiers::COMMAND, Key::O)],
        help: "Open…",
        while_typing: true,
    },
    ActionKeys {
        action: Action::SaveAs,
        keys: &[key(CMD_SHIFT, Key::S)],
        help: "Save As…",
        while_typing: true,
    },
    ActionKeys {
        action: Action::Save,
        keys: &[key(Modifiers::COMMAND, Key::S)],
        help: "Save",
        while_typing: true,
    },
    ActionKeys {
        action: Action::ExportHtml,
        keys: &[key(Modifiers::COMMAND, Key::E)],
        help: "Export the HTML review report…",
        while_typing: true,
    },
    ActionKeys {
        action: Action::Redo,
        keys: &[key(CMD_SHIFT, Key::Z), key(Modifiers::COMMAND, Key::Y)],
        help: "Redo",
        while_typing: false,
    },
    ActionKeys {
        action: Action::Undo,
        keys: &[key(Modifiers::COMMAND, Key::Z)],
        help: "Undo",
        while_typing: false,
    },
    ActionKeys {
        action: Action::Duplicate,
        keys: &[key(Modifiers::COMMAND, Key::D)],
        help: "Duplicate the selection to the first free units",
        while_typing: false,
    },
    ActionKeys {
        action: Action::Copy,
        keys: &[key(Modifiers::COMMAND, Key::C)],
        help: "Copy the selected devices",
        while_typing: false,
    },
    ActionKeys {
        action: Action::Paste,
        keys: &[key(Modifiers::COMMAND, Key::V)],
        help: "Paste into the selected rack",
        while_typing: false,
    },
    ActionKeys {
        action: Action::Delete,
        keys: &[
            key(Modifiers::NONE, Key::Delete),
            key(Modifiers::NONE, Key::Backspace),
        ],
        help: "Delete the selection",
        while_typing: false,
    },
    ActionKeys {
        action: Action::Escape,
        keys: &[key(Modifiers::NONE, Key::Escape)],
        help: "Close the window on top; with none, clear the selection / cancel connecting",
        while_typing: false,
    },
    ActionKeys {
        action: Action::Fit,
        keys: &[key(Modifiers::NONE, Key::F)],
        help: "Frame the selection (or everything)",
        while_typing: false,
    },
];

/// The mouse's gestures, for the help window beside the keys.
pub const MOUSE: [(&str, &str); 7] = [
    ("Click / Shift+click", "Select / add to the selection"),
    ("Drag inside a rack", "Box select (Shift: add)"),
    ("Drag on the floor, middle or right drag", "Pan"),
    ("Wheel, Ctrl+wheel", "Zoom around the pointer"),
    (
        "Drag a device",
        "Move it (snaps to units; red ghost: refused)",
    ),
    ("Drag a part from the palette", "Add it to a rack"),
    (
        "Double-click a server",
        "Server internals (GPU and NIC slots)",
    ),
];

/// An action's row.
pub fn keys_of(action: Action) -> &'static ActionKeys {
    ACTIONS
        .iter()
        .find(|a| a.action == action)
        .unwrap_or(&ACTIONS[0])
}

/// A shortcut as the user reads it: "Ctrl+Shift+Z" (Cmd on a Mac).
pub fn format(ctx: &egui::Context, shortcut: &KeyboardShortcut) -> String {
    ctx.format_shortcut(shortcut)
}

/// The text a menu entry shows for an action: its first key.
pub fn menu_text(ctx: &egui::Context, action: Action) -> String {
    keys_of(action)
        .keys
        .first()
        .map_or_else(String::new, |k| format(ctx, k))
}

/// The help window's rows: every action's keys ("Ctrl+Shift+Z, Ctrl+Y") and what it does, then the mouse's.
pub fn help_rows(ctx: &egui::Context) -> Vec<(String, &'static str)> {
    ACTIONS
        .iter()
        .map(|a| {
            let keys: Vec<String> = a.keys.iter().map(|k| format(ctx, k)).collect();
            (keys.join(", "), a.help)
        })
        .chain(MOUSE.iter().map(|(k, v)| ((*k).to_string(), *v)))
        .collect()
}

/// The command an action pushes (Escape has none: the shell closes the window on top first).
pub fn command(action: Action) -> Option<AppCommand> {
    Some(match action {
        Action::New => FileCommand::New.into(),
        Action::Open => FileCommand::Open(None).into(),
        Action::SaveAs => FileCommand::SaveAs.into(),
        Action::Save => FileCommand::Save.into(),
        Action::ExportHtml => {
            FileCommand::Export(crate::export::Format::Html, crate::export::View::default()).into()
        }
        Action::Redo => DocCommand::Redo.into(),
        Action::Undo => DocCommand::Undo.into(),
        Action::Duplicate => DocCommand::DuplicateSelection.into(),
        Action::Copy => UiCommand::Copy.into(),
        Action::Paste => DocCommand::Paste.into(),
        Action::Delete => DocCommand::DeleteSelection.into(),
        Action::Fit => UiCommand::Fit(FitTarget::Selection).into(),
        Action::Escape => return None,
    })
}

/// The actions whose keys were pressed this frame, taking the keys (only those that work while typing when a
/// text field or prompt has the keyboard). Copy and paste also come as the windowing layer's events.
pub fn pressed(input: &mut egui::InputState, typing: bool) -> Vec<Action> {
    let copy = input.events.iter().any(|e| matches!(e, egui::Event::Copy));
    let paste = input
        .events
        .iter()
        .any(|e| matches!(e, egui::Event::Paste(_)));
    let mut out = Vec::new();
    for a in ACTIONS {
        if typing && !a.while_typing {
            continue;
        }
        // Each key is taken even when an earlier one of the same action matched, as the handler always did.
        let mut hit = false;
        for k in a.keys {
            hit |= input.consume_shortcut(k);
        }
        hit |= (a.action == Action::Copy && copy) || (a.action == Action::Paste && paste);
        if hit {
            out.push(a.action);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every action has a row with keys, and no key is given to two actions (a key read twice would run the
    /// first action only).
    #[test]
    fn every_action_has_its_own_keys() {
        for a in [
            Action::New,
            Action::Open,
            Action::SaveAs,
            Action::Save,
            Action::ExportHtml,
            Action::Redo,
            Action::Undo,
            Action::Duplicate,
            Action::Copy,
            Action::Paste,
            Action::Delete,
            Action::Escape,
            Action::Fit,
        ] {
            assert_eq!(keys_of(a).action, a);
            assert!(!keys_of(a).keys.is_empty(), "{a:?}");
        }
        let all: Vec<_> = ACTIONS.iter().flat_map(|a| a.keys.iter()).collect();
        for (i, k) in all.iter().enumerate() {
            assert!(!all[i + 1..].contains(k), "{k:?} is given twice");
        }
    }

    /// The help rows are the table's: Redo's two keys on one row, as the user types them, and the mouse after.
    #[test]
    fn help_rows_come_from_the_table() {
        let ctx = egui::Context::default();
        let rows = help_rows(&ctx);
        assert_eq!(rows.len(), ACTIONS.len() + MOUSE.len());
        let redo = rows.iter().find(|(_, v)| *v == "Redo").unwrap();
        if ctx.os() != egui::os::OperatingSystem::Mac {
            assert_eq!(redo.0, "Ctrl+Shift+Z, Ctrl+Y");
        }
    }
}
