/** Entry point of the `furrow` command. Returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  process.stdout.write(`furrow: nothing to do yet (${argv.join(' ')})\n`);
  return 0;
}
