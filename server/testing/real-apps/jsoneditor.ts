// JSONEditor (josdejong/jsoneditor, plain JavaScript): its tree editor on a page that holds one
// order, as its examples set it up, with a Save button that sends the edited document to the
// server (`saved`), so a task that edits can be judged by what was saved.

export const JSONEDITOR_BUILDS = { '10': 'jsoneditor', '9': 'jsoneditor-9' } as const
export type JsonEditorBuild = keyof typeof JSONEDITOR_BUILDS

export const ORDER = {
  order: 1042,
  customer: { name: 'Grace Hopper', email: 'grace@example.com', city: 'Arlington' },
  status: 'packing',
  express: false,
  items: [
    { sku: 'TR-200', name: 'Trail Runner Shoes', quantity: 1, price: 89 },
    { sku: 'WS-014', name: 'Wool Socks', quantity: 3, price: 14.99 },
    { sku: 'HL-034', name: 'Headlamp', quantity: 1, price: 34.9 },
  ],
  notes: 'Leave at the back door',
}

export const jsonEditorPage = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Order 1042 | JSONEditor</title>
<link href="dist/jsoneditor.css" rel="stylesheet" type="text/css"><script src="dist/jsoneditor.js"></script>
<style>body{font-family:sans-serif}#jsoneditor{width:640px;height:520px}</style></head>
<body><h1>Order 1042</h1>
<p><button id="save">Save</button> <span id="status" role="status"></span></p>
<div id="jsoneditor"></div>
<script>
  const editor = new JSONEditor(document.getElementById('jsoneditor'), { modes: ['tree', 'code', 'text', 'view'], mode: 'tree', name: 'order' })
  editor.set(${JSON.stringify(ORDER)})
  editor.expandAll()
  document.getElementById('save').onclick = async function () {
    const response = await fetch('../saved', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(editor.get()) })
    document.getElementById('status').textContent = response.ok ? 'Saved' : 'Not saved'
  }
</script></body></html>`
