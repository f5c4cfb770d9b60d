/**
 * Plain text (a member's update, a name, a Loop's context) as Markdown that renders exactly as
 * typed: no emphasis, links, images, headings, lists, tables or entities. Only characters that
 * could start markup are escaped, so the editor's text area stays readable.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map(escapeLine)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function escapeLine(line: string): string {
  // Trimmed, so that four leading spaces never turn a line into a code block.
  const inline = line.trim().replace(/[\\`*_[\]<|~&]/g, '\\$&');
  return inline.replace(/^([-+=>#])/, '\\$1').replace(/^(\d+)([.)])/, '$1\\$2');
}

/** One line of plain text: newlines become spaces (titles, headings, alt text). */
export function escapeMarkdownLine(text: string): string {
  return escapeMarkdown(text.replace(/\s+/g, ' '));
}
