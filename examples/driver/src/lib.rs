//! A small driver: shaders written with the typed builders, compiled by the
//! backend. The builders reject at compile time what the hardware would
//! (`tests/ui`); what they accept is scheduled, allocated, legalized and
//! encoded like any IR.

use backend::{CompileError, Compiled, Target};
use isa_specs::gcn::build as gcn;
use isa_specs::runtime::build::BuildError;

/// Why a shader did not compile.
#[derive(Debug)]
pub enum DriverError {
    Build(BuildError),
    Compile(CompileError),
}

impl std::fmt::Display for DriverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DriverError::Build(e) => write!(f, "building: {e}"),
            DriverError::Compile(e) => write!(f, "compiling: {e}"),
        }
    }
}

impl std::error::Error for DriverError {}

/// Compiles IR for `target` in generation `gen_`, with the target's ABI.
pub fn compile(target: &str, gen_: u32, ir: &str) -> Result<Compiled, DriverError> {
    let isa = isa_specs::target(target).expect("a bundled target");
    let t = Target::new(isa, gen_, abi_specs::target(target)).map_err(DriverError::Compile)?;
    backend::compile(&t, ir).map_err(DriverError::Compile)
}

/// GCN (GFX8) compute: `out[tid] = in[tid] * 2 + 1`, the buffer descriptors
/// from radeonsi's `const_and_shader_buffers`.
pub fn gcn_compute() -> Result<String, DriverError> {
    use gcn::{Gfx8, Sgpr, Shader, Vgpr};
    let mut b = Shader::<Gfx8>::new();
    b.abi("cs main");
    let bufs = b.input::<Sgpr, 2>("abi const_and_shader_buffers");
    let tid = b.input::<Vgpr, 1>("abi thread_id[0]");
    let input = b.s_load_dwordx4(bufs, 0);
    let output = b.s_load_dwordx4(bufs, 16);
    let off = b.v_lshlrev_b32_e32(2, tid);
    let x = b.value::<Vgpr, 1>();
    b.buffer_load_dword_to(x, off, input, 0).offen();
    let y = b.v_mul_f32_e32(2.0, x);
    let z = b.v_add_f32_e32(1.0, y);
    let first = b.v_readfirstlane_b32(off);
    b.buffer_store_dword(z, off, output, first).offen();
    b.to_ir().map_err(DriverError::Build)
}

/// ir3 (a6xx) vertex shader of Mesa's ir3 notes: the dot product of
/// `IN[0].xyz` and `IN[1].xyz` in every component of `OUT[0]`.
pub fn ir3_dp3() -> Result<String, DriverError> {
    use isa_specs::ir3::build::{A6xx, Full, Shader};
    let mut b = Shader::<A6xx>::new();
    let in0 = b.input::<Full, 4>("r0.x");
    let in1 = b.input::<Full, 4>("r1.x");
    let [ax, ay, az, _] = b.split(in0);
    let [bx, by, bz, _] = b.split(in1);
    let t0 = b.mul_f(ax, bx);
    let t1 = b.mad_f32(ay, by, t0);
    let dot = b.mad_f32(az, bz, t1);
    let out = b.collect([dot, dot, dot, dot]);
    b.output(out, None);
    b.to_ir().map_err(DriverError::Build)
}

/// AGX vertex shader run as compute (the AGX ABI's hw-compute layout): a
/// polynomial in the vertex id, left in r2, one source a uniform.
pub fn agx_vertex() -> Result<String, DriverError> {
    use isa_specs::agx::build::{Base, FSrc, Full, Shader, uniform};
    let mut b = Shader::<Base>::new();
    b.abi("vertex hw-compute n=1");
    let id = b.input::<Full, 1>("abi vertex_id_zero_based");
    let x = b.fmul(id, 0.5);
    let y = b.ffma(x, x, uniform::<6>());
    let r = b.rcp(y);
    let z = b.fadd(r, FSrc::from(x).neg());
    b.output(z, Some("r2"));
    b.to_ir().map_err(DriverError::Build)
}

/// Every example shader: `(target, generation, IR text)`.
pub fn shaders() -> Result<Vec<(&'static str, u32, String)>, DriverError> {
    Ok(vec![("gcn", 8, gcn_compute()?), ("ir3", 600, ir3_dp3()?), ("agx", 0, agx_vertex()?)])
}
