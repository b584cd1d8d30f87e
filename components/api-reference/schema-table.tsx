import { TableScroll } from "@/components/ui/table-scroll";

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  additionalProperties?: JsonSchema | boolean;
  const?: unknown;
};

export type Components = Record<string, JsonSchema>;

export function refName(ref: string): string {
  return ref.split("/").pop()!;
}

/** A short human type, e.g. `array of RegionCode`, `string | null`, `one of: a, b`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return `one of: ${schema.enum.map(String).join(", ")}`;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeLabel).join(" | ");
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? "object"];
  return types
    .map((type) => {
      if (type === "array") return `array of ${typeLabel(schema.items)}`;
      if (type === "object" && schema.additionalProperties && typeof schema.additionalProperties === "object") return `map of ${typeLabel(schema.additionalProperties)}`;
      if (type === "string" && schema.format) return `string (${schema.format})`;
      return type;
    })
    .join(" | ");
}

function constraints(schema: JsonSchema): string {
  const notes: string[] = [];
  if (schema.minimum !== undefined) notes.push(`min ${schema.minimum}`);
  if (schema.maximum !== undefined) notes.push(`max ${schema.maximum}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes.join(", ");
}

/** A schema's fields; `label` names the table for screen readers when it scrolls. */
export function SchemaTable({ schema, components, label }: { schema: JsonSchema; components: Components; label: string }) {
  const resolved = schema.$ref ? components[refName(schema.$ref)] : schema;
  if (!resolved?.properties) return <p className="text-sm text-slate-600">{typeLabel(schema)}</p>;
  const required = new Set(resolved.required ?? []);
  return (
    <TableScroll label={label}>
      <table className="w-full text-left text-sm">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1 pr-3 font-medium">Field</th>
            <th className="py-1 pr-3 font-medium">Type</th>
            <th className="py-1 font-medium">Notes</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">
          {Object.entries(resolved.properties).map(([name, property]) => (
            <tr key={name}>
              <td className="py-1 pr-3 font-mono text-xs">
                {name}
                {required.has(name) ? (
                  <span className="ml-1 text-rose-600" title="required">
                    *
                  </span>
                ) : null}
              </td>
              <td className="py-1 pr-3 text-xs text-slate-700">{typeLabel(property)}</td>
              <td className="py-1 text-xs text-slate-600">{[property.description, constraints(property)].filter(Boolean).join(" — ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
