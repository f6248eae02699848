//! Descriptor slot tables: which slot of a descriptor list holds what.

use super::{AbiError, Env, SlotEntry, SlotTable};

/// A slot: its number (in units of its own size) and where it starts in dwords.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub index: u32,
    pub dwords: u32,
    pub dword_offset: u32,
}

impl SlotEntry {
    /// Slot of element `i` (0 for a single entry).
    pub fn slot(&self, i: i64) -> Result<Slot, AbiError> {
        let count = self.count.unwrap_or(1) as i64;
        if i < 0 || i >= count {
            return Err(AbiError::IndexOutOfRange { arg: self.name, index: i, count });
        }
        let index = Env::new(0, &[i]).eval(self.slot).clamp(0, u32::MAX as i64) as u32;
        Ok(Slot { index, dwords: self.dwords, dword_offset: index.saturating_mul(self.dwords) })
    }

    /// Every slot of the entry, in element order.
    pub fn slots(&self) -> impl Iterator<Item = Slot> + '_ {
        (0..self.count.unwrap_or(1) as i64).filter_map(|i| self.slot(i).ok())
    }
}

impl SlotTable {
    pub fn entry(&self, name: &str) -> Option<&SlotEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The first two entries whose dwords overlap, or an entry past the table's
    /// size: `(entry, other)`; `other` is `None` for the size.
    pub fn conflict(&self) -> Option<(usize, Option<usize>)> {
        let mut spans = Vec::new();
        for (k, e) in self.entries.iter().enumerate() {
            for s in e.slots() {
                if self.dwords.is_some_and(|d| s.dword_offset + s.dwords > d) {
                    return Some((k, None));
                }
                spans.push((s.dword_offset, s.dword_offset + s.dwords, k));
            }
        }
        spans.sort();
        spans.windows(2).find(|w| w[1].0 < w[0].1).map(|w| (w[0].2.max(w[1].2), Some(w[0].2.min(w[1].2))))
    }
}
