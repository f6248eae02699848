//! Placing a variant's arguments for given parameter values, and checking the
//! result: no overlap, alignment, block and file limits, stated invariants.
//!
//! One function does both, so the positions a driver reads through an accessor
//! are exactly the ones `abi!` validated when it expanded the spec.

use super::{Abi, AbiError, ArgKind, Env, RegFile, Start, Variant};

/// Where one argument (or one element of an array argument) lives.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    pub file: &'static RegFile,
    /// First unit, counted from the file's unit 0.
    pub unit: u32,
    pub units: u32,
    /// First unit, counted from the start of its block (the user SGPR index).
    pub offset: u32,
    /// The user-data register of the first unit: its name stem and address.
    pub user_data: Option<(&'static str, u32)>,
}

/// Files compare by name: a `const` place may hold its own copy of the file.
impl PartialEq for Place {
    fn eq(&self, o: &Place) -> bool {
        (self.file.name, self.unit, self.units, self.offset, self.user_data)
            == (o.file.name, o.unit, o.units, o.offset, o.user_data)
    }
}

impl Eq for Place {}

impl Place {
    /// The register holding the first unit (`r8` -> 8).
    pub fn register(&self) -> u32 {
        self.unit / self.file.register_units.max(1)
    }

    /// The register holding the last unit.
    pub fn last_register(&self) -> u32 {
        (self.unit + self.units.max(1) - 1) / self.file.register_units.max(1)
    }

    /// Which part of its register the first unit is (0 = `l` / `x`).
    pub fn part(&self) -> u32 {
        self.unit % self.file.register_units.max(1)
    }

    /// The name in the file's syntax: `r8..r11`, `r3h`, `s10`.
    pub fn name(&self) -> String {
        self.file.name_of(self.unit, self.units)
    }

    /// The user-data register's address, if the block has one.
    pub fn user_data_register(&self) -> Option<u32> {
        self.user_data.map(|(_, a)| a)
    }

    /// The user-data register's name (`SPI_SHADER_USER_DATA_VS_10`).
    pub fn user_data_name(&self) -> Option<String> {
        self.user_data.map(|(n, _)| format!("{n}_{}", self.offset))
    }
}

/// One placed argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub block: u16,
    pub arg: u16,
    /// The element index of an array argument.
    pub index: Option<u32>,
    pub place: Place,
}

/// A variant's arguments placed for one set of parameter values.
#[derive(Debug, Clone)]
pub struct Layout {
    pub variant: &'static Variant,
    pub gen_: u32,
    /// Parameter values, in ABI order.
    pub params: Vec<i64>,
    pub entries: Vec<Entry>,
    /// Per block: `Some((start, end))` in units, `None` when absent.
    pub blocks: Vec<Option<(u32, u32)>>,
}

impl Variant {
    /// Parameter values for this variant: defaults, then the variant's fixed
    /// values, then `given` by name. Checks names, ranges and fixed values.
    pub fn bind(&self, abi: &Abi, given: &[(&str, i64)]) -> Result<Vec<i64>, AbiError> {
        let mut vals: Vec<i64> = abi.params.iter().map(|p| p.default).collect();
        for &(p, v) in self.set {
            vals[p as usize] = v;
        }
        for &(name, value) in given {
            let k = abi.params.iter().position(|p| p.name == name).ok_or_else(|| AbiError::NoSuch {
                what: "parameter",
                name: name.to_string(),
                known: abi.params.iter().map(|p| p.name).collect(),
            })?;
            let p = &abi.params[k];
            if let Some(&(_, fixed)) = self.set.iter().find(|(q, _)| *q as usize == k)
                && fixed != value
            {
                return Err(AbiError::ParamFixed { param: p.name, value, fixed });
            }
            if value < p.min || value > p.max {
                return Err(AbiError::ParamOutOfRange { param: p.name, value, min: p.min, max: p.max });
            }
            vals[k] = value;
        }
        Ok(vals)
    }

    /// [`bind`](Self::bind) with the free parameters given in order (typed accessors).
    pub fn bind_free(&self, abi: &Abi, free: &[i64]) -> Result<Vec<i64>, AbiError> {
        let named: Vec<(&str, i64)> =
            self.free.iter().zip(free).map(|(&k, &v)| (abi.params[k as usize].name, v)).collect();
        self.bind(abi, &named)
    }

    /// Places every argument for parameter values `params` (from [`bind`](Self::bind))
    /// and checks the result.
    pub fn layout(&'static self, abi: &'static Abi, gen_: u32, params: &[i64]) -> Result<Layout, AbiError> {
        let np = abi.params.len();
        let mut vals = params.to_vec();
        vals.resize(np + 2, 0);
        if !Env::new(gen_, &vals).holds(self.when) {
            return Err(AbiError::VariantNotApplicable { variant: self.name });
        }
        let mut out = Layout { variant: self, gen_, params: params.to_vec(), entries: Vec::new(), blocks: Vec::new() };
        for (bi, b) in self.blocks.iter().enumerate() {
            let start = match b.start {
                Start::Unit(u) => u,
                Start::Follows(k) => out.blocks.get(k as usize).copied().flatten().map_or(0, |(_, e)| e),
            };
            if !Env::new(gen_, &vals).holds(b.when) {
                out.blocks.push(None);
                continue;
            }
            let file = &abi.files[b.file as usize];
            let file_units = file.units_in(gen_);
            let mut cursor = start;
            for (ai, a) in b.args.iter().enumerate() {
                let count = a.count.map(|c| Env::new(gen_, &vals).eval(c));
                // Each element is looked at, placed or not: the count is
                // bounded by what the file could hold.
                if let Some(count) = count
                    && count > file_units as i64
                {
                    let (file, units, block, arg_index) = (file.name, file_units, bi as u16, ai as u16);
                    return Err(AbiError::TooManyElements { arg: a.name, count, file, units, block, arg_index });
                }
                for idx in 0..count.unwrap_or(1).max(0) {
                    vals[Env::index_slot(np)] = idx;
                    let env = Env::new(gen_, &vals);
                    if !env.holds(a.when) {
                        continue;
                    }
                    let units = a.bits.div_ceil(file.unit_bits.max(1));
                    let align = a.align.unwrap_or_else(|| file.align_of(a.bits)).max(1);
                    // Saturating: a place past 63 bits is past every file's end.
                    let at = match a.at {
                        Some(e) => (start as i64).saturating_add(env.eval(e)),
                        None => cursor.div_ceil(align) as i64 * align as i64,
                    };
                    let (block, arg_index) = (bi as u16, ai as u16);
                    let end = at.saturating_add(units as i64);
                    if at < 0 || end > file_units as i64 {
                        let what = "end of register file";
                        return Err(AbiError::OverLimit {
                            arg: a.name,
                            end,
                            limit: file_units,
                            what,
                            block,
                            arg_index,
                        });
                    }
                    if let Some(limit) = b.limit
                        && end - start as i64 > limit as i64
                    {
                        let what = "block's limit";
                        return Err(AbiError::OverLimit { arg: a.name, end, limit, what, block, arg_index });
                    }
                    let at = at as u32;
                    if !at.is_multiple_of(align) {
                        return Err(AbiError::Misaligned { arg: a.name, unit: at, align, block, arg_index });
                    }
                    cursor = cursor.max(at + units);
                    let offset = at - start;
                    let user_data = match &b.user_data {
                        None => None,
                        Some(u) => match offset.checked_mul(u.stride).and_then(|o| o.checked_add(u.base)) {
                            Some(register) => Some((u.name, register)),
                            None => {
                                let (base, stride) = (u.base, u.stride);
                                return Err(AbiError::UserDataTooFar {
                                    arg: a.name,
                                    base,
                                    offset,
                                    stride,
                                    block,
                                    arg_index,
                                });
                            }
                        },
                    };
                    let place = Place { file, unit: at, units, offset, user_data };
                    let index = count.map(|_| idx as u32);
                    out.entries.push(Entry { block: bi as u16, arg: ai as u16, index, place });
                }
            }
            out.blocks.push(Some((start, cursor)));
            vals[Env::index_slot(np) + 1] = (cursor - start) as i64;
            for (k, inv) in b.invariants.iter().enumerate() {
                let env = Env::new(gen_, &vals);
                if env.holds(inv.when) && env.eval(inv.check) == 0 {
                    return Err(AbiError::InvariantFailed {
                        block: b.name,
                        check: inv.text,
                        params: self.describe(abi, gen_, params),
                        block_index: bi as u16,
                        invariant: k as u16,
                    });
                }
            }
        }
        out.check_overlap()?;
        Ok(out)
    }

    /// The place of element `index` of argument `arg` of block `block`, for the
    /// free parameters `free` (in [`Variant::free`] order).
    pub fn place(
        &'static self,
        abi: &'static Abi,
        gen_: u32,
        free: &[i64],
        block: u16,
        arg: u16,
        index: Option<i64>,
    ) -> Result<Place, AbiError> {
        let params = self.bind_free(abi, free)?;
        let layout = self.layout(abi, gen_, &params)?;
        let a = &self.blocks[block as usize].args[arg as usize];
        if let (Some(i), Some(c)) = (index, a.count) {
            let np = abi.params.len();
            let mut vals = params.clone();
            vals.resize(np + 2, 0);
            let count = Env::new(gen_, &vals).eval(c);
            if i < 0 || i >= count {
                return Err(AbiError::IndexOutOfRange { arg: a.name, index: i, count });
            }
        }
        let want = index.map(|i| i as u32);
        layout
            .entries
            .iter()
            .find(|e| e.block == block && e.arg == arg && e.index == want)
            .map(|e| e.place)
            .ok_or(AbiError::Absent { arg: a.name })
    }

    /// `n = 3, gen 8`: the values of this variant's free parameters, for messages.
    pub fn describe(&self, abi: &Abi, gen_: u32, params: &[i64]) -> String {
        let mut parts: Vec<String> =
            self.free.iter().map(|&k| format!("{} = {}", abi.params[k as usize].name, params[k as usize])).collect();
        if !abi.gens.is_empty() {
            parts.push(format!("gen {gen_}"));
        }
        if parts.is_empty() { "the only layout".into() } else { parts.join(", ") }
    }

    /// The argument a name refers to: `(block, arg)`.
    pub fn find_arg(&self, name: &str) -> Option<(u16, u16)> {
        self.blocks
            .iter()
            .enumerate()
            .find_map(|(bi, b)| b.args.iter().position(|a| a.name == name).map(|ai| (bi as u16, ai as u16)))
    }
}

impl Layout {
    fn check_overlap(&self) -> Result<(), AbiError> {
        let mut order: Vec<&super::Entry> = self.entries.iter().collect();
        order.sort_by_key(|e| (e.place.file.name, e.place.unit, e.block, e.arg));
        for w in order.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a.place.file.name == b.place.file.name && b.place.unit < a.place.unit + a.place.units {
                let name = |e: &super::Entry| self.variant.blocks[e.block as usize].args[e.arg as usize].name;
                // Point at whichever of the two is declared later.
                let later = if (a.block, a.arg) > (b.block, b.arg) { a } else { b };
                let first = if std::ptr::eq(later, a) { b } else { a };
                return Err(AbiError::Overlap {
                    file: a.place.file.name,
                    unit: b.place.unit,
                    first: name(first),
                    second: name(later),
                    block: later.block,
                    arg: later.arg,
                });
            }
        }
        Ok(())
    }

    /// The kind of an entry's argument.
    pub fn kind(&self, e: &Entry) -> ArgKind {
        self.variant.blocks[e.block as usize].args[e.arg as usize].kind
    }
}
