import type { ReactNode } from "react";
import { TableScroll } from "@/components/ui/table-scroll";

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

/** Renders headings, bullet lists, paragraphs and fenced code blocks of a short Markdown text (its `# ` title is the page's). */
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
  let code: string[] | null = null;
  for (const line of text.split("\n")) {
    // A fenced block, kept as written: rules and configuration to copy.
    if (line.startsWith("```")) {
      if (code) {
        blocks.push(
          // A long line scrolls inside its block, which the keyboard can then scroll too.
          <TableScroll key={blocks.length} label="Code" className="my-3 rounded">
            <pre className="w-max min-w-full rounded bg-code-block p-3 text-xs leading-5 text-code-block-text">{code.join("\n")}</pre>
          </TableScroll>,
        );
        code = null;
      } else {
        flush();
        code = [];
      }
    } else if (code) {
      code.push(line);
    } else if (line.startsWith("# ")) {
      // The page's own title says it.
    } else if (line.startsWith("## ")) {
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
