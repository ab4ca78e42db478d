// Runs inside the page (page.evaluate): no imports, no closures over Node values. It lists what a
// person can see and use on the page, with the words they would use for each element, and a CSS
// path as the machine's last resort. page-snapshot.ts turns the result into suggested targets.

export interface RawElement {
  role: string | null
  name: string
  label: string | null
  placeholder: string | null
  text: string | null
  testId: string | null
  /** Words of its id and classes ('order-total' -> 'order total'): a last hint of what it is. */
  hint: string | null
  tag: string
  type: string | null
  /** The field's current value (never a password's). */
  value: string | null
  options: string[] | null
  css: string
  box: { x: number; y: number; width: number; height: number }
  /** Whether it takes input or a click (the rest are headings, cells, items: things to read). */
  interactive: boolean
}

export interface RawSnapshot {
  url: string
  title: string
  elements: RawElement[]
  truncated: boolean
}

export function collectElements(maxElements: number): RawSnapshot {
  const INTERACTIVE =
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], [role=combobox], [role=textbox], [role=searchbox], [contenteditable=""], [contenteditable=true]'
  const READABLE = 'h1, h2, h3, h4, h5, h6, th, td, li, label, [role=heading], [role=cell], [role=row], dt, dd, caption, legend, p'
  const clean = (text: string | null | undefined, max = 200) => {
    const value = (text ?? '').replace(/\s+/g, ' ').trim()
    return value ? value.slice(0, max) : null
  }
  const visible = (element: Element) => {
    const box = element.getBoundingClientRect()
    if (box.width < 1 || box.height < 1) return false
    const style = getComputedStyle(element)
    return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0
  }
  const implicitRole = (element: Element): string | null => {
    const tag = element.tagName.toLowerCase()
    const type = (element.getAttribute('type') ?? 'text').toLowerCase()
    if (tag === 'a') return element.hasAttribute('href') ? 'link' : null
    if (tag === 'button' || tag === 'summary') return 'button'
    if (tag === 'select') return (element as HTMLSelectElement).multiple ? 'listbox' : 'combobox'
    if (tag === 'textarea') return 'textbox'
    if (tag === 'input') {
      if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button'
      if (type === 'checkbox') return 'checkbox'
      if (type === 'radio') return 'radio'
      if (type === 'number') return 'spinbutton'
      if (type === 'range') return 'slider'
      if (type === 'search') return 'searchbox'
      if (['text', 'email', 'tel', 'url', ''].includes(type)) return element.hasAttribute('list') ? 'combobox' : 'textbox'
      return null
    }
    if (/^h[1-6]$/.test(tag)) return 'heading'
    if (tag === 'img') return element.getAttribute('alt') ? 'img' : null
    if (tag === 'td') return 'cell'
    if (tag === 'th') return element.closest('thead') || element.getAttribute('scope') === 'col' ? 'columnheader' : 'rowheader'
    if (tag === 'li') return 'listitem'
    if (tag === 'p') return 'paragraph'
    return null
  }
  const textOf = (ids: string) =>
    ids
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
  const labelOf = (element: Element): string | null => {
    if (element.hasAttribute('aria-labelledby')) return clean(textOf(element.getAttribute('aria-labelledby') ?? ''))
    const id = element.getAttribute('id')
    const explicit = id ? document.querySelector(`label[for="${CSS.escape(id)}"]`) : null
    const wrapping = element.closest('label')
    const label = explicit ?? wrapping
    if (!label) return null
    // The label's own words, without the text of the field inside it (a select's options, say).
    const copy = label.cloneNode(true) as Element
    copy.querySelectorAll('select, textarea, input, option').forEach((inner) => inner.remove())
    return clean(copy.textContent)
  }
  const nameOf = (element: Element, role: string | null, label: string | null): string => {
    const aria = clean(element.getAttribute('aria-label'))
    if (element.hasAttribute('aria-labelledby')) return label ?? ''
    if (aria) return aria
    const tag = element.tagName.toLowerCase()
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      const type = (element.getAttribute('type') ?? '').toLowerCase()
      if (['button', 'submit', 'reset'].includes(type))
        return clean((element as HTMLInputElement).value) ?? (type === 'submit' ? 'Submit' : '')
      if (type === 'image') return clean(element.getAttribute('alt')) ?? ''
      return label ?? clean(element.getAttribute('title')) ?? clean(element.getAttribute('placeholder')) ?? ''
    }
    if (tag === 'img') return clean(element.getAttribute('alt')) ?? ''
    if (
      role &&
      ['button', 'link', 'heading', 'cell', 'columnheader', 'rowheader', 'tab', 'menuitem', 'option', 'checkbox', 'radio'].includes(role)
    ) {
      const text = clean((element as HTMLElement).innerText || element.textContent)
      if (text) return text
      const image = element.querySelector('img[alt]')
      return clean(image?.getAttribute('alt')) ?? clean(element.getAttribute('title')) ?? ''
    }
    return clean(element.getAttribute('title')) ?? ''
  }
  const cssPath = (element: Element): string => {
    const id = element.getAttribute('id')
    if (id && /^[A-Za-z][\w-]*$/.test(id) && document.querySelectorAll(`#${CSS.escape(id)}`).length === 1) return `#${CSS.escape(id)}`
    const parts: string[] = []
    let current: Element | null = element
    while (current && current !== document.documentElement && parts.length < 8) {
      const tag = current.tagName.toLowerCase()
      const parent: Element | null = current.parentElement
      const siblings = parent ? [...parent.children].filter((child) => child.tagName === current?.tagName) : []
      parts.unshift(siblings.length > 1 ? `${tag}:nth-of-type(${siblings.indexOf(current) + 1})` : tag)
      const parentId = parent?.getAttribute('id')
      if (parentId && /^[A-Za-z][\w-]*$/.test(parentId)) {
        parts.unshift(`#${CSS.escape(parentId)}`)
        break
      }
      current = parent
    }
    return parts.join(' > ')
  }

  const seen = new Set<Element>()
  const elements: RawElement[] = []
  let truncated = false
  const add = (element: Element, interactive: boolean) => {
    if (seen.has(element) || !visible(element)) return
    seen.add(element)
    if (elements.length >= maxElements) {
      truncated = true
      return
    }
    const tag = element.tagName.toLowerCase()
    const role = element.getAttribute('role') ?? implicitRole(element)
    const label =
      tag === 'input' || tag === 'select' || tag === 'textarea' || element.hasAttribute('aria-labelledby') ? labelOf(element) : null
    const box = element.getBoundingClientRect()
    const type = tag === 'input' ? (element.getAttribute('type') ?? 'text').toLowerCase() : null
    elements.push({
      role,
      name: nameOf(element, role, label),
      label,
      placeholder: clean(element.getAttribute('placeholder')),
      text:
        tag === 'input' || tag === 'select' || tag === 'textarea' ? null : clean((element as HTMLElement).innerText || element.textContent),
      testId: element.getAttribute('data-testid'),
      hint: clean(
        [
          element.getAttribute('id') ?? '',
          ...[...element.classList].filter((name) => name.length > 2 && !/\d{2,}|^(?:css|sc|jsx)-/.test(name)),
        ]
          .join(' ')
          .replace(/[-_]+/g, ' ')
          .replace(/([a-z])([A-Z])/g, '$1 $2'),
        80,
      ),
      tag,
      type,
      value: type === 'password' ? null : tag === 'input' || tag === 'textarea' ? clean((element as HTMLInputElement).value) : null,
      options:
        tag === 'select'
          ? [...(element as HTMLSelectElement).options].slice(0, 30).map((option) => clean(option.label) ?? option.value)
          : null,
      css: cssPath(element),
      box: { x: Math.round(box.x + scrollX), y: Math.round(box.y + scrollY), width: Math.round(box.width), height: Math.round(box.height) },
      interactive,
    })
  }
  document.querySelectorAll(INTERACTIVE).forEach((element) => add(element, true))
  document.querySelectorAll(READABLE).forEach((element) => {
    // Text that repeats an interactive element inside it is not worth a line of its own.
    if (element.querySelector(INTERACTIVE) && element.tagName.toLowerCase() !== 'td') return
    add(element, false)
  })
  // Text in plain boxes ('<span class="total">$42</div>', a message in a <div>): the innermost
  // element that holds it, unless a readable element around it was listed already.
  const listed = (element: Element) => [...seen].some((other) => other !== element && other.contains(element))
  document.body.querySelectorAll('div, span, strong, b, em, output, time, small, section, article').forEach((element) => {
    if (elements.length >= maxElements || element.closest(INTERACTIVE) || element.querySelector(INTERACTIVE)) return
    const ownText = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim())
    if (!ownText || element.querySelector('div, p, li, table, ul, ol, section, article, h1, h2, h3, h4, h5, h6')) return
    const text = ((element as HTMLElement).innerText || '').trim()
    if (!text || text.length > 200 || listed(element)) return
    add(element, false)
  })
  elements.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)
  return { url: location.href, title: document.title, elements, truncated }
}
