//! Bit diagrams of encodings, drawn as in the hardware manuals: field names
//! over their bit ranges, most significant bit on the left, 32 bits a row.
//!
//! ```text
//!  63   61 60 59        52
//! +-------+--+------------+
//! |  010  |JP|    OPC     |
//! +-------+--+------------+
//! ```

use isa_runtime::{Bits, Leaf, Src};

/// A run of bits with one meaning.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub lo: u32,
    pub hi: u32,
    pub label: String,
}

/// What each bit of `leaf` holds in its default case, high bits first: a field
/// (a split field's pieces named `NAME[hi:lo]` by the value bits they hold),
/// fixed pattern bits (their value, most significant first), or `x` for bits
/// that are never compared.
pub fn layout(leaf: &Leaf) -> Vec<Segment> {
    let mut owner: Vec<Option<usize>> = vec![None; leaf.bits as usize];
    let mut segs = Vec::new();
    for f in leaf.default_case().fields {
        let Src::Bits(ranges) = f.src else { continue };
        let total: u32 = ranges.iter().map(|r| r.width as u32).sum();
        let mut top = total;
        for r in ranges {
            let (lo, w) = (r.lo as u32, r.width as u32);
            top -= w;
            let label = if ranges.len() == 1 {
                f.name.to_string()
            } else if w == 1 {
                format!("{}[{top}]", f.name)
            } else {
                format!("{}[{}:{top}]", f.name, top + w - 1)
            };
            for b in lo..(lo + w).min(leaf.bits) {
                owner[b as usize] = Some(segs.len());
            }
            segs.push(Segment { lo, hi: lo + w - 1, label });
        }
    }
    // The bits no field holds: runs of identifying bits, and of the rest.
    let mut b = 0;
    while b < leaf.bits {
        if owner[b as usize].is_some() {
            b += 1;
            continue;
        }
        let fixed = bit(leaf.mask, b);
        let start = b;
        while b < leaf.bits && owner[b as usize].is_none() && bit(leaf.mask, b) == fixed {
            b += 1;
        }
        let label = if fixed {
            (start..b).rev().map(|i| if bit(leaf.value, i) { '1' } else { '0' }).collect()
        } else {
            "x".to_string()
        };
        segs.push(Segment { lo: start, hi: b - 1, label });
    }
    segs.sort_by_key(|s| std::cmp::Reverse(s.lo));
    segs
}

fn bit(bits: Bits, i: u32) -> bool {
    (bits >> i) & 1 == 1
}

/// The diagram of `segs` over `width` bits: one row of up to 32 bits at a
/// time, the most significant row first. A segment crossing a row boundary is
/// drawn in both rows.
pub fn render(segs: &[Segment], width: u32) -> String {
    let mut out = String::new();
    let rows = width.div_ceil(32).max(1);
    for row in (0..rows).rev() {
        let (rlo, rhi) = (row * 32, (row * 32 + 31).min(width.saturating_sub(1)));
        let cells: Vec<Segment> = segs
            .iter()
            .filter(|s| s.lo <= rhi && s.hi >= rlo)
            .map(|s| Segment { lo: s.lo.max(rlo), hi: s.hi.min(rhi), label: s.label.clone() })
            .collect();
        let (mut nums, mut border, mut labels) = (String::new(), String::new(), String::new());
        for c in &cells {
            let (hi, lo) = (c.hi.to_string(), c.lo.to_string());
            let numbers = if c.hi == c.lo { hi.clone() } else { format!("{hi} {lo}") };
            let w = c.label.chars().count().max(numbers.len()) + 2;
            nums.push(' ');
            if c.hi == c.lo {
                nums.push_str(&center(&hi, w));
            } else {
                nums.push_str(&format!("{hi}{}{lo}", " ".repeat(w - hi.len() - lo.len())));
            }
            border.push('+');
            border.push_str(&"-".repeat(w));
            labels.push('|');
            labels.push_str(&center(&c.label, w));
        }
        border.push('+');
        labels.push('|');
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(nums.trim_end());
        out.push('\n');
        out.push_str(&border);
        out.push('\n');
        out.push_str(&labels);
        out.push('\n');
        out.push_str(&border);
        out.push('\n');
    }
    out
}

fn center(s: &str, w: usize) -> String {
    let n = s.chars().count();
    let left = (w.saturating_sub(n)) / 2;
    format!("{}{s}{}", " ".repeat(left), " ".repeat(w.saturating_sub(n + left)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(hi: u32, lo: u32, label: &str) -> Segment {
        Segment { lo, hi, label: label.into() }
    }

    #[test]
    fn one_row() {
        let d = render(&[seg(15, 13, "010"), seg(12, 12, "JP"), seg(11, 0, "IMM")], 16);
        assert_eq!(
            d,
            " 15   13  12  11   0\n\
             +-------+----+------+\n\
             |  010  | JP | IMM  |\n\
             +-------+----+------+\n"
        );
    }

    #[test]
    fn rows_of_32_bits_split_a_crossing_field() {
        let d = render(&[seg(63, 20, "A"), seg(19, 0, "B")], 64);
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines.len(), 9, "{d}");
        assert!(lines[0].starts_with(" 63") && lines[0].ends_with("32"), "{d}");
        assert!(lines[2].contains(" A "));
        assert!(lines[5].starts_with(" 31") && lines[7].contains(" A ") && lines[7].contains(" B "), "{d}");
    }
}
