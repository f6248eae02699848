mov.f32f32 r0.x, c8.x
mova a0.x, hr0.x
(ul)mov.s32s32 r1.x, c<a0.x + 17>
mul.f r0.x, r0.y, c1.x
(nop3) add.s hr1.w, hr0.x, h(-1)
cmps.f.ne p0.x, hr1.x, h(0.0)
(rpt1)add.f hr0.z, (r)hr1.z, (neg)(r)hc8.x
mad.f32 r1.y, (neg)c12.x, r1.x, c12.y
rcp r2.z, r0.w
(sy)mul.f hr1.x, hr1.x, h(0.5)
br !p0.x, #3
