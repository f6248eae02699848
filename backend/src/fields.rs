//! Changing one field of an encoded instruction (a sync flag, a nop count),
//! through the tables: a field read from bits is written directly; a derived
//! field (`NOP: SRC1_R | SRC2_R << 1`) is set by trying the values of the bit
//! fields it reads. The result must decode back to the same encoding.

use isa_runtime::{Inst, Isa, Src, insert, mask_of};

/// Most bits a derived field may read for [`set`] to search them.
const MAX_SEARCH_BITS: u32 = 12;

/// `inst` with field `name` set to `value`.
pub fn set(isa: &Isa, inst: Inst, gen_: u32, name: &str, value: i64) -> Result<Inst, String> {
    let leaf = &isa.leaves[inst.leaf as usize];
    let cases = || leaf.cases.iter().rev().filter(|c| !c.parse_only);
    let direct = cases().flat_map(|c| c.fields.iter()).find(|f| f.name == name && matches!(f.src, Src::Bits(_)));
    let decode_same = |bits| match isa.decode(bits, gen_) {
        Ok(i) if i.leaf == inst.leaf => Some(i),
        _ => None,
    };
    if let Some(field) = direct {
        let Src::Bits(ranges) = field.src else { unreachable!("matched Bits above") };
        let width = isa_runtime::width_of(ranges);
        let (min, max) = field.value_range(width);
        if (value as i128) < min || (value as i128) > max {
            return Err(format!("{} = {value} is outside {min}..={max}", field.name));
        }
        let bits = insert(inst.bits, 0, ranges, (value as u128) & mask_of(0, width)).0;
        return decode_same(bits).ok_or_else(|| format!("setting {name} makes the word another instruction"));
    }
    // A derived field: search the bit fields its expression reads.
    let case = cases()
        .find(|c| c.fields.iter().any(|f| f.name == name))
        .ok_or_else(|| format!("`{}` has no field {name}", leaf.key))?;
    let field = case.fields.iter().find(|f| f.name == name).ok_or_else(|| format!("no field {name}"))?;
    let Src::Expr(e) = field.src else { return Err(format!("{name} cannot be set")) };
    let mut ranges = Vec::new();
    for op in e {
        if let isa_runtime::Op::Field(i) = op
            && let Some(f) = case.fields.get(*i as usize)
            && let Src::Bits(r) = f.src
        {
            ranges.extend_from_slice(r);
        }
    }
    let total: u32 = ranges.iter().map(|r| r.width as u32).sum();
    if total == 0 || total > MAX_SEARCH_BITS {
        return Err(format!("{name} reads {total} bits; cannot search them"));
    }
    for v in 0..(1u128 << total) {
        let mut bits = inst.bits;
        let mut rest = v;
        for r in &ranges {
            let w = r.width as u32;
            bits = insert(bits, 0, std::slice::from_ref(r), rest & mask_of(0, w)).0;
            rest >>= w;
        }
        if let Some(i) = decode_same(bits)
            && isa.field(&i, gen_, name) == Some(value)
        {
            return Ok(i);
        }
    }
    Err(format!("no encoding of `{}` has {name} = {value}", leaf.key))
}

/// A field's value, 0 when the instruction has no such field.
pub fn get(isa: &Isa, inst: &Inst, gen_: u32, name: &str) -> i64 {
    isa.field(inst, gen_, name).unwrap_or(0)
}
