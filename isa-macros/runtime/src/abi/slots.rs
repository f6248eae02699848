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
    /// Slot of element `i` (0 for a single entry): an error when its
    /// expression gives a slot below 0 or one whose dwords do not all have
    /// a 32-bit offset (never clamped or wrapped onto another slot).
    pub fn slot(&self, i: i64) -> Result<Slot, AbiError> {
        let count = self.count.unwrap_or(1) as i64;
        if i < 0 || i >= count {
            return Err(AbiError::IndexOutOfRange { arg: self.name, index: i, count });
        }
        let slot = Env::new(0, &[i]).eval(self.slot);
        let end = (slot as i128 + 1) * self.dwords as i128;
        match (u32::try_from(slot), end <= 1 << 32) {
            (Ok(index), true) => Ok(Slot { index, dwords: self.dwords, dword_offset: index * self.dwords }),
            _ => Err(AbiError::SlotOutOfRange { entry: self.name, index: i, slot, dwords: self.dwords }),
        }
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
    /// size: `(entry, other)`; `other` is `None` for the size. Slots that
    /// [`SlotEntry::slot`] rejects are not placed (the spec loader reports
    /// them first).
    pub fn conflict(&self) -> Option<(usize, Option<usize>)> {
        let mut spans = Vec::new();
        for (k, e) in self.entries.iter().enumerate() {
            for s in e.slots() {
                let end = s.dword_offset as u64 + s.dwords as u64;
                if self.dwords.is_some_and(|d| end > d as u64) {
                    return Some((k, None));
                }
                spans.push((s.dword_offset as u64, end, k));
            }
        }
        spans.sort();
        spans.windows(2).find(|w| w[1].0 < w[0].1).map(|w| (w[0].2.max(w[1].2), Some(w[0].2.min(w[1].2))))
    }
}
