import { inflateSync } from 'node:zlib'

/**
 * How many pixels of a PNG (8-bit RGB or RGBA, not interlaced: what Chromium's screenshots are)
 * have exactly this colour. For tests that check what a screenshot shows, such as a masked field.
 */
export function countPixels(png: Buffer, rgb: [number, number, number]): number {
  let offset = 8
  let width = 0
  let height = 0
  let channels = 0
  const data: Buffer[] = []
  while (offset < png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    const body = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      const colourType = body[9]
      if (body[8] !== 8 || (colourType !== 2 && colourType !== 6) || body[12] !== 0) throw new Error('an 8-bit RGB(A) PNG is expected')
      channels = colourType === 6 ? 4 : 3
    } else if (type === 'IDAT') data.push(body)
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(data))
  const stride = width * channels
  let previous = Buffer.alloc(stride)
  let count = 0
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)))
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? (line[x - channels] ?? 0) : 0
      const up = previous[x] ?? 0
      const upLeft = x >= channels ? (previous[x - channels] ?? 0) : 0
      let add = 0
      if (filter === 1) add = left
      else if (filter === 2) add = up
      else if (filter === 3) add = (left + up) >> 1
      else if (filter === 4) {
        const p = left + up - upLeft
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)]
        add = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
      }
      line[x] = ((line[x] ?? 0) + add) & 0xff
    }
    for (let x = 0; x < stride; x += channels) {
      if (line[x] === rgb[0] && line[x + 1] === rgb[1] && line[x + 2] === rgb[2]) count += 1
    }
    previous = line
  }
  return count
}
