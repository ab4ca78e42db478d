import type { Page } from 'playwright-core'
import type { Target } from '#common/targets.ts'

// 'Copy the JSON text', 'read the source code': the text of the page's code editor. The editors
// most apps embed (Ace, CodeMirror, Monaco) keep a hidden field for typing and draw the text in a
// layer of their own: that layer is what a person reads, so it is what the step reads. They draw
// only the lines in view: a long text is read as far as the editor shows it.

/** Each editor's own box, and the layer inside it that shows the text. */
const EDITORS = [
  { editor: '.ace_editor', text: '.ace_text-layer' },
  { editor: '.cm-editor', text: '.cm-content' },
  { editor: '.CodeMirror', text: '.CodeMirror-code' },
  { editor: '.monaco-editor', text: '.view-lines' },
]

/** Words that ask for an editor's text rather than an element's ('the JSON text', 'the source code'). */
export const ASKS_EDITOR_TEXT = /\b(?:json|yaml|xml|html|css|sql|source(?:\s+code)?|script)\b/i

/** The target that reads the one code editor's text on the page, or null when it shows none (or several). */
export async function editorTextTarget(page: Page): Promise<Target | null> {
  for (const { editor, text } of EDITORS) {
    const selector = `${editor} ${text}`
    const shown = await page
      .locator(selector)
      .evaluateAll((elements) => elements.filter((element) => element.getBoundingClientRect().height > 0).length)
      .catch(() => 0)
    if (shown === 1) return [{ by: 'css', selector }]
  }
  return null
}
