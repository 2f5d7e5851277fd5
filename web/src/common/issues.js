// Issues and warnings as the page shows them: one line each, "• path: message".

/** [{ path, message }] as lines "• path: message". */
export const formatIssues = (issues) => issues.map((i) => `• ${i.path}: ${i.message}`).join('\n');
