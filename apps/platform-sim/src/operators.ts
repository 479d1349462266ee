import type { SimOperator } from "./env.ts";

export interface OperatorDirectory {
  byId: Map<number, SimOperator>;
  byPublicKey: (key: unknown) => SimOperator | undefined;
}

export function operatorDirectory(operators: SimOperator[]): OperatorDirectory {
  const byKey = new Map(operators.map((operator) => [operator.publicKey, operator]));
  return {
    byId: new Map(operators.map((operator) => [operator.operatorId, operator])),
    byPublicKey: (key) => (typeof key === "string" ? byKey.get(key) : undefined),
  };
}
