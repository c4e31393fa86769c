/** Issue paths of a failed zod parse, joined with dots, for asserting where a body is wrong. */
export function issuePaths(result: {
  success: boolean;
  error?: { issues: readonly { path: readonly PropertyKey[] }[] } | undefined;
}): string[] {
  if (result.success || result.error === undefined) return [];
  return result.error.issues.map((issue) => issue.path.map(String).join('.'));
}
