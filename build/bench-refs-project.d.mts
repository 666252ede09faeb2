// Types of bench-refs-project.mjs for the TypeScript tests that import it.
export const REFS_PACKAGES: [string, string[]][];
export function refsModule(pkg: string, i: number, options?: { helpers?: number; errors?: boolean }): string;
export function generateRefsProject(
  dir: string,
  options?: { files?: number; helpers?: number; errors?: boolean },
): { leaf: string; hub: string; perPackage: number };
