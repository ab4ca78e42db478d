/** Lets the browser save a value as a pretty-printed JSON file. */
export function downloadJson(value: unknown, fileName: string) {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }))
  const link = Object.assign(window.document.createElement('a'), { href: url, download: fileName })
  window.document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
