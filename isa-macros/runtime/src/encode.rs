//! Packing: build an instruction field by field, each value checked against its
//! field's width and signedness, so nothing is ever truncated silently.

use crate::Inst;
use crate::bits::{Bits, insert, mask_of};
use crate::error::FieldError;
use crate::tables::{Isa, Src, Ty};

/// Builds one encoding (an instruction, or an operand form inside one).
#[derive(Clone, Debug)]
pub struct Builder<'a> {
    isa: &'a Isa,
    leaf: u16,
    bits: Bits,
}

impl<'a> Builder<'a> {
    /// Starts the encoding with this key (`add.f`, `multisrc-gpr`, ...), its
    /// identifying bits set and everything else zero.
    pub fn new(isa: &'a Isa, key: &str) -> Result<Self, FieldError> {
        let leaf = isa.leaf_by_key(key).ok_or_else(|| FieldError::NoSuchLeaf { name: key.to_string() })?;
        Ok(Self::for_leaf(isa, leaf))
    }

    pub fn for_leaf(isa: &'a Isa, leaf: u16) -> Self {
        let l = &isa.leaves[leaf as usize];
        Builder { isa, leaf, bits: l.value & l.mask }
    }

    fn find(&self, name: &str) -> Result<&'static crate::Field, FieldError> {
        let leaf = &self.isa.leaves[self.leaf as usize];
        // The default case first: its fields are the encoding's own; case-only
        // fields (such as a folded nop count) come after.
        leaf.cases
            .iter()
            .rev()
            .filter(|c| !c.parse_only)
            .flat_map(|c| c.fields.iter())
            .find(|f| f.name == name)
            .ok_or_else(|| FieldError::NoSuchField { leaf: leaf.key, field: name.to_string() })
    }

    /// Sets a field, checking the value against its range.
    pub fn set(mut self, name: &str, value: i64) -> Result<Self, FieldError> {
        let leaf = &self.isa.leaves[self.leaf as usize];
        let field = self.find(name)?;
        let Src::Bits(ranges) = field.src else {
            return Err(FieldError::NotSettable { leaf: leaf.key, field: field.name });
        };
        let width = crate::width_of(ranges);
        let (min, max) = field.value_range(width);
        let v = value as i128;
        if v < min || v > max {
            return Err(FieldError::OutOfRange { leaf: leaf.key, field: field.name, value: v, min, max });
        }
        self.bits = insert(self.bits, 0, ranges, (v as u128) & mask_of(0, width)).0;
        Ok(self)
    }

    /// Sets an operand field to a sub-encoding built separately.
    pub fn set_operand(mut self, name: &str, operand: Builder<'_>) -> Result<Self, FieldError> {
        let leaf = &self.isa.leaves[self.leaf as usize];
        let field = self.find(name)?;
        let (Ty::Group { group, .. }, Src::Bits(ranges)) = (field.ty, field.src) else {
            return Err(FieldError::NotSettable { leaf: leaf.key, field: field.name });
        };
        let sub = &self.isa.leaves[operand.leaf as usize];
        if sub.group != group {
            return Err(FieldError::Inconsistent {
                leaf: leaf.key,
                reason: format!("`{}` is not an operand form of field {}", sub.key, field.name),
            });
        }
        let width = crate::width_of(ranges);
        self.bits = insert(self.bits, 0, ranges, operand.bits & mask_of(0, width)).0;
        Ok(self)
    }

    /// The bits so far.
    pub fn bits(&self) -> Bits {
        self.bits
    }

    /// Finishes an instruction, checking that it decodes back to this encoding in
    /// `gen_` (so case conditions and operand forms are consistent).
    pub fn finish(self, gen_: u32) -> Result<Inst, FieldError> {
        let leaf = &self.isa.leaves[self.leaf as usize];
        match self.isa.decode(self.bits, gen_) {
            Ok(inst) if inst.leaf == self.leaf => Ok(inst),
            Ok(inst) => Err(FieldError::Inconsistent {
                leaf: leaf.key,
                reason: format!("the bits decode as `{}`", self.isa.leaves[inst.leaf as usize].key),
            }),
            Err(e) => Err(FieldError::Inconsistent { leaf: leaf.key, reason: e.to_string() }),
        }
    }
}
