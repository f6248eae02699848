//! `isa abi`: prints a stage's layout as a table, from the ABI specs.

use abi_specs::runtime::Abi;

pub const USAGE: &str = "isa abi --target T [--stage S [--variant V] [--param NAME=VALUE]... [--gen G]]";

/// Runs `isa abi` with the arguments after `abi`; the text to print, or a usage error.
pub fn run(args: &[String]) -> Result<String, String> {
    let mut target = None;
    let (mut stage, mut variant, mut gen_name) = (None, None, None);
    let mut params: Vec<(String, i64)> = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--target" => {
                target = Some(abi_specs::target(value).ok_or_else(|| {
                    let names: Vec<_> = abi_specs::TARGETS.iter().map(|t| t.name).collect();
                    format!("unknown ABI target `{value}` (targets: {})", names.join(", "))
                })?)
            }
            "--stage" => stage = Some(value.clone()),
            "--variant" => variant = Some(value.clone()),
            "--gen" => gen_name = Some(value.clone()),
            "--param" => {
                let (k, v) = value.split_once('=').ok_or_else(|| format!("--param takes NAME=VALUE, not `{value}`"))?;
                let v = v.trim();
                let v = match v.strip_prefix("0x") {
                    Some(h) => i64::from_str_radix(h, 16),
                    None => v.parse(),
                }
                .map_err(|_| format!("--param {k}: `{v}` is not an integer"))?;
                params.push((k.trim().to_string(), v));
            }
            _ => return Err(format!("unknown option `{flag}`; usage: {USAGE}")),
        }
    }
    let abi: &'static Abi = target.ok_or("--target is required")?;
    let Some(stage) = stage else { return Ok(overview(abi)) };
    let gen_ = match gen_name {
        None => abi.default_gen,
        Some(g) => abi.gen_by_name(&g).ok_or_else(|| format!("{} has no generation `{g}`", abi.name))?,
    };
    let s = abi.stage(&stage).map_err(|e| e.to_string())?;
    let v = s.variant(variant.as_deref()).map_err(|e| e.to_string())?;
    let named: Vec<(&str, i64)> = params.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let vals = v.bind(abi, &named).map_err(|e| e.to_string())?;
    let layout = v.layout(abi, gen_, &vals).map_err(|e| e.to_string())?;
    Ok(layout.table(abi, s.name))
}

/// Stages, variants and parameters of a target, when no stage is named.
fn overview(abi: &Abi) -> String {
    let mut s = format!("{}: {}\nsource: {}\n\nstages:\n", abi.name, abi.doc, abi.source);
    for st in abi.stages {
        let vs: Vec<_> = st.variants.iter().map(|v| v.name).collect();
        s.push_str(&format!("  {:<8} variants: {}\n", st.name, vs.join(", ")));
    }
    if !abi.params.is_empty() {
        s.push_str("\nparameters:\n");
        for p in abi.params {
            s.push_str(&format!("  {}={}..{} (default {}): {}\n", p.name, p.min, p.max, p.default, p.doc));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::run;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn prints_a_stage_table() {
        let t = run(&args("--target agx --stage vertex --variant hw-vertex --param n=4")).unwrap();
        assert!(t.contains("| r8..r11 | 16 | 128 | attribute[0] |"), "{t}");
        assert!(t.contains("| u12 | 24 | 32 | base_vertex |"), "{t}");
        let t = run(&args("--target gcn --stage ps --variant main --param input_addr=0x1002 --gen gfx6")).unwrap();
        assert!(t.contains("| v2 | 2 | 32 | front_face |"), "{t}");
        assert!(run(&args("--target ir3")).unwrap().contains("special-registers"));
    }

    #[test]
    fn reports_bad_requests() {
        assert!(run(&args("--target nope")).unwrap_err().contains("targets: agx, gcn, ir3"));
        assert!(run(&args("--target agx --stage vertex")).unwrap_err().contains("hw-vertex"));
        let e = run(&args("--target agx --stage vertex --variant hw-vertex --param n=40")).unwrap_err();
        assert!(e.contains("n = 40 is outside 0..=32"), "{e}");
        assert!(run(&args("--target gcn --stage vs --variant blit --param blit_sgprs=4")).is_err());
    }
}
