mul.f r0.x, r0.y, c1.x
(nop3) add.s hr1.w, hr0.x, h(-1)
cmps.f.ne p0.x, hr1.x, h(0.0)
(rpt1)add.f hr0.z, (r)hr1.z, (neg)(r)hc8.x
add.f r1.w, r2.x, (neg)(pi)
