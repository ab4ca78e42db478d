import { describe, expect, it } from 'vitest'
import { findElement, readElementPhrase } from './element-match.ts'
import type { SnapshotElement } from './page-snapshot.ts'

let refs = 0
function element(fields: Partial<SnapshotElement> & Pick<SnapshotElement, 'tag'>): SnapshotElement {
  refs += 1
  return {
    ref: refs,
    role: null,
    name: '',
    label: null,
    placeholder: null,
    text: null,
    testId: null,
    hint: null,
    type: null,
    value: null,
    options: null,
    box: { x: 0, y: refs * 20, width: 100, height: 20 },
    interactive: true,
    target: [{ by: 'css', selector: `#e${refs}` }],
    checked: true,
    ...fields,
  }
}

const page = [
  element({ tag: 'a', role: 'link', name: 'Outdoor Shop', text: 'Outdoor Shop' }),
  element({ tag: 'h1', role: 'heading', name: 'Sign in', text: 'Sign in', interactive: false }),
  element({ tag: 'input', role: 'textbox', name: 'E-mail address', label: 'E-mail address *', type: 'email' }),
  element({ tag: 'input', role: null, name: 'Password', label: 'Password', type: 'password' }),
  element({ tag: 'select', role: 'combobox', name: 'Country', label: 'Country', options: ['Germany', 'France'] }),
  element({ tag: 'input', role: 'checkbox', name: 'Remember me', label: 'Remember me', type: 'checkbox' }),
  element({ tag: 'button', role: 'button', name: 'Log in', text: 'Log in' }),
  element({ tag: 'a', role: 'link', name: 'Forgot your password?', text: 'Forgot your password?' }),
]
const found = (words: string, want: Parameters<typeof findElement>[2]) => findElement(words, page, want)?.element.name ?? null

describe('finding the element a person means', () => {
  it('by the words on it, loosely: case, punctuation, extra words, plurals, synonyms', () => {
    expect(found('email', 'field')).toBe('E-mail address')
    expect(found('the Email field', 'field')).toBe('E-mail address')
    expect(found('password', 'field')).toBe('Password')
    expect(found('Sign in', 'clickable')).toBe('Log in')
    expect(found('the login button', 'clickable')).toBe('Log in')
    expect(found('country dropdown', 'choice')).toBe('Country')
    expect(found('remember me', 'checkable')).toBe('Remember me')
  })

  it('by what the step needs: a field to type in is not the heading that says the same', () => {
    expect(found('Sign in', 'field')).toBeNull()
    expect(findElement('Sign in', page, 'readable')?.element.role).toBe('heading')
  })

  it('by its tooltip when what it shows is something else (a drop-down showing its current value)', () => {
    const modes = [element({ tag: 'button', role: 'button', name: 'Tree ▾', text: 'Tree ▾', title: 'Switch editor mode' })]
    expect(findElement('editor mode', modes, 'clickable')?.element.name).toBe('Tree ▾')
    expect(findElement('editor mode', [{ ...(modes[0] as SnapshotElement), title: undefined }], 'clickable')).toBeNull()
  })

  it("reads 'its Recipe tag' as the words Recipe: a tag, chip or pill names no role", () => {
    expect(readElementPhrase('its Recipe tag')).toEqual({ words: 'Recipe', roles: [], quoted: false })
    expect(readElementPhrase('the Urgent chip')).toEqual({ words: 'Urgent', roles: [], quoted: false })
  })

  it('finds nothing rather than a guess', () => {
    expect(found('Launch the rocket', 'clickable')).toBeNull()
    expect(found('Phone number', 'field')).toBeNull()
  })

  it('reads the kind an element is named by, and quoted names as written', () => {
    expect(readElementPhrase('the “Send” button')).toEqual({ words: 'Send', roles: ['button'], quoted: true })
    expect(readElementPhrase('the Topic drop-down')).toEqual({ words: 'Topic', roles: ['combobox', 'listbox'], quoted: false })
    expect(readElementPhrase('Email')).toEqual({ words: 'Email', roles: [], quoted: false })
  })
})
