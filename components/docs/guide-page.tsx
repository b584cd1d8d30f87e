import type { ReactNode } from "react";
import { guideSections } from "@/lib/docs/catalogue";
import { GuideNav } from "./guide-nav";
import { GuideSearch } from "./guide-search";

/** A page of the guide: the search and the contents beside it, its title and who it is for above it. */
export function GuideLayout({ current, title, audience, children }: { current: string; title: string; audience?: string; children: ReactNode }) {
  return (
    <div className="grid gap-8 lg:grid-cols-[16rem_minmax(0,1fr)]">
      <aside className="space-y-4 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto">
        <GuideSearch />
        <GuideNav sections={guideSections()} current={current} />
      </aside>
      <article className="min-w-0 max-w-3xl space-y-4">
        <h1 className="text-3xl font-bold tracking-tight break-words">{title}</h1>
        {audience ? <AudienceLine text={audience} /> : null}
        {children}
      </article>
    </div>
  );
}

/** "**For** site owners. **Answers:** …": the bold words as the file writes them. */
function AudienceLine({ text }: { text: string }) {
  return (
    <p className="rounded-md border-l-4 border-brand-600 bg-white px-4 py-2 text-sm text-slate-700">
      {text.split(/(\*\*[^*]+\*\*)/g).map((part, index) => (part.startsWith("**") ? <strong key={index}>{part.slice(2, -2)}</strong> : part))}
    </p>
  );
}
