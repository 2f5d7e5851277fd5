// The Controller tab's code editor: CodeMirror 6 with JavaScript, its
// problems marked at their lines (a syntax error, the line a program threw
// at) in the gutter and under the text, each with its message. Loaded by a
// dynamic import() when the tab is first opened (controller_panel.js), so
// CodeMirror is not in the page's first bundle.
import { javascript } from '@codemirror/lang-javascript';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorView, basicSetup } from 'codemirror';

const theme = EditorView.theme({
  '&': { fontSize: '12px', border: '1px solid #c8d0d8', borderRadius: '4px', background: '#fff' },
  '&.cm-focused': { outline: '2px solid #2b6cb0' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', lineHeight: '1.45' },
});

/**
 * An editor in `parent` holding `text`; onChange(text) after each change.
 * Returns { text, setText(text), mark(problems), showLine(line), focus() };
 * problems: [{ line, column (1-based, or null for the whole line), message }].
 */
export function createCodeEditor(parent, { text, onChange }) {
  const view = new EditorView({
    doc: text,
    parent,
    extensions: [
      basicSetup,
      javascript(),
      lintGutter(),
      theme,
      EditorView.contentAttributes.of({ 'aria-label': 'Controller program (JavaScript)' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) onChange(update.state.doc.toString());
      }),
    ],
  });
  const lineOf = (n) => view.state.doc.line(Math.min(Math.max(1, n), view.state.doc.lines));
  return {
    view,
    get text() {
      return view.state.doc.toString();
    },
    /** Replaces the text (one step of the editor's undo: Ctrl+Z brings the old text back). */
    setText(next) {
      if (next === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
    },
    mark(problems) {
      const diagnostics = problems.map(({ line, column, message }) => {
        const l = lineOf(line);
        const from = column ? Math.min(l.from + column - 1, l.to) : l.from;
        return { from, to: column ? Math.min(from + 1, l.to) : l.to, severity: 'error', message };
      });
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    showLine(line) {
      view.dispatch({ selection: { anchor: lineOf(line).from }, scrollIntoView: true });
    },
    focus() {
      view.focus();
    },
  };
}
