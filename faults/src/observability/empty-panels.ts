/**
 * Panels a healthy system leaves empty, by title, with the words their description must carry to
 * say so: an SRE who sees "No data" there reads why it is normal. Every other panel must show data
 * in the observability suite's healthy run.
 */
export const emptyWhenHealthy: Record<string, string> = {
  // The suite's database is a primary and a semi-synchronous replica, not a cluster.
  "Galera cluster size by node": "Empty unless the database is a Galera cluster",
  "Galera nodes ready and in the primary component": "Empty unless the database is a Galera cluster",
};
