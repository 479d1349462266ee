/**
 * The contract's "Retry maximum attempts" (Limits: 5), read as sends of one callback in all, the
 * first included: the first delivery and at most 4 resends (docs/contract-decisions.md says why).
 */
export const CONTRACT_MAX_ATTEMPTS = 5;
