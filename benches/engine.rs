//! Throughput of the engine per target, in instructions per second: decoding
//! bytes to instruction values (walking one code buffer), packing fields
//! (encode), printing and assembling (parse, and an `Assembler` over many
//! lines).
//!
//! The corpus of each target is its conformance vectors (`tests/conformance/`)
//! plus random instructions of every opcode of every generation drawn from the
//! spec with `Isa::sample` (fixed seed), so every encoding is exercised and the
//! numbers are repeatable. Run with `cargo bench --bench engine`; a filter such
//! as `cargo bench --bench engine -- decode/gcn` runs one.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use isa_runtime::{Builder, Decoder, Inst, Isa, PrintOpts, Src, TestRng};

/// Random instructions drawn per opcode and generation.
const SAMPLES_PER_OPCODE: u32 = 4;

/// One instruction of the corpus: its generation, bytes, decoded value and text.
struct Item {
    gen_: u32,
    bytes: Vec<u8>,
    inst: Inst,
    text: String,
    /// The default case's bit fields and their values, for packing.
    fields: Vec<(&'static str, i64)>,
}

#[derive(serde::Deserialize)]
struct Ir3Record {
    #[serde(rename = "gen")]
    generation: u32,
    hex: String,
}

#[derive(serde::Deserialize)]
struct GcnRecord {
    mcpu: String,
    bytes: String,
}

/// The conformance vectors of a target, as (generation, bytes).
fn vectors(isa: &Isa) -> Vec<(u32, Vec<u8>)> {
    match isa.name {
        "ir3" => {
            let recs: Vec<Ir3Record> =
                serde_saphyr::from_str(include_str!("../tests/conformance/ir3/disasm.yaml")).expect("vectors parse");
            recs.iter()
                .filter_map(|r| Some((r.generation, u64::from_str_radix(&r.hex, 16).ok()?.to_le_bytes().to_vec())))
                .collect()
        }
        "gcn" => {
            let recs: Vec<GcnRecord> =
                serde_saphyr::from_str(include_str!("../tests/conformance/gcn/mc.yaml")).expect("vectors parse");
            recs.iter()
                .filter_map(|r| {
                    let g = isa.gen_by_name(&r.mcpu)?;
                    let bytes = r.bytes.split(',').map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16));
                    Some((g, bytes.collect::<Result<Vec<u8>, _>>().ok()?))
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

fn gens(isa: &Isa) -> Vec<u32> {
    if isa.gens.is_empty() { vec![isa.default_gen] } else { isa.gens.iter().map(|g| g.value).collect() }
}

/// The corpus of a target: every vector that decodes, then the samples.
fn corpus(isa: &'static Isa) -> Vec<Item> {
    let mut raw: Vec<(u32, Vec<u8>)> = vectors(isa);
    let mut rng = TestRng::new(0x00be_0c4a);
    for g in gens(isa) {
        for leaf in isa.instructions(g) {
            for _ in 0..SAMPLES_PER_OPCODE {
                if let Some(inst) = isa.sample(leaf, g, &mut || rng.next_u64()) {
                    raw.push((g, inst.bytes()));
                }
            }
        }
    }
    raw.into_iter()
        .filter_map(|(gen_, bytes)| {
            let (inst, len) = isa.decode_bytes(&bytes, gen_).ok()?;
            let text = isa.print(&inst, gen_);
            // Only what reads back: the parse bench measures assembling, not errors.
            isa.parse(&text, gen_).ok()?;
            let leaf = &isa.leaves[inst.leaf as usize];
            let fields = leaf
                .default_case()
                .fields
                .iter()
                .filter_map(|f| match f.src {
                    Src::Bits(r) => Some((f.name, isa_runtime::extract(inst.bits, 0, r) as i64)),
                    _ => None,
                })
                .filter(|(name, v)| Builder::for_leaf(isa, inst.leaf).set(name, *v).is_ok())
                .collect();
            Some(Item { gen_, bytes: bytes[..len].to_vec(), inst, text, fields })
        })
        .collect()
}

fn bench_target(c: &mut Criterion, isa: &'static Isa) {
    let items = corpus(isa);
    if items.is_empty() {
        return;
    }
    let n = items.len() as u64;

    // Decoding walks one code buffer, as a disassembler does: every
    // instruction is followed by the next one's bytes.
    let mut code = Vec::new();
    let mut at = Vec::with_capacity(items.len());
    for it in &items {
        at.push((code.len(), it.gen_));
        code.extend_from_slice(&it.bytes);
    }
    for (it, &(offset, gen_)) in items.iter().zip(&at) {
        let decoded = isa.decode_bytes(&code[offset..], gen_).map(|(inst, _)| inst);
        assert_eq!(decoded, Ok(it.inst), "{} decodes the same in the buffer", it.text);
    }
    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Elements(n));
    // A disassembler binds its generation once: one decoder per
    // generation, which decodes that generation's instructions (in corpus
    // order). Choosing the decoder anew for every instruction, as this
    // loop did until 2026-11-29, cost some 15 machine instructions a word
    // that no disassembler spends (12.9 against 11.8 ns a word).
    let mut decoders: Vec<(u32, Decoder<'_>, Vec<usize>)> = Vec::new();
    for &(offset, g) in &at {
        match decoders.iter_mut().find(|(have, _, _)| *have == g) {
            Some((_, _, offsets)) => offsets.push(offset),
            None => decoders.push((g, isa.decoder(g), vec![offset])),
        }
    }
    // By item, its generation's place among the decoders.
    let which: Vec<usize> = at
        .iter()
        .map(|&(_, g)| decoders.iter().position(|(have, _, _)| *have == g).expect("a corpus generation"))
        .collect();
    g.bench_function(isa.name, |b| {
        b.iter(|| {
            for (_, decoder, offsets) in &decoders {
                for &offset in offsets {
                    // The whole result is made, in memory, as a caller
                    // holding it would have it; passing it to `black_box`
                    // by value instead copied its 64 bytes twice more,
                    // some 30 machine instructions of the measured loop's
                    // 160.
                    let decoded = decoder.decode_bytes(black_box(&code[offset..]));
                    black_box(&decoded);
                }
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("encode");
    g.throughput(Throughput::Elements(n));
    g.bench_function(isa.name, |b| {
        b.iter(|| {
            for it in &items {
                let mut builder = Builder::for_leaf(isa, it.inst.leaf);
                for &(name, v) in &it.fields {
                    builder = builder.set(name, v).expect("the corpus filtered fields that set");
                }
                black_box(builder.finish(it.gen_).ok());
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("print");
    g.throughput(Throughput::Elements(n));
    g.bench_function(isa.name, |b| {
        let mut out = String::with_capacity(256);
        b.iter(|| {
            for it in &items {
                out.clear();
                isa.print_to(black_box(&it.inst), it.gen_, &mut out);
                black_box(&out);
            }
        })
    });
    g.finish();

    // A disassembler binds its generation once too, and its printer
    // remembers operand texts from one instruction to the next.
    let mut g = c.benchmark_group("printer");
    g.throughput(Throughput::Elements(n));
    g.bench_function(isa.name, |b| {
        let mut out = String::with_capacity(256);
        let mut printers: Vec<_> = decoders.iter().map(|&(g, ..)| isa.printer(g, PrintOpts::default())).collect();
        b.iter(|| {
            for (it, &d) in items.iter().zip(&which) {
                out.clear();
                printers[d].print_to(black_box(&it.inst), &mut out);
                black_box(&out);
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Elements(n));
    g.sample_size(10);
    g.bench_function(isa.name, |b| {
        b.iter(|| {
            for it in &items {
                black_box(isa.parse(black_box(&it.text), it.gen_).ok());
            }
        })
    });
    g.finish();

    // An assembler over many lines (what `isa asm` keeps per worker) reads
    // printed text the short way and checks it by printing it back.
    let mut g = c.benchmark_group("assembler");
    g.throughput(Throughput::Elements(n));
    g.sample_size(10);
    g.bench_function(isa.name, |b| {
        let mut assemblers: Vec<_> = decoders.iter().map(|&(g, ..)| isa.assembler(g, 0)).collect();
        b.iter(|| {
            for (it, &d) in items.iter().zip(&which) {
                black_box(assemblers[d].assemble(black_box(&it.text)).ok());
            }
        })
    });
    g.finish();
}

fn engine(c: &mut Criterion) {
    for isa in isa_specs::TARGETS {
        bench_target(c, isa);
    }
}

criterion_group!(benches, engine);
criterion_main!(benches);
