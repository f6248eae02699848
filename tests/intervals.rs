//! The interval tables the generator makes of `requires` conditions that
//! compare one value with constants, held to the conditions as written:
//! in every bundled target, for each table, at each interval's start, the
//! values beside it and the extremes, with the condition's other values
//! (fields, parameters, the generation) drawn from the constants it names
//! and at random, the interval's condition has the whole condition's value.

use isa_specs::TARGETS;
use isa_specs::runtime::{Op, TestRng, postfix_value};

/// Postfix `e` with `of` reading `x` and every other field, parameter or
/// the generation reading `other`.
fn value(e: &[Op], of: Op, x: i64, other: &mut impl FnMut(Op) -> i64) -> i64 {
    postfix_value(e, &mut |op| Some(if op == of { x } else { other(op) })).expect("one value")
}

#[test]
fn interval_tables_answer_as_their_conditions() {
    let mut rng = TestRng::new(0x1e7e_4a15);
    let mut tables = 0;
    for isa in TARGETS {
        for leaf in isa.leaves {
            let mut last = None;
            for t in leaf.intervals {
                assert!(last < Some(t.conjunct), "{}: tables in conjunct order", leaf.key);
                last = Some(t.conjunct);
                let whole = leaf.requires[t.conjunct as usize];
                assert_eq!(t.then.len(), t.starts.len() + 1, "{}: a condition per interval", leaf.key);
                assert!(t.starts.windows(2).all(|w| w[0] < w[1]), "{}: ascending starts", leaf.key);
                tables += 1;
                // The values the other operands are drawn from: the
                // constants the condition names, beside them, and small ones.
                let mut pool: Vec<i64> = vec![-1, 0, 1, 2, 3, 7, 8, 9, 64];
                for op in whole {
                    if let Op::Lit(c) = op {
                        pool.extend([c.wrapping_sub(1), *c, c.wrapping_add(1)]);
                    }
                }
                let mut xs = vec![i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX];
                for &s in t.starts {
                    xs.extend([s.wrapping_sub(1), s, s.wrapping_add(1)]);
                }
                for _ in 0..64 {
                    xs.push(rng.next_u64() as i64);
                    xs.push((rng.next_u64() & 0xffff_ffff) as i64);
                }
                for &x in &xs {
                    let k = t.starts.partition_point(|&s| s <= x);
                    assert_eq!(t.within(x), Some(t.then[k]));
                    for _ in 0..32 {
                        // One draw per operand, the same for both evaluations.
                        let seed = rng.next_u64();
                        let mut draw = |op: Op| {
                            let h = match op {
                                Op::Field(i) | Op::Param(i) => i as u64 * 2 + matches!(op, Op::Param(_)) as u64,
                                _ => 1 << 20,
                            };
                            let r = (seed ^ h.wrapping_mul(0x9e37_79b9_7f4a_7c15)).rotate_left(17);
                            pool[(r % pool.len() as u64) as usize]
                        };
                        assert_eq!(
                            value(t.then[k], t.of, x, &mut draw),
                            value(whole, t.of, x, &mut draw),
                            "{}: conjunct {} at {x:#x}",
                            leaf.key,
                            t.conjunct
                        );
                    }
                }
            }
        }
    }
    // GCN's literals are checked against every inline constant: the tables
    // are there to check.
    assert!(tables >= 2, "{tables} tables in the bundled targets");
}
