// The end-to-end harness's only read of its own environment: child processes need PATH to find tools.
export const harnessPath = process.env.PATH ?? "";
