import { z } from 'zod'

// zod probes for eval (`Function('')`) the first time it builds an object schema. Our CSP has no
// 'unsafe-eval', so in the browser that probe is a reported violation: turn the JIT off before any
// schema exists. Every schema module imports z from here.
z.config({ jitless: true })

export { z }
