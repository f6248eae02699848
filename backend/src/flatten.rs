//! If-conversion (Mesa's "flatten"): a simple if/else whose arms only compute
//! becomes straight-line code, each phi a select instruction (`machine:
//! select:` names it). Straight chains of blocks then merge, so the rest of the
//! pipeline sees one block. Other control flow is reported: branch instructions
//! are not emitted yet.

use std::collections::HashMap;

use crate::error::IrError;
use crate::ir::{Block, Function, Inst, Op};
use crate::target::Target;
use crate::template::{Slot, instantiate};

/// Flattens `f` to one block.
pub fn flatten(f: &mut Function, t: &Target) -> Result<(), IrError> {
    // Text with no instruction (empty, or comments only) has no block; it is
    // an empty entry block, as instructions before any label start one.
    if f.blocks.is_empty() {
        f.blocks.push(Block { name: "entry".to_string(), insts: Vec::new(), pos: crate::Pos { line: 1, col: 1 } });
    }
    loop {
        merge_chains(f);
        if !flatten_one(f, t)? {
            break;
        }
    }
    if f.blocks.len() > 1 || f.blocks.iter().flat_map(|b| &b.insts).any(|i| i.is_terminator()) {
        let at = f
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .find(|i| i.is_terminator())
            .map_or_else(|| f.blocks[1].pos, |i| i.pos);
        return Err(IrError::new(at, "only simple if/else control flow is supported (it is flattened into selects)")
            .help("the arms of an if/else must only compute values (no memory access, barriers or branches)"));
    }
    if let Some(i) = f.blocks.iter().flat_map(|b| &b.insts).find(|i| matches!(i.op, Op::Phi(_))) {
        return Err(IrError::new(i.pos, "a phi outside a flattened if/else"));
    }
    Ok(())
}

/// Where control goes after a block: its terminator's targets, or the next block.
fn successors(f: &Function, b: usize) -> Vec<String> {
    match f.blocks[b].insts.last().map(|i| &i.op) {
        Some(Op::Branch { then, else_ }) => vec![then.clone(), else_.clone()],
        Some(Op::Jump(x)) => vec![x.clone()],
        _ => f.blocks.get(b + 1).map(|n| vec![n.name.clone()]).unwrap_or_default(),
    }
}

fn preds(f: &Function) -> HashMap<String, Vec<String>> {
    let mut p: HashMap<String, Vec<String>> = HashMap::new();
    for b in 0..f.blocks.len() {
        for s in successors(f, b) {
            p.entry(s).or_default().push(f.blocks[b].name.clone());
        }
    }
    p
}

fn index(f: &Function, name: &str) -> Option<usize> {
    f.blocks.iter().position(|b| b.name == name)
}

/// Merges a block into its only predecessor when that predecessor only goes there.
fn merge_chains(f: &mut Function) {
    loop {
        let p = preds(f);
        let mut merged = false;
        for a in 0..f.blocks.len() {
            let succ = successors(f, a);
            if succ.len() != 1 {
                continue;
            }
            let Some(b) = index(f, &succ[0]) else { continue };
            if b == a || b == 0 || p.get(&succ[0]).map_or(0, |v| v.len()) != 1 {
                continue;
            }
            if f.blocks[b].insts.iter().any(|i| matches!(i.op, Op::Phi(_))) {
                continue;
            }
            let blk = f.blocks.remove(b);
            let a = if b < a { a - 1 } else { a };
            if matches!(f.blocks[a].insts.last().map(|i| &i.op), Some(Op::Jump(_))) {
                f.blocks[a].insts.pop();
            }
            // A block that fell through to the next one keeps doing so.
            let falls = blk.insts.last().is_none_or(|i| !i.is_terminator());
            let next = f.blocks.get(b).map(|n| n.name.clone());
            f.blocks[a].insts.extend(blk.insts);
            if falls
                && let Some(next) = next
                && a + 1 != b
            {
                f.blocks[a].insts.push(Inst { op: Op::Jump(next), defs: vec![], uses: vec![], pos: blk.pos });
            }
            rename_pred(f, &blk.name, &f.blocks[a].name.clone());
            merged = true;
            break;
        }
        if !merged {
            return;
        }
    }
}

fn rename_pred(f: &mut Function, from: &str, to: &str) {
    for b in &mut f.blocks {
        for i in &mut b.insts {
            if let Op::Phi(bs) = &mut i.op {
                for x in bs.iter_mut().filter(|x| *x == from) {
                    *x = to.to_string();
                }
            }
        }
    }
}

/// Only computing: safe to run whatever the condition.
fn only_computes(t: &Target, blk: &Block) -> bool {
    blk.insts.iter().all(|i| match &i.op {
        Op::Machine { leaf: Some(l), .. } => {
            t.chains_of(*l) == 0 && t.flags_of(*l).is_empty() && t.sync_of(*l).is_none()
        }
        Op::Collect | Op::Split | Op::Jump(_) => true,
        _ => false,
    })
}

fn flatten_one(f: &mut Function, t: &Target) -> Result<bool, IrError> {
    let p = preds(f);
    for a in 0..f.blocks.len() {
        let Some(Op::Branch { then, else_ }) = f.blocks[a].insts.last().map(|i| i.op.clone()) else { continue };
        let cond = f.blocks[a].insts.last().map(|i| i.uses[0]).unwrap_or(0);
        let branch_pos = f.blocks[a].insts.last().map(|i| i.pos).unwrap_or_default();
        let a_name = f.blocks[a].name.clone();
        let single = |n: &str| p.get(n).is_some_and(|v| v.len() == 1 && v[0] == a_name);
        // The join: where both arms go (an arm may be the join itself).
        let after = |n: &str| -> Option<String> {
            let i = index(f, n)?;
            let s = successors(f, i);
            (s.len() == 1).then(|| s[0].clone())
        };
        let (arms, join) = if then != else_
            && single(&then)
            && single(&else_)
            && after(&then).is_some()
            && after(&then) == after(&else_)
        {
            (vec![then.clone(), else_.clone()], after(&then).unwrap_or_default())
        } else if single(&then) && after(&then).as_deref() == Some(else_.as_str()) {
            (vec![then.clone()], else_.clone())
        } else if single(&else_) && after(&else_).as_deref() == Some(then.as_str()) {
            (vec![else_.clone()], then.clone())
        } else {
            continue;
        };
        let Some(j) = index(f, &join) else { continue };
        let mut jp = p.get(&join).cloned().unwrap_or_default();
        jp.sort();
        let mut expect: Vec<String> = arms.clone();
        if arms.len() == 1 {
            expect.push(a_name.clone());
        }
        expect.sort();
        if jp != expect || j == a {
            continue;
        }
        if !arms.iter().all(|n| index(f, n).is_some_and(|i| only_computes(t, &f.blocks[i]))) {
            continue;
        }
        let Some(sel) = t.machine.select.as_ref() else {
            return Err(IrError::new(
                branch_pos,
                format!(
                    "target {} names no select instruction (`machine: select:`), so if/else cannot be flattened",
                    t.isa.name
                ),
            ));
        };
        if f.values[cond as usize].cls != Some(sel.cond_class) {
            let v = &f.values[cond as usize];
            return Err(IrError::new(
                branch_pos,
                format!(
                    "`%{}` is `{}`; the target's select takes a `{}` condition",
                    v.name,
                    v.class,
                    t.class(sel.cond_class).name
                ),
            ));
        }
        // Hoist the arms into A, before its branch.
        let mut body = Vec::new();
        for n in &arms {
            let i = index(f, n).unwrap_or(0);
            body.extend(f.blocks[i].insts.iter().filter(|x| !x.is_terminator()).cloned());
        }
        let mut selects = Vec::new();
        let mut rest = Vec::new();
        for inst in &f.blocks[j].insts {
            let Op::Phi(from) = &inst.op else {
                rest.push(inst.clone());
                continue;
            };
            let src = |b: &str| from.iter().position(|x| x == b).map(|k| inst.uses[k]);
            let (th, el) =
                (src(if then == join { &a_name } else { &then }), src(if else_ == join { &a_name } else { &else_ }));
            let (Some(th), Some(el)) = (th, el) else {
                return Err(IrError::new(
                    inst.pos,
                    "a phi in the join block lacks a source from one side of the if/else",
                ));
            };
            let d = inst.defs[0];
            if f.values[d as usize].cls != Some(sel.class) {
                let v = &f.values[d as usize];
                return Err(IrError::new(
                    inst.pos,
                    format!(
                        "`%{}` is `{}`; the target's select makes `{}` values",
                        v.name,
                        v.class,
                        t.class(sel.class).name
                    ),
                ));
            }
            let slots =
                [("dst", Slot::Def(d)), ("then", Slot::Use(th)), ("else", Slot::Use(el)), ("cond", Slot::Use(cond))];
            selects.push(instantiate(f, t, sel.text, &slots, inst.pos)?);
        }
        let ablk = &mut f.blocks[a];
        ablk.insts.pop();
        ablk.insts.extend(body);
        ablk.insts.extend(selects);
        let falls = rest.last().is_none_or(|i| !i.is_terminator());
        ablk.insts.extend(rest);
        let jname = f.blocks[j].name.clone();
        let next_after_join = f.blocks.get(j + 1).map(|b| b.name.clone());
        if falls && let Some(n) = next_after_join {
            f.blocks[a].insts.push(Inst { op: Op::Jump(n), defs: vec![], uses: vec![], pos: branch_pos });
        }
        let mut gone: Vec<String> = arms.clone();
        gone.push(jname.clone());
        f.blocks.retain(|b| !gone.contains(&b.name));
        rename_pred(f, &jname, &a_name);
        return Ok(true);
    }
    Ok(false)
}
