// Prints the gzipped size of the JavaScript a page loads (scripts/bench/js-size.mjs says what counts),
// and on a reading page (its modules wait for a control that needs React), what such a control loads.
// usage: node scripts/page-js-size.js http://localhost:3000 /auth /
import { pageJsSize } from './bench/js-size.mjs'

const kb = (bytes) => (bytes / 1024).toFixed(1)
const [base = 'http://localhost:3000', ...paths] = process.argv.slice(2)
for (const path of paths.length ? paths : ['/']) {
  const size = await pageJsSize(base, path)
  const later = size.interaction.files
    ? `; when a control needs React ${size.interaction.files} more, ${kb(size.interaction.gzipBytes)} KB gzipped`
    : ''
  console.log(`${path}: ${size.files} files, ${kb(size.rawBytes)} KB raw, ${kb(size.gzipBytes)} KB gzipped${later}`)
}
