import { integer, timestamp } from "drizzle-orm/pg-core";

/** Public ids are integers (identity columns), as the API promises. */
export const id = () => integer("id").primaryKey().generatedAlwaysAsIdentity();

export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const timestamps = {
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};
