//! Packing and unpacking words made of named bit fields (radeonsi's
//! `vs_state_bits`, a prim mask, ...). A value too wide for its field is an
//! error naming the field, never silently truncated.

use super::{AbiError, Word, WordField};

impl WordField {
    /// Largest value the field holds.
    pub fn max(&self) -> u64 {
        if self.width >= 64 { u64::MAX } else { (1u64 << self.width) - 1 }
    }

    /// The field's bits within the word.
    pub fn mask(&self) -> u64 {
        self.max().checked_shl(self.lo).unwrap_or(0)
    }
}

impl Word {
    pub fn field(&self, name: &str) -> Option<&WordField> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Packs `values`, one per field in declaration order (missing ones are 0).
    pub fn pack(&self, values: &[u64]) -> Result<u64, AbiError> {
        let mut w = 0u64;
        for (f, &v) in self.fields.iter().zip(values) {
            if v > f.max() {
                return Err(AbiError::FieldOutOfRange { word: self.name, field: f.name, value: v, max: f.max() });
            }
            w |= v << f.lo;
        }
        Ok(w)
    }

    /// The field values of `word`, in declaration order. Bits no field covers are
    /// ignored (the sources name only some bits of some words); bits above the
    /// word's width are an error.
    pub fn unpack(&self, word: u64) -> Result<Vec<u64>, AbiError> {
        if self.bits < 64 && word >> self.bits != 0 {
            return Err(AbiError::WordTooWide { word: self.name, value: word, bits: self.bits });
        }
        Ok(self.fields.iter().map(|f| (word & f.mask()) >> f.lo).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static W: Word = Word {
        name: "w",
        doc: "",
        bits: 16,
        registers: &[],
        fields: &[WordField { name: "a", doc: "", lo: 0, width: 3 }, WordField { name: "b", doc: "", lo: 8, width: 8 }],
    };

    #[test]
    fn round_trip_at_limits() {
        let w = W.pack(&[7, 255]).unwrap();
        assert_eq!(w, 0xff07);
        assert_eq!(W.unpack(w).unwrap(), [7, 255]);
        let e = W.pack(&[8, 0]).unwrap_err();
        assert!(e.to_string().contains("field a"), "{e}");
        assert!(W.unpack(0x1_0000).is_err());
        assert_eq!(W.unpack(0x00f0).unwrap(), [0, 0]);
    }
}
