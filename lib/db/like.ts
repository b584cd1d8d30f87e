/** `text` for a LIKE pattern, its own %, _ and \ taken literally (PostgreSQL's default escape is \). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
