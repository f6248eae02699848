//! Instructions the backend writes from spec templates (copies, selects): IR
//! text with `{name}` placeholders for the values.

use crate::error::{IrError, Pos};
use crate::ir::{Function, Inst, Op, Piece, ValueId};
use crate::resolve::resolve_inst;
use crate::target::Target;

/// A value a placeholder stands for: written (a result) or read.
#[derive(Clone, Copy, Debug)]
pub enum Slot {
    Def(ValueId),
    Use(ValueId),
}

/// Builds and resolves the instruction `text` with `{name}` replaced by `slots`.
pub fn instantiate(f: &Function, t: &Target, text: &str, slots: &[(&str, Slot)], pos: Pos) -> Result<Inst, IrError> {
    let text = text.trim();
    let (mnemonic, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let mut operands = Vec::new();
    let (mut defs, mut uses) = (Vec::new(), Vec::new());
    let mut rest = rest.trim_start();
    while !rest.is_empty() {
        let Some(open) = rest.find('{') else {
            operands.push(Piece::Text(rest.to_string()));
            break;
        };
        if open > 0 {
            operands.push(Piece::Text(rest[..open].to_string()));
        }
        let close = rest[open..].find('}').map(|c| open + c).unwrap_or(rest.len());
        let name = &rest[open + 1..close.min(rest.len())];
        match slots.iter().find(|(n, _)| *n == name) {
            Some((_, Slot::Def(v))) => {
                operands.push(Piece::Def(defs.len() as u32));
                defs.push(*v);
            }
            Some((_, Slot::Use(v))) => {
                operands.push(Piece::Use(uses.len() as u32));
                uses.push(*v);
            }
            None => return Err(IrError::new(pos, format!("template `{text}`: no value for `{{{name}}}`"))),
        }
        rest = rest.get(close + 1..).unwrap_or("");
    }
    let mut inst = Inst { op: Op::Machine { mnemonic: mnemonic.to_string(), operands, leaf: None }, defs, uses, pos };
    resolve_inst(f, t, &mut inst)?;
    Ok(inst)
}

/// A copy of one register of class `class` (`machine: copy:`), defining `dst`.
pub fn copy(f: &Function, t: &Target, dst: ValueId, src: ValueId, pos: Pos) -> Result<Inst, IrError> {
    let v = &f.values[src as usize];
    let c = v.cls.unwrap_or(0);
    let Some(rule) = t.machine.copies.iter().find(|r| r.class == c) else {
        return Err(IrError::new(
            pos,
            format!("`%{}` must be copied, but the target gives no copy for class `{}`", v.name, v.class),
        )
        .help("add the class to `machine: copy:` in the spec, or avoid using one value in two groups"));
    };
    if v.regs != 1 {
        return Err(IrError::new(
            pos,
            format!("`%{}` ({} registers) must be copied; only single registers are copied", v.name, v.regs),
        )
        .help("split it and collect the parts where they are needed"));
    }
    instantiate(f, t, rule.text, &[("dst", Slot::Def(dst)), ("src", Slot::Use(src))], pos)
}
