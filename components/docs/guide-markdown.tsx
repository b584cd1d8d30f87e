import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { TableScroll } from "@/components/ui/table-scroll";

/**
 * A guide of docs/ as the site serves it (GitHub-flavoured Markdown: tables, code, links). `links`
 * maps the repository's relative links (`change-receivers/shopify.md`) to the site's addresses.
 */
export function GuideMarkdown({ text, links = {} }: { text: string; links?: Record<string, string> }) {
  return (
    <div className="guide space-y-3 text-slate-800 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-[0.85em] [&_code]:wrap-anywhere [&_h2]:mt-6 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:font-semibold [&_li]:my-1 [&_ol]:list-decimal [&_ol]:pl-6 [&_pre]:w-max [&_pre]:min-w-full [&_pre]:rounded [&_pre]:bg-slate-900 [&_pre]:p-3 [&_pre]:text-slate-100 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_table]:block [&_table]:overflow-x-auto [&_table]:text-sm [&_td]:border [&_td]:border-slate-200 [&_td]:p-2 [&_th]:border [&_th]:border-slate-200 [&_th]:p-2 [&_th]:text-left [&_ul]:list-disc [&_ul]:pl-6">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        components={{
          // The guide's title is the page's heading.
          h1: () => null,
          // A long line scrolls inside its block, which the keyboard can then scroll too.
          pre: ({ children }) => (
            <TableScroll label="Code" className="rounded">
              <pre>{children}</pre>
            </TableScroll>
          ),
          a: ({ href, children }) => (
            <a href={href ? (links[href] ?? href) : undefined} className="text-sky-700 underline">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
