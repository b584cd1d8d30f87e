import ReactMarkdown from "react-markdown";
import rehypeSlug from "rehype-slug";
import remarkGfm from "remark-gfm";
import { TableScroll } from "@/components/ui/table-scroll";

/**
 * A guide of docs/ as the site serves it (GitHub-flavoured Markdown: tables, code, links), its
 * headings given the anchors GitHub gives them. `resolve` turns the repository's relative links
 * (`../integrators/webhooks.md#signatures`) into the site's addresses; a link it cannot serve (a
 * source file) shows as its text.
 */
export function GuideMarkdown({ text, resolve = (href) => href }: { text: string; resolve?: (href: string) => string | undefined }) {
  return (
    <div className="guide space-y-3 text-slate-800 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-[0.85em] [&_code]:wrap-anywhere [&_h2]:mt-6 [&_h2]:scroll-mt-4 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:scroll-mt-4 [&_h3]:font-semibold [&_li]:my-1 [&_ol]:list-decimal [&_ol]:pl-6 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_table]:text-sm [&_td]:border [&_td]:border-slate-200 [&_td]:p-2 [&_th]:border [&_th]:border-slate-200 [&_th]:p-2 [&_th]:text-left [&_ul]:list-disc [&_ul]:pl-6">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSlug]}
        components={{
          // The guide's title is the page's heading.
          h1: () => null,
          // Wide code and tables scroll inside their own box, which the keyboard can reach and scroll.
          pre: ({ children }) => (
            <TableScroll label="Code" className="rounded">
              <pre className="w-max min-w-full rounded bg-code-block p-3 text-code-block-text">{children}</pre>
            </TableScroll>
          ),
          table: ({ children }) => (
            <TableScroll label="Table">
              <table>{children}</table>
            </TableScroll>
          ),
          // A screenshot in the repository is served by the guide (/docs/screenshots/…); scaled to the column.
          img: ({ src, alt }) => {
            const target = typeof src === "string" ? resolve(src) : undefined;
            return target ? <img src={target} alt={alt ?? ""} loading="lazy" className="h-auto max-w-full rounded border border-slate-200" /> : null;
          },
          a: ({ href, children }) => {
            const target = href === undefined ? undefined : resolve(href);
            if (target === undefined) return <span>{children}</span>;
            return (
              <a href={target} className="text-sky-700 underline">
                {children}
              </a>
            );
          },
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
