import Link from "next/link";
import type { ReaderSection } from "@/lib/docs/catalogue";

/** The guide's contents by reader, the open page marked; folded into one line on a phone. */
export function GuideNav({ sections, current }: { sections: ReaderSection[]; current: string }) {
  const list = (
    <nav aria-label="Guide" className="space-y-5 text-sm">
      {sections.map((section) => (
        <div key={section.id}>
          <Link href={`/docs/${section.id}`} className="font-semibold text-slate-900 hover:underline" aria-current={current === `/docs/${section.id}` ? "page" : undefined}>
            {section.name}
          </Link>
          <ul className="mt-2 space-y-1 border-l border-slate-200">
            {section.pages.map((page) => (
              <li key={page.href}>
                <Link
                  href={page.href}
                  aria-current={current === page.href ? "page" : undefined}
                  className={`-ml-px block border-l py-0.5 pl-3 break-words ${current === page.href ? "border-brand-600 font-medium text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
                >
                  {page.title}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
  return (
    <>
      <details className="rounded-md border border-slate-200 bg-white p-3 lg:hidden">
        <summary className="cursor-pointer text-sm font-medium text-slate-800">Contents of the guide</summary>
        <div className="mt-3">{list}</div>
      </details>
      <div className="hidden lg:block">{list}</div>
    </>
  );
}
