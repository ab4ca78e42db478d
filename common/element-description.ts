/**
 * How a person names an element on a page: its role and accessible name, its label, placeholder,
 * visible text, test id, and a CSS path as the machine's last resort (docs/decisions/019). The
 * server's page snapshots (server/browser/snapshot-script.ts) and the extension's recorder
 * (extension/src/recorder/) both describe elements with it, so a target means the same everywhere.
 * Playwright's locators are the reference: roles, labels and text are read the way getByRole,
 * getByLabel and getByText read them, open shadow roots included.
 * Over 300 lines because elementDescriber must be one self-contained function: the server sends
 * its source into pages with page.evaluate (server/browser/snapshot-script.ts).
 */
export interface ElementDescription {
  role: string | null
  name: string
  /** The field's label (its <label>, or the element aria-labelledby names). */
  label: string | null
  placeholder: string | null
  /** Its visible text (not for fields). */
  text: string | null
  testId: string | null
  /** Words of its id and classes ('order-total' -> 'order total'): a last hint of what it is. */
  hint: string | null
  /** Its tooltip, when its name is something else: a drop-down showing 'Tree ▾' titled 'Switch editor mode'. */
  title?: string
  tag: string
  /** An input's type ('text', 'password'…); null for other elements. */
  type: string | null
  /** A path Playwright's CSS engine finds it by (it crosses open shadow roots). */
  css: string
  /** Whether it takes input or a click (the rest are headings, cells, items: things to read). */
  interactive: boolean
}

export interface ElementDescriber {
  /** What takes a click or input: links, buttons, fields, and elements with such a role. */
  interactive: string
  describe(element: Element): ElementDescription
  roleOf(element: Element): string | null
  nameOf(element: Element): string
  /** Every label getByLabel reads for it (aria-labelledby, aria-label, or its <label>s). */
  labelsOf(element: Element): string[]
  /** Its whole text as getByText reads it (hidden text included), whitespace collapsed. */
  fullTextOf(node: Node): string
  /** Visible the way Playwright's `visible` filter sees it: not hidden by style, a box of some size. */
  isVisible(element: Element): boolean
  /** Every element of the document and of the open shadow roots inside it. */
  allElements(): Element[]
  /** The element one level up; from the top of a shadow root, its host. */
  parentOf(element: Element): Element | null
  cssPath(element: Element): string
  clean(text: string | null | undefined, max?: number): string | null
}

/**
 * The describer for one look at a document. It must stay self-contained (nothing from outside its
 * body, no imports): the server sends its source into pages with page.evaluate. Make a new one
 * after the page changes: it remembers the shadow roots and texts it read.
 */
export function elementDescriber(doc: Document = document): ElementDescriber {
  // A span or a focusable element that says whether it is open (aria-expanded) is a control: a tag
  // pill. Not any element saying so: some libraries put aria-expanded on the panel itself.
  const INTERACTIVE =
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], [role=combobox], [role=textbox], [role=searchbox], [contenteditable=""], [contenteditable=true], span[aria-expanded], [aria-expanded][tabindex="0"]'
  // The ARIA roles Playwright knows (an unknown word in role="" is skipped, as it skips it).
  const ROLES = new Set(
    'alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group heading img insertion link list listbox listitem log main mark marquee math meter menu menubar menuitem menuitemcheckbox menuitemradio navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem'.split(
      ' ',
    ),
  )
  const NAMED_BY_CONTENT = new Set(
    'button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox menuitemradio option radio rowheader switch tab treeitem'.split(
      ' ',
    ),
  )
  const FIELDS = new Set(['input', 'select', 'textarea'])

  const clean = (text: string | null | undefined, max = 200) => {
    const value = (text ?? '')
      .replace(/[\u200b\u00ad]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
    return value ? value.slice(0, max) : null
  }
  const tagOf = (element: Element) => element.tagName.toLowerCase()

  let roots: (Document | ShadowRoot)[] | null = null
  const allRoots = () => {
    if (roots) return roots
    const found: (Document | ShadowRoot)[] = [doc]
    for (let index = 0; index < found.length; index++) {
      for (const element of (found[index] as Document | ShadowRoot).querySelectorAll('*'))
        if (element.shadowRoot) found.push(element.shadowRoot)
    }
    roots = found
    return found
  }
  const allElements = () => allRoots().flatMap((root) => [...root.querySelectorAll('*')])
  const parentOf = (element: Element): Element | null => element.parentElement ?? (element.parentNode as ShadowRoot | null)?.host ?? null
  /** The element an id names, looked up where the referring element lives (its shadow root or document). */
  const byId = (element: Element, id: string) => {
    const root = element.getRootNode() as Document | ShadowRoot
    return typeof root.getElementById === 'function' ? root.getElementById(id) : null
  }

  const isVisible = (element: Element): boolean => {
    const style = (doc.defaultView ?? window).getComputedStyle(element)
    if (style.display === 'contents') return [...element.children].some((child) => isVisible(child))
    if (typeof element.checkVisibility === 'function' && !element.checkVisibility()) return false
    if (style.visibility !== 'visible') return false
    const box = element.getBoundingClientRect()
    return box.width > 0 && box.height > 0
  }

  // Playwright's implicit roles (injected/src/roleUtils.ts), for the elements steps act on and read.
  const implicitRole = (element: Element): string | null => {
    const tag = tagOf(element)
    switch (tag) {
      case 'a':
      case 'area':
        return element.hasAttribute('href') ? 'link' : null
      case 'button':
        return 'button'
      case 'select':
        return (element as HTMLSelectElement).multiple || (element as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox'
      case 'textarea':
        return 'textbox'
      case 'input': {
        const type = ((element as HTMLInputElement).type || 'text').toLowerCase()
        if (['email', 'search', 'tel', 'text', 'url', ''].includes(type)) {
          const list = element.getAttribute('list')
          if (list && byId(element, list)?.tagName === 'DATALIST') return 'combobox'
          return type === 'search' ? 'searchbox' : 'textbox'
        }
        if (type === 'hidden') return null
        const byType: Record<string, string> = {
          button: 'button',
          checkbox: 'checkbox',
          file: 'button',
          image: 'button',
          number: 'spinbutton',
          radio: 'radio',
          range: 'slider',
          reset: 'button',
          submit: 'button',
        }
        return byType[type] ?? 'textbox'
      }
      case 'img':
        return element.getAttribute('alt') === '' && !element.getAttribute('title') ? 'presentation' : 'img'
      case 'td': {
        const tableRole = element.closest('table')?.getAttribute('role')
        return tableRole === 'grid' || tableRole === 'treegrid' ? 'gridcell' : 'cell'
      }
      case 'th': {
        const scope = element.getAttribute('scope')
        if (scope === 'col' || scope === 'colgroup') return 'columnheader'
        if (scope === 'row' || scope === 'rowgroup') return 'rowheader'
        const next = element.nextElementSibling
        const previous = element.previousElementSibling
        if (!next && !previous) return 'columnheader'
        const header = (cell: Element | null) => cell?.tagName === 'TH'
        const data = (cell: Element | null) => cell?.tagName === 'TD' && !!clean(cell.textContent)
        if (header(next) && header(previous)) return 'columnheader'
        return data(next) || data(previous) ? 'rowheader' : 'columnheader'
      }
      case 'li':
        return 'listitem'
      case 'ul':
      case 'ol':
        return 'list'
      case 'p':
        return 'paragraph'
      case 'tr':
        return 'row'
      case 'table':
        return 'table'
      case 'nav':
        return 'navigation'
      case 'main':
        return 'main'
      case 'dialog':
        return 'dialog'
      case 'option':
        return 'option'
      case 'article':
        return 'article'
      case 'fieldset':
      case 'details':
        return 'group'
      case 'output':
        return 'status'
      case 'form':
        return element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby') || element.hasAttribute('title')
          ? 'form'
          : null
      case 'section':
        return element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby') || element.hasAttribute('title')
          ? 'region'
          : null
    }
    return /^h[1-6]$/.test(tag) ? 'heading' : null
  }
  const roleOf = (element: Element): string | null => {
    const explicit = (element.getAttribute('role') ?? '')
      .toLowerCase()
      .split(/\s+/)
      .find((word) => ROLES.has(word))
    return explicit ?? implicitRole(element)
  }

  const texts = new Map<Node, string>()
  /** Text as getByText reads it: every text node below, shadow roots included, scripts and styles left out. */
  const rawText = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.nodeValue ?? ''
    const known = texts.get(node)
    if (known !== undefined) return known
    const text = readText(node)
    texts.set(node, text)
    return text
  }
  const readText = (node: Node): string => {
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return ''
    if (node.nodeType === Node.ELEMENT_NODE) {
      const element = node as Element
      if (['SCRIPT', 'NOSCRIPT', 'STYLE'].includes(element.tagName)) return ''
      if (element.tagName === 'INPUT' && ['submit', 'button', 'reset'].includes((element as HTMLInputElement).type))
        return (element as HTMLInputElement).value
    }
    let text = ''
    for (let child = node.firstChild; child; child = child.nextSibling) text += rawText(child)
    const shadow = (node as Element).shadowRoot
    return shadow ? text + rawText(shadow) : text
  }
  const fullTextOf = (node: Node) => clean(rawText(node), 100_000) ?? ''

  const labelledBy = (element: Element): Element[] | null => {
    const ids = (element.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)
    const found = ids.map((id) => byId(element, id)).filter((label): label is HTMLElement => label !== null)
    return found.length ? found : null
  }
  const labelable = (element: Element) =>
    ['BUTTON', 'METER', 'OUTPUT', 'PROGRESS', 'SELECT', 'TEXTAREA'].includes(element.tagName) ||
    (element.tagName === 'INPUT' && (element as HTMLInputElement).type !== 'hidden')
  const labelsOf = (element: Element): string[] => {
    const referenced = labelledBy(element)
    if (referenced) return referenced.map(fullTextOf)
    const aria = clean(element.getAttribute('aria-label'))
    if (aria) return [aria]
    if (!labelable(element)) return []
    return [...((element as HTMLInputElement).labels ?? [])].map(fullTextOf)
  }
  /** The one label a person reads for a field: the words of its <label>, without the fields inside it. */
  const labelOf = (element: Element): string | null => {
    const referenced = labelledBy(element)
    if (referenced) return clean(referenced.map((label) => label.textContent ?? '').join(' '))
    if (element.hasAttribute('aria-labelledby')) return null
    const label = (labelable(element) ? (element as HTMLInputElement).labels?.[0] : null) ?? element.closest('label')
    if (!label) return null
    const copy = label.cloneNode(true) as Element
    copy.querySelectorAll('select, textarea, input, option').forEach((inner) => inner.remove())
    return clean(copy.textContent)
  }
  const hiddenFromNames = (element: Element) => {
    if (element.getAttribute('aria-hidden') === 'true') return true
    const style = (doc.defaultView ?? window).getComputedStyle(element)
    return style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse'
  }
  /** The nodes a name is read from: an element's shadow tree (its slots filled) when it has one, else its children. */
  const childNodesOf = (node: Node): Node[] => {
    const element = node as Element
    if (element.shadowRoot) return [...element.shadowRoot.childNodes]
    if (element.tagName === 'SLOT') {
      const assigned = (element as HTMLSlotElement).assignedNodes({ flatten: true })
      if (assigned.length) return assigned
    }
    return [...node.childNodes]
  }
  /**
   * A name from what an element holds, as accessible names are computed (and Playwright's
   * getByRole reads them): its text, a child's aria-label or an image's alt instead of the
   * child's own content, hidden parts left out, blocks kept apart by a space.
   */
  const nameFromContent = (node: Node, top = false): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.nodeValue ?? ''
    if (node.nodeType !== Node.ELEMENT_NODE) return ''
    const element = node as Element
    if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(element.tagName)) return ''
    if (!top) {
      if (hiddenFromNames(element)) return ''
      const aria = clean(element.getAttribute('aria-label'))
      if (aria) return ` ${aria} `
      if (element.tagName === 'IMG') return ` ${element.getAttribute('alt') ?? ''} `
      if (FIELDS.has(tagOf(element))) return ''
    }
    const text = childNodesOf(element)
      .map((child) => nameFromContent(child))
      .join('')
    const display = top ? 'inline' : (doc.defaultView ?? window).getComputedStyle(element).display
    return display === 'inline' && element.tagName !== 'BR' ? text : ` ${text} `
  }
  const nameOf = (element: Element, role = roleOf(element), label = labelOf(element)): string => {
    if (element.hasAttribute('aria-labelledby') && label) return label
    const aria = clean(element.getAttribute('aria-label'))
    if (aria) return aria
    const tag = tagOf(element)
    if (FIELDS.has(tag)) {
      const type = (element.getAttribute('type') ?? '').toLowerCase()
      if (['button', 'submit', 'reset'].includes(type))
        return clean((element as HTMLInputElement).value) ?? (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '')
      if (type === 'image') return clean(element.getAttribute('alt')) ?? ''
      return label ?? clean(element.getAttribute('title')) ?? clean(element.getAttribute('placeholder')) ?? ''
    }
    if (tag === 'img') return clean(element.getAttribute('alt')) ?? ''
    if (role && NAMED_BY_CONTENT.has(role)) return clean(nameFromContent(element, true)) ?? clean(element.getAttribute('title')) ?? ''
    return clean(element.getAttribute('title')) ?? ''
  }

  const SIMPLE_ID = /^[A-Za-z][\w-]*$/
  const uniqueId = (element: Element) => {
    const id = element.getAttribute('id')
    if (!id || !SIMPLE_ID.test(id)) return null
    const selector = `#${CSS.escape(id)}`
    const count = allRoots().reduce((sum, root) => sum + root.querySelectorAll(selector).length, 0)
    return count === 1 ? selector : null
  }
  /** Tag and position from the nearest element with a unique id (or the body), crossing shadow roots as Playwright's CSS does. */
  const cssPath = (element: Element): string => {
    const parts: string[] = []
    for (let current: Element | null = element; current && current !== doc.documentElement; current = parentOf(current)) {
      const id = uniqueId(current)
      if (id) {
        parts.unshift(id)
        break
      }
      const tag = tagOf(current)
      const siblings = [...(current.parentNode?.children ?? [])].filter((child) => child.tagName === current?.tagName)
      parts.unshift(siblings.length > 1 ? `${tag}:nth-of-type(${siblings.indexOf(current) + 1})` : tag)
    }
    return parts.join(' > ')
  }

  const hintOf = (element: Element) =>
    clean(
      [
        element.getAttribute('id') ?? '',
        ...[...element.classList].filter((name) => name.length > 2 && !/\d{2,}|^(?:css|sc|jsx)-/.test(name)),
      ]
        .join(' ')
        .replace(/[-_]+/g, ' ')
        .replace(/([a-z])([A-Z])/g, '$1 $2'),
      80,
    )

  const describe = (element: Element): ElementDescription => {
    const tag = tagOf(element)
    const field = FIELDS.has(tag)
    const role = roleOf(element)
    const label = field || element.hasAttribute('aria-labelledby') ? labelOf(element) : null
    const name = nameOf(element, role, label)
    const title = clean(element.getAttribute('title'))
    return {
      ...(title && title !== name ? { title } : {}),
      role,
      name,
      label,
      placeholder: clean(element.getAttribute('placeholder')),
      text: field ? null : clean((element as HTMLElement).innerText || element.textContent),
      testId: element.getAttribute('data-testid'),
      hint: hintOf(element),
      tag,
      type: tag === 'input' ? (element.getAttribute('type') ?? 'text').toLowerCase() : null,
      css: cssPath(element),
      interactive: element.matches(INTERACTIVE),
    }
  }

  return {
    interactive: INTERACTIVE,
    describe,
    roleOf,
    nameOf: (element) => nameOf(element),
    labelsOf,
    fullTextOf,
    isVisible,
    allElements,
    parentOf,
    cssPath,
    clean,
  }
}
