import type { ReactNode } from "react";

/** Inline `code` and **bold**, enough for the API description we write ourselves. */
function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g).map((part, i) => {
    if (part.startsWith("`") && part.endsWith("`"))
      return (
        <code key={i} className="rounded bg-slate-100 px-1 text-[0.85em]">
          {part.slice(1, -1)}
        </code>
      );
    if (part.startsWith("**") && part.endsWith("**")) return <strong key={i}>{part.slice(2, -2)}</strong>;
    return part;
  });
}

/** Renders headings, bullet lists and paragraphs of a short Markdown text. */
export function Markdown({ text }: { text: string }) {
  const blocks: ReactNode[] = [];
  let list: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length)
      blocks.push(
        <p key={blocks.length} className="my-2">
          {inline(paragraph.join(" "))}
        </p>,
      );
    if (list.length) {
      blocks.push(
        <ul key={blocks.length} className="my-2 list-disc space-y-1 pl-6">
          {list.map((item, i) => (
            <li key={i}>{inline(item)}</li>
          ))}
        </ul>,
      );
    }
    paragraph = [];
    list = [];
  };
  for (const line of text.split("\n")) {
    if (line.startsWith("## ")) {
      flush();
      blocks.push(
        <h3 key={blocks.length} className="mt-6 text-lg font-semibold">
          {line.slice(3)}
        </h3>,
      );
    } else if (line.startsWith("- ")) {
      if (paragraph.length) flush();
      list.push(line.slice(2));
    } else if (line.startsWith("  ") && list.length) {
      list[list.length - 1] += ` ${line.trim()}`;
    } else if (!line.trim()) {
      flush();
    } else {
      if (list.length) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return <div className="text-sm leading-6 text-slate-700">{blocks}</div>;
}
