// Package render turns a report into bytes for one medium: text for a
// terminal and JSON (SARIF, Markdown and HTML join the same switch).
// Renderers are pure functions of the report and their options; they
// re-decide nothing, and every artifact-derived string is escaped for its
// medium (terminal control and bidi characters in text).
package render
