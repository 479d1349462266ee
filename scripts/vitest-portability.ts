import type { TestProject } from "vitest/node";
import { mysqlServerUrl } from "./vitest-services.ts";

/** The portability gate's setup: only the server's address (the capture it reads was the integration run's). */
export default function setup(project: TestProject) {
  project.provide("mysqlServerUrl", mysqlServerUrl);
}
