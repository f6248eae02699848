//! Random programs through the whole pipeline, per target: DAGs of up to a few
//! thousand instructions mixing ALU work, asynchronous results (memory,
//! texture, special functions), stores that keep their order, vector values
//! built with collect and taken apart with split (repeated and shared sources
//! force copies), a scarce register (address register, condition code) and
//! if/else diamonds to flatten. Every result must pass the hazard checker and
//! the register validator with zero violations, and decode back to its listing.

mod common;

use backend::Target;
use backend::code::Origin;
use isa_runtime::TestRng;

/// A program being written: its text and the names of the values available.
struct Gen {
    rng: TestRng,
    text: String,
    /// Recently defined single-register values of the main class.
    vals: Vec<String>,
    n: usize,
    blocks: usize,
}

impl Gen {
    fn new(seed: u64) -> Self {
        Gen { rng: TestRng::new(seed), text: String::new(), vals: Vec::new(), n: 0, blocks: 0 }
    }
    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n as u64) as usize
    }
    /// A recent value (bounded window, so register pressure stays bounded).
    fn pick(&mut self) -> String {
        let w = self.vals.len().min(16);
        let k = self.vals.len() - 1 - self.below(w);
        self.vals[k].clone()
    }
    fn fresh(&mut self) -> String {
        self.n += 1;
        format!("v{}", self.n)
    }
    fn line(&mut self, s: &str) {
        self.text.push_str("    ");
        self.text.push_str(s);
        self.text.push('\n');
    }
    fn def(&mut self, v: String) {
        self.vals.push(v);
    }
}

/// Instruction recipes for one target.
trait Recipe {
    fn target(&self) -> Target;
    fn prologue(&self, g: &mut Gen);
    /// Writes one random step (one or a few instructions).
    fn step(&self, g: &mut Gen);
    fn epilogue(&self, g: &mut Gen);
}

struct Ir3;

impl Recipe for Ir3 {
    fn target(&self) -> Target {
        common::target("ir3", Some(630))
    }
    fn prologue(&self, g: &mut Gen) {
        g.line("%in:full[4] = input r0.x");
        g.line("%i0, %i1, %i2, %i3 = split %in");
        for v in ["i0", "i1", "i2", "i3"] {
            g.def(v.into());
        }
        g.line("mov.u32u32 %alo:full, c0.x");
        g.line("mov.u32u32 %ahi:full, c0.y");
        g.line("%addr = collect %alo, %ahi");
    }
    fn step(&self, g: &mut Gen) {
        let d = g.fresh();
        match g.below(20) {
            0..=4 => {
                let (a, b) = (g.pick(), g.pick());
                let op = ["add.f", "mul.f", "max.f", "min.f"][g.below(4)];
                g.line(&format!("{op} %{d}:full, %{a}, %{b}"));
                g.def(d);
            }
            5..=6 => {
                let (a, b, c) = (g.pick(), g.pick(), g.pick());
                g.line(&format!("mad.f32 %{d}:full, %{a}, %{b}, %{c}"));
                g.def(d);
            }
            7 => {
                let k = g.below(64);
                g.line(&format!("mov.f32f32 %{d}:full, c{k}.x"));
                g.def(d);
            }
            8 => {
                let a = g.pick();
                let op = ["rcp", "rsq", "log2", "exp2"][g.below(4)];
                g.line(&format!("{op} %{d}:full, %{a}"));
                g.def(d);
            }
            9 => {
                let off = 4 * g.below(16);
                g.line(&format!("ldg.u32 %{d}:full, g[%addr+{off}], 1"));
                g.def(d);
            }
            10 => {
                let (a, off) = (g.pick(), 4 * g.below(16));
                g.line(&format!("stg.u32 g[%addr+{off}], %{a}, 1"));
            }
            11 => {
                let (a, b) = (g.pick(), g.pick());
                let uv = g.fresh();
                g.line(&format!("%{uv} = collect %{a}, %{b}"));
                let t = g.fresh();
                g.line(&format!("sam (f32)(xyzw)%{t}:full[4], %{uv}, s#0, t#0"));
                let parts: Vec<String> = (0..4).map(|_| g.fresh()).collect();
                g.line(&format!("%{}, %{}, %{}, %{} = split %{t}", parts[0], parts[1], parts[2], parts[3]));
                for p in parts {
                    g.def(p);
                }
            }
            12 => {
                let a = g.pick();
                g.line(&format!("ldl.u32 %{d}:full, l[%{a}+4], 1"));
                g.def(d);
            }
            13 => {
                // Relative const read through the (single) address register.
                let a = g.pick();
                let h = g.fresh();
                let x = g.fresh();
                g.line(&format!("cov.f32s16 %{h}:half, %{a}"));
                g.line(&format!("mova %{x}:addr, %{h}"));
                let k = 1 + g.below(8);
                g.line(&format!("mov.f32f32 %{d}:full, c<%{x} + {k}>"));
                g.def(d);
            }
            14 => {
                // A collect with a repeated source and one shared with the last
                // collect: both need copies.
                let (a, b) = (g.pick(), g.pick());
                let v = g.fresh();
                g.line(&format!("%{v} = collect %{a}, %{b}, %{a}"));
                let parts: Vec<String> = (0..3).map(|_| g.fresh()).collect();
                g.line(&format!("%{}, %{}, %{} = split %{v}", parts[0], parts[1], parts[2]));
                for p in parts {
                    g.def(p);
                }
            }
            15 => {
                // An if/else diamond, flattened into sel.b32.
                g.blocks += 1;
                let k = g.blocks;
                let (a, b, c) = (g.pick(), g.pick(), g.pick());
                let cond = g.fresh();
                let (x, y) = (g.fresh(), g.fresh());
                g.line(&format!("cmps.f.lt %{cond}:full, %{a}, %{b}"));
                g.line(&format!("if %{cond} then t{k} else e{k}"));
                g.text.push_str(&format!("t{k}:\n"));
                g.line(&format!("add.f %{x}:full, %{a}, %{c}"));
                g.line(&format!("goto j{k}"));
                g.text.push_str(&format!("e{k}:\n"));
                g.line(&format!("mul.f %{y}:full, %{b}, %{c}"));
                g.line(&format!("goto j{k}"));
                g.text.push_str(&format!("j{k}:\n"));
                g.line(&format!("%{d}:full = phi %{x} from t{k}, %{y} from e{k}"));
                g.def(d);
            }
            _ => {
                let a = g.pick();
                g.line(&format!("mov.f32f32 %{d}:full, %{a}"));
                g.def(d);
            }
        }
    }
    fn epilogue(&self, g: &mut Gen) {
        let (a, b) = (g.pick(), g.pick());
        g.line(&format!("%result = collect %{a}, %{b}"));
        g.line("output %result");
    }
}

struct Gcn;

impl Recipe for Gcn {
    fn target(&self) -> Target {
        common::target("gcn", Some(8))
    }
    fn prologue(&self, g: &mut Gen) {
        g.text.push_str("abi cs main\n");
        g.line("%bufs:sgpr[2] = input abi const_and_shader_buffers");
        g.line("%tid:vgpr = input abi thread_id[0]");
        g.line("s_load_dwordx4 %rsrc:sgpr[4], %bufs, 0x0");
        g.line("v_lshlrev_b32 %off:vgpr, 2, %tid");
        g.def("tid".into());
        g.def("off".into());
    }
    fn step(&self, g: &mut Gen) {
        let d = g.fresh();
        match g.below(16) {
            0..=5 => {
                let (a, b) = (g.pick(), g.pick());
                let op = ["v_add_f32", "v_mul_f32", "v_max_f32", "v_min_f32", "v_sub_f32"][g.below(5)];
                g.line(&format!("{op} %{d}:vgpr, %{a}, %{b}"));
                g.def(d);
            }
            6 => {
                let a = g.pick();
                let op = ["v_rcp_f32", "v_sqrt_f32", "v_exp_f32", "v_mov_b32"][g.below(4)];
                g.line(&format!("{op} %{d}:vgpr, %{a}"));
                g.def(d);
            }
            7 => {
                g.line(&format!("buffer_load_dword %{d}:vgpr, %off, %rsrc, 0 offen"));
                g.def(d);
            }
            8 => {
                let a = g.pick();
                g.line(&format!("buffer_store_dword %{a}, %off, %rsrc, 0 offen"));
            }
            9 => {
                let a = g.pick();
                g.line(&format!("ds_read_b32 %{d}:vgpr, %{a}"));
                g.def(d);
            }
            10 => {
                let (a, b) = (g.pick(), g.pick());
                g.line(&format!("ds_write_b32 %{a}, %{b}"));
            }
            11 => {
                // A VALU write of an SGPR read by vector memory: wait states.
                let a = g.pick();
                let s = g.fresh();
                g.line(&format!("v_readfirstlane_b32 %{s}:sgpr, %{a}"));
                g.line(&format!("buffer_load_dword %{d}:vgpr, %off, %rsrc, %{s} offen"));
                g.def(d);
            }
            12 => {
                // The condition code is scarce: one live value at a time.
                let (a, b, c) = (g.pick(), g.pick(), g.pick());
                let cc = g.fresh();
                g.line(&format!("v_cmp_lt_f32 %{cc}:vcc, %{a}, %{b}"));
                g.line(&format!("v_cndmask_b32 %{d}:vgpr, %{a}, %{c}, %{cc}"));
                g.def(d);
            }
            13 => {
                // An if/else diamond, flattened into v_cndmask_b32.
                g.blocks += 1;
                let k = g.blocks;
                let (a, b, c) = (g.pick(), g.pick(), g.pick());
                let cond = g.fresh();
                let (x, y) = (g.fresh(), g.fresh());
                g.line(&format!("v_cmp_lt_f32 %{cond}:vcc, %{a}, %{b}"));
                g.line(&format!("if %{cond} then t{k} else e{k}"));
                g.text.push_str(&format!("t{k}:\n"));
                g.line(&format!("v_add_f32 %{x}:vgpr, %{a}, %{c}"));
                g.line(&format!("goto j{k}"));
                g.text.push_str(&format!("e{k}:\n"));
                g.line(&format!("v_mul_f32 %{y}:vgpr, %{b}, %{c}"));
                g.line(&format!("goto j{k}"));
                g.text.push_str(&format!("j{k}:\n"));
                g.line(&format!("%{d}:vgpr = phi %{x} from t{k}, %{y} from e{k}"));
                g.def(d);
            }
            14 => {
                let (a, b) = (g.pick(), g.pick());
                let v = g.fresh();
                g.line(&format!("%{v} = collect %{a}, %{b}, %{a}, %{b}"));
                g.line(&format!("buffer_store_dwordx4 %{v}, %off, %rsrc, 0 offen"));
            }
            _ => {
                let a = g.pick();
                g.line(&format!("v_mov_b32 %{d}:vgpr, %{a}"));
                g.def(d);
            }
        }
    }
    fn epilogue(&self, g: &mut Gen) {
        let (a, b, c, d) = (g.pick(), g.pick(), g.pick(), g.pick());
        g.line(&format!("exp mrt0 %{a}, %{b}, %{c}, %{d} done vm"));
    }
}

/// Instructions made, and how many of them the legalizer added (waits, nops).
struct Agx;

impl Recipe for Agx {
    fn target(&self) -> Target {
        common::target("agx", None)
    }
    fn prologue(&self, g: &mut Gen) {
        for (k, r) in ["r4", "r5", "r6", "r7"].iter().enumerate() {
            g.line(&format!("%i{k}:full = input {r}"));
            g.def(format!("i{k}"));
        }
    }
    fn step(&self, g: &mut Gen) {
        let d = g.fresh();
        match g.below(10) {
            0..=3 => {
                let (a, b) = (g.pick(), g.pick());
                let op = ["fadd", "fmul"][g.below(2)];
                g.line(&format!("{op} %{d}:full, %{a}, %{b}"));
            }
            4 => {
                let (a, b, c) = (g.pick(), g.pick(), g.pick());
                g.line(&format!("ffma %{d}:full, %{a}, %{b}, %{c}"));
            }
            5 => {
                let a = g.pick();
                let op = ["rcp", "rsqrt", "log2", "exp2", "floor"][g.below(5)];
                g.line(&format!("{op} %{d}:full, %{a}"));
            }
            // Device memory: asynchronous, waited for on scoreboard slots.
            6 => {
                let a = g.pick();
                g.line(&format!("load %{d}:full, du4, %{a}, i32, x, a"));
            }
            7 => {
                let (a, b) = (g.pick(), g.pick());
                g.line(&format!("store %{a}, du6, %{b}, i32, x, a"));
                g.line(&format!("fmul %{d}:full, %{a}, 0.5"));
            }
            _ => {
                let a = g.pick();
                g.line(&format!("fmul %{d}:full, %{a}, 0.5"));
            }
        }
        g.def(d);
    }
    fn epilogue(&self, g: &mut Gen) {
        let a = g.pick();
        g.line(&format!("output %{a} r2"));
    }
}

fn run(recipe: &dyn Recipe, seed: u64, steps: usize) -> (usize, usize, usize) {
    let mut g = Gen::new(seed);
    g.text.push_str("");
    recipe.prologue(&mut g);
    for _ in 0..steps {
        recipe.step(&mut g);
    }
    recipe.epilogue(&mut g);
    let text = if g.text.starts_with("abi") { g.text.clone() } else { format!("entry:\n{}", g.text) };
    let t = recipe.target();
    let c = match backend::compile(&t, &text) {
        Ok(c) => c,
        Err(e) => panic!("seed {seed}, {steps} steps: {e}\n{text}"),
    };
    let c2 = common::compile_checked(&t, &text);
    assert_eq!(c.binary, c2.binary, "compiling is deterministic");
    let listed: Vec<String> = c.listing.iter().map(|l| l.text.clone()).collect();
    assert_eq!(common::decode_all(&t, &c.binary), listed);
    let waits = c.code.iter().filter(|m| m.origin == Origin::Wait).count();
    let nops = c.code.iter().filter(|m| m.origin == Origin::Nop).count();
    (c.code.len(), waits, nops)
}

fn sweep(recipe: &dyn Recipe) {
    let (mut total, mut waits, mut nops) = (0, 0, 0);
    for (seed, steps) in [(1, 10), (2, 40), (3, 150), (4, 400), (5, 1000), (6, 2500), (7, 2500)] {
        let (n, w, p) = run(recipe, seed, steps);
        (total, waits, nops) = (total + n, waits + w, nops + p);
    }
    assert!(total > 6000, "the sweep made {total} instructions");
    // The sweep exercised the legalizer (targets with delay and sync rules).
    let m = recipe.target().machine;
    if !m.delays.is_empty() {
        assert!(waits > 0 && nops > 0, "waits {waits}, nops {nops}");
    }
    if !m.syncs.is_empty() {
        assert!(waits > 0, "no waits in {total} instructions");
    }
}

#[test]
fn random_programs_ir3() {
    sweep(&Ir3);
}

#[test]
fn random_programs_gcn() {
    sweep(&Gcn);
}

#[test]
fn random_programs_agx() {
    sweep(&Agx);
}
