/** The tool's version, printed in reports and by --version (kept equal to package.json's). */
export const VERSION = '0.1.0';
