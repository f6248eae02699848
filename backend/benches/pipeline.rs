//! Scheduling and register allocation of one block of 1k, 10k and 100k
//! instructions (ir3, a6xx): ALU chains, special-function and memory results,
//! stores in order, collects; values read within a window of recent ones.
//! Run with `cargo bench -p backend`; the README records the numbers.

use std::hint::black_box;

use backend::{Target, flatten, group, regalloc, resolve, sched, text};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn program(n: usize) -> String {
    let mut s = String::from("entry:\n    %in:full[4] = input r0.x\n    %v0, %v1, %v2, %v3 = split %in\n");
    s.push_str("    mov.u32u32 %alo:full, c0.x\n    mov.u32u32 %ahi:full, c0.y\n    %addr = collect %alo, %ahi\n");
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |m: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % m as u64) as usize
    };
    let mut last = 3usize;
    for i in 4..n + 4 {
        let mut pick = || last - next(12.min(last + 1));
        let (a, b, c) = (pick(), pick(), pick());
        match next(10) {
            0..=3 => s.push_str(&format!("    add.f %v{i}:full, %v{a}, %v{b}\n")),
            4..=5 => s.push_str(&format!("    mad.f32 %v{i}:full, %v{a}, %v{b}, %v{c}\n")),
            6 => s.push_str(&format!("    rcp %v{i}:full, %v{a}\n")),
            7 => s.push_str(&format!("    ldg.u32 %v{i}:full, g[%addr+{}], 1\n", 4 * next(64))),
            8 => {
                s.push_str(&format!("    stg.u32 g[%addr+{}], %v{a}, 1\n", 4 * next(64)));
                s.push_str(&format!("    mov.f32f32 %v{i}:full, %v{b}\n"));
            }
            _ => s.push_str(&format!("    mul.f %v{i}:full, %v{a}, %v{b}\n")),
        }
        last = i;
    }
    s.push_str(&format!("    output %v{last}\n"));
    s
}

fn bench(c: &mut Criterion) {
    let t = Target::new(&isa_specs::ir3::ISA, 600, None).expect("ir3 has a machine model");
    let mut g = c.benchmark_group("backend");
    g.sample_size(10);
    for n in [1_000usize, 10_000, 100_000] {
        let mut f = text::parse(&program(n)).expect("parses");
        resolve::resolve(&mut f, &t).expect("resolves");
        flatten::flatten(&mut f, &t).expect("one block");
        let groups = group::group(&mut f, &t).expect("groups");
        g.bench_with_input(BenchmarkId::new("schedule", n), &n, |b, _| {
            b.iter(|| sched::schedule(black_box(&f), &t).expect("schedules"))
        });
        let order = sched::schedule(&f, &t).expect("schedules");
        g.bench_with_input(BenchmarkId::new("regalloc", n), &n, |b, _| {
            b.iter(|| regalloc::allocate(black_box(&f), &t, &order, &groups).expect("allocates"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
