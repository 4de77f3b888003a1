//! The traffic patterns the analysis routes on the drawn topology, in report order: every pattern list in the
//! report (`routing.patterns`, each link's `loads_gbps`) is in this order, so a pattern is found by its index, never
//! by its name.

/// A traffic pattern routed by the analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Pattern {
    /// All-reduce as one flat ring over every GPU.
    #[default]
    FlatRing,
    /// All-reduce with one ring per rail.
    RailRings,
    /// Every GPU sending to every GPU in the other servers (the all-to-all of expert-parallel training).
    AllToAll,
    /// Each GPU reading at the design's storage rate from the storage appliances it can reach.
    StorageRead,
    /// Serving requests and responses between the GPUs and a virtual ingress beside the top-tier switches (where
    /// border routers attach).
    Inference,
}

impl Pattern {
    /// Every pattern, in report order.
    pub const ALL: [Pattern; 5] = [
        Pattern::FlatRing,
        Pattern::RailRings,
        Pattern::AllToAll,
        Pattern::StorageRead,
        Pattern::Inference,
    ];

    /// The patterns' names as the report gives them, in report order.
    pub const LABELS: [&'static str; 5] = [
        "all-reduce, flat ring",
        "all-reduce, hierarchical (one ring per rail)",
        "all-to-all",
        "storage read",
        "inference serving",
    ];

    /// Index into the report's per-pattern lists.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The pattern at an index of the report's per-pattern lists.
    pub fn from_index(i: usize) -> Option<Pattern> {
        Self::ALL.get(i).copied()
    }

    /// The report's name of the pattern.
    pub fn label(self) -> &'static str {
        Self::LABELS[self.index()]
    }

    /// Whether the pattern is a collective of a training job (all-reduce or all-to-all), as opposed to storage or
    /// serving traffic.
    pub fn is_collective(self) -> bool {
        matches!(
            self,
            Pattern::FlatRing | Pattern::RailRings | Pattern::AllToAll
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_labels_follow_report_order() {
        for (i, p) in Pattern::ALL.into_iter().enumerate() {
            assert_eq!(p.index(), i);
            assert_eq!(Pattern::from_index(i), Some(p));
            assert_eq!(p.label(), Pattern::LABELS[i]);
        }
        assert_eq!(Pattern::from_index(5), None);
        assert_eq!(Pattern::ALL.iter().filter(|p| p.is_collective()).count(), 3);
    }
}
