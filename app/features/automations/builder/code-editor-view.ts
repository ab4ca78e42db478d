import { javascript } from '@codemirror/lang-javascript'
import { EditorView, basicSetup } from 'codemirror'

/**
 * A CodeMirror editor for a script step's JavaScript in `parent` (code-editor.tsx loads this
 * module only when one is shown): highlighting, line numbers, brackets, undo; labelled by the
 * field's label; every change reported.
 */
export function create(
  parent: HTMLElement,
  initial: string,
  onChange: (value: string) => void,
  names: { labelledBy: string; describedBy?: string },
) {
  const view = new EditorView({
    parent,
    doc: initial,
    extensions: [
      basicSetup,
      javascript(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({
        'aria-labelledby': names.labelledBy,
        ...(names.describedBy ? { 'aria-describedby': names.describedBy } : {}),
      }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) onChange(update.state.doc.toString())
      }),
      EditorView.theme({ '&': { maxHeight: '24rem' }, '.cm-scroller': { overflow: 'auto' } }),
    ],
  })
  return {
    /** A value from outside (an import, undo of the list): the editor shows it unless it has it already. */
    setValue(value: string) {
      if (value === view.state.doc.toString()) return
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } })
    },
    destroy: () => view.destroy(),
  }
}
