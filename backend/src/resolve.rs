//! Checking a parsed function against a target: register classes exist and are
//! big enough, every machine instruction assembles (which names its encoding,
//! and so its scheduling class and flags), inputs and outputs name registers
//! the target has.

use crate::error::{IrError, Pos};
use crate::ir::{Function, Inst, Op, Piece, Place, ValueId};
use crate::target::Target;

/// Resolves classes and encodings in place.
pub fn resolve(f: &mut Function, t: &Target) -> Result<(), IrError> {
    for v in &mut f.values {
        let Some(c) = t.class_by_name(&v.class) else {
            return Err(IrError::new(v.pos, format!("`%{}`: the target has no register class `{}`", v.name, v.class))
                .help(format!("register classes of {}: {}", t.isa.name, t.class_names())));
        };
        if t.machine.files[t.machine.classes[c as usize].file as usize].read_only {
            return Err(IrError::new(
                v.pos,
                format!("`%{}`: class `{}` is read-only; it cannot hold a value", v.name, v.class),
            )
            .help("name such registers directly in the instruction text"));
        }
        let have = t.class_regs(c);
        if v.regs > have {
            return Err(IrError::new(
                v.pos,
                format!("`%{}` takes {} `{}` registers; there are {have}", v.name, v.regs, v.class),
            ));
        }
        v.cls = Some(c);
    }
    let mut blocks = std::mem::take(&mut f.blocks);
    let mut result = Ok(());
    'outer: for b in &mut blocks {
        for i in &mut b.insts {
            if let Err(e) = resolve_inst(f, t, i) {
                result = Err(e);
                break 'outer;
            }
        }
    }
    f.blocks = blocks;
    result
}

/// Resolves one instruction (also used for instructions the backend writes).
pub fn resolve_inst(f: &Function, t: &Target, i: &mut Inst) -> Result<(), IrError> {
    match &i.op {
        Op::Machine { .. } => {
            let text = asm_text(f, i, &|v| {
                let val = &f.values[v as usize];
                t.reg_name(val.cls.unwrap_or(0), 0, val.regs)
            });
            match t.isa.parse(&text, t.gen_) {
                Ok(inst) => {
                    if let Op::Machine { leaf, .. } = &mut i.op {
                        *leaf = Some(inst.leaf);
                    }
                }
                Err(e) => {
                    let gen_name = t
                        .isa
                        .gens
                        .iter()
                        .find(|g| g.value == t.gen_)
                        .map_or(t.gen_.to_string(), |g| g.name.to_string());
                    return Err(IrError::new(
                        i.pos,
                        format!("`{text}` is not a {} instruction in {gen_name}: {}", t.isa.name, e.message),
                    )
                    .help("a machine instruction is the target's assembly with values in place of registers"));
                }
            }
        }
        Op::Input(_) => {
            input_register(f, t, i)?;
        }
        Op::Output(Some(_)) => {
            output_register(f, t, i)?;
        }
        _ => {}
    }
    Ok(())
}

/// The assembly text of a machine instruction, registers named by `reg`.
pub fn asm_text(f: &Function, i: &Inst, reg: &dyn Fn(ValueId) -> String) -> String {
    let Op::Machine { mnemonic, operands, .. } = &i.op else { return String::new() };
    let mut s = mnemonic.clone();
    if !operands.is_empty() {
        s.push(' ');
    }
    for p in operands {
        match p {
            Piece::Text(t) => s.push_str(t),
            Piece::Def(d) => s.push_str(&reg(i.defs[*d as usize])),
            Piece::Use(u) => s.push_str(&reg(i.uses[*u as usize])),
        }
    }
    let _ = f;
    s
}

/// The register an input is in (register index of its class).
pub fn input_register(f: &Function, t: &Target, i: &Inst) -> Result<u32, IrError> {
    let Op::Input(place) = &i.op else { return Err(IrError::new(i.pos, "not an input")) };
    let v = &f.values[i.defs[0] as usize];
    let c = v.cls.unwrap_or(0);
    match place {
        Place::Reg(r) => t.reg_by_name(c, r, v.regs).ok_or_else(|| {
            IrError::new(i.pos, format!("`{r}` is not a `{}` register (of {} registers)", v.class, v.regs))
                .help(format!("write it as the target does, e.g. `{}`", t.reg_name(c, 0, v.regs)))
        }),
        Place::Abi(name, index) => abi_register(f, t, i.pos, c, v.regs, name, *index),
    }
}

fn abi_register(
    f: &Function,
    t: &Target,
    pos: Pos,
    c: u16,
    regs: u32,
    name: &str,
    index: Option<u32>,
) -> Result<u32, IrError> {
    let Some(abi) = t.abi else {
        return Err(IrError::new(pos, format!("target {} has no ABI spec to take `{name}` from", t.isa.name))
            .help("give the register instead: `input REGISTER`"));
    };
    let Some(r) = &f.abi else {
        return Err(IrError::new(pos, "`input abi` needs an `abi STAGE VARIANT` line at the top"));
    };
    let stage = abi.stages.iter().find(|s| s.name == r.stage).ok_or_else(|| {
        let names: Vec<_> = abi.stages.iter().map(|s| s.name).collect();
        IrError::new(r.pos, format!("the {} ABI has no stage `{}` (stages: {})", abi.name, r.stage, names.join(", ")))
    })?;
    let variant = stage.variants.iter().find(|v| v.name == r.variant).ok_or_else(|| {
        let names: Vec<_> = stage.variants.iter().map(|v| v.name).collect();
        IrError::new(
            r.pos,
            format!("stage `{}` has no variant `{}` (variants: {})", r.stage, r.variant, names.join(", ")),
        )
    })?;
    let given: Vec<(&str, i64)> = r.params.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let vals = variant.bind(abi, &given).map_err(|e| IrError::new(r.pos, e.to_string()))?;
    let layout = variant.layout(abi, t.gen_, &vals).map_err(|e| IrError::new(r.pos, e.to_string()))?;
    let (block, arg) = variant.find_arg(name).ok_or_else(|| {
        IrError::new(pos, format!("variant `{}` of stage `{}` has no argument `{name}`", r.variant, r.stage))
    })?;
    let entry =
        layout.entries.iter().find(|e| e.block == block && e.arg == arg && e.index == index).ok_or_else(|| {
            let what = index.map_or(String::new(), |k| format!("[{k}]"));
            IrError::new(pos, format!("`{name}{what}` is not present for these ABI parameters"))
        })?;
    let cl = t.class(c);
    if cl.abi_file != entry.place.file.name {
        return Err(IrError::new(
            pos,
            format!(
                "`{name}` is in ABI file `{}`, but class `{}` maps ABI file `{}`",
                entry.place.file.name, cl.name, cl.abi_file
            ),
        ));
    }
    let bit = entry.place.unit * entry.place.file.unit_bits;
    let have = entry.place.units * entry.place.file.unit_bits;
    if !bit.is_multiple_of(cl.bits) || have != regs * cl.bits {
        return Err(IrError::new(
            pos,
            format!("`{name}` holds {have} bits; the value has {regs} `{}` registers of {} bits", cl.name, cl.bits),
        ));
    }
    Ok(bit / cl.bits)
}

/// The register an output must end in, if it names one.
pub fn output_register(f: &Function, t: &Target, i: &Inst) -> Result<Option<u32>, IrError> {
    let Op::Output(Some(r)) = &i.op else { return Ok(None) };
    let v = &f.values[i.uses[0] as usize];
    let c = v.cls.unwrap_or(0);
    t.reg_by_name(c, r, v.regs)
        .map(Some)
        .ok_or_else(|| IrError::new(i.pos, format!("`{r}` is not a `{}` register (of {} registers)", v.class, v.regs)))
}
