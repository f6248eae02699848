sam (f32)(xyzw)r1.x, r0.z, s#6, t#6
ldg.u32 r1.z, g[r1.z+7], 1
stg.a.f32 g[r1.x+(r1.z<<2)], r0.z, 2
ldc.offset0.1.imm r0.x, r0.x, 0
(sy)atomic.b.add.typed.2d.u32.1.nonuniform.base0 r1.x, r0.z, r1.z
fence.g.l.r.w
(ss)shpe
