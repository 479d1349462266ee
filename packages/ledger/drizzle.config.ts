import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` uses this; it needs no database. Migrations are applied by `pnpm db:migrate`.
export default defineConfig({
  dialect: "mysql",
  schema: "./src/schema/index.ts",
  out: "./drizzle",
});
