//! The operand texts a [`crate::Printer`] remembers.
//!
//! Printing an operand (a sub-encoding) is most of the cost of printing an
//! instruction: picking its form evaluates `requires`, its case `when`, its
//! fields' expressions and the parameters passed down. Yet nothing reaches an
//! operand's text but its group, its depth (which bounds nesting), the bits of
//! its own word and the values of the parameters its field passes in (for one
//! generation and one syntax): its fields are bits of that word or
//! expressions over them and the parameters. Of the parameters, only those
//! the forms its word may take can read count (see [`Memo::reads`]). Code
//! repeats operands (the same registers, the same constants), so a printer
//! keeps their texts. An operand of a group at most [`DENSE_BITS`] wide
//! (most of them) is kept in a [`Dense`] table, by its key without the word
//! then by the word, until the table is full; any other in the text last
//! printed for its key in a direct-mapped table, which checks the whole key
//! on a hit: a collision costs a print, never a wrong text.

use crate::Isa;
use crate::bits::Bits;
use crate::form_starts::FormStarts;
use crate::padded::Text;
use crate::print_plan::NestedPlans;
use crate::tables::{Tok, Ty};
use crate::wide::Wide;

/// Parameters a remembered operand's group may have.
pub(crate) const MAX_PARAMS: usize = 6;

/// Longest text remembered, in bytes: with the key and the length, a slot
/// is 48 bytes. (At 15, ir3 printed slower: its sources with
/// modifiers or relative addresses run longer.)
const MAX_TEXT: usize = 31;

/// Slots in the table; a power of two. 32768 slots (1.5 MiB) hold the
/// operands of varied code (a stream of every GCN encoding finds four
/// operands in five; 4096 slots found fewer than half): a slot read from the
/// next cache level costs tens of nanoseconds, printing the operand again
/// hundreds.
const SLOTS: usize = 1 << 15;

/// A slot's length when it holds nothing.
const EMPTY: u8 = u8::MAX;

/// Bits of a key holding the operand's word, and each parameter value
/// (signed) past them.
const WORD_BITS: u32 = 36;
const PARAM_BITS: u32 = 12;

/// Everything an operand's text depends on, besides the printer's
/// generation and syntax, packed in 128 bits: group (16), depth (4), word
/// ([`WORD_BITS`]) and the parameter values ([`PARAM_BITS`] each). An
/// operand whose word or a parameter is wider is printed each time (a
/// literal's value, which rarely repeats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key(u128);

impl Key {
    /// The key of an operand of `group` at `depth` whose word is `word` and
    /// whose parameters are `params`, if it fits.
    pub fn new(group: u16, depth: usize, word: Bits, params: &[i64]) -> Option<Key> {
        if params.len() > MAX_PARAMS || depth >= 16 || word >> WORD_BITS != 0 {
            return None;
        }
        let mut k = (group as u128) << 4 | depth as u128;
        k = k << WORD_BITS | word;
        for i in 0..MAX_PARAMS {
            let v = params.get(i).copied().unwrap_or(0);
            if !Key::holds(v) {
                return None;
            }
            k = k << PARAM_BITS | (v as u128 & ((1 << PARAM_BITS) - 1));
        }
        Some(Key(k))
    }

    /// The key with parameter `i`, 0 in it, made `v`, if `v` fits.
    fn with_param(self, i: usize, v: i64) -> Option<Key> {
        let shift = PARAM_BITS * (MAX_PARAMS - 1).checked_sub(i)? as u32;
        Key::holds(v).then(|| Key(self.0 | (v as u128 & ((1 << PARAM_BITS) - 1)) << shift))
    }

    /// Whether a parameter's value fits a key.
    pub fn holds(v: i64) -> bool {
        const LIMIT: i64 = 1 << (PARAM_BITS - 1);
        (-LIMIT..LIMIT).contains(&v)
    }

    /// The group it belongs to, and its word.
    fn group(&self) -> usize {
        (self.0 >> (128 - 16)) as usize
    }

    fn word(&self) -> u64 {
        (self.0 >> (MAX_PARAMS as u32 * PARAM_BITS)) as u64 & ((1 << WORD_BITS) - 1)
    }

    /// The key with its word zero: what the operands of a [`Dense`] table
    /// share.
    fn without_word(&self) -> Key {
        Key(self.0 & !(((1u128 << WORD_BITS) - 1) << (MAX_PARAMS as u32 * PARAM_BITS)))
    }

    fn hash(&self) -> u64 {
        // Multiply-xorshift over the key's halves: cheap, and it spreads
        // the low bits (a register number) over the whole hash.
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut h = 0u64;
        for v in [(self.0 >> 64) as u64, self.0 as u64] {
            h = (h ^ v).wrapping_mul(K);
            h ^= h >> 29;
        }
        h
    }

    /// The key's slot: the hash's top bits.
    fn slot(&self) -> usize {
        (self.hash() >> (64 - SLOTS.trailing_zeros())) as usize
    }

    /// The key's slot among the templates'.
    fn template_slot(&self) -> usize {
        (self.hash() >> (64 - TEMPLATE_SLOTS.trailing_zeros())) as usize
    }
}

#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Slot {
    key: Key,
    len: u8,
    text: [u8; MAX_TEXT],
}

/// Operand texts by [`Key`], and which groups' texts may be remembered.
/// What a printer of one instruction never needs is not built: the slots
/// are allocated at the first text kept, a group's table of parameters read
/// at its first operand.
pub(crate) struct Memo {
    /// The texts of narrow groups' operands.
    dense: Dense,
    /// By group index: its width when its texts are kept in `dense`, else
    /// [`NOT_DENSE`].
    dense_bits: Box<[u8]>,
    /// The texts of the other operands.
    slots: Box<[Slot]>,
    /// By group index: whether its text is a function of the key alone.
    fixed: Box<[bool]>,
    /// By group, for groups at most [`MAX_INDEXED`] bits wide: by operand
    /// word, the parameters its text may read (bit `i` for parameter `i`).
    reads: Vec<Table>,
    /// The operand forms printed from their pieces rather than remembered
    /// (see [`NestedPlans`]): what the slots cannot hold, such as a DS
    /// instruction's 16-bit offset, costs little to print again.
    pub forms: NestedPlans,
    /// Where the search for the form of an operand printed from the tables
    /// starts (see [`crate::form_starts`]).
    pub starts: FormStarts,
    /// The parameters too wide for a key that a text reads only by
    /// comparing them with constants and printing them (see
    /// [`crate::wide`]).
    wide: Wide,
    /// The texts of operands whose key holds such a parameter's interval
    /// rather than its value, as templates: direct-mapped, as the slots.
    templates: Box<[Template]>,
    /// By an operand's key without its wide parameters, which of those its
    /// template's printing read (see [`Memo::template`]).
    masks: Box<[(Key, u8)]>,
    /// The template being noted, while its operand is printed from the
    /// tables (see `crate::print`).
    pub recording: Option<crate::print::Recording>,
    /// Texts found.
    pub hits: u64,
    /// Texts printed from a template.
    pub templated: u64,
}

/// Most places a template prints a parameter's value at.
const MAX_HOLES: usize = 2;

/// Slots of templates: a power of two. A template stands for every value of
/// an interval, so a few serve a whole input (GCN's literals: a few dozen
/// combinations of source, width and interval).
const TEMPLATE_SLOTS: usize = 1 << 10;

/// Where a template prints a parameter's value: at byte `at` of its text,
/// parameter `param` of the operand's group, formatted as type `ty` of
/// `width` bits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hole {
    pub at: u8,
    pub param: u8,
    pub ty: Ty,
    pub width: u32,
}

impl Hole {
    const NONE: Hole = Hole { at: 0, param: 0, ty: Ty::Uint, width: 0 };
}

/// An operand's text with the values of its wide parameters left out, and
/// where they go (see [`Memo::template`]).
#[derive(Clone, Copy)]
struct Template {
    key: Key,
    len: u8,
    holes: u8,
    /// The parameters its printing read.
    read: u8,
    text: [u8; MAX_TEXT],
    hole: [Hole; MAX_HOLES],
}

impl Memo {
    pub fn new(isa: &Isa) -> Memo {
        let dense_bits =
            isa.groups.iter().map(|g| if g.bits <= DENSE_BITS { g.bits as u8 } else { NOT_DENSE }).collect();
        Memo {
            dense: Dense::default(),
            dense_bits,
            slots: Box::default(),
            fixed: fixed_texts(isa),
            reads: vec![Table::Unseen; isa.groups.len()],
            forms: NestedPlans::new(isa),
            starts: FormStarts::default(),
            wide: Wide::new(isa),
            templates: Box::default(),
            masks: Box::default(),
            recording: None,
            hits: 0,
            templated: 0,
        }
    }

    #[cfg(test)]
    fn with_fixed(fixed: Box<[bool]>, dense_bits: Box<[u8]>) -> Memo {
        let forms = NestedPlans::default();
        Memo {
            dense: Dense::default(),
            dense_bits,
            slots: Box::default(),
            fixed,
            reads: Vec::new(),
            forms,
            starts: FormStarts::default(),
            wide: Wide::default(),
            templates: Box::default(),
            masks: Box::default(),
            recording: None,
            hits: 0,
            templated: 0,
        }
    }

    /// The parameters (bit `i` for parameter `i`) the text of an operand of
    /// group `g` of `isa` (the printer's) whose word is `word` may read: a
    /// text is remembered under those alone, so a register operand of an
    /// instruction with a literal is one key whatever the literal (which
    /// only the literal's form reads).
    pub fn reads(&mut self, isa: &Isa, g: u16, word: crate::Bits) -> u8 {
        let g = g as usize;
        if matches!(self.reads.get(g), Some(Table::Unseen)) {
            group_reads(isa, g, &mut self.reads);
        }
        match self.reads.get(g) {
            Some(Table::Done(by_word)) if !by_word.is_empty() => by_word.get(word as usize).copied().unwrap_or(u8::MAX),
            _ => u8::MAX,
        }
    }

    /// Whether group `g`'s operands may be remembered.
    pub fn remembers(&self, g: u16) -> bool {
        self.fixed.get(g as usize).copied().unwrap_or(false)
    }

    pub fn get(&mut self, key: &Key) -> Option<Text<'_>> {
        if let Some(&bits) = self.dense_bits.get(key.group())
            && let Some(text) = self.dense.get(key, bits)
        {
            self.hits += 1;
            return Some(text);
        }
        let s = self.slots.get(key.slot())?;
        if s.len == EMPTY || s.key != *key {
            return None;
        }
        self.hits += 1;
        // The bytes past the text are zeros (see `put`): the whole buffer
        // is text, and the text is copied with it.
        Text::within(std::str::from_utf8(&s.text).ok()?, 0, s.len as usize)
    }

    /// Where the dense table's cells for `combo` (a key whose word is 0)
    /// start, when its group's texts are kept there and the combination
    /// has its cells: they stay where they are for the printer's life.
    pub fn cells_of(&self, combo: &Key) -> Option<u32> {
        if self.dense_bits.get(combo.group()).is_none_or(|&b| b == NOT_DENSE) {
            return None;
        }
        let (_, start) = self.dense.combos.get(self.dense.entry(combo)?)?;
        (*start != u32::MAX).then_some(*start)
    }

    /// The text kept for the operand of group `g` whose word is `word`, in
    /// the cells starting at `start` (see [`Memo::cells_of`]): what
    /// [`Memo::get`] finds for the key of that combination and word.
    pub fn cell_text(&mut self, g: u16, start: u32, word: Bits) -> Option<Text<'_>> {
        let &bits = self.dense_bits.get(g as usize)?;
        if bits == NOT_DENSE || word >> bits != 0 {
            return None;
        }
        let text = self.dense.text(start, word as usize)?;
        self.hits += 1;
        Some(text)
    }

    /// Remembers `text` for `key`, in place of what shared its slot; a text
    /// too long to keep is not remembered.
    pub fn put(&mut self, key: Key, text: &str) {
        if text.len() > MAX_TEXT {
            return;
        }
        if let Some(&bits) = self.dense_bits.get(key.group())
            && self.dense.put(&key, bits, text)
        {
            return;
        }
        if self.slots.is_empty() {
            let empty = Slot { key: Key(0), len: EMPTY, text: [0; MAX_TEXT] };
            self.slots = vec![empty; SLOTS].into_boxed_slice();
        }
        let s = &mut self.slots[key.slot()];
        s.key = key;
        s.len = text.len() as u8;
        s.text[..text.len()].copy_from_slice(text.as_bytes());
        s.text[text.len()..].fill(0);
    }

    /// The template kept for operand `t` whose parameters' values are
    /// `values`: its text (its wide parameters' values left out), where
    /// they go, and the parameters its printing read. A template is kept
    /// under the parameters its printing read: those too wide for a key
    /// that its forms only compare with constants and print (see
    /// [`crate::wide`]) by the index of their interval, the others by
    /// value. Which of them it read is looked up first, under the
    /// operand's key without those (`masks`): a template is found only
    /// under the parameters it read, so any mask found is sound, and the
    /// last one learned for the key is the likeliest.
    pub fn template(&mut self, isa: &Isa, t: Operand, values: &[i64]) -> Option<(&str, &[Hole], u8)> {
        let base = self.template_key(isa, t, values)?;
        let &(k, mask) = self.masks.get(base.template_slot())?;
        if k != base {
            return None;
        }
        let key = self.with_intervals(isa, t.0, base, values, mask)?;
        let slot = self.templates.get(key.template_slot())?;
        if slot.len == EMPTY || slot.key != key {
            return None;
        }
        self.templated += 1;
        // The bytes past the text are zeros (see `put_template`).
        let text = std::str::from_utf8(slot.text.get(..slot.len as usize)?).ok()?;
        Some((text, slot.hole.get(..slot.holes as usize)?, slot.read))
    }

    /// Whether operand `t` may have a template: each parameter it may read
    /// fits a key or is one its forms only compare and print.
    pub fn templatable(&mut self, isa: &Isa, t: Operand, values: &[i64]) -> bool {
        self.template_key(isa, t, values).is_some()
    }

    /// The key operand `t`'s template's mask is kept under (see
    /// [`Memo::template`]): the parameters its text may read (`t.3`) by
    /// value, but those with intervals, which are 0; `None` when one does
    /// not fit.
    fn template_key(&mut self, isa: &Isa, (g, depth, word, reads): Operand, values: &[i64]) -> Option<Key> {
        let n = isa.groups.get(g as usize)?.params.len();
        let by_value = reads & !self.wide.params(isa, g);
        let mut key = [0; MAX_PARAMS];
        for (i, k) in key.iter_mut().enumerate().take(n) {
            if by_value >> i & 1 == 1 {
                *k = *values.get(i)?;
            }
        }
        Key::new(g, depth, word, key.get(..n)?)
    }

    /// `base` (see [`Memo::template_key`]) with each parameter of group `g`
    /// with intervals that `read` holds as the index of its value's
    /// interval, from 1: the key of the template whose printing read those.
    fn with_intervals(&mut self, isa: &Isa, g: u16, mut base: Key, values: &[i64], read: u8) -> Option<Key> {
        let mut wide = read & self.wide.params(isa, g);
        while wide != 0 {
            let i = wide.trailing_zeros();
            wide &= wide - 1;
            let cuts = self.wide.cuts(isa, g, i as u16)?;
            base = base.with_param(i as usize, crate::wide::interval(cuts, *values.get(i as usize)?) + 1)?;
        }
        Some(base)
    }

    /// Keeps `text` and its `holes` as the template of operand `t`, whose
    /// parameters' values are `values` and whose printing read those in
    /// `read`, in place of what shared its slots; one too long or with too
    /// many holes is not kept.
    pub fn put_template(&mut self, isa: &Isa, t: Operand, values: &[i64], read: u8, text: &str, holes: &[Hole]) {
        if text.len() > MAX_TEXT || holes.len() > MAX_HOLES {
            return;
        }
        let Some(base) = self.template_key(isa, t, values) else { return };
        let Some(key) = self.with_intervals(isa, t.0, base, values, read) else { return };
        if self.templates.is_empty() {
            let empty = Template {
                key: Key(0),
                len: EMPTY,
                holes: 0,
                read: 0,
                text: [0; MAX_TEXT],
                hole: [Hole::NONE; MAX_HOLES],
            };
            self.templates = vec![empty; TEMPLATE_SLOTS].into_boxed_slice();
            self.masks = vec![(Key(0), 0); TEMPLATE_SLOTS].into_boxed_slice();
        }
        self.masks[base.template_slot()] = (base, read);
        let t = &mut self.templates[key.template_slot()];
        t.key = key;
        t.len = text.len() as u8;
        t.read = read;
        t.text[..text.len()].copy_from_slice(text.as_bytes());
        t.text[text.len()..].fill(0);
        t.holes = holes.len() as u8;
        t.hole[..holes.len()].copy_from_slice(holes);
    }
}

/// An operand as [`Memo::template`] knows it: its group, depth and word,
/// and the parameters its text may read (see [`Memo::reads`]).
pub(crate) type Operand = (u16, usize, Bits, u8);

/// Widest group whose operand texts are kept in a [`Dense`] table (a table
/// of `1 << DENSE_BITS` cells per combination of depth and parameters).
const DENSE_BITS: u32 = 12;

/// What [`Memo::dense_bits`] holds for a group too wide for [`Dense`].
const NOT_DENSE: u8 = u8::MAX;

/// Combinations a [`Dense`] table can hold (half its slots, so that a
/// probe ends soon at an empty one).
const COMBOS: usize = 1 << 11;

/// Most cells and text bytes a [`Dense`] table holds (8 MiB and 4 MiB):
/// past them, texts go to the slots, so memory stays bounded however
/// varied the input.
const MAX_CELLS: usize = 1 << 21;
const MAX_TEXTS: usize = 1 << 22;

// A cell holds a text's length in 5 bits and its offset in 26.
const _: () = assert!(MAX_TEXT < 32 && MAX_TEXTS <= 1 << 26);

/// The operand texts of groups at most [`DENSE_BITS`] wide, by their key
/// without its word (a *combination*: group, depth and parameter values),
/// then by word. Such groups are most operands (registers, inline
/// constants, modifiers), and a program uses few combinations of each; so
/// the texts of an input's operands all fit, and an operand is printed once
/// whatever the input's length. Its tables are smaller than the slots (on
/// a stream of every GCN encoding, some 400 combinations, 600 KiB of cells
/// and 120 KiB of text), so a text is more often in a nearer cache than a
/// slot of varied code is; and the slots, where nothing else goes, need not
/// be allocated at all.
#[derive(Default)]
struct Dense {
    /// Open-addressed by the combination's hash: the combination and where
    /// its cells start in `cells` (`u32::MAX`: the entry is free).
    combos: Box<[(Key, u32)]>,
    used: usize,
    /// By combination, then word: `1 << 31 | offset << 5 | length` of its
    /// text in `texts`; 0 while not printed.
    cells: Vec<u32>,
    /// One string, so that a text is a slice of it without a UTF-8 check.
    texts: String,
}

impl Dense {
    /// Where `combo`'s entry is, or the free entry it would take.
    fn entry(&self, combo: &Key) -> Option<usize> {
        let mask = self.combos.len().checked_sub(1)?;
        let mut i = combo.hash() as usize & mask;
        // The table is at most half full, so a free entry ends the probe.
        loop {
            let (k, start) = self.combos.get(i)?;
            if *start == u32::MAX || k == combo {
                return Some(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// The text kept for `key` of a group `bits` wide (when it has none,
    /// the slots may: a text that did not fit).
    fn get(&self, key: &Key, bits: u8) -> Option<Text<'_>> {
        if bits == NOT_DENSE || key.word() >> bits != 0 {
            return None;
        }
        let (_, start) = self.combos.get(self.entry(&key.without_word())?)?;
        self.text(*start, key.word() as usize)
    }

    /// The text in cell `word` of the cells starting at `start`.
    fn text(&self, start: u32, word: usize) -> Option<Text<'_>> {
        let cell = *self.cells.get((start as usize).checked_add(word)?)?;
        if cell == 0 {
            return None;
        }
        let (at, len) = ((cell >> 5 & 0x03ff_ffff) as usize, (cell & 31) as usize);
        Text::within(&self.texts, at, len)
    }

    /// Keeps `text` for `key` of a group `bits` wide; false when it does
    /// not fit (the group is too wide, or the table is full).
    fn put(&mut self, key: &Key, bits: u8, text: &str) -> bool {
        if bits == NOT_DENSE || key.word() >> bits != 0 || text.len() > MAX_TEXT {
            return false;
        }
        if self.combos.is_empty() {
            self.combos = vec![(Key(0), u32::MAX); COMBOS * 2].into_boxed_slice();
        }
        let combo = key.without_word();
        let Some(i) = self.entry(&combo) else { return false };
        if self.combos[i].1 == u32::MAX {
            let n = 1usize << bits;
            if self.used >= COMBOS || self.cells.len() + n > MAX_CELLS {
                return false;
            }
            self.combos[i] = (combo, self.cells.len() as u32);
            self.cells.resize(self.cells.len() + n, 0);
            self.used += 1;
        }
        let at = self.combos[i].1 as usize + key.word() as usize;
        if self.cells[at] != 0 {
            return true;
        }
        if self.texts.len() + text.len() > MAX_TEXTS {
            return false;
        }
        let cell = 1 << 31 | (self.texts.len() as u32) << 5 | text.len() as u32;
        self.texts.push_str(text);
        self.cells[at] = cell;
        true
    }
}

/// Widest group whose parameters read are kept by word (a table of
/// `1 << MAX_INDEXED` bytes).
const MAX_INDEXED: u32 = 12;

/// A group's table of parameters read (see [`Memo::reads`]).
#[derive(Clone)]
enum Table {
    Unseen,
    Building,
    /// Empty: every parameter, for every word.
    Done(Box<[u8]>),
}

/// Builds group `g`'s table (and those of the groups nested in it) into
/// `tables`: for each word of a group at most [`MAX_INDEXED`] bits wide, the
/// parameters read by the forms whose identifying bits it holds. Choosing
/// the form reads their `requires` (tried in order, each only if its bits
/// match), and printing one reads its cases' conditions and fields, and the
/// parameters it passes to a nested operand that reads them (for that
/// operand's word, cut from this one).
fn group_reads(isa: &Isa, g: usize, tables: &mut [Table]) {
    if !matches!(tables[g], Table::Unseen) {
        return;
    }
    let group = &isa.groups[g];
    if group.bits > MAX_INDEXED || group.params.len() > MAX_PARAMS {
        tables[g] = Table::Done(Box::default());
        return;
    }
    tables[g] = Table::Building;
    for &l in group.leaves {
        for f in isa.leaves[l as usize].cases.iter().flat_map(|c| c.fields) {
            if let Ty::Group { group: n, .. } = f.ty {
                group_reads(isa, n as usize, tables);
            }
        }
    }
    let table = (0..1u64 << group.bits)
        .map(|word| {
            let word = word as crate::Bits;
            group
                .leaves
                .iter()
                .map(|&l| &isa.leaves[l as usize])
                // A form whose length is evaluated may match on fewer bits
                // than its mask: taken as matching.
                .filter(|leaf| leaf.length.is_some() || word & leaf.mask == leaf.value)
                .fold(0, |m, leaf| m | leaf_params(isa, leaf, word, tables))
        })
        .collect();
    tables[g] = Table::Done(table);
}

/// The parameters `leaf` may read in printing when its word is `word` (bit
/// `i` for parameter `i`; past [`MAX_PARAMS`], every bit): those its
/// `requires` and its cases' conditions name (read in its default case, as
/// [`Isa::select_case`] does), and those of the fields its printed forms show,
/// through the fields and parameters those name in turn.
fn leaf_params(isa: &Isa, leaf: &crate::Leaf, word: crate::Bits, tables: &[Table]) -> u8 {
    let Some(default) = leaf.cases.last() else { return 0 };
    let bits = isa.groups[leaf.group as usize].bits;
    let mut reads = Reads { isa, word, bits, tables, params: 0, seen: 0 };
    leaf.requires.iter().for_each(|e| reads.expr(default, e));
    leaf.cases.iter().filter_map(|c| c.when).for_each(|e| reads.expr(default, e));
    // Forms only the assembler reads are never printed.
    for case in leaf.cases.iter().filter(|c| !c.parse_only) {
        reads.seen = 0;
        for tok in std::iter::once(case.display).chain(case.displays.iter().copied()).flatten() {
            if let Tok::Field(i) | Tok::OptField(_, i, _) = *tok {
                reads.field(case, i);
            }
        }
    }
    reads.params
}

/// What [`leaf_params`] has found so far in one case.
struct Reads<'t> {
    isa: &'t Isa,
    /// The operand's word, and its group's width.
    word: crate::Bits,
    bits: u32,
    tables: &'t [Table],
    params: u8,
    /// Fields of the case already looked at (bit `i` for field `i`; a
    /// field past 127 is looked at each time).
    seen: u128,
}

impl Reads<'_> {
    /// The word of an operand `bits` wide in a field made of `ranges`, as
    /// [`crate::place::Step::child`] places it, if this word holds all of it.
    fn nested_word(&self, ranges: &[crate::Range], bits: u32) -> Option<crate::Bits> {
        match ranges {
            // One range: the operand runs from its low bit for its own width.
            [r] => (r.lo as u32 + bits <= self.bits).then(|| (self.word >> r.lo) & crate::bits::mask_of(0, bits)),
            // Split: the ranges gathered, high bits zero.
            _ => ranges
                .iter()
                .all(|r| r.lo as u32 + r.width as u32 <= self.bits)
                .then(|| crate::bits::extract(self.word, 0, ranges) & crate::bits::mask_of(0, bits)),
        }
    }

    fn param(&mut self, p: u16) {
        self.params |= if (p as usize) < MAX_PARAMS { 1 << p } else { u8::MAX };
    }

    fn expr(&mut self, case: &crate::Case, e: crate::Expr) {
        for op in e {
            match *op {
                crate::Op::Param(p) => self.param(p),
                crate::Op::Field(i) => self.field(case, i),
                _ => {}
            }
        }
    }

    fn field(&mut self, case: &crate::Case, i: u16) {
        if i < 128 {
            if self.seen & 1 << i != 0 {
                return;
            }
            self.seen |= 1 << i;
        }
        let Some(f) = case.fields.get(i as usize) else { return };
        match f.src {
            crate::Src::Expr(e) => self.expr(case, e),
            crate::Src::Param(p) => self.param(p),
            crate::Src::Bits(_) => {}
        }
        match f.ty {
            Ty::Group { group, params } => {
                // What the nested operand reads of what this field passes,
                // when its word is known; else all of it.
                let nested = match (f.src, &self.tables[group as usize]) {
                    (crate::Src::Bits(ranges), Table::Done(t)) if !t.is_empty() => self
                        .nested_word(ranges, self.isa.groups[group as usize].bits)
                        .and_then(|w| t.get(w as usize).copied())
                        .unwrap_or(u8::MAX),
                    _ => u8::MAX,
                };
                for (k, e) in params.iter().enumerate() {
                    if k >= 8 || nested & 1 << k != 0 {
                        self.expr(case, e);
                    }
                }
            }
            Ty::Float { format: Some(e) } | Ty::HexLit { float: Some(e), .. } => self.expr(case, e),
            _ => {}
        }
    }
}

/// By group: whether an operand's text is a function of its [`Key`]. It is
/// not when the group has more parameters than a key holds, or when one of
/// its leaves, or of the groups nested in them, pads to the mnemonic column
/// (`{|}`), whose width depends on what the line already holds.
fn fixed_texts(isa: &Isa) -> Box<[bool]> {
    // 0: not seen, 1: being looked at, 2: fixed, 3: not.
    let mut state = vec![0u8; isa.groups.len()];
    (0..isa.groups.len()).map(|g| fixed(isa, g, &mut state)).collect()
}

fn fixed(isa: &Isa, g: usize, state: &mut [u8]) -> bool {
    match state[g] {
        2 => return true,
        // A group reached again inside itself is taken as not fixed: no
        // sound answer is cheaper, and nesting is bounded anyway.
        1 | 3 => return false,
        _ => {}
    }
    state[g] = 1;
    let group = &isa.groups[g];
    let ok = group.params.len() <= MAX_PARAMS
        && group.leaves.iter().all(|&l| {
            isa.leaves[l as usize].cases.iter().all(|case| {
                std::iter::once(case.display).chain(case.displays.iter().copied()).flatten().all(|tok| match *tok {
                    Tok::Column => false,
                    Tok::Field(i) | Tok::OptField(_, i, _) => match case.fields.get(i as usize).map(|f| f.ty) {
                        Some(Ty::Group { group, .. }) => fixed(isa, group as usize, state),
                        _ => true,
                    },
                    _ => true,
                })
            })
        });
    state[g] = if ok { 2 } else { 3 };
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A template's key is its mask's key with the intervals put in: the
    /// same as the key made with them from the start.
    #[test]
    fn a_parameter_put_in_a_key_is_where_the_key_holds_it() {
        let base = Key::new(7, 2, 0xff, &[1, 0, 0, 5]).expect("fits");
        for (i, v) in [(1, 3), (2, -4), (5, 2047)] {
            let mut params = [1, 0, 0, 5, 0, 0];
            params[i] = v;
            assert_eq!(base.with_param(i, v), Key::new(7, 2, 0xff, &params), "parameter {i} = {v}");
        }
        assert_eq!(base.with_param(2, 2048), None, "too wide");
        assert_eq!(base.with_param(MAX_PARAMS, 1), None, "no such parameter");
    }

    fn key(group: u16, depth: usize, word: u64, p0: i64) -> Key {
        Key::new(group, depth, word as Bits, &[p0]).expect("fits")
    }

    #[test]
    fn a_slot_is_three_quarters_of_a_cache_line() {
        assert_eq!(std::mem::size_of::<Slot>(), 48);
    }

    #[test]
    fn what_does_not_fit_a_key_has_none() {
        assert!(Key::new(1, 1, 5, &[1, -2]).is_some());
        assert!(Key::new(u16::MAX, 15, (1 << WORD_BITS) - 1, &[2047, -2048, 0, 0, 0, -1]).is_some());
        assert_eq!(Key::new(1, 1, 1 << WORD_BITS, &[]), None, "a word past its bits");
        assert_eq!(Key::new(1, 1, 5, &[2048]), None, "a parameter past its bits");
        assert_eq!(Key::new(1, 1, 5, &[-2049]), None, "a negative parameter past its bits");
        assert_eq!(Key::new(1, 1, 5, &[0x3f80_0000]), None, "a literal");
        assert_eq!(Key::new(1, 16, 5, &[]), None, "a depth past 15");
        assert_eq!(Key::new(1, 1, 5, &[0; MAX_PARAMS + 1]), None, "too many parameters");
    }

    #[test]
    fn keys_differ_in_every_part() {
        let base = key(3, 1, 5, 1);
        let others = [
            Key::new(4, 1, 5, &[1]),
            Key::new(3, 2, 5, &[1]),
            Key::new(3, 1, 6, &[1]),
            Key::new(3, 1, 5, &[-1]),
            Key::new(3, 1, 5, &[1, 1]),
            Key::new(3, 1, 5, &[1, 0, 0, 0, 0, 1]),
            Key::new(3, 1, 5 | 1 << (WORD_BITS - 1), &[1]),
        ];
        for (i, k) in others.into_iter().enumerate() {
            assert_ne!(k.expect("fits"), base, "variant {i}");
        }
        // A parameter not passed is zero.
        assert_eq!(Key::new(3, 1, 5, &[1, 0]), Some(base));
    }

    #[test]
    fn a_text_is_found_only_under_its_whole_key() {
        let mut m = Memo::with_fixed(Box::new([]), Box::new([]));
        assert_eq!(m.get(&key(3, 1, 5, 1)).map(Text::as_str), None);
        m.put(key(3, 1, 5, 1), "s[4:5]");
        assert_eq!(m.get(&key(3, 1, 5, 1)).map(Text::as_str), Some("s[4:5]"));
        assert_eq!(m.hits, 1);
        assert_eq!(m.get(&key(3, 1, 5, 2)).map(Text::as_str), None, "another parameter value");
        assert_eq!(m.get(&key(3, 2, 5, 1)).map(Text::as_str), None, "another depth");
        assert_eq!(m.get(&key(4, 1, 5, 1)).map(Text::as_str), None, "another group");
        // An empty text is a text (an option that is off).
        m.put(key(3, 1, 6, 0), "");
        assert_eq!(m.get(&key(3, 1, 6, 0)).map(Text::as_str), Some(""));
        // A long text is printed each time rather than cut.
        m.put(key(3, 1, 7, 0), &"x".repeat(MAX_TEXT + 1));
        assert_eq!(m.get(&key(3, 1, 7, 0)).map(Text::as_str), None);
        m.put(key(3, 1, 7, 0), &"x".repeat(MAX_TEXT));
        assert_eq!(m.get(&key(3, 1, 7, 0)).map(Text::as_str).map(str::len), Some(MAX_TEXT));
    }

    #[test]
    fn a_slot_shared_by_two_keys_holds_the_last() {
        let mut m = Memo::with_fixed(Box::new([]), Box::new([]));
        let a = key(3, 1, 1, 0);
        let b = (2..).map(|w| key(3, 1, w, 0)).find(|k| k.slot() == a.slot()).expect("keys outnumber slots");
        m.put(a, "v1");
        m.put(b, "v2");
        assert_eq!(m.get(&a).map(Text::as_str), None);
        assert_eq!(m.get(&b).map(Text::as_str), Some("v2"));
    }

    /// Groups 3 and 4 dense (8 and 12 bits wide), group 5 not.
    fn dense_memo() -> Memo {
        Memo::with_fixed(Box::new([]), Box::new([NOT_DENSE, NOT_DENSE, NOT_DENSE, 8, 12, NOT_DENSE]))
    }

    #[test]
    fn a_narrow_operand_is_found_in_the_dense_table_under_its_whole_key() {
        let mut m = dense_memo();
        m.put(key(3, 1, 5, 1), "s[4:5]");
        m.put(key(3, 1, 6, 1), "s[6:7]");
        m.put(key(3, 1, 5, 2), "s[4:7]");
        m.put(key(4, 2, 0xfff, 0), "");
        assert_eq!(m.get(&key(3, 1, 5, 1)).map(Text::as_str), Some("s[4:5]"));
        assert_eq!(m.get(&key(3, 1, 6, 1)).map(Text::as_str), Some("s[6:7]"));
        assert_eq!(
            m.get(&key(3, 1, 5, 2)).map(Text::as_str),
            Some("s[4:7]"),
            "another parameter value, another combination"
        );
        assert_eq!(m.get(&key(4, 2, 0xfff, 0)).map(Text::as_str), Some(""), "an empty text is a text");
        assert_eq!(m.get(&key(3, 1, 7, 1)).map(Text::as_str), None, "a word not printed yet");
        assert_eq!(m.get(&key(3, 2, 5, 1)).map(Text::as_str), None, "another depth");
        assert_eq!(m.get(&key(4, 1, 5, 1)).map(Text::as_str), None, "another group");
        assert_eq!(m.hits, 4);
        // None of it took a slot: the large table is never allocated.
        assert!(m.slots.is_empty());
        assert_eq!((m.dense.used, m.dense.cells.len()), (3, 2 * 256 + 4096));
        // A word past the group's width, or a wide group, goes to the slots.
        m.put(key(3, 1, 256, 1), "wide");
        m.put(key(5, 1, 5, 1), "v5");
        assert_eq!(m.get(&key(3, 1, 256, 1)).map(Text::as_str), Some("wide"));
        assert_eq!(m.get(&key(5, 1, 5, 1)).map(Text::as_str), Some("v5"));
        assert_eq!(m.slots.len(), SLOTS);
    }

    /// A combination's cells, once found, give what the whole key gives.
    #[test]
    fn a_combination_s_cells_give_its_words_texts() {
        let mut m = dense_memo();
        assert_eq!(m.cells_of(&key(3, 1, 0, 1)), None, "no cells before a text");
        m.put(key(3, 1, 5, 1), "s[4:5]");
        m.put(key(3, 1, 5, 2), "s[4:7]");
        let one = m.cells_of(&key(3, 1, 0, 1)).expect("cells for parameter 1");
        let two = m.cells_of(&key(3, 1, 0, 2)).expect("cells for parameter 2");
        assert_ne!(one, two);
        assert_eq!(m.cell_text(3, one, 5).map(Text::as_str), Some("s[4:5]"));
        assert_eq!(m.cell_text(3, two, 5).map(Text::as_str), Some("s[4:7]"));
        assert_eq!(m.cell_text(3, one, 6).map(Text::as_str), None, "a word not printed yet");
        assert_eq!(m.cell_text(3, one, 256).map(Text::as_str), None, "past the group's width");
        assert_eq!(m.hits, 2);
        // The cells stay where they are as others are added.
        for p in 3..40 {
            m.put(key(3, 1, 5, p), "s[..]");
        }
        assert_eq!(m.cells_of(&key(3, 1, 0, 1)), Some(one));
        assert_eq!(m.cell_text(3, one, 5).map(Text::as_str), Some("s[4:5]"));
        // A group kept in the slots has no cells.
        m.put(key(5, 1, 5, 1), "v5");
        assert_eq!(m.cells_of(&key(5, 1, 0, 1)), None);
    }

    #[test]
    fn a_full_dense_table_leaves_texts_to_the_slots() {
        let mut m = dense_memo();
        // Every combination the table holds, then one more: the last one's
        // texts are kept in the slots, and every text is still found.
        for p in 0..=COMBOS as i64 {
            m.put(key(3, 1, 9, p - 1024), &format!("t{p}"));
        }
        assert_eq!(m.dense.used, COMBOS);
        for p in 0..=COMBOS as i64 {
            assert_eq!(
                m.get(&key(3, 1, 9, p - 1024)).map(Text::as_str),
                Some(format!("t{p}").as_str()),
                "parameter {p}"
            );
        }
        assert!(!m.slots.is_empty());
        // Cells are bounded too: 12-bit combinations until MAX_CELLS.
        let mut m = dense_memo();
        let fit = (MAX_CELLS >> 12) as i64;
        for p in 0..=fit {
            m.put(key(4, 1, 0xabc, p), &format!("u{p}"));
        }
        assert_eq!(m.dense.cells.len(), MAX_CELLS);
        for p in 0..=fit {
            assert_eq!(m.get(&key(4, 1, 0xabc, p)).map(Text::as_str), Some(format!("u{p}").as_str()), "parameter {p}");
        }
    }
}
