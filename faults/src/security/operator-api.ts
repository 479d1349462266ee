/** Requests to an operator API with exactly the headers given: the bearer token among them, or not. */
export class OperatorApiClient {
  constructor(readonly port: number) {}

  async request(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ status: number; text: string }> {
    const response = await fetch(`http://127.0.0.1:${this.port}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  }

  /** Every route its OpenAPI document lists, as `METHOD /path/{param}`. */
  async listedRoutes(): Promise<string[]> {
    const response = await fetch(`http://127.0.0.1:${this.port}/openapi.json`);
    const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    return Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
  }
}
