// Writes .br and .gz copies of the built client files so the server can send them precompressed.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const root = path.resolve(process.argv[2] ?? 'build/client')
const compressible = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/

let count = 0
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) walk(file)
    else if (compressible.test(name)) {
      const body = readFileSync(file)
      if (body.length < 512) continue
      writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
      writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }))
      count++
    }
  }
}
walk(root)
console.log(`compressed ${count} files in ${path.relative(process.cwd(), root)}`)
