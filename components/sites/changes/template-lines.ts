/**
 * URL templates as the editor shows them, one `key: /path/{field}` a line, and back. The API's
 * schema checks what the lines give (the server says what is wrong with a template); a line without
 * `key:` before a path is reported here, with its number.
 */
export type TemplateRecord = Record<string, string[]>;

export function templatesToLines(templates: TemplateRecord): string {
  return Object.entries(templates)
    .flatMap(([key, list]) => list.map((template) => `${key}: ${template}`))
    .join("\n");
}

const LINE = /^(.+?)\s*:\s*(\/.*)$/;

export function linesToTemplates(text: string): { templates: TemplateRecord; problem: string | null } {
  const templates: TemplateRecord = {};
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    const match = LINE.exec(line);
    if (!match) return { templates, problem: `Line ${index + 1}: write it as \`key: /path/{field}\` (the key, a colon, then a path starting with /).` };
    const [, key, template] = match as unknown as [string, string, string];
    (templates[key.trim()] ??= []).push(template.trim());
  }
  return { templates, problem: null };
}
