import type { Metadata } from "next";
import { GuideMarkdown } from "@/components/docs/guide-markdown";
import { API_TAG_GUIDES, GUIDE_PATHS } from "@/lib/core/guide-paths";
import { type Components, SchemaTable, refName, typeLabel } from "@/components/api-reference/schema-table";
import { openApiDocument } from "@/lib/openapi/document";

export const metadata: Metadata = { title: "API reference" };

type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: object; description?: string }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: { $ref?: string } }> }>;
};

const methodColours: Record<string, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-emerald-100 text-emerald-800",
  put: "bg-amber-100 text-amber-800",
  patch: "bg-amber-100 text-amber-800",
  delete: "bg-rose-100 text-rose-800",
};

function anchor(method: string, path: string) {
  return `${method}-${path.replace(/[^a-z0-9]+/gi, "-")}`.toLowerCase();
}

export default function ApiReferencePage() {
  const document = openApiDocument();
  const components = (document.components?.schemas ?? {}) as Components;
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) => Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ path, method, operation })));
  const tags = document.tags ?? [];
  return (
    <div className="space-y-10">
      <section>
        <h1 className="text-3xl font-bold tracking-tight">{document.info.title}</h1>
        <p className="mt-1 text-sm text-slate-500">
          Version {document.info.version} · machine-readable at{" "}
          <a className="text-brand-700 underline" href="/v1/openapi.json">
            /v1/openapi.json
          </a>
        </p>
        <div className="mt-4">
          <GuideMarkdown text={document.info.description ?? ""} />
        </div>
      </section>

      <nav aria-label="Operations" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        {tags.map((tag) => (
          <div key={tag.name} className="mb-2">
            <p className="font-semibold">{tag.name}</p>
            <ul className="ml-2">
              {operations
                .filter(({ operation }) => operation.tags?.includes(tag.name))
                .map(({ path, method, operation }) => (
                  <li key={anchor(method, path)}>
                    <a href={`#${anchor(method, path)}`} className="hover:underline">
                      <span className="inline-block w-14 font-mono text-xs uppercase">{method}</span>
                      <span className="font-mono text-xs">{path}</span> — {operation.summary}
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </nav>

      {tags.map((tag) => (
        <section key={tag.name} className="space-y-6">
          <h2 className="text-2xl font-semibold">{tag.name}</h2>
          {tag.description ? <p className="text-sm text-slate-600">{tag.description}</p> : null}
          {API_TAG_GUIDES[tag.name] ? (
            <p className="text-sm">
              <a href={API_TAG_GUIDES[tag.name]} className="text-sky-700 underline">
                Read the guide on {tag.name.toLowerCase()}
              </a>{" "}
              ·{" "}
              <a href={GUIDE_PATHS.apiConventions} className="text-sky-700 underline">
                the API&apos;s conventions
              </a>
            </p>
          ) : null}
          {operations
            .filter(({ operation }) => operation.tags?.includes(tag.name))
            .map(({ path, method, operation }) => {
              const body = operation.requestBody?.content["application/json"]?.schema;
              return (
                <article key={anchor(method, path)} id={anchor(method, path)} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-5">
                  <h3 className="flex flex-wrap items-center gap-2">
                    <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${methodColours[method] ?? ""}`}>{method}</span>
                    <code className="break-all text-sm font-semibold">{path}</code>
                  </h3>
                  <p className="mt-2 font-medium">{operation.summary}</p>
                  {operation.description ? <GuideMarkdown text={operation.description} /> : null}
                  {operation.tags?.[0] && API_TAG_GUIDES[operation.tags[0]] ? (
                    <p className="mt-2 text-sm">
                      <a href={API_TAG_GUIDES[operation.tags[0]]} className="text-sky-700 underline">
                        The guide on {operation.tags[0].toLowerCase()}
                      </a>
                    </p>
                  ) : null}
                  {operation.parameters?.length ? (
                    <div className="mt-3">
                      <h4 className="text-xs font-semibold uppercase text-slate-500">Parameters</h4>
                      <ul className="mt-1 text-sm">
                        {operation.parameters.map((p) => (
                          <li key={`${p.in}-${p.name}`}>
                            <code className="text-xs">{p.name}</code>{" "}
                            <span className="text-xs text-slate-500">
                              ({p.in}
                              {p.required ? ", required" : ""})
                            </span>{" "}
                            <span className="text-xs text-slate-600">{typeLabel(p.schema as never)}</span>
                          </li>
                        ))}
                      </ul>
                    </div>
                  ) : null}
                  {body ? (
                    <div className="mt-3">
                      <h4 className="text-xs font-semibold uppercase text-slate-500">Body</h4>
                      <SchemaTable schema={body as never} components={components} label={`The body of ${method.toUpperCase()} ${path}`} />
                    </div>
                  ) : null}
                  <div className="mt-3">
                    <h4 className="text-xs font-semibold uppercase text-slate-500">Responses</h4>
                    <ul className="mt-1 space-y-0.5 text-sm">
                      {Object.entries(operation.responses).map(([status, response]) => {
                        const schema = response.content?.["application/json"]?.schema;
                        return (
                          <li key={status}>
                            <span className="font-mono text-xs font-semibold">{status}</span> {response.description}
                            {schema?.$ref ? (
                              <a href={`#schema-${refName(schema.$ref)}`} className="ml-1 font-mono text-xs text-brand-700 hover:underline">
                                {refName(schema.$ref)}
                              </a>
                            ) : null}
                          </li>
                        );
                      })}
                    </ul>
                  </div>
                </article>
              );
            })}
        </section>
      ))}

      <section className="space-y-4">
        <h2 className="text-2xl font-semibold">Schemas</h2>
        {Object.entries(components).map(([name, schema]) => (
          <article key={name} id={`schema-${name}`} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-5">
            <h3 className="break-all font-mono text-sm font-semibold">{name}</h3>
            {schema.description ? <p className="mb-2 text-sm text-slate-600">{schema.description}</p> : null}
            <SchemaTable schema={schema} components={components} label={`The fields of ${name}`} />
          </article>
        ))}
      </section>
    </div>
  );
}
